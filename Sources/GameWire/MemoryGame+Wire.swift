import CardTableCore
import MemoryGame

extension MemoryGame: WireGame {
  public static let actionsTitle = "Memory and Concentration"
  // NB: in a game in turns an action names its player (`"player":"Ann"`, by default `You`);
  // a game alone ignores who acts.
  public static let actionsNamePlayer = true
  /// One to four players take turns, computer players included.
  public static let seatRange = 1...4
  public static let takesComputerPlayers = true

  /// `{"players":["Ann","Bob","Ray"],"computer":["Ray"]}` put in, people first (kept with
  /// Memory's `difficulty` and the `computerLevel`; a table has no `opponent`); one person
  /// alone plays the game alone.
  public static func options(_ options: JSON, seating players: [PlayerID], computers: [PlayerID])
    throws(WireError) -> JSON
  {
    try seatingWithComputers(options, players, computers: computers)
  }

  public static func options(_ options: Options, deck: [String]) throws(WireError) -> Options {
    var options = options
    options.deck = try cards(deck) { PlayingCard($0) }
    return options
  }

  public static func scoreOrder(of game: String) -> ScoreOrder {
    game == "memory" ? .lowerIsBetter : .none
  }

  public static func deck(of options: Options) -> [String]? {
    options.deck?.map(\.description)
  }

  /// Memory's and Concentration's view on the wire (docs/ENGINE.md "memory"): Memory's board
  /// positions say `removed`, Concentration's `matched`, and Concentration adds `moves` and
  /// `tilt`; a game in turns adds `players` and `turn`.
  public struct WireView: WireViewType {
    /// One player of a game in turns: `{"player":"Ann","pairs":2,"left":false}`, with
    /// `"computer":true` for a computer player's seat.
    public struct Player: Codable, Hashable, Sendable, MemoizedEncoding {
      public var player: PlayerID
      public var pairs: Int
      public var left: Bool
      public var computer: Bool?

      enum CodingKeys: String, CodingKey {
        case player, pairs, left, computer
      }

      public func encode(to encoder: any Encoder) throws {
        try encodeMemoized(to: encoder)
      }

      func encodeFields(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(player, forKey: .player)
        try container.encode(pairs, forKey: .pairs)
        try container.encode(left, forKey: .left)
        try container.encodeIfPresent(computer, forKey: .computer)
      }
    }

    public struct Position: Codable, Hashable, Sendable, MemoizedEncoding {
      public var card: PlayingCard?
      public var faceUp: Bool
      public var removed: Bool?
      public var matched: Bool?

      enum CodingKeys: String, CodingKey {
        case card, faceUp, removed, matched
      }

      public func encode(to encoder: any Encoder) throws {
        try encodeMemoized(to: encoder)
      }

      func encodeFields(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeCard(card, forKey: .card)
        try container.encode(faceUp, forKey: .faceUp)
        if let removed { try container.encode(removed, forKey: .removed) }
        if let matched { try container.encode(matched, forKey: .matched) }
      }
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
    /// The players in turn order, in a game in turns only.
    public var players: [Player]?
    /// The player on turn (`null` once the game is over), in a game in turns only.
    public var turn: Nullable<PlayerID>?
    /// How much the computer players remember, when some play.
    public var computerLevel: ComputerLevel?

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
      if !view.players.isEmpty {
        players = view.players.map {
          Player(
            player: $0.id, pairs: $0.pairs, left: $0.hasLeft, computer: $0.isComputer ? true : nil)
        }
        turn = Nullable(wrappedValue: view.turn)
      }
      computerLevel = view.computerLevel
    }
  }
}

// Memory's and Concentration's words in RuleTexts (the rule book's texts, beside the game's wire form).
extension RuleTexts {
  // MARK: Memory and Concentration (RULES §3, §4, §7)

  /// The end dialog's heading: `Great!` for Memory, `Cleared!` for Concentration; nil while
  /// the game goes on, and when every player left before the end. Memory in turns praises
  /// only its winner: `Great!` to them, `A tie!` to a player who shares the lead, and
  /// `Game over` to the others and to anyone watching.
  public static func title(_ view: MemoryGame.View) -> String? {
    guard view.over, !view.deserted else { return nil }
    guard view.variant == .memory else { return "Cleared!" }
    guard !view.players.isEmpty else { return "Great!" }
    let most = view.players.map(\.pairs).max()
    let leaders = view.players.filter { $0.pairs == most }.map(\.id)
    guard let viewer = view.viewer, leaders.contains(viewer) else { return "Game over" }
    return leaders.count == 1 ? "Great!" : "A tie!"
  }

  /// The line under the board: `Pairs found: 2 of 6. Score: 1`, `You won with score: 3!`,
  /// `All 26 pairs found in 40 moves.`; in turns `Ann's turn. Pairs: Ann 2, Bob 1` (`Your
  /// turn. …` to Ann), at the end `Ann wins with 4 pairs!` or
  /// `A tie: Ann and Bob found 3 pairs each.`, and `Everyone has left.`
  public static func status(_ view: MemoryGame.View) -> String {
    if view.deserted { return "Everyone has left." }
    if !view.players.isEmpty { return statusInTurns(view) }
    return switch (view.variant, view.over) {
    case (.memory, true): "You won with score: \(view.score)!"
    case (.concentration, true): "All \(view.pairCount) pairs found in \(view.moves) moves."
    case (.memory, false):
      "Pairs found: \(view.pairsFound) of \(view.pairCount). Score: \(view.score)"
    case (.concentration, false):
      "Pairs found: \(view.pairsFound) of \(view.pairCount). Moves: \(view.moves)"
    }
  }

  /// The status line of a game in turns (docs/ENGINE.md "memory").
  private static func statusInTurns(_ view: MemoryGame.View) -> String {
    let scores = view.players.map { PlayerScore(player: $0.id, score: $0.pairs) }
    if view.over { return winner(of: scores, unit: "pair", verb: "found") }
    let pairs = view.players.map { player in
      "\(player.id) \(player.pairs)" + (player.hasLeft ? " (left)" : "")
    }
    let whose = view.turn == view.viewer ? "Your turn" : "\(view.turn?.rawValue ?? "")'s turn"
    return "\(whose). Pairs: " + pairs.joined(separator: ", ")
  }
}
