import CardTableCore
import ChoiceTable

extension MatchingGame {
  /// What a player may see: cards stay face down until chosen (RULES §1.1).
  public struct View: Sendable, Equatable {
    public var table: [Table.SlotView]
    public var score: Int
    public var flips: Int
    /// The facts of the status line; nil before the first choice.
    public var lastPlay: Table.Play?
    public var history: [Table.Play]
    public var mode: Int
    public var modeLocked: Bool
    public var deckCount: Int
    public var over: Bool
    public var found: [Table.FoundMatch]
    public var hint: [Int]
    public var cards: Int
    public var scoring: MatchScoring
    /// The seed of the current deal: the referee's only, since it names every hidden card.
    public var seed: UInt64?
  }

  public static func view(of state: State, for viewer: Viewer) -> View {
    let table = state.table.slotViews { slot in
      viewer == .referee || slot.chosen || slot.matched
    }
    return View(
      table: table, score: state.table.score, flips: state.table.flips,
      lastPlay: state.table.lastPlay, history: state.table.history, mode: state.mode,
      modeLocked: state.modeLocked, deckCount: state.deck.count, over: state.over,
      found: state.table.found, hint: state.table.hintedIndices, cards: state.cards,
      scoring: state.scoring, seed: viewer == .referee ? state.seed : nil)
  }

  /// A chosen card is face up for everyone, so no event names a hidden card; but a new deal's
  /// seed would name every hidden card, so players read it as null.
  public static func redact(_ event: Event, for viewer: Viewer) -> Event? {
    guard viewer != .referee, case .dealt(_, let abandoned) = event else { return event }
    return .dealt(seed: nil, abandoned: abandoned)
  }
}
