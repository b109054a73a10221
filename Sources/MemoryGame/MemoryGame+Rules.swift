import CardTableCore

extension MemoryGame {
  /// Applies a tap or a timer's resolution (RULES §3 and §4).
  ///
  /// A tap is refused while two cards wait to be resolved, on a face-up, removed or matched
  /// card, and after the game; the refusal leaves the state unchanged.
  public static func apply(_ action: Action, by player: PlayerID, to state: inout State)
    throws(RuleViolation) -> Outcome<Event, Action>
  {
    var outcome: Outcome<Event, Action>
    switch action {
    case .flip(let index): outcome = try flip(index, in: &state)
    case .resolve:
      guard player == .referee else { throw .onlyTheTimerResolves }
      outcome = try resolve(&state)
    }
    state.ledger.moves = state.moves
    if outcome.events.contains(where: { if case .finished = $0 { true } else { false } }) {
      _ = state.ledger.close(
        game: state.variant.rawValue, options: state.summary, seed: state.seed,
        score: state.score, ending: .finished)
    }
    state.ledger.accept()
    return outcome
  }

  public static func records(of state: State) -> [GameRecord] { state.ledger.records }

  /// Whether two cards make a pair: same card in Memory, same rank in Concentration.
  public static func isPair(_ a: PlayingCard, _ b: PlayingCard, variant: Variant) -> Bool {
    switch variant {
    case .memory: a == b
    case .concentration: a.rank == b.rank
    }
  }

  public static func isOver(_ state: State) -> Bool {
    state.pairsFound == state.pairCount && state.resolving == nil
  }

  private static func flip(_ index: Int, in state: inout State) throws(RuleViolation) -> Outcome<
    Event, Action
  > {
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
    var events: [Event] = [.flipped(index: index, card: position.card)]
    guard state.turned.count == 2 else { return Outcome(events: events) }

    let first = state.turned[0]
    state.moves += 1
    if isPair(state.board[first].card, position.card, variant: state.variant) {
      state.pairsFound += 1
      events.append(.matched(first, index))
      switch state.variant {
      case .memory:
        state.resolving = .removeMatch
        return Outcome(
          events: events, scheduled: [Scheduled(after: removalDelay, .resolve, key: "resolve")])
      case .concentration:
        state.board[first].matched = true
        state.board[index].matched = true
        state.turned = []
        if isOver(state) { events.append(.finished(score: state.score, moves: state.moves)) }
        return Outcome(events: events)
      }
    }
    events.append(.mismatched(first, index))
    state.resolving = .turnDownMismatch
    switch state.variant {
    case .memory:
      state.score += 1
      return Outcome(
        events: events, scheduled: [Scheduled(after: memoryMismatchDelay, .resolve, key: "resolve")]
      )
    case .concentration:
      return Outcome(
        events: events,
        scheduled: [Scheduled(after: concentrationMismatchDelay, .resolve, key: "resolve")])
    }
  }

  private static func resolve(_ state: inout State) throws(RuleViolation) -> Outcome<Event, Action>
  {
    guard let resolution = state.resolving, state.turned.count == 2 else {
      throw .nothingToResolve
    }
    let (first, second) = (state.turned[0], state.turned[1])
    var events: [Event]
    switch resolution {
    case .removeMatch:
      for index in [first, second] {
        state.board[index].removed = true
        state.board[index].faceUp = false
      }
      events = [.removed(first, second)]
    case .turnDownMismatch:
      state.board[first].faceUp = false
      state.board[second].faceUp = false
      events = [.turnedDown(first, second)]
    }
    state.turned = []
    state.resolving = nil
    if isOver(state) { events.append(.finished(score: state.score, moves: state.moves)) }
    return Outcome(events: events)
  }
}
