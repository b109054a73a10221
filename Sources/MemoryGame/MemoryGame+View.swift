import CardTableCore

extension MemoryGame {
  /// A board position as a player sees it: the card only while it shows its face.
  public struct PositionView: Sendable, Equatable {
    public var card: PlayingCard?
    public var faceUp: Bool
    public var removed: Bool
    public var matched: Bool
  }

  /// What a player may see: face-down cards stay secret.
  public struct View: Sendable, Equatable {
    public var variant: Variant
    public var columns: Int
    public var rows: Int
    public var board: [PositionView]
    public var tilt: [Int]
    public var score: Int
    public var pairsFound: Int
    public var pairCount: Int
    public var moves: Int
    public var flips: Int
    public var waiting: Bool
    public var over: Bool
    public var title: String?
    public var status: String
  }

  public static func view(of state: State, for viewer: Viewer) -> View {
    let board = state.board.map { position in
      let visible = viewer == .referee || position.faceUp || position.matched
      return PositionView(
        card: visible ? position.card : nil, faceUp: position.faceUp, removed: position.removed,
        matched: position.matched)
    }
    return View(
      variant: state.variant, columns: state.columns, rows: state.rows, board: board,
      tilt: state.tilt, score: state.score, pairsFound: state.pairsFound,
      pairCount: state.pairCount, moves: state.moves, flips: state.flips,
      waiting: state.resolving != nil, over: isOver(state), title: title(of: state),
      status: status(of: state))
  }

  /// The heading of the end dialog: `Great!` for Memory, `Cleared!` for Concentration.
  public static func title(of state: State) -> String? {
    guard isOver(state) else { return nil }
    return state.variant == .memory ? "Great!" : "Cleared!"
  }

  /// The line a player reads under the board.
  public static func status(of state: State) -> String {
    switch (state.variant, isOver(state)) {
    case (.memory, true): "You won with score: \(state.score)!"
    case (.concentration, true): "All \(state.pairCount) pairs found in \(state.moves) moves."
    case (.memory, false):
      "Pairs found: \(state.pairsFound) of \(state.pairCount). Score: \(state.score)"
    case (.concentration, false):
      "Pairs found: \(state.pairsFound) of \(state.pairCount). Moves: \(state.moves)"
    }
  }

  /// Face-down cards are never named in events either: a flip names only the card it shows.
  public static func redact(_ event: Event, for viewer: Viewer) -> Event? { event }
}
