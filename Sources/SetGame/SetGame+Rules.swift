import CardTableCore
import ChoiceTable

extension SetGame {
  /// Applies a choice, +3, a deal, a hint request or a leaving (RULES §2); a race has rules of
  /// its own (``applyInRace(_:by:to:into:)``).
  ///
  /// A choice is refused off the table and after the game, +3 on an empty deck, and in
  /// two-player Set a named player's move out of turn. A refusal leaves the state unchanged.
  public static func apply(
    _ action: Action, by player: PlayerID, to state: inout State,
    into outcome: inout Outcome<SetGame>
  ) throws(RuleViolation) {
    if state.isRace {
      try applyInRace(action, by: player, to: &state, into: &outcome)
      return
    }
    switch action {
    case .choose(let index): try choose(index, by: player, in: &state, into: &outcome)
    case .chooseCard(let face, let index):
      guard !state.over else { throw .gameOver }
      try choose(locate(face, at: index, in: state), by: player, in: &state, into: &outcome)
    case .dealThree: try dealThree(by: player, in: &state, into: &outcome)
    case .deal: deal(&state, into: &outcome)
    case .hint:
      let cards = hint(in: state) ?? []
      state.table.mark(hint: cards)
      outcome.events.append(.hinted(Array(cards)))
    case .leave:
      // NB: alone or at one shared table, whoever leaves gives the game up.
      guard !state.over else { throw .gameOver }
      state.deserted = true
      state.over = true
      outcome.events.append(.left(player))
      outcome.marks.append(.ended(record(of: state, .abandoned)))
    }
  }

  /// Where the card a player saw as `face` at `index` is now: there, or wherever the table
  /// moved it.
  ///
  /// - Throws: ``RuleViolation/cardAlreadyMatched(_:)`` when it has been found and left the
  ///   table, ``RuleViolation/noSuchCard(_:)`` when it is not on the table at all.
  static func locate(_ face: SetCard, at index: Int, in state: State) throws(RuleViolation) -> Int {
    let slots = state.table.slots
    if slots.indices.contains(index), slots[index].card == face { return index }
    if let moved = slots.firstIndex(where: { $0.card == face }) { return moved }
    if state.table.found.contains(where: { $0.cards.contains(face) }) {
      throw .cardAlreadyMatched(face)
    }
    throw .noSuchCard(index)
  }

  public static func isOver(_ state: State) -> Bool { state.over }

  /// The table, the deck and the found sets together hold each of the 81 cards at most once;
  /// in a race, every selection holds at most two cards of the table, and the players' scores
  /// add up to the table's.
  public static func invariantViolation(in state: State) -> String? {
    let cards =
      state.table.slots.map(\.card) + state.deck + state.table.found.flatMap { Array($0.cards) }
    guard Set(cards).count == cards.count else { return "a Set card is in play twice" }
    guard state.isRace else { return nil }
    let onTable = Set(state.table.slots.map(\.card))
    for racer in state.racers {
      guard racer.selection.count < mode, racer.selection.allSatisfy(onTable.contains),
        Set(racer.selection).count == racer.selection.count
      else { return "\(racer.id)'s selection is not of the table" }
      if racer.hasLeft, !racer.selection.isEmpty || racer.askedForThree {
        return "\(racer.id) left but still plays"
      }
    }
    guard state.racers.reduce(0, { $0 + $1.score }) == state.table.score else {
      return "the racers' scores do not add up to the table's"
    }
    return nil
  }

  /// The first set on the table in lexicographic order of indices (RULES §2), or nil.
  @inlinable
  public static func hint(in state: State) -> Hand<Int>? {
    SetFinder.firstSet(in: state.table.slots) { $0.card }
  }

