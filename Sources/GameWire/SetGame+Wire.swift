import CardTableCore
import ChoiceTable
import MatchingGame
import SetGame

extension SetGame: WireGame {
  // NB: at a race the events name their player; a two-player Set on one screen is no table.
  /// A race's claims: a set found first is correct, three cards that are not a set wrong; the
  /// table's cards change with a deal, a set leaving, a refill and +3.
  public static func tableNotes(of event: Event, into notes: inout [TableNote]) {
    switch event {
    case .found(let player, _, _, _, _):
      notes.append(
        .call(by: player, CallReceipt("correct", "the first valid set the table received")))
      notes.append(.found(by: player))
      notes.append(.changed)
    case .missed(let player, _, _):
      notes.append(.call(by: player, CallReceipt("wrong", "those three cards are not a set")))
    case .dealt, .matched, .removed, .refilled, .dealtThree:
      notes.append(.changed)
    default:
      break
    }
  }

  public static func tooLateReceipt(refusedWith code: String, firstFinder: PlayerID?)
    -> CallReceipt?
  {
    guard code == "card-matched" else { return nil }
    return CallReceipt(
      "tooLate",
      firstFinder.map { "\($0) claimed that set first" }
        ?? "that card was already taken in a set")
  }

  public static let actionsTitle = "Set"
  // NB: in two-player Set an action may name its player, `P1` or `P2`; without one it is
  // the move of whoever's turn it is (one shared screen).
  public static let actionsNamePlayer = true
  /// One player alone, or a race of two to four, computer racers included.
  public static let seatRange = 1...4
  public static let takesComputerPlayers = true

  /// A race's `{"players":["Ann","Bob","Ray"],"computer":["Ray"]}` put in, people first (a
  /// table has no `opponent`); one person alone plays alone (two-player Set is two people at
  /// one seat, and cannot be a race).
  public static func options(_ options: JSON, seating players: [PlayerID], computers: [PlayerID])
    throws(WireError) -> JSON
  {
    if players.count + computers.count > 1, options["twoPlayer"] == true {
      throw .badRequest("A race seats its own players; two-player Set shares one table.")
    }
    return try seatingWithComputers(options, players, computers: computers)
  }

  public static func options(_ options: Options, deck: [String]) throws(WireError) -> Options {
    var options = options
    options.deck = try cards(deck) { SetCard($0) }
    return options
  }

  public static func scoreOrder(of game: String) -> ScoreOrder {
    .higherIsBetter
  }

  public static func deck(of options: Options) -> [String]? {
    options.deck?.map(\.description)
  }

  /// Set's view on the wire (docs/ENGINE.md "set"); two-player Set adds `players` and
  /// `current`, a race `players` (with what each may show of their selection) and `viewer`.
  /// Its parts are concrete types, as Matchismo's are.
  public struct WireView: WireViewType {
    /// One player: `{"player":"P1","score":3}` in two-player Set;
    /// `{"player":"Ann","score":3,"chosen":2,"askedForThree":false,"left":false}` in a race,
    /// with the referee's `selection` (table positions).
    ///
    /// NB: memoized: most seats are the same from one version to the next.
    public struct Player: MemoizedWireObject, Sendable {
      public var player = PlayerID.solo
      public var score = 0
      public var chosen: Int?
      public var askedForThree: Bool?
      public var left: Bool?
      public var selection: [Int]?
      /// A computer racer's seat: `true`, else absent.
      public var computer: Bool?

      public init() {}

      public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
        try m.member("player", \.player)
        try m.member("score", \.score)
        try m.optional("chosen", \.chosen)
        try m.optional("askedForThree", \.askedForThree)
        try m.optional("left", \.left)
        try m.optional("selection", \.selection)
        try m.optional("computer", \.computer)
      }

      init(_ score: PlayerScore) {
        (player, self.score) = (score.player, score.score)
      }

