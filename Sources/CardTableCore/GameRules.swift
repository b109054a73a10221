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
public struct Scheduled<Action: Sendable & Equatable>: Sendable, Equatable {
  /// Seconds after the action that scheduled it.
  public var delay: Double
  public var action: Action
  /// Who performs it: ``PlayerID/referee`` for the game's own timers, or a computer player.
  public var player: PlayerID
  /// Names the timer so that a later outcome can cancel it.
  public var key: String

  public init(after delay: Double, _ action: Action, by player: PlayerID = .referee, key: String) {
    self.delay = delay
    self.action = action
    self.player = player
    self.key = key
  }
}

/// What an accepted action did: the events it caused and the timers it set or cancelled.
public struct Outcome<Event: Sendable & Equatable, Action: Sendable & Equatable>: Sendable,
  Equatable
{
  public var events: [Event]
  public var scheduled: [Scheduled<Action>]
  /// Keys of pending timers to drop, applied before `scheduled` is added.
  public var cancelled: [String]

  public init(
    events: [Event] = [], scheduled: [Scheduled<Action>] = [], cancelled: [String] = []
  ) {
    self.events = events
    self.scheduled = scheduled
    self.cancelled = cancelled
  }
}

/// One game's rules as pure functions over a value state.
///
/// A game is a caseless enum conforming to this protocol, its vocabulary nested
/// (`SetGame.State`, `SetGame.Action`). `apply` checks every rule before it mutates, so a
/// refused action leaves the state untouched. Randomness comes only from the deal's seed.
public protocol GameRules: SendableMetatype {
  associatedtype Options: Sendable & Equatable
  associatedtype State: Sendable & Equatable
  associatedtype Action: Sendable & Equatable
  associatedtype Event: Sendable & Equatable
  associatedtype View: Sendable & Equatable
  associatedtype RuleViolation: Refusal

  /// Deals a new game.
  ///
  /// - Throws: a violation when the options are out of range (e.g. a deck of the wrong size).
  static func deal(_ options: Options, seed: UInt64) throws(RuleViolation) -> State

  /// The timers a fresh deal starts with (dealing pauses, a computer player's first move).
  static func opening(_ state: State) -> [Scheduled<Action>]

  /// Applies `action` performed by `player`, or refuses it leaving `state` unchanged.
  static func apply(_ action: Action, by player: PlayerID, to state: inout State)
    throws(RuleViolation) -> Outcome<Event, Action>

  /// What `viewer` may see of `state`: never a card they could not see at a real table.
  static func view(of state: State, for viewer: Viewer) -> View

  /// `event` as `viewer` may see it, or nil when it is not theirs to see.
  static func redact(_ event: Event, for viewer: Viewer) -> Event?

  /// Whether the game (or the round) has ended.
  static func isOver(_ state: State) -> Bool
}

extension GameRules {
  public static func opening(_ state: State) -> [Scheduled<Action>] { [] }
  public static func redact(_ event: Event, for viewer: Viewer) -> Event? { event }
}
