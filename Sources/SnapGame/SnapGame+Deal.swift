import CardTableCore

extension SnapGame {
  /// The seats of `count` players in joining order (RULES §5.1): the host at Bottom; one guest
  /// at Top; two or three guests at Left, Top, Right in joining order.
  public static func seats(forPlayerCount count: Int) -> [Seat] {
    switch count {
    case 2: [.bottom, .top]
    case 3: [.bottom, .left, .top]
    default: Array(Seat.allCases.prefix(count))
    }
  }

  /// Seats the players and deals the first round.
  ///
  /// The starting player is `options.starting`, or else drawn from the seed; the deck is
  /// `options.deck`, or else shuffled from the seed. When both are drawn, the shuffle comes
  /// first. `later` draws the seeds of later rounds.
  ///
  /// - Throws: ``RuleViolation/invalidOptions(_:)`` for a table that cannot play, and
  ///   ``RuleViolation/invalidDeck(_:)`` for a deck that is not the 52 cards once each.
  public static func deal(_ options: Options, seed: UInt64, later: LaterSeeds)
    throws(RuleViolation) -> State
  {
    try validate(options)
    var random = SplitMix64(seed: seed)
    let deck = options.deck ?? random.shuffled(PlayingCard.standardDeck)
    let seats = seats(forPlayerCount: options.players.count)
    let players = zip(options.players, seats).map { id, seat in
      Player(id: id, seat: seat, isComputer: options.computer.contains(id))
    }
    let startingSeat: Seat
    if let starting = options.starting, let player = players.first(where: { $0.id == starting }) {
      startingSeat = player.seat
    } else {
      startingSeat = players[random.nextInt(below: players.count)].seat
    }
    var state = State(
      players: players, startingSeat: startingSeat, random: random, later: later)
    state.roundSeed = seed
    state.computerSpeed = options.computerSpeed
    deal(deck, in: &state)
    return state
  }

  /// The dealing pause of the first round.
  public static func opening(_ state: State, into outcome: inout Outcome<SnapGame>) {
    outcome.scheduled.append(dealingTimer)
  }

  /// Seconds the dealing of a round takes before the starting player is activated.
  public static var dealingDuration: Double { Double(deckSize) * dealInterval }

  static var dealingTimer: Scheduled<SnapGame> {
    Scheduled(after: dealingDuration, .start, key: .deal)
  }

  /// Deals `deck` one card at a time onto the top of the closed piles of the players present,
  /// clockwise from the starting seat.
  static func deal(_ deck: [PlayingCard], in state: inout State) {
    var order: [Int] = []
    var seat = state.startingSeat
    for _ in Seat.allCases {
      if let index = state.players.firstIndex(where: { $0.seat == seat && !$0.hasLeft }) {
        order.append(index)
      }
      seat = seat.clockwise
    }
    for index in state.players.indices {
      state.players[index].closed = []
      state.players[index].open = []
    }
    for (position, card) in deck.enumerated() {
      state.players[order[position % order.count]].closed.append(card)
    }
  }

  private static func validate(_ options: Options) throws(RuleViolation) {
    let players = options.players
    guard (2...4).contains(players.count) else {
      throw .invalidOptions("Snap! is played by 2 to 4 players, not \(players.count).")
    }
    guard Set(players).count == players.count else {
      throw .invalidOptions("Every player needs a different name.")
    }
    if let bad = players.first(where: {
      $0.rawValue.allSatisfy(\.isWhitespace) || $0 == .referee
    }) {
      throw .invalidOptions("\"\(bad)\" cannot be a player's name.")
    }
    if let stranger = options.computer.sorted().first(where: { !players.contains($0) }) {
      throw .invalidOptions("The computer player \(stranger) is not one of the players.")
    }
    if let starting = options.starting, !players.contains(starting) {
      throw .invalidOptions("The starting player \(starting) is not one of the players.")
    }
    if let deck = options.deck {
      guard deck.count == deckSize else {
        throw .invalidDeck("Snap! deals all 52 cards, each once; this deck has \(deck.count).")
      }
      var seen = Set<PlayingCard>()
      if let twice = deck.first(where: { !seen.insert($0).inserted }) {
        throw .invalidDeck("Snap! deals all 52 cards, each once; \(twice) appears twice.")
      }
    }
  }
}