      init(_ racer: RacerView) {
        (player, score, chosen) = (racer.id, racer.score, racer.chosenCount)
        (askedForThree, left, selection) = (racer.askedForThree, racer.hasLeft, racer.selection)
        computer = racer.isComputer ? true : nil
      }
    }

    /// One table position.
    public struct Slot: MemoizedWireObject, Sendable {
      public var card: SetCard?
      public var chosen = false
      public var matched = false
      public var hinted = false

      public init() {}

      init(_ slot: Table.SlotView) {
        (card, chosen, matched, hinted) = (slot.card, slot.chosen, slot.matched, slot.hinted)
      }

      public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
        try m.member("card", \.card)
        try m.member("chosen", \.chosen)
        try m.member("matched", \.matched)
        try m.member("hinted", \.hinted)
      }

      public var memoIndex: Int? {
        Self.slotMemoIndex(
          card: card?.deckIndex, chosen: chosen, matched: matched, hinted: hinted)
      }

      public static var memoIndexes: Int { slotMemoIndexes(deck: SetCard.fullDeck.count) }
    }

    /// One found set: its cards in table order, its points and why it is a set.
    ///
    /// NB: memoized: the list of found matches is written again with every view, and grows.
    public struct FoundMatch: MemoizedWireObject, Sendable {
      public var cards: [SetCard] = []
      public var points = 0
      public var reason = Reason(number: .same, symbol: .same, shading: .same, color: .same)

      public init() {}

      init(_ found: Table.FoundMatch) {
        (cards, points, reason) = (Array(found.cards), found.points, found.reason)
      }

      public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
        try m.member("cards", \.cards)
        try m.member("points", \.points)
        try m.member("reason", \.reason)
      }
    }

    /// The settings a player may change: the scoring, refill and two players.
    public struct Settings: WireObject, Equatable, Sendable {
      public var matchBonus = 0
      public var mismatchPenalty = 0
      public var costToChoose = 0
      public var refill = false
      public var twoPlayer = false

      public init() {}

      init(
        matchBonus: Int, mismatchPenalty: Int, costToChoose: Int, refill: Bool, twoPlayer: Bool
      ) {
        (self.matchBonus, self.mismatchPenalty) = (matchBonus, mismatchPenalty)
        (self.costToChoose, self.refill, self.twoPlayer) = (costToChoose, refill, twoPlayer)
      }

      public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
        try m.member("matchBonus", \.matchBonus)
        try m.member("mismatchPenalty", \.mismatchPenalty)
        try m.member("costToChoose", \.costToChoose)
        try m.member("refill", \.refill)
        try m.member("twoPlayer", \.twoPlayer)
      }
    }

    public var score = 0
    public var status = ""
    public var flips = 0
    public var history: [String] = []
    public var mode = 0
    public var deckCount = 0
    public var over = false
    public var table: [Slot] = []
    /// Every found card, in the order found.
    public var found: [SetCard] = []
    public var foundMatches: [FoundMatch] = []
    public var hint: [Int] = []
    public var settings = Settings()
    /// The seed of the current deal: the referee's only.
    public var gameSeed: UInt64?
    public var players: [Player]?
    public var current: PlayerID?
    /// The racer looking, in a race.
    public var viewer: PlayerID?
    /// How quickly the computer racers find sets, when some race.
    public var computerLevel: ComputerLevel?

    public init() {}

    public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
      try m.member("score", \.score)
      try m.member("status", \.status)
      try m.member("flips", \.flips)
      try m.shared("history", \.history)
      try m.member("mode", \.mode)
      try m.member("deckCount", \.deckCount)
      try m.member("over", \.over)
      try m.member("table", \.table)
      try m.shared("found", \.found)
      try m.shared("foundMatches", \.foundMatches)
      try m.member("hint", \.hint)
      try m.shared("settings", \.settings)
      try m.member("gameSeed", \.gameSeed)
      try m.sharedOptional("players", \.players)
      try m.optional("current", \.current)
      try m.optional("viewer", \.viewer)
      try m.optional("computerLevel", \.computerLevel)
    }

    /// The history texts written so far: of a table's plays, or of a race's claims.
    public struct Texts: ViewCache {
      var plays = TextCache<Table.Play>()
      var claims = TextCache<Claim>(holdingHistory: true)
      /// The found sets as the view lists them: every card, and each set.
      var found = ArrayMapCache<Table.FoundMatch, ([SetCard], [FoundMatch])>()

      public init() {}
    }

    public init(_ view: View, cache: inout Texts) {
      score = view.score
      if view.racers.isEmpty {
        status = RuleTexts.status(view.lastPlay)
        history = cache.plays.texts(of: view.history, RuleTexts.status)
      } else {
        history = cache.claims.texts(of: view.claims, RuleTexts.claim)
        // NB: the last claim's words are the history's last: not written again per seat.
        status = RuleTexts.raceStatus(view, lastClaim: history.last)
      }
      flips = view.flips
      mode = SetGame.mode
      deckCount = view.deckCount
      over = view.over
      table = view.table.map(Slot.init)
      // NB: every seat's view shares them, and they change only when a set is found.
      (found, foundMatches) = cache.found.value(of: view.found) { found in
        (found.flatMap(\.cards), found.map(FoundMatch.init))
      }
      hint = view.hint
      settings = Settings(
        matchBonus: view.scoring.matchBonus, mismatchPenalty: view.scoring.mismatchPenalty,
        costToChoose: view.scoring.costToChoose, refill: view.refill, twoPlayer: view.twoPlayer)
      gameSeed = view.seed
      if !view.racers.isEmpty {
        players = view.racers.map(Player.init)
        viewer = view.viewer
      } else if view.current != nil {
        players = view.players.map(Player.init)
      }
      current = view.current
      computerLevel = view.computerLevel
    }
  }

  /// The current deal; after a *Deal* the given deck, if any, is spent.
  public static func restartPoint(of match: Match<Self>) -> (
    options: Options, seed: UInt64, later: LaterSeeds
  ) {
    var options = match.options
    if match.state.redealt { options.deck = nil }
    // NB: the later seeds go on from where the match is, so that the next *Deal* deals
    // cards not yet seen rather than the current deal again.
    return (options, match.state.seed, match.state.later)
  }

  /// `{"cmd":"hint"}`: marks the first set and replies `{"ok":true,"cards":[i,j,k]}`, or `[]`.
  public static let commandNames = ["hint", "history"]

  public static func command(_ name: String, _ request: JSON, in match: inout Match<Self>)
    throws(WireError) -> JSON?
  {
    if name == "history" {
      return historyAnswer(of: match, entries: { $0.table.history }, text: RuleTexts.status)
    }
    return try hintCommand(name, in: &match, hint: .hint) { $0.table.hintedIndices }
  }
}

