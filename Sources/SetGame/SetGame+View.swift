import CardTableCore
import ChoiceTable

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
    /// A race's players as this viewer may see them; empty for other games.
    public var racers: [RacerView]
    /// A race's judged selections, oldest first.
    public var claims: [Claim]
    /// The racer looking, if the viewer is one.
    public var viewer: PlayerID?
    /// Every player left before the end.
    public var deserted: Bool
    /// How quickly the computer racers find sets; nil when no computer races.
    public var computerLevel: ComputerLevel?
  }

  /// A racer as a viewer sees them: how many cards they have chosen, not which.
  public struct RacerView: Sendable, Equatable {
    public var id: PlayerID
    public var score: Int
    public var chosenCount: Int
    public var askedForThree: Bool
    public var hasLeft: Bool
    /// The chosen cards' table positions, in table order: the referee's only.
    public var selection: [Int]?
    /// The computer plays this racer.
    public var isComputer = false
  }

  /// What `viewer` may see; in a race the table's `chosen` marks are the viewer's own
  /// selection, and other players' selections are only counted.
  public static func view(of state: State, for viewer: Viewer) -> View {
    var table = state.table.slotViews { _ in true }
    var seated: PlayerID?
    if state.isRace {
      var mine: [SetCard] = []
      if case .player(let id) = viewer, let index = state.racer(id) {
        seated = id
        mine = state.racers[index].selection
      }
      for position in table.indices {
        table[position].chosen = mine.contains(state.table.slots[position].card)
      }
    }
    let racers = state.racers.map { racer in
      RacerView(
        id: racer.id, score: racer.score, chosenCount: racer.selection.count,
        askedForThree: racer.askedForThree, hasLeft: racer.hasLeft,
        selection: viewer == .referee ? positions(of: racer.selection, in: state) : nil,
        isComputer: racer.isComputer)
    }
    // NB: in a race the score is the viewer's own: the table's total means nothing to anyone.
    var score = state.table.score
    if state.isRace, case .player = viewer {
      score = seated.flatMap { state.racer($0) }.map { state.racers[$0].score } ?? 0
    }
    return View(
      table: table, score: score,
      flips: state.table.flips, lastPlay: state.table.lastPlay, history: state.table.history,
      deckCount: state.deck.count, over: state.over, found: state.table.found,
      hint: state.table.hintedIndices, scoring: state.scoring, refill: state.refill,
      twoPlayer: state.twoPlayer, players: state.scores,
      current: state.twoPlayer ? state.currentPlayer : nil,
      seed: viewer == .referee ? state.seed : nil, racers: racers, claims: state.claims,
      viewer: seated, deserted: state.deserted,
      computerLevel: state.hasComputers ? state.computerLevel : nil)
  }

  /// The table positions of `cards`, in table order.
  static func positions(of cards: [SetCard], in state: State) -> [Int] {
    state.table.slots.indices.filter { cards.contains(state.table.slots[$0].card) }
  }

  /// Events as a player may see them: a new deal's seed would name every hidden card, and in
  /// a race which cards another player chose is theirs alone (only the count shows).
  public static func redact(_ event: Event, for viewer: Viewer) -> Event? {
    guard viewer != .referee else { return event }
    switch event {
    case .dealt(_, let abandoned):
      return .dealt(seed: nil, abandoned: abandoned)
    case .selected(let player, _, _, let count) where viewer != .player(player):
      return .selected(by: player, index: nil, card: nil, count: count)
    case .deselected(let player, _, let count) where viewer != .player(player):
      return .deselected(by: player, index: nil, count: count)
    default:
      return event
    }
  }
}
