import CardTableCore
import ChoiceTable
import MatchingGame

extension MatchingGame: WireGame {
  public static let actionsTitle = "Matchismo"
  /// Matchismo is played alone.
  public static let seatRange = 1...1

  /// The options as they are: one player, who plays alone.
  public static func options(_ options: JSON, seating players: [PlayerID], computers: [PlayerID])
    throws(WireError) -> JSON
  {
    try checkedSeating(options, players: players, computers: computers)
  }

  public static func options(_ options: Options, deck: [String]) throws(WireError) -> Options {
    var options = options
    options.deck = try cards(deck) { PlayingCard($0) }
    return options
  }

  public static func scoreOrder(of game: String) -> ScoreOrder {
    .higherIsBetter
  }

  public static func deck(of options: Options) -> [String]? {
    options.deck?.map(\.description)
  }

  /// Matchismo's view on the wire (docs/ENGINE.md "matchismo").
  ///
  /// NB: its parts are concrete types, not the engine's generic `ChoiceTable` ones: a generic
  /// type's conformance runs unspecialized and looks up its metadata at every position.
  public struct WireView: WireViewType {
    /// One table position: `card` is null while face down to this viewer.
    public struct Slot: MemoizedWireObject, Sendable {
      public var card: PlayingCard?
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

      public static var memoIndexes: Int { slotMemoIndexes(deck: PlayingCard.standardDeck.count) }
    }

    /// One found match: its cards in table order, its points and why it matched.
    ///
    /// NB: memoized: the list of found matches is written again with every view, and grows.
    public struct FoundMatch: MemoizedWireObject, Sendable {
      public var cards: [PlayingCard] = []
      public var points = 0
      public var reason = Reason(pairs: [])

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

    /// The settings a player may change: the table size and the scoring.
    public struct Settings: WireObject, Equatable, Sendable {
      public var cards = 0
      public var matchBonus = 0
      public var mismatchPenalty = 0
      public var costToChoose = 0

      public init() {}

      init(cards: Int, matchBonus: Int, mismatchPenalty: Int, costToChoose: Int) {
        (self.cards, self.matchBonus) = (cards, matchBonus)
        (self.mismatchPenalty, self.costToChoose) = (mismatchPenalty, costToChoose)
      }

      public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
        try m.member("cards", \.cards)
        try m.member("matchBonus", \.matchBonus)
        try m.member("mismatchPenalty", \.mismatchPenalty)
        try m.member("costToChoose", \.costToChoose)
      }
    }

    public var score = 0
    public var status = ""
    public var flips = 0
    public var history: [String] = []
    public var mode = 0
    public var deckCount = 0
    public var over = false
    public var modeLocked = false
    public var table: [Slot] = []
    /// Every found card, in the order found.
    public var found: [PlayingCard] = []
    public var foundMatches: [FoundMatch] = []
    public var hint: [Int] = []
    public var settings = Settings()
    /// The seed of the current deal: the referee's only.
    public var gameSeed: UInt64?

    public init() {}

    public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
      try m.member("score", \.score)
      try m.member("status", \.status)
      try m.member("flips", \.flips)
      try m.shared("history", \.history)
      try m.member("mode", \.mode)
      try m.member("deckCount", \.deckCount)
      try m.member("over", \.over)
      try m.member("modeLocked", \.modeLocked)
      try m.shared("table", \.table)
      try m.shared("found", \.found)
      try m.shared("foundMatches", \.foundMatches)
      try m.member("hint", \.hint)
      try m.member("settings", \.settings)
      try m.member("gameSeed", \.gameSeed)
    }

