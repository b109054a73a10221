/// A game in progress: the rules' state, its clock, its pending timers, the log of every
/// accepted action and the record of every game it has ended.
///
/// The log with the options and the seed is the whole game: ``replay(options:seed:log:)``
/// rebuilds it through the rules, re-checking every move. The match never reads a real clock;
/// its host moves time with ``advance(by:)``. Debug builds check the rules' invariants after
/// every accepted action.
public struct Match<Rules: GameRules>: Sendable {
  /// One accepted action at a time on the match clock.
  public struct Entry: Sendable, Equatable {
    public var time: Double
    public var player: PlayerID
    public var action: Rules.Action
    /// True when a timer performed it rather than a participant.
    public var automatic: Bool

    @inlinable
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
    public var scheduled: Scheduled<Rules>

    @usableFromInline
    init(due: Double, sequence: Int, scheduled: Scheduled<Rules>) {
      self.due = due
      self.sequence = sequence
      self.scheduled = scheduled
    }
  }

  public let options: Rules.Options
  public let seed: UInt64
  /// Where the match's later deals get their seeds.
  public let laterSeeds: LaterSeeds
  /// The rules' state.
  @inlinable public var state: Rules.State { _state }
  /// The number of accepted actions; clients quote it to say what they last saw.
  @inlinable public var version: Int { _log.count }
  /// Seconds since the deal on the match clock.
  @inlinable public var clock: Double { _clock }
  /// When the current game's time began on the clock, if later than its deal: Concentration's
  /// first turned card (``GameMark/began``); nil until then and for every other game.
  @inlinable public var began: Double? { gameBegan }
  /// When the current game's time began on the clock: its deal (0 for the match's own), or
  /// ``began`` once that is set.
  @inlinable public var gameStarted: Double { gameStart.time }
  /// Every accepted action, oldest first.
  ///
  /// Built from the compact log on each call; ``entry(at:)`` reads one entry.
  @inlinable public var log: [Entry] { _log.indices.map(entry(at:)) }
  /// The pending follow-ups, in the order they were set.
  ///
  /// Built from the compact timers on each call.
  @inlinable public var timers: [Timer] {
    _timers.inOrder.map { pending in
      Timer(
        due: pending.due, sequence: pending.sequence,
        scheduled: pending.actor == Self.referee
          ? Scheduled(after: pending.delay, pending.action, key: pending.key)
          : Scheduled(
            after: pending.delay, pending.action, by: actor(at: pending.actor), key: pending.key))
    }
  }
  /// Every game of the match that has ended, finished or abandoned, oldest first.
  ///
  /// Built on each call; ``resultCount`` and ``lastResult`` read without building it.
  @inlinable public var results: [GameResult<Rules.Settings>] { _results.array }
  /// How many games of the match have ended.
  @inlinable public var resultCount: Int { _results.count }
  /// The game of the match that ended last, if any has.
  @inlinable public var lastResult: GameResult<Rules.Settings>? { _results.last }

  // NB: the storage is `@usableFromInline` so that the methods below can be `@inlinable`:
  // a client module then specializes `Match<SomeGame>`, which measured 10× faster than
  // calling the unspecialized generic code across modules.
  @usableFromInline var _state: Rules.State
  @usableFromInline var _clock: Double = 0
  /// The log in its compact form: the players are actors' indices (``actor(at:)``), so that an entry
  /// holds no reference and the log is copied and freed as plain memory.
  ///
  /// NB: measured: an `Entry` holding its `PlayerID` (a `String`) made freeing a Memory
  /// match's log an element-by-element generic destroy, 8 % of a game.
  @usableFromInline var _log: [Logged] = []
  /// The first participant, after the referee, who performed an action or has a timer set to
  /// perform one: the actor of index 1 (``actor(at:)``).
  ///
  /// NB: kept inline, so that a game alone or with one person (whose other actor is the
  /// referee) keeps its actors without an allocation (a list of them was one a game, some 8
  /// instructions an action of `bench memory`).
  @usableFromInline var firstActor: PlayerID?
  /// Everyone else who has performed an action or has a timer set to perform one, in order of
  /// their first: the actors of index 2 on.
  @usableFromInline var laterActors: [PlayerID] = []
  /// The bits of the name last looked up among the actors (``PlayerID/bits``) and its index.
  @usableFromInline var recentActor: (bits: (UInt64, UInt64), index: Int32)?
  /// The referee's index among the actors, where the match puts it before any other.
  @usableFromInline static var referee: Int32 { 0 }
  /// The timers in their compact form: who performs each is an actor's index.
  ///
  /// NB: measured: a timer holding its `PlayerID` was retained and released as it was set,
  /// moved and run, and its player was looked up by name when it ran: 12 % of an action of
  /// `bench memory` (callgrind), more than the rules' own work on a resolution.
  @usableFromInline var _timers = Timers()
  @usableFromInline var nextSequence = 0
  /// NB: the first result kept inline, as an outcome's follow-ups keep their first: a game
  /// alone ends once, and an array of its one result was an allocation a game (`bench memory`,
  /// docs/PERFORMANCE.md "Session 24").
  @usableFromInline var _results = SmallList<GameResult<Rules.Settings>>()
  /// The log index and clock time of the action that dealt the current game (nil: the deal).
  @usableFromInline var gameStart: (index: Int?, time: Double) = (nil, 0)
  /// When the current game's time began, if later than its deal (``GameMark/began``).
  @usableFromInline var gameBegan: Double?
  /// One outcome reused by every action, so that an action allocates nothing it need not.
  @usableFromInline var scratch = Outcome<Rules>()

