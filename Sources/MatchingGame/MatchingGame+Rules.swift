import CardTableCore
import ChoiceTable

extension MatchingGame {
  /// Applies a choice, a deal, a mode change or a hint request (RULES §1.2–§1.5).
  ///
  /// A choice is refused on a matched card, an index off the table and after the game; a mode
  /// change once a card has been chosen. A refusal leaves the state unchanged.
  public static func apply(
    _ action: Action, by player: PlayerID, to state: inout State,
    into outcome: inout Outcome<MatchingGame>
  ) throws(RuleViolation) {
    switch action {
    case .choose(let index): try choose(index, in: &state, into: &outcome)
    case .deal: deal(&state, into: &outcome)
    case .setMode(let mode): try setMode(mode, in: &state, into: &outcome)
    case .hint:
      let cards = hint(in: state) ?? []
      state.table.mark(hint: cards)
      outcome.events.append(.hinted(Array(cards)))
    }
  }

  public static func isOver(_ state: State) -> Bool { state.over }

  /// The table and the deck hold distinct cards, at most 52.
  public static func invariantViolation(in state: State) -> String? {
    let cards = state.table.slots.map(\.card) + state.deck
    return Set(cards).count == cards.count ? nil : "a card is on the table or in the deck twice"
  }

  private static func choose(
    _ index: Int, in state: inout State, into outcome: inout Outcome<MatchingGame>
  ) throws(RuleViolation) {
    guard !state.over else { throw .gameOver }
    guard state.table.slots.indices.contains(index) else { throw .noSuchCard(index) }
    guard !state.table.slots[index].matched else { throw .cardAlreadyMatched(index) }

    let move = state.table.choose(index, mode: state.mode, scoring: state.scoring)
    let card = state.table.slots[index].card
    switch move.kind {
    case .unchosen:
      outcome.events.append(.unchosen(index: index))
    case .chosen:
      outcome.events.append(.chosen(index: index, card: card))
    case .mismatched(let penalty):
      outcome.events.append(.chosen(index: index, card: card))
      outcome.events.append(.mismatched(cards: Array(move.cards), penalty: penalty))
    case .matched(let points, let reason):
      outcome.events.append(.chosen(index: index, card: card))
      outcome.events.append(.matched(cards: Array(move.cards), points: points, reason: reason))
      state.over = hint(in: state) == nil
      if state.over { end(state, into: &outcome) }
    }
  }

  private static func deal(_ state: inout State, into outcome: inout Outcome<MatchingGame>) {
    let abandoned = state.over ? nil : record(of: state, .abandoned)
    if let abandoned { outcome.marks.append(.ended(abandoned)) }
    redeal(&state)
    outcome.marks.append(.dealt)
    outcome.events.append(.dealt(seed: state.seed, abandoned: abandoned))
    if state.over { end(state, into: &outcome) }
  }

  private static func setMode(
    _ mode: Int, in state: inout State, into outcome: inout Outcome<MatchingGame>
  ) throws(RuleViolation) {
    guard modes.contains(mode) else { throw .invalidMode(mode) }
    guard !state.over else { throw .gameOver }
    guard !state.modeLocked else { throw .modeLocked }
    state.mode = mode
    // NB: a hint names combinations of the old size; a table without one in the new mode is over.
    state.table.mark(hint: [])
    state.over = hint(in: state) == nil
    outcome.events.append(.modeSet(mode))
    if state.over { end(state, into: &outcome) }
  }

  /// The game is over: its record goes to the match and to the `gameOver` event.
  private static func end(_ state: State, into outcome: inout Outcome<MatchingGame>) {
    let finished = record(of: state, .finished)
    outcome.marks.append(.ended(finished))
    outcome.events.append(.gameOver(finished))
  }
}
