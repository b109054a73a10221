import CardTableCore
import MatchingGame

extension SetGame {
  /// Applies a choice, +3, a deal or a hint request (RULES §2).
  ///
  /// A choice is refused off the table and after the game, +3 on an empty deck, and in
  /// two-player Set a named player's move out of turn. A refusal leaves the state unchanged.
  public static func apply(_ action: Action, by player: PlayerID, to state: inout State)
    throws(RuleViolation) -> Outcome<Event, Action>
  {
    let events: [Event]
    switch action {
    case .choose(let index): events = try choose(index, by: player, in: &state)
    case .dealThree: events = try dealThree(by: player, in: &state)
    case .deal: events = deal(&state)
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

  /// The first set on the table in lexicographic order of indices (RULES §2), or nil.
  public static func hint(in state: State) -> [Int]? {
    SetFinder.firstSet(in: state.table.slots.map(\.card))
  }

  /// The next move of a player who follows the hint: un-choose a chosen card outside it, choose
  /// the hinted cards in order, or ask for three more cards; nil when the game is over.
  public static func hintedAction(in state: State) -> Action? {
    guard !state.over else { return nil }
    guard let cards = hint(in: state) else { return .dealThree }
    let slots = state.table.slots
    if let stray = state.table.chosenIndices.first(where: { !cards.contains($0) }) {
      return .choose(stray)
    }
    return cards.first { !slots[$0].chosen }.map(Action.choose)
  }

  /// In two-player Set a move by `P1` or `P2` must be the current player's; any other
  /// participant (the shared device) moves for whoever's turn it is.
  private static func checkTurn(of player: PlayerID, in state: State) throws(RuleViolation) {
    guard state.twoPlayer, players.contains(player), player != state.currentPlayer else { return }
    throw .notYourTurn(state.currentPlayer)
  }

  private static func choose(_ index: Int, by player: PlayerID, in state: inout State)
    throws(RuleViolation) -> [Event]
  {
    guard !state.over else { throw .gameOver }
    guard state.table.slots.indices.contains(index) else { throw .noSuchCard(index) }
    try checkTurn(of: player, in: state)

    let move = state.table.choose(index, mode: mode, scoring: state.scoring)
    state.ledger.moves += 1
    if state.twoPlayer { state.playerScores[state.current] += move.scoreChange }
    let card = state.table.slots[index].card
    switch move.kind {
    case .unchosen:
      return [.unchosen(index: index)]
    case .chosen:
      return [.chosen(index: index, card: card)]
    case .mismatched(let penalty):
      var events: [Event] = [
        .chosen(index: index, card: card), .mismatched(cards: move.cards, penalty: penalty),
      ]
      if state.twoPlayer { events.append(passTurn(&state)) }
      return events
    case .matched(let points, let reason):
      let faces = move.cards.map { state.table.slots[$0].card }
      var events: [Event] = [
        .chosen(index: index, card: card),
        .matched(cards: move.cards, faces: faces, points: points, reason: reason),
      ]
      events += clear(move.cards.sorted(), in: &state)
      state.over = checkOver(state)
      if state.over { events.append(.gameOver(close(&state, .finished))) }
      return events
    }
  }

  /// Found cards leave the table, the others keeping their order; with `refill`, replacements
  /// take the first of their positions until the table holds 12 again.
  private static func clear(_ positions: [Int], in state: inout State) -> [Event] {
    var events: [Event] = []
    var leaving = positions
    if state.refill {
      let remaining = state.table.slots.count - positions.count
      let count = min(state.deck.count, max(0, tableSize - remaining), positions.count)
      let filled = Array(positions.prefix(count))
      let faces = Array(state.deck.prefix(count))
      state.deck.removeFirst(count)
      for (position, card) in zip(filled, faces) {
        state.table.slots[position] = Table.Slot(card: card)
      }
      leaving.removeFirst(count)
      if count > 0 { events.append(.refilled(cards: filled, faces: faces)) }
    }
    for position in leaving.reversed() { state.table.slots.remove(at: position) }
    if !leaving.isEmpty { events.append(.removed(leaving)) }
    return events
  }

  private static func dealThree(by player: PlayerID, in state: inout State) throws(RuleViolation)
    -> [Event]
  {
    guard !state.deck.isEmpty else { throw .deckEmpty }
    try checkTurn(of: player, in: state)

    let charge = hint(in: state) == nil ? 0 : 3 * state.scoring.mismatchPenalty
    state.table.score -= charge
    state.charges += charge
    state.ledger.moves += 1
    if state.twoPlayer { state.playerScores[state.current] -= charge }
    let faces = Array(state.deck.prefix(3))
    state.deck.removeFirst(faces.count)
    let first = state.table.slots.count
    state.table.slots += faces.map(Table.Slot.init(card:))
    var events: [Event] = [
      .dealtThree(cards: Array(first..<state.table.slots.count), faces: faces, charge: charge)
    ]
    if state.twoPlayer && charge > 0 { events.append(passTurn(&state)) }
    state.over = checkOver(state)
    if state.over { events.append(.gameOver(close(&state, .finished))) }
    return events
  }

  private static func deal(_ state: inout State) -> [Event] {
    let abandoned = state.over ? nil : close(&state, .abandoned)
    redeal(&state)
    state.ledger.startGame()
    var events: [Event] = [.dealt(seed: state.seed, abandoned: abandoned)]
    if state.over { events.append(.gameOver(close(&state, .finished))) }
    return events
  }

  private static func passTurn(_ state: inout State) -> Event {
    state.current = 1 - state.current
    return .turnPassed(to: state.currentPlayer)
  }

  static func close(_ state: inout State, _ ending: GameEnding, atDeal: Bool = false)
    -> GameRecord
  {
    let scores =
      state.twoPlayer
      ? zip(players, state.playerScores).map { PlayerScore(player: $0, score: $1) } : []
    return state.ledger.close(
      game: name,
      options:
        "refill \(state.refill ? "on" : "off"), twoPlayer \(state.twoPlayer ? "on" : "off"), "
        + state.scoring.summary,
      seed: state.seed, score: state.table.score, players: scores, ending: ending,
      atDeal: atDeal)
  }
}