  /// One log entry with its player as an actor's index.
  @usableFromInline
  struct Logged: Sendable {
    @usableFromInline var time: Double
    @usableFromInline var action: Rules.Action
    @usableFromInline var actor: Int32
    @usableFromInline var automatic: Bool

    @inlinable
    init(time: Double, action: Rules.Action, actor: Int32, automatic: Bool) {
      self.time = time
      self.action = action
      self.actor = actor
      self.automatic = automatic
    }
  }

  /// One pending timer with its player as an actor's index.
  @usableFromInline
  struct Pending: Sendable {
    @usableFromInline var due: Double
    @usableFromInline var sequence: Int
    @usableFromInline var delay: Double
    @usableFromInline var action: Rules.Action
    @usableFromInline var actor: Int32
    @usableFromInline var key: Rules.TimerKey

    @inlinable
    init(
      due: Double, sequence: Int, delay: Double, action: Rules.Action, actor: Int32,
      key: Rules.TimerKey
    ) {
      self.due = due
      self.sequence = sequence
      self.delay = delay
      self.action = action
      self.actor = actor
      self.key = key
    }
  }

  /// Deals a new game and starts its opening timers; later deals take their seeds from
  /// `later`, by default from the seed (``LaterSeeds/init(seed:)``).
  @inlinable
  public init(options: __shared Rules.Options, seed: UInt64, later: LaterSeeds? = nil)
    throws(Rules.RuleViolation)
  {
    self.options = options
    self.seed = seed
    self.laterSeeds = later ?? LaterSeeds(seed: seed)
    self._state = try Rules.deal(options, seed: seed, later: laterSeeds)
    // NB: a game's actions then append without growing the log or the outcome's events (one
    // to four) step by step. Growing a Memory game's log from 32 entries was 19 instructions
    // an action of `bench memory`.
    _log.reserveCapacity(Rules.expectedLogLength(of: _state))
    scratch.events.reserveCapacity(4)
    Rules.opening(_state, into: &scratch)
    scheduleFollowUps()
    stampMarks(by: nil)
    checkInvariants()
  }

  /// The accepted action at `index` of the log (`0..<version`).
  @inlinable
  public func entry(at index: Int) -> Entry {
    let logged = _log[index]
    return Entry(
      time: logged.time, player: actor(at: logged.actor), action: logged.action,
      automatic: logged.automatic)
  }

  /// Whether the game has ended.
  @inlinable public var isOver: Bool { Rules.isOver(_state) }

  /// The clock time of the earliest pending timer, if any.
  @inlinable
  public var nextDue: Double? { _timers.nextDue }

  /// Applies a participant's action now, or refuses it leaving the match unchanged.
  @inlinable @discardableResult
  public mutating func perform(_ action: Rules.Action, by player: PlayerID)
    throws(Rules.RuleViolation) -> OutcomeList<Rules.Event>
  {
    try accept(action, by: player, automatic: false)
    return scratch.events
  }

  /// Records the current game as abandoned now, unless it has ended; returns whether it did.
  ///
  /// Not an action: the log does not change. A host calls it when the match is given up for
  /// good (the player abandons the table, or it was left untouched too long).
  @discardableResult
  public mutating func abandon() -> Bool {
    guard let record = Rules.abandonedRecord(of: _state) else { return false }
    _results.append(
      GameResult(
        record: record, start: gameStart.time, end: _clock, dealtBy: gameStart.index,
        endedBy: nil))
    return true
  }

  /// Moves the clock forward by `seconds`, running every timer that falls due, in order.
  @inlinable @discardableResult
  public mutating func advance(by seconds: Double) -> OutcomeList<Rules.Event> {
    advance(to: _clock + max(0, seconds))
  }

  /// Moves the clock forward to `time`, running every timer due by then in due order
  /// (ties in the order they were set). A follow-up the rules now refuse is dropped.
  @inlinable @discardableResult
  public mutating func advance(to time: Double) -> OutcomeList<Rules.Event> {
    runTimers(until: time, stoppingAt: .max, gathering: true)
  }

