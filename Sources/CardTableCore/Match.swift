/// A game in progress: the rules' state, its clock, its pending timers and the log of every
/// accepted action.
///
/// The log with the options and the seed is the whole game: ``replay(options:seed:log:)``
/// rebuilds it through the rules, re-checking every move. The match never reads a real clock;
/// its host moves time with ``advance(by:)``.
public struct Match<Rules: GameRules>: Sendable {
  /// One accepted action at a time on the match clock.
  public struct Entry: Sendable, Equatable {
    public var time: Double
    public var player: PlayerID
    public var action: Rules.Action
    /// True when a timer performed it rather than a participant.
    public var automatic: Bool

    public init(time: Double, player: PlayerID, action: Rules.Action, automatic: Bool) {
      self.time = time
      self.player = player
      self.action = action
      self.automatic = automatic
    }
  }

  /// A follow-up waiting for its time.
  public struct Timer: Sendable, Equatable {
    public var due: Double
    public var sequence: Int
    public var scheduled: Scheduled<Rules.Action>
  }

  public let options: Rules.Options
  public let seed: UInt64
  public private(set) var state: Rules.State
  /// The number of accepted actions; clients quote it to say what they last saw.
  public private(set) var version = 0
  /// Seconds since the deal on the match clock.
  public private(set) var clock: Double = 0
  public private(set) var log: [Entry] = []
  public private(set) var timers: [Timer] = []
  private var nextSequence = 0

  /// Deals a new game and starts its opening timers.
  public init(options: Rules.Options, seed: UInt64) throws(Rules.RuleViolation) {
    self.options = options
    self.seed = seed
    self.state = try Rules.deal(options, seed: seed)
    schedule(Rules.opening(state))
  }

  /// Whether the game has ended.
  public var isOver: Bool { Rules.isOver(state) }

  /// The clock time of the earliest pending timer, if any.
  public var nextDue: Double? {
    // NB: a plain loop; a key-path `lazy.map` instantiates generic metadata on every call
    // because `Match` is not specialized across modules (90% of a Snap! benchmark's time).
    var earliest: Double?
    for index in timers.indices where earliest.map({ timers[index].due < $0 }) ?? true {
      earliest = timers[index].due
    }
    return earliest
  }

  /// Applies a participant's action now, or refuses it leaving the match unchanged.
  @discardableResult
  public mutating func perform(_ action: Rules.Action, by player: PlayerID)
    throws(Rules.RuleViolation) -> [Rules.Event]
  {
    try accept(action, by: player, automatic: false)
  }

  /// Moves the clock forward by `seconds`, running every timer that falls due, in order.
  @discardableResult
  public mutating func advance(by seconds: Double) -> [Rules.Event] {
    advance(to: clock + max(0, seconds))
  }

  /// Moves the clock forward to `time`, running every timer due by then in due order
  /// (ties in the order they were set). A follow-up the rules now refuse is dropped.
  @discardableResult
  public mutating func advance(to time: Double) -> [Rules.Event] {
    var events: [Rules.Event] = []
    while let index = indexOfNextTimer(dueBy: time) {
      let timer = timers.remove(at: index)
      clock = max(clock, timer.due)
      if let fired = try? accept(
        timer.scheduled.action, by: timer.scheduled.player, automatic: true)
      {
        events += fired
      }
    }
    clock = max(clock, time)
    return events
  }

  private func indexOfNextTimer(dueBy time: Double) -> Int? {
    var best: Int?
    for index in timers.indices where timers[index].due <= time {
      let timer = timers[index]
      if let current = best {
        let other = timers[current]
        if (timer.due, timer.sequence) < (other.due, other.sequence) { best = index }
      } else {
        best = index
      }
    }
    return best
  }

  private mutating func accept(_ action: Rules.Action, by player: PlayerID, automatic: Bool)
    throws(Rules.RuleViolation) -> [Rules.Event]
  {
    let outcome = try Rules.apply(action, by: player, to: &state)
    version += 1
    log.append(Entry(time: clock, player: player, action: action, automatic: automatic))
    if !outcome.cancelled.isEmpty {
      timers.removeAll { outcome.cancelled.contains($0.scheduled.key) }
    }
    schedule(outcome.scheduled)
    return outcome.events
  }

  private mutating func schedule(_ followUps: [Scheduled<Rules.Action>]) {
    for followUp in followUps {
      timers.append(Timer(due: clock + followUp.delay, sequence: nextSequence, scheduled: followUp))
      nextSequence += 1
    }
  }
}

/// Why a saved game could not be replayed.
public enum ReplayError<Violation: Refusal>: Error, Equatable {
  /// The options no longer deal a game.
  case dealRefused(Violation)
  /// The participant's action at `index` of the log is refused by the rules.
  case actionRefused(index: Int, Violation)
  /// Replaying produced a different log from `index` on (a timer fired differently).
  case diverged(index: Int)
}

extension Match {
  /// Rebuilds a match from its options, seed and log, re-checking every move.
  ///
  /// Participants' actions are performed at their logged times; the timers' actions are not
  /// taken from the log but regenerated by the rules and then compared with it.
  public static func replay(options: Rules.Options, seed: UInt64, log: [Entry])
    throws(ReplayError<Rules.RuleViolation>) -> Match
  {
    var match: Match
    do {
      match = try Match(options: options, seed: seed)
    } catch {
      throw .dealRefused(error)
    }
    for (index, entry) in log.enumerated() where !entry.automatic {
      match.advance(to: entry.time)
      do {
        try match.perform(entry.action, by: entry.player)
      } catch {
        throw .actionRefused(index: index, error)
      }
    }
    if let last = log.last { match.advance(to: last.time) }
    if let index = zip(match.log, log).enumerated().first(where: { $0.element.0 != $0.element.1 })?
      .offset
    {
      throw .diverged(index: index)
    }
    guard match.log.count == log.count else {
      throw .diverged(index: min(match.log.count, log.count))
    }
    return match
  }
}
