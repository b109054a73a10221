import CardTableCore
import ChoiceTable

extension SetGame {
  /// Deals 12 cards face up from the 81-card deck shuffled with `seed`, or from the given deck
  /// in its order (RULES §2); `later` draws the seeds of later deals.
  ///
  /// - Throws: ``RuleViolation/invalidOptions(_:)`` for settings out of range,
  ///   ``RuleViolation/invalidDeck(_:)`` for an empty deck or one with a repeated card.
  public static func deal(_ options: Options, seed: UInt64, later: LaterSeeds)
    throws(RuleViolation) -> State
  {
    guard options.scoring.isValid else {
      throw .invalidOptions("Each setting must be from 0 to 10: \(options.scoring.summary).")
    }
    try validate(options.players, twoPlayer: options.twoPlayer)
    var deck: [SetCard]
    if let given = options.deck {
      guard !given.isEmpty, Set(given).count == given.count else {
        throw .invalidDeck("A Set deck lists at least one Set card, each at most once.")
      }
      deck = given
    } else {
      deck = shuffledDeck(seed: seed)
    }
    let dealt = Array(deck.prefix(tableSize))
    deck.removeFirst(dealt.count)
    var state = State(
      table: Table(cards: dealt), deck: deck, scoring: options.scoring, refill: options.refill,
      twoPlayer: options.twoPlayer, seed: seed, later: later)
    if options.players.count > 1 {
      state.racers = options.players.map {
        Racer(id: $0, isComputer: options.computer.contains($0))
      }
    }
    if let stranger = options.computer.sorted(by: { $0.rawValue < $1.rawValue })
      .first(where: { !options.players.contains($0) || options.players.count < 2 })
    {
      throw .invalidOptions("\(stranger) races for the computer but is not a racer.")
    }
    if !options.computer.isEmpty {
      state.computerLevel = options.computerLevel
      // NB: the racers draw after the deal, so a table with computers deals what one without does.
      state.random = SplitMix64(seed: seed ^ 0x7261_6365_7273_2121)
    }
    state.over = checkOver(state)
    return state
  }

  /// One player, or a race of 2 to 4 with names of their own (and not two-player Set, whose
  /// two players share one table).
  private static func validate(_ players: [PlayerID], twoPlayer: Bool) throws(RuleViolation) {
    guard (1...4).contains(players.count) else {
      throw .invalidOptions("Set is played by 1 to 4 players, not \(players.count).")
    }
    guard players.count == 1 || !twoPlayer else {
      throw .invalidOptions("A race seats its own players; two-player Set shares one table.")
    }
    guard Set(players).count == players.count else {
      throw .invalidOptions("Every player needs a different name.")
    }
    if let bad = players.first(where: { $0.rawValue.allSatisfy(\.isWhitespace) || $0 == .referee })
    {
      throw .invalidOptions("\"\(bad)\" cannot be a player's name.")
    }
  }

  /// Only a given deck can deal a game that is over at once; it is still recorded, ended by
  /// its own deal.
  public static func opening(_ state: State, into outcome: inout Outcome<SetGame>) {
    if state.over { outcome.marks.append(.ended(record(of: state, .finished))) }
    planComputersAtOpening(state, into: &outcome)
  }

  /// The 81-card deck shuffled by a generator seeded with `seed`.
  public static func shuffledDeck(seed: UInt64) -> [SetCard] {
    var random = SplitMix64(seed: seed)
    return random.shuffled(SetCard.fullDeck)
  }

  /// Replaces the game with a fresh deal of the same settings, its seed the next of the later
  /// seeds; both players' scores return to 0 and `P1` starts; a race starts again with the
  /// players still in.
  static func redeal(_ state: inout State) {
    let seed = state.later.next()
    var deck = shuffledDeck(seed: seed)
    let dealt = Array(deck.prefix(tableSize))
    deck.removeFirst(dealt.count)
    state.table = Table(cards: dealt)
    state.deck = deck
    state.seed = seed
    state.playerScores = [0, 0]
    state.current = 0
    state.charges = 0
    state.plusThrees = 0
    state.redealt = true
    state.deserted = false
    state.claims = []
    for index in state.racers.indices {
      state.racers[index].score = 0
      state.racers[index].selection = []
      state.racers[index].askedForThree = false
    }
    state.over = checkOver(state)
  }

  /// Whether the deck is empty and no set is left on the table.
  static func checkOver(_ state: State) -> Bool {
    state.deck.isEmpty && hint(in: state) == nil
  }

  /// The current game given up before it was over.
  public static func abandonedRecord(of state: State) -> GameRecord<Settings>? {
    state.over ? nil : record(of: state, .abandoned)
  }

  /// The record of the current game, ended now: its moves are the choices and the +3s; a
  /// finished race names its winner, the highest score (none on a tie).
  static func record(of state: State, _ ending: GameEnding) -> GameRecord<Settings> {
    let scores = state.scores
    return GameRecord(
      settings: state.settings, seed: state.seed, score: state.table.score,
      players: scores, moves: state.table.flips + state.plusThrees, ending: ending,
      winner: state.isRace && ending == .finished ? scores.soleLeader : nil)
  }
}
