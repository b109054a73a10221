import CardTableCore
import ChoiceTable

extension MatchingGame {
  /// Deals `options.cards` cards face down from a deck shuffled with `seed`, or from the given
  /// deck in its order (RULES §1.1); `later` draws the seeds of later deals.
  ///
  /// - Throws: ``RuleViolation/invalidOptions(_:)`` for settings out of range,
  ///   ``RuleViolation/invalidDeck(_:)`` for a deck with repeated cards or fewer than two.
  public static func deal(_ options: Options, seed: UInt64, later: LaterSeeds)
    throws(RuleViolation) -> State
  {
    guard cardRange.contains(options.cards) else {
      throw .invalidOptions("Cards to deal must be from 2 to 52, not \(options.cards).")
    }
    guard modes.contains(options.mode) else { throw .invalidMode(options.mode) }
    guard options.scoring.isValid else {
      throw .invalidOptions("Each setting must be from 0 to 10: \(options.scoring.summary).")
    }
    var deck: [PlayingCard]
    if let given = options.deck {
      guard given.count >= 2, Set(given).count == given.count else {
        throw .invalidDeck("A Matchismo deck lists at least 2 playing cards, each at most once.")
      }
      deck = given
    } else {
      deck = shuffledDeck(seed: seed)
    }
    // NB: a given deck shorter than the table fills only as many positions as it has cards.
    let dealt = Array(deck.prefix(options.cards))
    deck.removeFirst(dealt.count)
    var state = State(
      table: Table(cards: dealt), deck: deck, mode: options.mode, cards: options.cards,
      scoring: options.scoring, seed: seed, later: later)
    state.over = hint(in: state) == nil
    return state
  }

  /// A game over at its deal (a given deck or a tiny table with no match) is still a game
  /// played, and recorded, ended by its own deal.
  public static func opening(_ state: State, into outcome: inout Outcome<MatchingGame>) {
    if state.over { outcome.marks.append(.ended(record(of: state, .finished))) }
  }

  /// The 52-card deck shuffled by a generator seeded with `seed`.
  public static func shuffledDeck(seed: UInt64) -> [PlayingCard] {
    var random = SplitMix64(seed: seed)
    return random.shuffled(PlayingCard.standardDeck)
  }

  /// Replaces the game with a fresh deal of the same settings and mode, its seed the next of
  /// the later seeds (RULES §1.5).
  static func redeal(_ state: inout State) {
    let seed = state.later.next()
    var deck = shuffledDeck(seed: seed)
    let dealt = Array(deck.prefix(state.cards))
    deck.removeFirst(dealt.count)
    state.table = Table(cards: dealt)
    state.deck = deck
    state.seed = seed
    state.redealt = true
    state.over = hint(in: state) == nil
  }

  /// The current game given up before it was over.
  public static func abandonedRecord(of state: State) -> GameRecord<Settings>? {
    state.over ? nil : record(of: state, .abandoned)
  }

  /// The record of the current game, ended now.
  static func record(of state: State, _ ending: GameEnding) -> GameRecord<Settings> {
    GameRecord(
      settings: state.settings, seed: state.seed, score: state.table.score,
      moves: state.table.flips, ending: ending)
  }
}