/// Set's events on the wire (docs/ENGINE.md "set"); a race's claims are `matched` and
/// `mismatched` with their `player`.
extension SetGame.Event: WireEncodable {
  public func write(to writer: inout WireWriter) {
    writer.object { event in
      switch self {
      case .chosen(let index, let card):
        event.type("chosen")
        event.member("card", index)
        event.member("face", card)
      case .unchosen(let index):
        event.type("unchosen")
        event.member("card", index)
      case .matched(let cards, let faces, let points, let reason):
        event.type("matched")
        event.member("cards", cards)
        event.member("faces", faces)
        event.member("points", points)
        event.member("reason", reason)
      case .mismatched(let cards, let penalty):
        event.type("mismatched")
        event.member("cards", cards)
        event.member("penalty", penalty)
      case .removed(let cards):
        event.type("removed")
        event.member("cards", cards)
      case .refilled(let cards, let faces):
        event.type("refilled")
        event.member("cards", cards)
        event.member("faces", faces)
      case .dealtThree(let cards, let faces, let charge):
        event.type("dealtThree")
        event.member("cards", cards)
        event.member("faces", faces)
        event.member("charge", charge)
      case .turnPassed(let player):
        event.type("turnPassed")
        event.member("to", player)
      case .hinted(let cards):
        event.type("hinted")
        event.member("cards", cards)
      case .dealt(let seed, let abandoned):
        event.type("dealt")
        event.member("seed", seed)
        event.encodable("abandoned", abandoned)
      case .gameOver(let record):
        event.type("gameOver")
        event.encodable("result", record)
      case .selected(let player, let index, let card, let count):
        event.type("selected")
        event.member("player", player)
        event.optional("card", index)
        event.optional("face", card)
        event.member("count", count)
      case .deselected(let player, let index, let count):
        event.type("deselected")
        event.member("player", player)
        event.optional("card", index)
        event.member("count", count)
      case .found(let player, let cards, let faces, let points, let reason):
        event.type("matched")
        event.member("player", player)
        event.member("cards", cards)
        event.member("faces", faces)
        event.member("points", points)
        event.member("reason", reason)
      case .missed(let player, let cards, let penalty):
        event.type("mismatched")
        event.member("player", player)
        event.member("cards", cards)
        event.member("penalty", penalty)
      case .askedForThree(let player, let waiting):
        event.type("askedForThree")
        event.member("player", player)
        event.member("waiting", waiting)
      case .left(let player):
        event.type("left")
        event.member("player", player)
      }
    }
  }
}

