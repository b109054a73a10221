import CardTableCore

extension MemoryGame {
  /// Deals a board: Memory takes `pairs` cards of a shuffled deck, adds a copy of each and
  /// shuffles again; Concentration shuffles all 52 and tilts each card by a seeded angle.
  /// Memory deals once per match, so it draws no later seeds.
  ///
  /// - Throws: ``RuleViolation/invalidDeck(_:)`` when a given deck cannot be played,
  ///   ``RuleViolation/invalidOptions(_:)`` for players that cannot take turns.
  public static func deal(_ options: Options, seed: UInt64, later: LaterSeeds)
    throws(RuleViolation) -> State
  {
    try validate(options.players)
    if !options.computer.isEmpty,
      let stranger = options.computer.sorted(by: { $0.rawValue < $1.rawValue })
        .first(where: { !options.players.contains($0) })
    {
      throw .invalidOptions("\(stranger) plays for the computer but is not a player.")
    }
    var random = SplitMix64(seed: seed)
    // NB: the board is shuffled in place, with the same swaps as a shuffled copy of the
    // cards would be, so every seed deals what it always dealt, with two allocations fewer.
    var board: [Position]
    if let deck = options.deck {
      try validate(deck, for: options)
      board = deck.map(Position.init(card:))
    } else {
      switch options.variant {
      case .memory:
        board = memoryBoard(pairs: options.difficulty.pairs, random: &random)
      case .concentration:
        var cards = PlayingCard.standardDeck
        random.shuffle(&cards)
        board = cards.map(Position.init(card:))
      }
    }
    let (columns, rows) = grid(for: board.count, options: options)
    let tilt: [Int] =
      options.variant == .concentration
      ? board.indices.map { _ in tiltAngles[random.nextInt(below: tiltAngles.count)] } : []
    var state = State(
      variant: options.variant, difficulty: options.difficulty, columns: columns, rows: rows,
      board: board, tilt: tilt,
      players: options.players.map { Player(id: $0, isComputer: options.computer.contains($0)) })
    state.seed = seed
    if !options.computer.isEmpty {
      state.computerLevel = options.computerLevel
      state.memories = Array(repeating: [:], count: state.players.count)
      // NB: the computers draw on after the deal, so their seats deal the same board as people.
      state.random = random
    }
    return state
  }

  /// Memory's board: the first `pairs` cards of a shuffled deck, each twice, shuffled.
  ///
  /// NB: the deck is shuffled on the stack: a copy of the standard deck was an allocation for
  /// every deal.
  private static func memoryBoard(pairs: Int, random: inout SplitMix64) -> [Position] {
    var board: [Position] = []
    board.reserveCapacity(2 * pairs)
    withUnsafeTemporaryAllocation(of: PlayingCard.self, capacity: 52) { cards in
      _ = cards.initialize(fromContentsOf: PlayingCard.standardDeck)
      random.shuffle(cards)
      for _ in 0..<2 {
        for card in cards[..<pairs] { board.append(Position(card: card)) }
      }
    }
    random.shuffle(&board)
    return board
  }

  /// 1 to 4 players, each with a name of their own.
  private static func validate(_ players: [PlayerID]) throws(RuleViolation) {
    guard (1...4).contains(players.count) else {
      throw .invalidOptions("Memory is played by 1 to 4 players, not \(players.count).")
    }
    // NB: at most four names: compared pairwise, with no set to allocate for every deal.
    for index in players.indices where players[..<index].contains(players[index]) {
      throw .invalidOptions("Every player needs a different name.")
    }
    if let bad = players.first(where: { isBlank($0.rawValue) || $0 == .referee }) {
      throw .invalidOptions("\"\(bad)\" cannot be a player's name.")
    }
  }

  /// Whether `name` is empty or white space only.
  ///
  /// NB: a name with a printable ASCII character is not blank, which needs no look-up of
  /// Unicode properties: measured, that look-up was 1.4 % of a benchmark's easy games.
  private static func isBlank(_ name: String) -> Bool {
    if name.utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return false }
    return name.allSatisfy(\.isWhitespace)
  }

  private static func grid(for count: Int, options: Options) -> (columns: Int, rows: Int) {
    switch options.variant {
    case .memory: (options.difficulty.columns, options.difficulty.rows)
    // NB: the original flowed 52 cards into rows of 8 on a phone; 8 × 7 leaves the last row short.
    case .concentration: (8, (count + 7) / 8)
    }
  }

  private static func validate(_ deck: [PlayingCard], for options: Options) throws(RuleViolation) {
    switch options.variant {
    case .memory:
      let expected = options.difficulty.cardCount
      guard deck.count == expected else {
        throw .invalidDeck(
          "A \(options.difficulty.rawValue) board holds \(expected) cards, not \(deck.count).")
      }
      var counts: [PlayingCard: Int] = [:]
      for card in deck { counts[card, default: 0] += 1 }
      if let odd = deck.first(where: { counts[$0, default: 0] != 2 }) {
        let times = counts[odd, default: 0]
        throw .invalidDeck(
          "Every card must appear exactly twice; \(odd) appears \(times == 1 ? "once" : "\(times) times")."
        )
      }
    case .concentration:
      guard deck.count == 52, Set(deck).count == 52 else {
        throw .invalidDeck("Concentration lays out all 52 cards, each once.")
      }
    }
  }
}