    public init(_ view: View, cache: inout TextCache<Table.Play>) {
      score = view.score
      status = RuleTexts.status(view.lastPlay)
      flips = view.flips
      history = cache.texts(of: view.history, RuleTexts.status)
      mode = view.mode
      deckCount = view.deckCount
      over = view.over
      modeLocked = view.modeLocked
      table = view.table.map(Slot.init)
      found = view.found.flatMap(\.cards)
      foundMatches = view.found.map(FoundMatch.init)
      hint = view.hint
      settings = Settings(
        cards: view.cards, matchBonus: view.scoring.matchBonus,
        mismatchPenalty: view.scoring.mismatchPenalty, costToChoose: view.scoring.costToChoose)
      gameSeed = view.seed
    }
  }

  /// The current deal in its current mode; after a *Deal* the given deck, if any, is spent.
  public static func restartPoint(of match: Match<Self>) -> (
    options: Options, seed: UInt64, later: LaterSeeds
  ) {
    var options = match.options
    options.mode = match.state.mode
    if match.state.redealt { options.deck = nil }
    // NB: the later seeds go on from where the match is, so that the next *Deal* deals
    // cards not yet seen rather than the current deal again.
    return (options, match.state.seed, match.state.later)
  }

  /// `{"cmd":"hint"}`: marks the first matching combination and replies with its table
  /// indices, `{"ok":true,"cards":[i,j]}`, or `[]` when none is left.
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

/// Matchismo's events on the wire (docs/ENGINE.md "matchismo").
extension MatchingGame.Event: WireEncodable {
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
      case .matched(let cards, let points, let reason):
        event.type("matched")
        event.member("cards", cards)
        event.member("points", points)
        event.member("reason", reason)
      case .mismatched(let cards, let penalty):
        event.type("mismatched")
        event.member("cards", cards)
        event.member("penalty", penalty)
      case .modeSet(let mode):
        event.type("modeSet")
        event.member("mode", mode)
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
      }
    }
  }
}

extension WireGame {
  /// The matching games' `{"cmd":"history"}`: the current game's history entries, oldest
  /// first, each with the version right after the move that wrote it,
  /// `{"ok":true,"entries":[{"text":T,"version":V}]}`. The match is replayed from its log to
  /// find the versions.
  static func historyAnswer<Entry>(
    of match: Match<Self>, entries: (State) -> [Entry], text: (Entry) -> String
  ) -> JSON {
    var versions: [Int] = []
    _ = match.replaying { version, state in
      let count = entries(state).count
      // NB: a new deal starts an empty history.
      if count < versions.count { versions.removeAll() }
      while versions.count < count { versions.append(version) }
    }
    let texts = entries(match.state).map(text)
    let list: [JSON] = zip(texts, versions).map { text, version in
      ["text": .string(text), "version": JSON(version)]
    }
    return ["ok": true, "entries": .array(list)]
  }

  /// The matching games' `{"cmd":"hint"}`: performs `hint` (which marks the first matching
  /// combination) and replies `{"ok":true,"cards":[i,j,…]}`, or `[]` when none is left.
  static func hintCommand(
    _ name: String, in match: inout Match<Self>, hint: Action, marked: (State) -> [Int]
  ) throws(WireError) -> JSON? {
    guard name == "hint" else { return nil }
    do {
      try match.perform(hint, by: .solo)
    } catch {
      throw WireError(error)
    }
    return ["ok": true, "cards": .array(marked(match.state).map { JSON($0) })]
  }
}

extension MatchingGame.Action: WireChoice {
  /// `{"type":"choose","card":3}`, `{"type":"deal"}`, `{"type":"setMode","mode":3}`,
  /// `{"type":"hint"}`.
  public static func choices<Choices: WireChoices<Self>>(_ choices: inout Choices)
    throws(Choices.Failure)
  {
    try choices.choice(
      "choose", "card", { .choose($0) }, { if case .choose(let card) = $0 { card } else { nil } })
    try choices.choice("deal", .deal)
    try choices.choice(
      "setMode", "mode", { .setMode($0) }, { if case .setMode(let mode) = $0 { mode } else { nil } }
    )
    try choices.choice("hint", .hint)
  }
}
