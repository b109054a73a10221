import CardTableCore

extension MemoryGame {
  /// Applies a tap, a timer's resolution or a player's leaving (RULES §3 and §4).
  ///
  /// A tap is refused while two cards wait to be resolved, on a face-up, removed or matched
  /// card, and after the game; in a game in turns also from anyone but the player on turn.
  /// The refusal leaves the state unchanged.
  public static func apply(
    _ action: Action, by player: PlayerID, to state: inout State,
    into outcome: inout Outcome<MemoryGame>
  ) throws(RuleViolation) {
    switch action {
    case .flip(let index):
      if state.inTurns {
        let seat = try seat(of: player, in: state)
        guard !isOver(state) else { throw .gameOver }
        guard seat == state.turn else { throw .notYourTurn(state.playerOnTurn) }
      } else if state.players[0].isComputer, player != state.players[0].id {
        // NB: a game alone that the computer plays takes no one else's cards.
        throw .notYourTurn(state.players[0].id)
      }
      try flip(index, in: &state, into: &outcome)
      planComputerTurn(&state, into: &outcome)
    case .resolve:
      guard player == .referee else { throw .onlyTheTimerResolves }
      try resolve(&state, into: &outcome)
      planComputerTurn(&state, into: &outcome)
    case .leave:
      // NB: alone, whoever acts is the one player, as for a flip.
      let seat = state.inTurns ? try seat(of: player, in: state) : 0
      guard !state.players[seat].hasLeft else { throw .playerLeft(state.players[seat].id) }
      // NB: once the last pair is found the game is won, though its removal is pending.
      guard !isOver(state), state.pairsFound < state.pairCount else { throw .gameOver }
      let turn = state.turn
      leave(seat, in: &state, into: &outcome)
      // NB: only a turn handed on starts a computer's turn; one already planned goes on.
      if state.turn != turn { planComputerTurn(&state, into: &outcome) }
    }
  }

  /// The index of `player` among the players of a game in turns, who must not have left.
  private static func seat(of player: PlayerID, in state: State) throws(RuleViolation) -> Int {
    guard let index = state.index(of: player) else { throw .notAPlayer(player) }
    guard !state.players[index].hasLeft else { throw .playerLeft(player) }
    return index
  }

  /// Whether two cards make a pair: same card in Memory, same rank in Concentration.
  @inlinable
  public static func isPair(_ a: PlayingCard, _ b: PlayingCard, variant: Variant) -> Bool {
    switch variant {
    case .memory: a == b
    case .concentration: a.rank == b.rank
    }
  }

  @inlinable
  public static func isOver(_ state: State) -> Bool {
    (state.pairsFound == state.pairCount && state.resolving == nil) || state.deserted
  }

  /// Six actions a pair: a player who forgets nothing takes about five (two flips and the
  /// timer's resolution for each pair, and the mismatches of cards seen for the first time);
  /// a game with more mistakes grows its log from there.
  public static func expectedLogLength(of state: State) -> Int {
    max(32, 3 * state.board.count)
  }

  /// Memory holds each card exactly twice; Concentration each of the 52 once. The players'
  /// pairs add up to the pairs found, and the turn is with a player still in.
  public static func invariantViolation(in state: State) -> String? {
    var counts = [Int](repeating: 0, count: 52)
    for position in state.board { counts[position.card.deckIndex] += 1 }
    let expected = state.variant == .memory ? [0, 2] : [1]
    guard counts.allSatisfy(expected.contains) else {
      return "a card is on the board the wrong number of times"
    }
    guard state.players.reduce(0, { $0 + $1.pairs }) == state.pairsFound else {
      return "the players' pairs do not add up to the pairs found"
    }
    guard state.players.indices.contains(state.turn),
      !state.players[state.turn].hasLeft || state.deserted
    else { return "the turn is with nobody at the table" }
    return nil
  }