  /// The next move of a player who follows the hint: un-choose a chosen card outside it, choose
  /// the hinted cards in order, or ask for three more cards; nil when the game is over.
  public static func hintedAction(in state: State) -> Action? {
    guard !state.over else { return nil }
    guard let cards = hint(in: state) else { return .dealThree }
    let slots = state.table.slots
    if let stray = slots.indices.first(where: {
      slots[$0].chosen && !slots[$0].matched && !cards.contains($0)
    }) {
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

  private static func choose(
    _ index: Int, by player: PlayerID, in state: inout State,
    into outcome: inout Outcome<SetGame>
  ) throws(RuleViolation) {
    guard !state.over else { throw .gameOver }
    guard state.table.slots.indices.contains(index) else { throw .noSuchCard(index) }
    try checkTurn(of: player, in: state)

    let move = state.table.choose(index, mode: mode, scoring: state.scoring)
    if state.twoPlayer { state.playerScores[state.current] += move.scoreChange }
    let card = state.table.slots[index].card
    switch move.kind {
    case .unchosen:
      outcome.events.append(.unchosen(index: index))
    case .chosen:
      outcome.events.append(.chosen(index: index, card: card))
    case .mismatched(let penalty):
      outcome.events.append(.chosen(index: index, card: card))
      outcome.events.append(.mismatched(cards: Array(move.cards), penalty: penalty))
      if state.twoPlayer { outcome.events.append(passTurn(&state)) }
    case .matched(let points, let reason):
      let faces = move.cards.map { state.table.slots[$0].card }
      outcome.events.append(.chosen(index: index, card: card))
      outcome.events.append(
        .matched(cards: Array(move.cards), faces: faces, points: points, reason: reason))
      clear(move.cards.sorted(), in: &state, into: &outcome)
      state.over = checkOver(state)
      if state.over { end(state, into: &outcome) }
    }
  }

  /// Found cards leave the table, the others keeping their order; with `refill`, replacements
  /// take the first of their positions until the table holds 12 again.
  static func clear(
    _ positions: [Int], in state: inout State, into outcome: inout Outcome<SetGame>
  ) {
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
      if count > 0 { outcome.events.append(.refilled(cards: filled, faces: faces)) }
    }
    state.table.remove(leaving)
    if !leaving.isEmpty { outcome.events.append(.removed(leaving)) }
  }

  private static func dealThree(
    by player: PlayerID, in state: inout State, into outcome: inout Outcome<SetGame>
  ) throws(RuleViolation) {
    guard !state.deserted else { throw .gameOver }
    guard !state.deck.isEmpty else { throw .deckEmpty }
    try checkTurn(of: player, in: state)

    let charge = hint(in: state) == nil ? 0 : 3 * state.scoring.mismatchPenalty
    state.table.score -= charge
    state.charges += charge
    state.plusThrees += 1
    if state.twoPlayer { state.playerScores[state.current] -= charge }
    dealMore(charge: charge, in: &state, into: &outcome)
    if state.twoPlayer && charge > 0 { outcome.events.append(passTurn(&state)) }
    state.over = checkOver(state)
    if state.over { end(state, into: &outcome) }
  }

  /// Deals three more cards (fewer when the deck runs short) at the end of the table.
  static func dealMore(charge: Int, in state: inout State, into outcome: inout Outcome<SetGame>) {
    let faces = Array(state.deck.prefix(3))
    state.deck.removeFirst(faces.count)
    let first = state.table.slots.count
    state.table.slots += faces.map(Table.Slot.init(card:))
    outcome.events.append(
      .dealtThree(cards: Array(first..<state.table.slots.count), faces: faces, charge: charge))
  }

  static func deal(_ state: inout State, into outcome: inout Outcome<SetGame>) {
    let abandoned = state.over ? nil : record(of: state, .abandoned)
    if let abandoned { outcome.marks.append(.ended(abandoned)) }
    redeal(&state)
    outcome.marks.append(.dealt)
    outcome.events.append(.dealt(seed: state.seed, abandoned: abandoned))
    if state.over { end(state, into: &outcome) }
  }

  private static func passTurn(_ state: inout State) -> Event {
    state.current = 1 - state.current
    return .turnPassed(to: state.currentPlayer)
  }

  /// The game is over: its record goes to the match and to the `gameOver` event.
  static func end(_ state: State, into outcome: inout Outcome<SetGame>) {
    let finished = record(of: state, .finished)
    outcome.marks.append(.ended(finished))
    outcome.events.append(.gameOver(finished))
  }
}
