import CardTableCore

extension MemoryGame {
  /// A board position as a player sees it: the card only while it shows its face.
  public struct PositionView: Sendable, Equatable {
    public var card: PlayingCard?
    public var faceUp: Bool
    public var removed: Bool
    public var matched: Bool

    public init(card: PlayingCard?, faceUp: Bool, removed: Bool, matched: Bool) {
      self.card = card
      self.faceUp = faceUp
      self.removed = removed
      self.matched = matched
    }
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
    /// The players of a game in turns, in turn order; empty for a game alone.
    public var players: [Player]
    /// The player on turn in a game in turns while it goes on; nil otherwise.
    public var turn: PlayerID?
    /// The player looking, when they are one of the players of a game in turns.
    public var viewer: PlayerID?
    /// Every player left before the end.
    public var deserted: Bool
    /// How much the computer players remember; nil when no computer plays.
    public var computerLevel: ComputerLevel?
  }

  public static func view(of state: State, for viewer: Viewer) -> View {
    let seated: PlayerID? =
      if case .player(let id) = viewer, state.inTurns, state.index(of: id) != nil { id } else {
        nil
      }
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
      waiting: state.resolving != nil, over: isOver(state),
      players: state.inTurns ? state.players : [],
      turn: state.inTurns && !isOver(state) ? state.playerOnTurn : nil,
      viewer: seated,
      deserted: state.deserted,
      computerLevel: state.hasComputers ? state.computerLevel : nil)
  }

  /// Face-down cards are never named in events either: a flip names only the card it shows.
  public static func redact(_ event: Event, for viewer: Viewer) -> Event? { event }
}
