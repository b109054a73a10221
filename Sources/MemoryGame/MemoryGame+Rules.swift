import CardTableCore

extension MemoryGame {
  /// Applies a tap or a timer's resolution (RULES §3 and §4).
  ///
  /// A tap is refused while two cards wait to be resolved, on a face-up, removed or matched
  /// card, and after the game; the refusal leaves the state unchanged.
  public static func apply(
    _ action: Action, by player: PlayerID, to state: inout State,
    into outcome: inout Outcome<MemoryGame>
  ) throws(RuleViolation) {
    switch action {
    case .flip(let index): try flip(index, in: &state, into: &outcome)
    case .resolve:
      guard player == .referee else { throw .onlyTheTimerResolves }
      try resolve(&state, into: &outcome)
    }
  }

  /// Whether two cards make a pair: same card in Memory, same rank in Concentration.
  @inlinable
  public static func isPair(_ a: PlayingCard, _ b: PlayingCard, variant: Variant) -> Bool {
    switch variant {
    case .memory: a == b
    case .concentration: a.rank == b.rank
    }
  }

  public static func isOver(_ state: State) -> Bool {
    state.pairsFound == state.pairCount && state.resolving == nil
  }

  /// Memory holds each card exactly twice; Concentration each of the 52 once.
  public static func invariantViolation(in state: State) -> String? {
    var counts = [Int](repeating: 0, count: 52)
    for position in state.board { counts[position.card.deckIndex] += 1 }
    let expected = state.variant == .memory ? [0, 2] : [1]
    return counts.allSatisfy(expected.contains)
      ? nil : "a card is on the board the wrong number of times"
  }

  private static func flip(
    _ index: Int, in state: inout State, into outcome: inout Outcome<MemoryGame>
  ) throws(RuleViolation) {
    guard !isOver(state) else { throw .gameOver }
    guard state.board.indices.contains(index) else { throw .noSuchCard(index) }
    let position = state.board[index]
    guard !position.removed else { throw .cardRemoved(index) }
    guard !position.matched else { throw .cardMatched(index) }
    guard state.turned.count < 2 else { throw .pairPending }
    guard !position.faceUp else { throw .cardAlreadyFaceUp(index) }

    state.board[index].faceUp = true
    state.flips += 1
    state.turned.append(index)
    outcome.events.append(.flipped(index: index, card: position.card))
    guard state.turned.count == 2 else { return }

    let first = state.turned[0]
    state.moves += 1
    if isPair(state.board[first].card, position.card, variant: state.variant) {
      state.pairsFound += 1
      outcome.events.append(.matched(first, index))
      switch state.variant {
      case .memory:
        state.resolving = .removeMatch
        outcome.scheduled.append(Scheduled(after: removalDelay, .resolve, key: .resolve))
      case .concentration:
        state.board[first].matched = true
        state.board[index].matched = true
        state.turned = Hand()
        if isOver(state) { finish(state, into: &outcome) }
      }
      return
    }
    outcome.events.append(.mismatched(first, index))
    state.resolving = .turnDownMismatch
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
    case .turnDownMismatch:
      state.board[first].faceUp = false
      state.board[second].faceUp = false
      outcome.events.append(.turnedDown(first, second))
    }
    state.turned = Hand()
    state.resolving = nil
    if isOver(state) { finish(state, into: &outcome) }
  }

  /// The game given up before every pair was found.
  public static func abandonedRecord(of state: State) -> GameRecord<Settings>? {
    guard !isOver(state) else { return nil }
    return GameRecord(
      settings: state.settings, seed: state.seed, score: state.score, moves: state.moves,
      ending: .abandoned)
  }

  /// Every pair is found: the `finished` event, and the game's record for the match.
  private static func finish(_ state: State, into outcome: inout Outcome<MemoryGame>) {
    outcome.events.append(.finished(score: state.score, moves: state.moves))
    outcome.marks.append(
      .ended(
        GameRecord(
          settings: state.settings, seed: state.seed, score: state.score, moves: state.moves,
          ending: .finished)))
  }
}
