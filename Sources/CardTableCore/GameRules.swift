/// A refused action: a fact about the game with a stable code for the wire.
///
/// Conforming types are each game's nested `RuleViolation` enum, e.g.
/// `MemoryGame.RuleViolation.cardAlreadyRemoved(3)` with code `card-removed`.
public protocol Refusal: Error, Equatable, Sendable {
  /// A stable, machine-readable reason such as `not-your-turn`; never reworded.
  var code: String { get }
  /// A sentence a person can read.
  var message: String { get }
}

/// Who is looking at a game: one player, or the referee who may see everything.
public enum Viewer: Hashable, Sendable {
  case player(PlayerID)
  case referee
}

/// A follow-up action that the host runs after a delay on the match clock (DESIGN "Time is data").
public struct Scheduled<Rules: GameRules>: Sendable, Equatable {
  /// Seconds after the action that scheduled it.
  public var delay: Double
  public var action: Rules.Action
  /// Who performs it: ``PlayerID/referee`` for the game's own timers, or a computer player.
  @inlinable public var player: PlayerID {
    get { performer ?? .referee }
    set { performer = newValue }
  }
  /// Names the timer so that a later outcome can cancel it.
  public var key: Rules.TimerKey
  /// The player who performs it; nil for the referee.
  ///
  /// NB: most follow-ups are the referee's: one held as nil is neither looked up among the
  /// match's actors by name nor retained and released on its way to the timer (with
  /// ``Match``'s referee kept by index, 9 % of the instructions of an action of `bench memory`).
  @usableFromInline var performer: PlayerID?

  /// The referee's follow-up of `action` after `delay` seconds, cancelled by `key`.
  @inlinable
  public init(after delay: Double, _ action: Rules.Action, key: Rules.TimerKey) {
    self.delay = delay
    self.action = action
    self.key = key
    self.performer = nil
  }

  /// A follow-up of `action` by `player` after `delay` seconds, cancelled by `key`.
  @inlinable
  public init(after delay: Double, _ action: Rules.Action, by player: PlayerID, key: Rules.TimerKey)
  {
    self.delay = delay
    self.action = action
    self.key = key
    self.performer = player
  }

  @inlinable
  public static func == (lhs: Scheduled, rhs: Scheduled) -> Bool {
    lhs.delay == rhs.delay && lhs.action == rhs.action && lhs.player == rhs.player
      && lhs.key == rhs.key
  }
}

/// A change in which game of a match is being played, as the rules report it; ``Match`` stamps
/// each with the time and the log index of the action that caused it.
public enum GameMark<Settings: Sendable & Equatable>: Sendable, Equatable {
  /// The action dealt a new game (*Deal*, Snap!'s next round).
  case dealt
  /// The game's time starts now, later than its deal: Concentration's timer starts with the
  /// first card turned (RULES §7). The record's start and duration count from here.
  case began
  /// The current game ended (finished or abandoned); the record says how.
  case ended(GameRecord<Settings>)
}

/// What an accepted action did: the events it caused, the timers it set or cancelled, and the
/// games it dealt or ended.
public struct Outcome<Rules: GameRules>: Sendable, Equatable {
  public var events: OutcomeList<Rules.Event>
  public var scheduled: SmallList<Scheduled<Rules>>
  /// Keys of pending timers to drop, applied before `scheduled` is added.
  public var cancelled: OutcomeList<Rules.TimerKey>
  /// Games dealt and ended by the action, in the order they happened.
  public var marks: SmallList<GameMark<Rules.Settings>>

  @inlinable
  public init(
    events: OutcomeList<Rules.Event> = [], scheduled: SmallList<Scheduled<Rules>> = [],
    cancelled: OutcomeList<Rules.TimerKey> = [], marks: SmallList<GameMark<Rules.Settings>> = []
  ) {
    self.events = events
    self.scheduled = scheduled
    self.cancelled = cancelled
    self.marks = marks
  }

  /// Empties every list but keeps their storage, so a host can reuse one outcome per action.
  @inlinable
  public mutating func removeAll() {
    events.removeAll()
    scheduled.removeAll()
    cancelled.removeAll()
    marks.removeAll()
  }
}

