import CardTableCore
import ChoiceTable

/// Set as a race (2–4 ``Options/players``).
///
/// - Every player may choose at any time, into a **selection of their own** of up to three
///   cards; choosing one of your own chosen cards un-chooses it, for free (RULES §1.2 step 2).
///   Each card chosen costs that player ``MatchScoring/costToChoose``.
/// - A selection of three is **judged at once**: a set scores 4 × `matchBonus` for its finder,
///   its cards leave the table as in a game alone (replaced in place with `refill`, else the
///   table closes up), and they leave every other player's selection too (selections hold
///   cards, not positions, so they stay right when the table moves). Not a set costs the
///   player `mismatchPenalty` and clears their selection but for the card just chosen.
/// - The first valid set the engine receives wins: a later `chooseCard` naming a card already
///   gone is refused `card-matched` (the room orders the calls).
/// - **+3 by agreement**: `dealThree` records the player's request; once every player still in
///   has asked since the last three were dealt, three cards are dealt with no charge, since
///   everyone agreed that no set showed.
/// - `leave` takes a player out, their score kept; if everyone left has asked, the three are
///   dealt. The last player leaving ends the game unfinished.
/// - **No hints** in a race (`not-in-a-race`): a hint would hand one racer the answer.
/// - *Deal* waits for the end of the game (`game-not-over`), then deals the same players a new
///   race; players who left stay out.
/// - The game ends as a game alone does: the deck is empty and no set is left. The record
///   names every player's score and the winner, the highest (none on a tie).
extension SetGame {
  /// Applies a race's action by `player`; refused actions leave the state unchanged.
  static func applyInRace(
    _ action: Action, by player: PlayerID, to state: inout State,
    into outcome: inout Outcome<SetGame>
  ) throws(RuleViolation) {
    // NB: first, so that the `hint` command (which asks as nobody in particular) is told why.
    if case .hint = action { throw .notInARace }
    guard let index = state.racer(player) else { throw .notAPlayer(player) }
    guard !state.racers[index].hasLeft else { throw .playerLeft(player) }
    guard state.hasComputers else {
      try applyInRace(action, by: index, to: &state, into: &outcome)
      return
    }
    // NB: the computer racers plan again only when what they see changed: the cards showing.
    let showing = state.table.slots.map(\.card)
    let wasOver = state.over
    try applyInRace(action, by: index, to: &state, into: &outcome)
    if state.table.slots.map(\.card) != showing || state.over != wasOver {
      planComputers(&state, into: &outcome)
    }
  }

  /// Applies the action of the racer at `index`, who is still in.
  private static func applyInRace(
    _ action: Action, by index: Int, to state: inout State, into outcome: inout Outcome<SetGame>
  ) throws(RuleViolation) {
    let player = state.racers[index].id
    switch action {
    case .choose(let position):
      guard !state.over else { throw .gameOver }
      guard state.table.slots.indices.contains(position) else { throw .noSuchCard(position) }
      choose(position, by: index, in: &state, into: &outcome)
    case .chooseCard(let face, let position):
      guard !state.over else { throw .gameOver }
      choose(try locate(face, at: position, in: state), by: index, in: &state, into: &outcome)
    case .dealThree:
      guard !state.over else { throw .gameOver }
      guard !state.deck.isEmpty else { throw .deckEmpty }
      guard !state.racers[index].askedForThree else { throw .alreadyAsked }
      state.racers[index].askedForThree = true
      outcome.events.append(.askedForThree(by: player, waiting: waitingForThree(in: state)))
      dealIfAgreed(&state, into: &outcome)
    case .leave:
      guard !state.over else { throw .gameOver }
      leave(index, in: &state, into: &outcome)
    case .hint:
      throw .notInARace
    case .deal:
      guard state.over else { throw .gameNotOver }
      deal(&state, into: &outcome)
    }
  }

  /// The players still in who have not asked for three more cards, in seat order.
  static func waitingForThree(in state: State) -> [PlayerID] {
    state.racers.filter { !$0.hasLeft && !$0.askedForThree }.map(\.id)
  }