  /// Moves the clock forward to `time`, running every timer due by then, as
  /// ``advance(to:)`` does, without gathering their events: for hosts that read the state and
  /// not the events (replays, computer players, benchmarks).
  ///
  /// NB: gathering the events retained the outcome's list for the caller on every timer run
  /// and released it when the caller dropped it: 23 instructions an action of `bench memory`.
  @inlinable
  public mutating func runTimers(until time: Double) {
    _ = runTimers(until: time, stoppingAt: .max, gathering: false)
  }

  /// Runs the timers due by `time`, in due order, until the log holds `version` entries (then
  /// leaving the clock at the last timer that ran); returns their events when `gathering`.
  @inlinable @inline(__always)
  mutating func runTimers(until time: Double, stoppingAt version: Int, gathering: Bool)
    -> OutcomeList<Rules.Event>
  {
    var events = OutcomeList<Rules.Event>()
    var fired = 0
    while _log.count < version, let slot = _timers.next(dueBy: time) {
      let timer = _timers.remove(slot)
      _clock = max(_clock, timer.due)
      do {
        // NB: the referee's name is made in place, not read from the actors and retained; as a
        // literal of its own, it is not released either (5 instructions an action of
        // `bench memory`).
        if timer.actor == Self.referee {
          try accept(timer.action, by: .referee, actor: timer.actor, automatic: true)
        } else {
          try accept(
            timer.action, by: actor(at: timer.actor), actor: timer.actor, automatic: true)
        }
        // NB: one timer's events are the outcome's own; only several are gathered anew.
        if gathering {
          fired += 1
          if fired == 1 {
            events = scratch.events
          } else {
            events.append(contentsOf: scratch.events)
          }
        }
      } catch {
        // NB: the rules refuse a follow-up that no longer applies; dropping it is the point.
      }
    }
    if _log.count < version { _clock = max(_clock, time) }
    return events
  }

  @inlinable
  mutating func accept(_ action: Rules.Action, by player: PlayerID, automatic: Bool)
    throws(Rules.RuleViolation)
  {
    try accept(action, by: player, actor: nil, automatic: automatic)
  }

  /// Applies `action` by `player`, whose actor's index is `known` when the caller has it.
  @inlinable
  mutating func accept(
    _ action: Rules.Action, by player: PlayerID, actor known: Int32?, automatic: Bool
  ) throws(Rules.RuleViolation) {
    scratch.removeAll()
    try Rules.apply(action, by: player, to: &_state, into: &scratch)
    let index = _log.count
    _log.append(
      Logged(time: _clock, action: action, actor: known ?? actor(of: player), automatic: automatic))
    if !scratch.cancelled.isEmpty {
      let cancelled = scratch.cancelled
      _timers.removeAll { cancelled.contains($0.key) }
    }
    // NB: asked here: a call that finds nothing to schedule was 13 instructions an action.
    if !scratch.scheduled.isEmpty { scheduleFollowUps() }
    if !scratch.marks.isEmpty { stampMarks(by: index) }
    checkInvariants()
  }

  /// The actor's index of `player`, added on its first action or timer.
  ///
  /// NB: the player last looked up here is most often the next one too, with the very same
  /// string: a search of the actors was 26 instructions an action of `bench memory`.
  @inlinable @inline(__always)
  mutating func actor(of player: PlayerID) -> Int32 {
    if let bits = player.bits, let recent = recentActor, recent.bits == bits {
      return recent.index
    }
    let index = findActor(player)
    if let bits = player.bits { recentActor = (bits, index) }
    return index
  }

  /// The participant of an actor's index: 0 the referee, 1 ``firstActor``, then the later ones.
  @inlinable
  func actor(at index: Int32) -> PlayerID {
    switch index {
    case Self.referee: .referee
    // NB: an index the match gave out names an actor it keeps.
    case 1: firstActor ?? .referee
    default: laterActors[Int(index) - 2]
    }
  }

  /// The actor's index of `player`, added when it is not there.
  ///
  /// NB: a player who acted before almost always comes back with the very same string, so
  /// the names are first compared as the bits of their strings, which is never wrong when it
  /// finds one; `==` then looks for the same name written another way. Comparing two short
  /// names that differ through `==` was 5 % of an action of `bench memory` (callgrind).
  @inlinable
  mutating func findActor(_ player: PlayerID) -> Int32 {
    if let bits = player.bits {
      if let first = firstActor?.bits, first == bits { return 1 }
      for index in laterActors.indices {
        if let other = laterActors[index].bits, other == bits { return Int32(index + 2) }
      }
    }
    if player == .referee { return Self.referee }
    guard let first = firstActor else {
      firstActor = player
      return 1
    }
    if first == player { return 1 }
    for index in laterActors.indices where laterActors[index] == player {
      return Int32(index + 2)
    }
    laterActors.append(player)
    return Int32(laterActors.count + 1)
  }

