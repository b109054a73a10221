import CardTableCore
import MemoryGame

extension MemoryGame: WireGame {
  public static let wireNames = ["memory", "concentration"]
  public static let actionsTitle = "Memory and Concentration"

  public static func options(_ options: Options, deck: [String]) throws(WireError) -> Options {
    var options = options
    options.deck = try cards(deck) { PlayingCard($0) }
    return options
  }

  /// Memory's and Concentration's view on the wire (docs/ENGINE.md "memory"): Memory's board
  /// positions say `removed`, Concentration's `matched`, and Concentration adds `moves` and
  /// `tilt`.
  public struct WireView: WireViewType {
    public struct Position: Codable, Equatable, Sendable {
      @Nullable public var card: PlayingCard?
      public var faceUp: Bool
      public var removed: Bool?
      public var matched: Bool?
    }

    public var score: Int
    public var status: String
    public var over: Bool
    @Nullable public var title: String?
    public var columns: Int
    public var rows: Int
    public var pairsFound: Int
    public var pairs: Int
    public var flips: Int
    public var waiting: Bool
    public var board: [Position]
    public var moves: Int?
    public var tilt: [Int]?

    public init(_ view: View, cache: inout NoCache) {
      let concentration = view.variant == .concentration
      score = view.score
      status = RuleTexts.status(view)
      over = view.over
      title = RuleTexts.title(view)
      columns = view.columns
      rows = view.rows
      pairsFound = view.pairsFound
      pairs = view.pairCount
      flips = view.flips
      waiting = view.waiting
      board = view.board.map { position in
        Position(
          card: position.card, faceUp: position.faceUp,
          removed: concentration ? nil : position.removed,
          matched: concentration ? position.matched : nil)
      }
      moves = concentration ? view.moves : nil
      tilt = concentration ? view.tilt : nil
    }
  }
}