// Set's words in RuleTexts (the rule book's texts, beside the game's wire form).
extension RuleTexts {
  // MARK: Set as a race (docs/ENGINE.md "set")

  /// A judged selection of a race: `Ann: Matched A B C for 16 points.` or
  /// `Bob: A B C don’t match! 2 point penalty!` (the cards in table order).
  public static func claim(_ claim: SetGame.Claim) -> String {
    var text = TextLine.Builder()
    text.append(claim.player)
    text.append(": ")
    append(claim.play, to: &text)
    return text.string
  }

  /// A race's status line: its last claim, empty before the first; at the end
  /// `Ann wins with 40 points!` or `A tie: Ann and Bob scored 30 points each.`, and
  /// `Everyone has left.`
  public static func raceStatus(_ view: SetGame.View) -> String {
    raceStatus(view, lastClaim: view.claims.last.map(claim))
  }

  /// ``raceStatus(_:)`` with the last claim's words already written.
  static func raceStatus(_ view: SetGame.View, lastClaim: @autoclosure () -> String?) -> String {
    if view.deserted { return "Everyone has left." }
    if view.over {
      return winner(
        of: view.racers.map { PlayerScore(player: $0.id, score: $0.score) }, unit: "point",
        verb: "scored")
    }
    return lastClaim() ?? ""
  }
}

extension SetGame.Action: WireChoice {
  /// `{"type":"choose","card":3}` (with `"face":"oval:red:solid:2"`, the card as the player
  /// saw it), `{"type":"dealThree"}`, `{"type":"deal"}`, `{"type":"hint"}`,
  /// `{"type":"leave"}`; Matchismo's `setMode` is refused with `mode-fixed`.
  public static func choices<Choices: WireChoices<Self>>(_ choices: inout Choices)
    throws(Choices.Failure)
  {
    try choices.choice(
      "choose", "card", optional: "face",
      { (card: Int, face: SetCard?) in face.map { .chooseCard($0, at: card) } ?? .choose(card) },
      { action -> (Int, SetCard?)? in
        switch action {
        case .choose(let card): (card, nil)
        case .chooseCard(let face, let card): (card, face)
        default: nil
        }
      })
    try choices.choice("dealThree", .dealThree)
    try choices.choice("deal", .deal)
    try choices.choice("hint", .hint)
    try choices.choice("leave", .leave)
    try choices.refused("setMode") {
      InputError.refused(code: "mode-fixed", message: "Set is always played with 3 cards.")
    }
  }
}