  /// Sets a timer for each follow-up of the last action, emptying the outcome's list of them.
  ///
  /// NB: the outcome's lists are read in place: handing one to a method as an argument retained
  /// and released its buffer for every action (with Memory's deal allocating less, 8.5 % fewer
  /// instructions per action of `bench memory`, counted by callgrind). The first follow-up is
  /// moved out of the list, not copied (docs/PERFORMANCE.md "Session 24").
  @inlinable
  mutating func scheduleFollowUps() {
    let count = scratch.scheduled.count
    guard let first = scratch.scheduled.takeFirst() else { return }
    setTimer(after: first.delay, first.action, by: first.performer, key: first.key)
    for index in 1..<count {
      setTimer(
        after: scratch.scheduled[index].delay, scratch.scheduled[index].action,
        by: scratch.scheduled[index].performer, key: scratch.scheduled[index].key)
    }
    scratch.scheduled.removeAll()
  }

  /// Sets a timer for `action` by `performer` (nil: the referee) `delay` seconds from now.
  @inlinable @inline(__always)
  mutating func setTimer(
    after delay: Double, _ action: Rules.Action, by performer: PlayerID?, key: Rules.TimerKey
  ) {
    let actor =
      if let performer {
        actor(of: performer)
      } else {
        Self.referee
      }
    _timers.insert(
      Pending(
        due: _clock + delay, sequence: nextSequence, delay: delay, action: action, actor: actor,
        key: key))
    nextSequence += 1
  }

  /// Times the games that the last action's marks dealt and ended, as done by the log entry at
  /// `index` (nil for the match's own deal).
  @inlinable
  mutating func stampMarks(by index: Int?) {
    for position in scratch.marks.indices {
      switch scratch.marks[position] {
      case .dealt:
        gameStart = (index, _clock)
        gameBegan = nil
      case .began:
        gameStart.time = _clock
        gameBegan = _clock
      case .ended(let record):
        _results.append(
          GameResult(
            record: record, start: gameStart.time, end: _clock, dealtBy: gameStart.index,
            endedBy: index))
      }
    }
  }

  @inlinable
  func checkInvariants() {
    assert(
      Rules.invariantViolation(in: _state) == nil,
      "\(Rules.self): \(Rules.invariantViolation(in: _state) ?? "")")
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
  public static func replay(
    options: Rules.Options, seed: UInt64, later: LaterSeeds? = nil, log: [Entry]
  ) throws(ReplayError<Rules.RuleViolation>) -> Match {
    var match: Match
    do {
      match = try Match(options: options, seed: seed, later: later)
    } catch {
      throw .dealRefused(error)
    }
    for (index, entry) in log.enumerated() where !entry.automatic {
      match.runTimers(until: entry.time)
      do {
        try match.perform(entry.action, by: entry.player)
      } catch {
        throw .actionRefused(index: index, error)
      }
    }
    if let last = log.last { match.runTimers(until: last.time) }
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

  /// The match as it stood after its first `version` log entries (0: the deal).
  ///
  /// - Precondition: `version` is from 0 to ``version``.
  public func prefix(_ version: Int) -> Match {
    precondition((0..._log.count).contains(version), "no version \(version) in this match")
    return replaying(upTo: version) { _, _ in }
  }

  /// Replays the match's own log from the deal, one entry at a time, calling `body` with the
  /// version and the rules' state at the deal and after every entry up to `version`; returns
  /// the match at that version.
  ///
  /// The log drives the replay: a participant's entry is performed at its time, a timer's entry
  /// runs the timer that falls due next (timers the rules refuse are dropped, as they were when
  /// the match was played). Timers due at the same moment as the last entry but logged after it
  /// have not run yet in the match returned.
  public func replaying(upTo version: Int? = nil, _ body: (Int, Rules.State) -> Void) -> Match {
    let target = min(version ?? _log.count, _log.count)
    // NB: the deal of the same options and seed cannot be refused a second time.
    guard var match = try? Match(options: options, seed: seed, later: laterSeeds) else {
      preconditionFailure("the match's own deal was refused")
    }
    body(0, match._state)
    while match._log.count < target {
      let count = match._log.count
      let entry = entry(at: count)
      if entry.automatic {
        _ = match.runTimers(until: entry.time, stoppingAt: count + 1, gathering: false)
      } else {
        // NB: every timer due by then ran before the participant acted (those the rules
        // accepted are earlier in the log); the ones left are refused and dropped here too.
        match.runTimers(until: entry.time)
        guard match._log.count == count else { break }
        try? match.accept(entry.action, by: entry.player, automatic: false)
      }
      // NB: a log the match accepted replays entry for entry; anything else stops here.
      guard match._log.count == count + 1 else { break }
      body(match._log.count, match._state)
    }
    return match
  }
}
