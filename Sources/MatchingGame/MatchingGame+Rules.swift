import CardTableCore

extension MatchingGame {
  /// Applies a choice, a deal, a mode change or a hint request (RULES §1.2–§1.5).
  ///
  /// A choice is refused on a matched card, an index off the table and after the game; a mode
  /// change once a card has been chosen. A refusal leaves the state unchanged.
  public static func apply(_ action: Action, by player: PlayerID, to state: inout State)
    throws(RuleViolation) -> Outcome<Event, Action>
  {
    let events: [Event]
    switch action {
    case .choose(let index): events = try choose(index, in: &state)
    case .deal: events = deal(&state)
    case .setMode(let mode): events = try setMode(mode, in: &state)
    case .hint:
      let cards = hint(in: state) ?? []
      state.table.mark(hint: cards)
      events = [.hinted(cards)]
    }
    state.ledger.accept()
    return Outcome(events: events)
  }

  public static func isOver(_ state: State) -> Bool { state.over }

  public static func records(of state: State) -> [GameRecord] { state.ledger.records }

  private static func choose(_ index: Int, in state: inout State) throws(RuleViolation) -> [Event] {
    guard !state.over else { throw .gameOver }
    guard state.table.slots.indices.contains(index) else { throw .noSuchCard(index) }
    guard !state.table.slots[index].matched else { throw .cardAlreadyMatched(index) }

    let move = state.table.choose(index, mode: state.mode, scoring: state.scoring)
    state.ledger.moves += 1
    let card = state.table.slots[index].card
    switch move.kind {
    case .unchosen:
      return [.unchosen(index: index)]
    case .chosen:
      return [.chosen(index: index, card: card)]
    case .mismatched(let penalty):
      return [.chosen(index: index, card: card), .mismatched(cards: move.cards, penalty: penalty)]
    case .matched(let points, let reason):
      var events: [Event] = [
        .chosen(index: index, card: card),
        .matched(cards: move.cards, points: points, reason: reason),
      ]
      state.over = hint(in: state) == nil
      if state.over { events.append(.gameOver(close(&state, .finished))) }
      return events
    }
  }

  private static func deal(_ state: inout State) -> [Event] {
    let abandoned = state.over ? nil : close(&state, .abandoned)
    redeal(&state)
    state.ledger.startGame()
    var events: [Event] = [.dealt(seed: state.seed, abandoned: abandoned)]
    if state.over { events.append(.gameOver(close(&state, .finished))) }
    return events
  }

  private static func setMode(_ mode: Int, in state: inout State) throws(RuleViolation) -> [Event] {
    guard modes.contains(mode) else { throw .invalidMode(mode) }
    guard !state.over else { throw .gameOver }
    guard !state.modeLocked else { throw .modeLocked }
    state.mode = mode
    // NB: a hint names combinations of the old size; a table without one in the new mode is over.
    state.table.mark(hint: [])
    state.over = hint(in: state) == nil
    var events: [Event] = [.modeSet(mode)]
    if state.over { events.append(.gameOver(close(&state, .finished))) }
    return events
  }

  static func close(_ state: inout State, _ ending: GameEnding, atDeal: Bool = false)
    -> GameRecord
  {
    state.ledger.close(
      game: name, options: "cards \(state.cards), mode \(state.mode), \(state.scoring.summary)",
      seed: state.seed, score: state.table.score, ending: ending, atDeal: atDeal)
  }
}
