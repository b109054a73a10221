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
    if let stranger = options.computer.sorted(by: { $0.rawValue < $1.rawValue })
      .first(where: { !options.players.contains($0) })
    {
      throw .invalidOptions("\(stranger) plays for the computer but is not a player.")
    }
    var random = SplitMix64(seed: seed)
    let cards: [PlayingCard]
    if let deck = options.deck {
      try validate(deck, for: options)
      cards = deck
    } else {
      switch options.variant {
      case .memory:
        let picked = random.shuffled(PlayingCard.standardDeck).prefix(options.difficulty.pairs)
        cards = random.shuffled(Array(picked + picked))
      case .concentration:
        cards = random.shuffled(PlayingCard.standardDeck)
      }
    }
    let (columns, rows) = grid(for: cards.count, options: options)
    let tilt: [Int] =
      options.variant == .concentration
      ? cards.indices.map { _ in tiltAngles[random.nextInt(below: tiltAngles.count)] } : []
    var state = State(
      variant: options.variant, difficulty: options.difficulty, columns: columns, rows: rows,
      board: cards.map(Position.init(card:)), tilt: tilt)
    state.seed = seed
    state.players = options.players.map {
      Player(id: $0, isComputer: options.computer.contains($0))
    }
    if !options.computer.isEmpty {
      state.computerLevel = options.computerLevel
      state.memories = Array(repeating: [:], count: state.players.count)
      // NB: the computers draw on after the deal, so their seats deal the same board as people.
      state.random = random
    }
    return state
  }

  /// 1 to 4 players, each with a name of their own.
  private static func validate(_ players: [PlayerID]) throws(RuleViolation) {
    guard (1...4).contains(players.count) else {
      throw .invalidOptions("Memory is played by 1 to 4 players, not \(players.count).")
    }
    guard Set(players).count == players.count else {
      throw .invalidOptions("Every player needs a different name.")
    }
    if let bad = players.first(where: { $0.rawValue.allSatisfy(\.isWhitespace) || $0 == .referee })
    {
      throw .invalidOptions("\"\(bad)\" cannot be a player's name.")
    }
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
