import CardTableCore
import MatchingGame
import SetGame

extension SetGame: WireGame {
  public static let wireNames = ["set"]
  public static let actionsTitle = "Set"
  // NB: in two-player Set an action may name its player, `P1` or `P2`; without one it is
  // the move of whoever's turn it is (one shared screen).
  public static let actionsNamePlayer = true

  public static func options(_ options: Options, deck: [String]) throws(WireError) -> Options {
    var options = options
    options.deck = try cards(deck) { SetCard($0) }
    return options
  }

  /// Set's view on the wire (docs/ENGINE.md "set"); two-player Set adds `players` and
  /// `current`.
  public struct WireView: WireViewType {
    /// The settings a player may change: the scoring, refill and two players.
    public struct Settings: Codable, Equatable, Sendable {
      public var matchBonus: Int
      public var mismatchPenalty: Int
      public var costToChoose: Int
      public var refill: Bool
      public var twoPlayer: Bool
    }

    public var score: Int
    public var status: String
    public var flips: Int
    public var history: [String]
    public var mode: Int
    public var deckCount: Int
    public var over: Bool
    public var table: [Table.SlotView]
    /// Every found card, in the order found.
    public var found: [SetCard]
    public var foundMatches: [Table.FoundMatch]
    public var hint: [Int]
    public var settings: Settings
    /// The seed of the current deal: the referee's only.
    @Nullable public var gameSeed: UInt64?
    public var players: [PlayerScore]?
    public var current: PlayerID?

    public init(_ view: View, cache: inout TextCache<Table.Play>) {
      score = view.score
      status = RuleTexts.status(view.lastPlay)
      flips = view.flips
      history = cache.texts(of: view.history, RuleTexts.status)
      mode = SetGame.mode
      deckCount = view.deckCount
      over = view.over
      table = view.table
      found = view.found.flatMap(\.cards)
      foundMatches = view.found
      hint = view.hint
      settings = Settings(
        matchBonus: view.scoring.matchBonus, mismatchPenalty: view.scoring.mismatchPenalty,
        costToChoose: view.scoring.costToChoose, refill: view.refill, twoPlayer: view.twoPlayer)
      gameSeed = view.seed
      players = view.current == nil ? nil : view.players
      current = view.current
    }
  }

  /// The current deal; after a *Deal* the given deck, if any, is spent.
  public static func restartPoint(of match: Match<Self>) -> (options: Options, seed: UInt64) {
    var options = match.options
    if match.state.redealt { options.deck = nil }
    return (options, match.state.seed)
  }

  /// `{"cmd":"hint"}`: marks the first set and replies `{"ok":true,"cards":[i,j,k]}`, or `[]`.
  public static let commandNames = ["hint"]

  public static func command(_ name: String, _ request: JSON, in match: inout Match<Self>)
    throws(WireError) -> JSON?
  {
    try hintCommand(name, in: &match, hint: .hint) { $0.table.hintedIndices }
  }
}