  /// The racer at `index` chooses the card at `position` (on the table).
  private static func choose(
    _ position: Int, by index: Int, in state: inout State, into outcome: inout Outcome<SetGame>
  ) {
    let card = state.table.slots[position].card
    let id = state.racers[index].id
    state.table.flips += 1
    if let chosen = state.racers[index].selection.firstIndex(of: card) {
      state.racers[index].selection.remove(at: chosen)
      outcome.events.append(
        .deselected(by: id, index: position, count: state.racers[index].selection.count))
      return
    }
    // NB: the move's cards are the player's earlier choices in table order, then the new card.
    let earlier = state.racers[index].selection.compactMap { chosen in
      state.table.slots.firstIndex { $0.card == chosen }
    }
    let cards = earlier.sorted() + [position]
    state.racers[index].selection.append(card)
    state.table.choices += 1
    let count = state.racers[index].selection.count
    outcome.events.append(.selected(by: id, index: position, card: card, count: count))
    let cost = state.scoring.costToChoose
    guard count == mode else {
      score(-cost, for: index, in: &state)
      return
    }

    let faces = cards.map { state.table.slots[$0].card }
    let hand = Hand<SetCard>(faces)
    let inTableOrder = cards.sorted()
    let tableFaces = inTableOrder.map { state.table.slots[$0].card }
    guard Rule.match(hand) > 0 else {
      let penalty = state.scoring.mismatchPenalty
      score(-penalty - cost, for: index, in: &state)
      state.racers[index].selection = [card]
      state.claims.append(
        Claim(
          player: id,
          play: Table.Play(cards: Hand<SetCard>(tableFaces), result: .mismatched(penalty: penalty)))
      )
      outcome.events.append(.missed(by: id, cards: inTableOrder, penalty: penalty))
      return
    }
    let points = Rule.match(hand) * state.scoring.matchBonus
    let reason = Rule.reason(hand)
    score(points - cost, for: index, in: &state)
    state.racers[index].selection = []
    state.table.found.append(
      Table.FoundMatch(cards: Hand<SetCard>(tableFaces), points: points, reason: reason))
    state.claims.append(
      Claim(
        player: id,
        play: Table.Play(cards: Hand<SetCard>(tableFaces), result: .matched(points: points))))
    outcome.events.append(
      .found(by: id, cards: cards, faces: faces, points: points, reason: reason))
    // NB: the found cards leave every other selection before the table moves.
    for other in state.racers.indices where other != index {
      for (position, face) in zip(inTableOrder, tableFaces) {
        guard let chosen = state.racers[other].selection.firstIndex(of: face) else { continue }
        state.racers[other].selection.remove(at: chosen)
        outcome.events.append(
          .deselected(
            by: state.racers[other].id, index: position,
            count: state.racers[other].selection.count))
      }
    }
    clear(inTableOrder, in: &state, into: &outcome)
    state.over = checkOver(state)
    if state.over { end(state, into: &outcome) }
  }

  /// Adds `change` to the racer's score and the table's.
  private static func score(_ change: Int, for index: Int, in state: inout State) {
    state.racers[index].score += change
    state.table.score += change
  }

  /// Deals three cards, free, once every player still in has asked.
  private static func dealIfAgreed(_ state: inout State, into outcome: inout Outcome<SetGame>) {
    guard waitingForThree(in: state).isEmpty, !state.deck.isEmpty,
      state.racers.contains(where: { !$0.hasLeft })
    else { return }
    for index in state.racers.indices { state.racers[index].askedForThree = false }
    state.plusThrees += 1
    dealMore(charge: 0, in: &state, into: &outcome)
    state.over = checkOver(state)
    if state.over { end(state, into: &outcome) }
  }

  /// The racer at `index` leaves: their selection and request go, their score stays.
  private static func leave(
    _ index: Int, in state: inout State, into outcome: inout Outcome<SetGame>
  ) {
    state.racers[index].hasLeft = true
    state.racers[index].selection = []
    state.racers[index].askedForThree = false
    outcome.events.append(.left(state.racers[index].id))
    // NB: computer racers do not race on for nobody: the last person leaving ends the game.
    let people = state.racers.contains { !$0.isComputer }
    guard state.racers.contains(where: { !$0.hasLeft && (!$0.isComputer || !people) }) else {
      state.deserted = true
      state.over = true
      outcome.marks.append(.ended(record(of: state, .abandoned)))
      return
    }
    if state.racers.contains(where: \.askedForThree) { dealIfAgreed(&state, into: &outcome) }
  }
}