  private static func flip(
    _ index: Int, in state: inout State, into outcome: inout Outcome<MemoryGame>
  ) throws(RuleViolation) {
    guard !isOver(state) else { throw .gameOver }
    guard state.board.indices.contains(index) else { throw .noSuchCard(index) }
    let position = state.board[index]
    guard !position.removed else { throw .cardRemoved(index) }
    guard !position.matched else { throw .cardMatched(index) }
    guard state.turned.count < 2, state.resolving == nil else { throw .pairPending }
    guard !position.faceUp else { throw .cardAlreadyFaceUp(index) }

    // NB: Concentration's timer starts with the first card turned, not at the deal (RULES §7).
    if state.flips == 0, state.variant == .concentration { outcome.marks.append(.began) }
    state.board[index].faceUp = true
    state.flips += 1
    state.turned.append(index)
    outcome.events.append(.flipped(index: index, card: position.card))
    if state.hasComputers { remember(position.card, at: index, in: &state) }
    guard state.turned.count == 2 else { return }

    let first = state.turned[0]
    state.moves += 1
    if isPair(state.board[first].card, position.card, variant: state.variant) {
      if state.hasComputers { forget(first, index, in: &state) }
      state.pairsFound += 1
      state.players[state.turn].pairs += 1
      outcome.events.append(.matched(first, index))
      switch state.variant {
      case .memory:
        state.resolving = .removeMatch
        outcome.scheduled.append(Scheduled(after: removalDelay, .resolve, key: .resolve))
      case .concentration:
        state.board[first].matched = true
        state.board[index].matched = true
        state.turned = Hand()
        if isOver(state) {
          finish(state, into: &outcome)
        } else {
          // NB: the original takes no input in its Success state: a second to see the pair.
          state.resolving = .matchPause
          outcome.scheduled.append(Scheduled(after: matchPause, .resolve, key: .resolve))
        }
      }
      return
    }
    outcome.events.append(.mismatched(first, index))
    state.resolving = .turnDownMismatch
    state.passesTurn = state.inTurns
    switch state.variant {
    case .memory:
      state.score += 1
      outcome.scheduled.append(Scheduled(after: memoryMismatchDelay, .resolve, key: .resolve))
    case .concentration:
      outcome.scheduled.append(
        Scheduled(after: concentrationMismatchDelay, .resolve, key: .resolve))
    }
  }

  private static func resolve(_ state: inout State, into outcome: inout Outcome<MemoryGame>)
    throws(RuleViolation)
  {
    if state.resolving == .matchPause {
      state.resolving = nil
      outcome.events.append(.ready)
      return
    }
    guard let resolution = state.resolving, state.turned.count == 2 else {
      throw .nothingToResolve
    }
    let (first, second) = (state.turned[0], state.turned[1])
    switch resolution {
    case .removeMatch:
      for index in state.turned {
        state.board[index].removed = true
        state.board[index].faceUp = false
      }
      outcome.events.append(.removed(first, second))
    case .matchPause:
      break
    case .turnDownMismatch:
      state.board[first].faceUp = false
      state.board[second].faceUp = false
      outcome.events.append(.turnedDown(first, second))
      if state.passesTurn { outcome.events.append(passTurn(&state)) }
    }
    state.turned = Hand()
    state.resolving = nil
    state.passesTurn = false
    if isOver(state) { finish(state, into: &outcome) }
  }

  /// The player at `seat` leaves the turn order: the turn passes if it was theirs; the last
  /// one to leave (the last person, when computer players play too) ends the game unfinished.
  private static func leave(
    _ seat: Int, in state: inout State, into outcome: inout Outcome<MemoryGame>
  ) {
    state.players[seat].hasLeft = true
    outcome.events.append(.left(state.players[seat].id))
    // NB: computer players do not play on for nobody: the last person leaving ends the game.
    let people = state.players.contains { !$0.isComputer }
    guard state.players.contains(where: { !$0.hasLeft && (!$0.isComputer || !people) }) else {
      state.deserted = true
      state.passesTurn = false
      outcome.cancelled.append(.resolve)
      if state.hasComputers { outcome.cancelled.append(.computer) }
      outcome.marks.append(.ended(record(of: state, .abandoned)))
      return
    }
    guard seat == state.turn else { return }
    // NB: a pending mismatch would hand the turn on again when it is turned down.
    state.passesTurn = false
    outcome.events.append(passTurn(&state))
  }

  /// Hands the turn to the next player still in, in turn order.
  private static func passTurn(_ state: inout State) -> Event {
    var next = state.turn
    repeat {
      next = (next + 1) % state.players.count
    } while state.players[next].hasLeft && next != state.turn
    state.turn = next
    return .turnPassed(to: state.playerOnTurn)
  }

  /// The game given up before every pair was found.
  public static func abandonedRecord(of state: State) -> GameRecord<Settings>? {
    guard !isOver(state) else { return nil }
    return record(of: state, .abandoned)
  }

  /// Every pair is found: the `finished` event, and the game's record for the match.
  private static func finish(_ state: State, into outcome: inout Outcome<MemoryGame>) {
    outcome.events.append(.finished(score: state.score, moves: state.moves))
    outcome.marks.append(.ended(record(of: state, .finished)))
  }

  /// The record of the game ended now; a game in turns names each player's pairs and, when it
  /// finished with one player ahead, the winner.
  static func record(of state: State, _ ending: GameEnding) -> GameRecord<Settings> {
    guard state.inTurns else {
      return GameRecord(
        settings: state.settings, seed: state.seed, score: state.score, moves: state.moves,
        ending: ending)
    }
    let scores = state.players.map { PlayerScore(player: $0.id, score: $0.pairs) }
    return GameRecord(
      settings: state.settings, seed: state.seed, score: state.score, players: scores,
      moves: state.moves, ending: ending,
      winner: ending == .finished ? scores.soleLeader : nil)
  }
}