/// One game's rules as pure functions over a value state.
///
/// A game is a caseless enum conforming to this protocol, its vocabulary nested
/// (`SetGame.State`, `SetGame.Action`). `apply` checks every rule before it mutates, so a
/// refused action leaves the state (and the outcome) untouched. Randomness comes only from the
/// deal's seed.
public protocol GameRules: SendableMetatype {
  associatedtype Options: Sendable & Equatable
  associatedtype State: Sendable & Equatable
  associatedtype Action: Sendable & Equatable
  associatedtype Event: Sendable & Equatable
  associatedtype View: Sendable & Equatable
  associatedtype RuleViolation: Refusal
  /// Names a pending timer so that a later outcome can cancel it: a small enum, never a text.
  /// `Never` for games without timers.
  associatedtype TimerKey: Hashable & Sendable = Never
  /// The settings a game's record names (its difficulty, its scoring…); `Never` for games that
  /// keep no records.
  associatedtype Settings: Sendable & Equatable = Never

  /// Deals a new game from `seed`; a game that deals again within the match (*Deal*, a new
  /// round) takes those seeds from `later`.
  ///
  /// - Throws: a violation when the options are out of range (e.g. a deck of the wrong size).
  static func deal(_ options: Options, seed: UInt64, later: LaterSeeds) throws(RuleViolation)
    -> State

  /// What a fresh deal starts with: its timers (dealing pauses, a computer player's first
  /// move), and its record when the deal is over at once.
  static func opening(_ state: State, into outcome: inout Outcome<Self>)

  /// Applies `action` performed by `player`, adding what it did to `outcome`, or refuses it
  /// leaving `state` and `outcome` unchanged.
  static func apply(
    _ action: Action, by player: PlayerID, to state: inout State,
    into outcome: inout Outcome<Self>) throws(RuleViolation)

  /// What `viewer` may see of `state`: never a card they could not see at a real table.
  static func view(of state: State, for viewer: Viewer) -> View

  /// `event` as `viewer` may see it, or nil when it is not theirs to see.
  static func redact(_ event: Event, for viewer: Viewer) -> Event?

  /// Whether the game (or the round) has ended.
  static func isOver(_ state: State) -> Bool

  /// The record of the current game were it abandoned now: nil when it has ended (its record
  /// is made) or the game keeps no records. Used when a player gives a game up, or a table
  /// left untouched for long is closed.
  static func abandonedRecord(of state: State) -> GameRecord<Settings>?

  /// A sentence naming a broken invariant of `state` (a card lost or doubled), or nil.
  ///
  /// Debug builds check it after every accepted action; see ``Match``.
  static func invariantViolation(in state: State) -> String?

  /// How many actions a match of the game dealt as `state` is expected to log: the room a
  /// ``Match`` makes for its log at the deal, so that a game's log is not copied to grow it.
  /// 32 unless a game says otherwise; a longer game only grows its log.
  static func expectedLogLength(of state: State) -> Int
}

extension GameRules where Settings == Never {
  public static func abandonedRecord(of state: State) -> GameRecord<Settings>? { nil }
}

extension GameRules {
  public static func opening(_ state: State, into outcome: inout Outcome<Self>) {}
  public static func redact(_ event: Event, for viewer: Viewer) -> Event? { event }
  public static func invariantViolation(in state: State) -> String? { nil }
  @inlinable public static func expectedLogLength(of state: State) -> Int { 32 }

  /// Deals a new game whose later deals come from `seed` too (``LaterSeeds/init(seed:)``).
  @inlinable
  public static func deal(_ options: Options, seed: UInt64) throws(RuleViolation) -> State {
    try deal(options, seed: seed, later: LaterSeeds(seed: seed))
  }

  /// Applies `action` and returns its outcome; see ``apply(_:by:to:into:)``.
  @inlinable
  public static func apply(_ action: Action, by player: PlayerID, to state: inout State)
    throws(RuleViolation) -> Outcome<Self>
  {
    var outcome = Outcome<Self>()
    try apply(action, by: player, to: &state, into: &outcome)
    return outcome
  }
}
