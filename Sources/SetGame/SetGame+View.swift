import CardTableCore
import MatchingGame

extension SetGame {
  /// What a player sees: Set cards lie face up, so everything but the deck's order.
  public struct View: Sendable, Equatable {
    public var table: [Table.SlotView]
    public var score: Int
    public var flips: Int
    /// The facts of the status line; nil before the first choice.
    public var lastPlay: Table.Play?
    public var history: [Table.Play]
    public var deckCount: Int
    public var over: Bool
    public var found: [Table.FoundMatch]
    public var hint: [Int]
    public var scoring: MatchScoring
    public var refill: Bool
    public var twoPlayer: Bool
    /// Each player's score in two-player Set; empty otherwise.
    public var players: [PlayerScore]
    public var current: PlayerID?
    /// The seed of the current deal: the referee's only, since it names every hidden card.
    public var seed: UInt64?
  }

  public static func view(of state: State, for viewer: Viewer) -> View {
    View(
      table: state.table.slotViews { _ in true }, score: state.table.score,
      flips: state.table.flips, lastPlay: state.table.lastPlay, history: state.table.history,
      deckCount: state.deck.count, over: state.over, found: state.table.found,
      hint: state.table.hintedIndices, scoring: state.scoring, refill: state.refill,
      twoPlayer: state.twoPlayer, players: state.scores,
      current: state.twoPlayer ? state.currentPlayer : nil,
      seed: viewer == .referee ? state.seed : nil)
  }

  /// Events as a player may see them: a new deal's seed would name every hidden card.
  public static func redact(_ event: Event, for viewer: Viewer) -> Event? {
    guard viewer != .referee, case .dealt(_, let abandoned) = event else { return event }
    return .dealt(seed: nil, abandoned: abandoned)
  }
}
