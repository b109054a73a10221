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
    public struct Player: MemoizedWireObject, Sendable {
      public var player = PlayerID.solo
      public var pairs = 0
      public var left = false
      public var computer: Bool?

      public init() {}

      public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
        try m.member("player", \.player)
        try m.member("pairs", \.pairs)
        try m.member("left", \.left)
        try m.optional("computer", \.computer)
      }
    }

    /// One board position: `card` is null while face down; Memory's say `removed`,
    /// Concentration's `matched`.
    ///
    /// NB: not memoized: measured, hashing a position to find its kept text costs more than
    /// writing its few members.
    public struct Position: WireObject, Hashable, Sendable {
      public var card: PlayingCard?
      public var faceUp = false
      public var removed: Bool?
      public var matched: Bool?

      public init() {}

      public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
        try m.member("card", \.card)
        try m.member("faceUp", \.faceUp)
        try m.optional("removed", \.removed)
        try m.optional("matched", \.matched)
      }
    }

    public var score = 0
    public var status = ""
    public var over = false
    public var title: String?
    public var columns = 0
    public var rows = 0
    public var pairsFound = 0
    public var pairs = 0
    public var flips = 0
    public var waiting = false
    public var board: [Position] = []
    public var moves: Int?
    public var tilt: [Int]?
    /// The players in turn order, in a game in turns only.
    public var players: [Player]?
    /// The player on turn (`null` once the game is over), in a game in turns only.
    public var turn: Nullable<PlayerID>?
    /// How much the computer players remember, when some play.
    public var computerLevel: ComputerLevel?

    public init() {}

    public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
      try m.member("score", \.score)
      try m.member("status", \.status)
      try m.member("over", \.over)
      try m.member("title", \.title)
      try m.member("columns", \.columns)
      try m.member("rows", \.rows)
      try m.member("pairsFound", \.pairsFound)
      try m.member("pairs", \.pairs)
      try m.member("flips", \.flips)
      try m.member("waiting", \.waiting)
      try m.shared("board", \.board)
      try m.optional("moves", \.moves)
      try m.sharedOptional("tilt", \.tilt)
      try m.sharedOptional("players", \.players)
      try m.optional("turn", \.turn)
      try m.optional("computerLevel", \.computerLevel)
    }

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
        var wire = Position()
        wire.card = position.card
        wire.faceUp = position.faceUp
        wire.removed = concentration ? nil : position.removed
        wire.matched = concentration ? position.matched : nil
        return wire
      }
      moves = concentration ? view.moves : nil
      tilt = concentration ? view.tilt : nil
      if !view.players.isEmpty {
        players = view.players.map { player in
          var wire = Player()
          wire.player = player.id
          wire.pairs = player.pairs
          wire.left = player.hasLeft
          wire.computer = player.isComputer ? true : nil
          return wire
        }
        turn = Nullable(wrappedValue: view.turn)
      }
      computerLevel = view.computerLevel
    }
  }
}

/// Memory's and Concentration's events on the wire (docs/ENGINE.md "memory"):
/// `{"type":"flipped","card":3,"face":"8♥"}`, a pair's `{"type":"matched","cards":[3,7]}`
/// (`mismatched`, `removed`, `turnedDown`), `ready`, `{"type":"finished","score":2,"moves":9}`,
/// `{"type":"turnPassed","to":"Bob"}` and `{"type":"left","player":"Ann"}`.
extension MemoryGame.Event: WireEncodable {
  public func write(to writer: inout WireWriter) {
    writer.object { event in
      switch self {
      case .flipped(let index, let card):
        event.type("flipped")
        event.member("card", index)
        event.member("face", card)
      case .matched(let a, let b):
        event.type("matched")
        event.member("cards", Hand(a, b))
      case .mismatched(let a, let b):
        event.type("mismatched")
        event.member("cards", Hand(a, b))
      case .removed(let a, let b):
        event.type("removed")
        event.member("cards", Hand(a, b))
      case .turnedDown(let a, let b):
        event.type("turnedDown")
        event.member("cards", Hand(a, b))
      case .ready: event.type("ready")
      case .finished(let score, let moves):
        event.type("finished")
        event.member("score", score)
        event.member("moves", moves)
      case .turnPassed(let player):
        event.type("turnPassed")
        event.member("to", player)
      case .left(let player):
        event.type("left")
        event.member("player", player)
      }
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
    case (.memory, true): line("You won with score: \(view.score)!")
    case (.concentration, true): line("All \(view.pairCount) pairs found in \(view.moves) moves.")
    case (.memory, false):
      line("Pairs found: \(view.pairsFound) of \(view.pairCount). Score: \(view.score)")
    case (.concentration, false):
      line("Pairs found: \(view.pairsFound) of \(view.pairCount). Moves: \(view.moves)")
    }
  }

  /// The status line of a game in turns (docs/ENGINE.md "memory").
  ///
  /// NB: put together in a ``TextLine/Builder``: as `String` interpolations and a `joined`, a
  /// four-seat table's line cost 9,000 instructions, written for every seat's view of every
  /// version (callgrind, `bench rooms`).
  private static func statusInTurns(_ view: MemoryGame.View) -> String {
    if view.over {
      let scores = view.players.map { PlayerScore(player: $0.id, score: $0.pairs) }
      return winner(of: scores, unit: "pair", verb: "found")
    }
    var text = TextLine.Builder()
    if view.turn == view.viewer {
      text.append("Your turn")
    } else {
      text.append(view.turn?.rawValue ?? "")
      text.append("'s turn")
    }
    text.append(". Pairs: ")
    for (index, player) in view.players.enumerated() {
      if index > 0 { text.append(", ") }
      text.append(player.id)
      text.append(" ")
      text.append(player.pairs)
      if player.hasLeft { text.append(" (left)") }
    }
    return text.string
  }
}

extension MemoryGame.Action: WireChoice {
  /// `{"type":"flip","card":3}` or `{"type":"leave"}`; the timer's `{"type":"resolve"}` is
  /// written in a log, and is not a player's to send.
  public static func choices<Choices: WireChoices<Self>>(_ choices: inout Choices)
    throws(Choices.Failure)
  {
    try choices.choice(
      "flip", "card", { .flip($0) }, { if case .flip(let card) = $0 { card } else { nil } })
    try choices.choice("resolve", .resolve, read: false)
    try choices.choice("leave", .leave)
  }
}
