import CardTableCore

extension SnapGame {
  /// Applies a player's action or a timer's follow-up (RULES §5.2–§5.4).
  ///
  /// Every rule is checked before anything changes, so a refused action leaves `state`
  /// untouched. The timers' actions (``Action/start``, ``Action/activateNext``,
  /// ``Action/resume``) are performed only by ``PlayerID/referee``.
  public static func apply(_ action: Action, by player: PlayerID, to state: inout State)
    throws(RuleViolation) -> Outcome<Event, Action>
  {
    let outcome = try decide(action, by: player, in: &state)
    if case .turn = action { state.ledger.moves += 1 }
    state.ledger.accept()
    return outcome
  }

  public static func records(of state: State) -> [GameRecord] { state.ledger.records }

  private static func decide(_ action: Action, by player: PlayerID, in state: inout State)
    throws(RuleViolation) -> Outcome<Event, Action>
  {
    switch action {
    case .start, .activateNext, .resume:
      guard player == .referee else { throw .onlyTheTimer }
      guard state.phase != .gameOver else { throw .gameOver }
      switch action {
      case .start: return try start(&state)
      case .activateNext: return try activateNext(&state)
      default: return try resume(&state)
      }
    case .turn, .snap, .leave, .nextRound:
      guard let index = state.index(of: player) else { throw .notAPlayer(player) }
      guard !state.players[index].hasLeft else { throw .playerLeft(player) }
      guard state.phase != .gameOver else { throw .gameOver }
      switch action {
      case .turn: return try turn(index, in: &state)
      case .snap: return try snap(index, in: &state)
      case .leave: return leave(index, in: &state)
      default: return try nextRound(index, in: &state)
      }
    }
  }

  /// The round is over (a player holds all 52 cards) or the whole game has ended.
  public static func isOver(_ state: State) -> Bool {
    state.phase == .roundOver || state.phase == .gameOver
  }

  /// The players whose top open card has the rank of another player's top open card, in seat
  /// order (RULES §5.3: AABC, AAAB, AAAA and AABB all match).
  public static func matchingPlayers(in state: State) -> [PlayerID] {
    var counts = [Int](repeating: 0, count: 14)
    for player in state.players where !player.hasLeft {
      if let top = player.open.last { counts[top.rank.rawValue] += 1 }
    }
    return state.players.compactMap { player in
      guard !player.hasLeft, let top = player.open.last, counts[top.rank.rawValue] > 1 else {
        return nil
      }
      return player.id
    }
  }

  // MARK: Turns

  private static func turn(_ index: Int, in state: inout State) throws(RuleViolation) -> Outcome<
    Event, Action
  > {
    guard state.phase == .playing else { throw .notPlaying }
    guard state.pause == nil else { throw .cardsMoving }
    guard state.turnSeat == state.players[index].seat else { throw .notYourTurn }
    guard !state.hasTurned else { throw .alreadyTurned }
    guard let card = state.players[index].closed.popLast() else { throw .noCardsToTurn }

    state.players[index].open.append(card)
    state.hasTurned = true
    state.snapDecided = false
    var outcome = Outcome<Event, Action>(
      events: [.turned(state.players[index].id, card: card)],
      scheduled: [Scheduled(after: activationDelay, .activateNext, key: TimerKey.activate)],
      cancelled: [TimerKey.turn] + computerSnapKeys(state))
    scheduleComputerSnaps(&state, into: &outcome)
    return outcome
  }

  private static func start(_ state: inout State) throws(RuleViolation) -> Outcome<Event, Action> {
    guard state.phase == .dealing else { throw .nothingPending }
    state.phase = .playing
    var outcome = Outcome<Event, Action>()
    activate(from: state.startingSeat, including: true, in: &state, into: &outcome)
    return outcome
  }

  private static func activateNext(_ state: inout State) throws(RuleViolation) -> Outcome<
    Event, Action
  > {
    guard state.phase == .playing, state.pause == nil, state.hasTurned,
      let seat = state.turnSeat
    else { throw .nothingPending }
    var outcome = Outcome<Event, Action>()
    activate(from: seat, including: false, in: &state, into: &outcome)
    return outcome
  }

  /// Activates the first player clockwise from `seat` who can take a turn, recycling their
  /// open pile when their closed pile is empty (RULES §5.2).
  ///
  /// Players without cards, and players with no closed card and exactly one open card, are
  /// skipped. With `including` false the search starts at the next seat and comes back to
  /// `seat` last.
  static func activate(
    from seat: Seat, including: Bool, in state: inout State,
    into outcome: inout Outcome<Event, Action>
  ) {
    outcome.cancelled.append(TimerKey.turn)
    var candidate = including ? seat : seat.clockwise
    for _ in Seat.allCases {
      if let index = state.players.firstIndex(where: { $0.seat == candidate && !$0.hasLeft }),
        state.players[index].canTakeTurn
      {
        state.turnSeat = candidate
        state.hasTurned = false
        let id = state.players[index].id
        outcome.events.append(.activated(id))
        if state.players[index].closed.isEmpty {
          let matchShowed = !matchingPlayers(in: state).isEmpty
          outcome.events.append(recycle(index, in: &state))
          // NB: a recycle only takes a top card away; if that ends the match, the computer
          // players' pending calls would now be wrong, and a player who can see would not call.
          // Calls made while no match showed are the deliberate false ones and stay.
          if matchShowed, matchingPlayers(in: state).isEmpty {
            outcome.cancelled += computerSnapKeys(state)
          }
        }
        if state.players[index].isComputer {
          outcome.scheduled.append(
            Scheduled(after: computerDelay(&state.random), .turn, by: id, key: TimerKey.turn))
        }
        return
      }
      candidate = candidate.clockwise
    }
    // NB: unreachable while 52 cards are in play: some player holds 13 or more and can turn.
    state.turnSeat = nil
  }

  /// Turns the player's open pile over to become their closed pile: the first card they turned
  /// ends on top.
  static func recycle(_ index: Int, in state: inout State) -> Event {
    let count = state.players[index].open.count
    state.players[index].closed = state.players[index].open.reversed() + state.players[index].closed
    state.players[index].open = []
    return .recycled(state.players[index].id, count: count)
  }

  // MARK: Snap!

  private static func snap(_ index: Int, in state: inout State) throws(RuleViolation) -> Outcome<
    Event, Action
  > {
    guard state.phase == .playing else { throw .notPlaying }
    guard state.players[index].cardCount > 0 else { throw .noCards }
    let caller = state.players[index]
    guard !state.snapDecided else {
      return Outcome(events: [.snapCalled(by: caller.id, result: .tooLate)])
    }
    let matching = clockwise(matchingPlayers(in: state), from: caller.seat, in: state)
    let result: SnapResult = matching.isEmpty ? .wrong : .correct(matching: matching)
    state.snapDecided = true
    state.pause = Pause(caller: caller.id, result: result)
    return Outcome(
      events: [.snapCalled(by: caller.id, result: result)],
      scheduled: [Scheduled(after: pauseStep, .resume, key: TimerKey.pause)],
      cancelled: [TimerKey.activate, TimerKey.turn])
  }

  private static func resume(_ state: inout State) throws(RuleViolation) -> Outcome<Event, Action> {
    guard state.phase == .playing, var pause = state.pause else { throw .nothingPending }
    if !pause.moved {
      pause.moved = true
      state.pause = pause
      var events: [Event] = []
      if let caller = state.index(of: pause.caller), !state.players[caller].hasLeft {
        switch pause.result {
        case .correct(let matching): events = winPiles(of: matching, by: caller, in: &state)
        case .wrong: events = pay(from: caller, in: &state)
        case .tooLate: break
        }
      }
      return Outcome(
        events: events, scheduled: [Scheduled(after: pauseStep, .resume, key: TimerKey.pause)])
    }
    state.pause = nil
    var outcome = Outcome<Event, Action>()
    if declareWinner(in: &state, into: &outcome) { return outcome }
    resumeTurns(in: &state, into: &outcome)
    return outcome
  }

  /// Moves every matching open pile, clockwise from the caller, to the bottom of the caller's
  /// closed pile; each pile's cards go one by one from its bottom, so its top card ends lowest.
  private static func winPiles(of matching: [PlayerID], by caller: Int, in state: inout State)
    -> [Event]
  {
    var events: [Event] = []
    for id in matching {
      guard let from = state.index(of: id), !state.players[from].hasLeft else { continue }
      let pile = state.players[from].open
      guard !pile.isEmpty else { continue }
      state.players[from].open = []
      state.players[caller].closed.insert(contentsOf: pile.reversed(), at: 0)
      events.append(
        .pileWon(by: state.players[caller].id, from: id, count: pile.count, cards: pile))
    }
    return events
  }

  /// A wrong caller pays the top card of their closed pile to the bottom of the closed pile of
  /// each other player with cards, clockwise; they recycle when short and stop when empty.
  private static func pay(from caller: Int, in state: inout State) -> [Event] {
    let payer = state.players[caller]
    let others = state.players.filter { $0.id != payer.id && !$0.hasLeft && $0.cardCount > 0 }
    var events: [Event] = []
    for id in clockwise(others.map(\.id), from: payer.seat, in: state) {
      if state.players[caller].closed.isEmpty, !state.players[caller].open.isEmpty {
        events.append(recycle(caller, in: &state))
      }
      guard let card = state.players[caller].closed.popLast() else { break }
      let to = state.index(of: id)!
      state.players[to].closed.insert(card, at: 0)
      events.append(.paid(by: payer.id, Transfer(to: id, card: card)))
    }
    return events
  }

  /// After the cards moved: the player who held the turn gets it back if they had not turned
  /// and still can; otherwise the pending activation of the next player runs now.
  private static func resumeTurns(
    in state: inout State, into outcome: inout Outcome<Event, Action>
  ) {
    guard let seat = state.turnSeat else { return }
    let holderCanPlay = !state.hasTurned && (state.player(at: seat)?.canTakeTurn ?? false)
    activate(from: seat, including: holderCanPlay, in: &state, into: &outcome)
  }

  /// Ends the round when a player holds all 52 cards; returns whether it did.
  static func declareWinner(in state: inout State, into outcome: inout Outcome<Event, Action>)
    -> Bool
  {
    guard
      let index = state.players.firstIndex(where: { !$0.hasLeft && $0.cardCount == deckSize })
    else { return false }
    state.players[index].gamesWon += 1
    state.winner = state.players[index].id
    _ = close(.finished, in: &state)
    state.phase = .roundOver
    state.pause = nil
    state.hasTurned = false
    outcome.events.append(
      .roundWon(state.players[index].id, gamesWon: state.players[index].gamesWon))
    outcome.cancelled += allTimerKeys(state)
    return true
  }

  // MARK: Rounds and leaving

  private static func nextRound(_ index: Int, in state: inout State) throws(RuleViolation)
    -> Outcome<Event, Action>
  {
    guard index == 0 else { throw .notHost }
    guard state.phase == .roundOver else { throw .roundNotOver }
    var seat = state.startingSeat.clockwise
    while state.player(at: seat) == nil { seat = seat.clockwise }
    state.round += 1
    state.startingSeat = seat
    state.phase = .dealing
    state.turnSeat = nil
    state.hasTurned = false
    state.snapDecided = false
    state.pause = nil
    state.winner = nil
    // NB: each round shuffles with a seed of its own, kept in its record: dealing that seed
    // again gives the same round.
    state.roundSeed = state.random.next()
    var shuffler = SplitMix64(seed: state.roundSeed)
    deal(shuffler.shuffled(PlayingCard.standardDeck), in: &state)
    state.ledger.startGame()
    return Outcome(
      events: [.dealt(round: state.round, starting: state.player(at: seat)!.id)],
      scheduled: [dealingTimer], cancelled: allTimerKeys(state))
  }

  /// A player leaves (RULES §5.4). The host leaving ends the game; a guest's cards — closed
  /// pile from the top, then open pile from the top — are dealt round-robin, clockwise from the
  /// next seat, onto the bottom of the closed piles of the players who still have cards.
  private static func leave(_ index: Int, in state: inout State) -> Outcome<Event, Action> {
    let leaver = state.players[index]
    var outcome = Outcome<Event, Action>()
    guard index != 0 else {
      state.players[index].hasLeft = true
      end(.hostLeft, in: &state, into: &outcome)
      outcome.events.insert(.left(leaver.id, given: []), at: 0)
      return outcome
    }
    let others = state.players.filter { $0.id != leaver.id && !$0.hasLeft }
    // NB: if nobody else has cards (the leaver won the round), everyone left gets a share.
    let holders = others.filter { $0.cardCount > 0 }
    let recipients = clockwise(
      (holders.isEmpty ? others : holders).map(\.id), from: leaver.seat, in: state
    )
    .map { state.index(of: $0)! }
    let matchShowed = !matchingPlayers(in: state).isEmpty
    let cards = Array(leaver.closed.reversed()) + Array(leaver.open.reversed())
    state.players[index].closed = []
    state.players[index].open = []
    state.players[index].hasLeft = true
    var given: [Transfer] = []
    for (position, card) in cards.enumerated() {
      let to = recipients[position % recipients.count]
      state.players[to].closed.insert(card, at: 0)
      given.append(Transfer(to: state.players[to].id, card: card))
    }
    outcome.events.append(.left(leaver.id, given: given))
    outcome.cancelled.append(TimerKey.snap(leaver.id))
    // NB: the leaver's open pile left with them; if that ended the match, the computer
    // players' pending calls would now be wrong (as after a recycle).
    if matchShowed, matchingPlayers(in: state).isEmpty {
      outcome.cancelled += computerSnapKeys(state)
    }

    let inPlay = state.phase == .dealing || state.phase == .playing
    if inPlay, declareWinner(in: &state, into: &outcome) {
      if state.present.count < 2 { end(.tooFewPlayers, in: &state, into: &outcome) }
      return outcome
    }
    if state.present.count < 2 {
      end(.tooFewPlayers, in: &state, into: &outcome)
      return outcome
    }
    // NB: an active leaver who had already turned was waiting for the 0.5 s activation; the
    // next player is activated at once instead, so the table never shows nobody's turn.
    if state.phase == .playing, state.pause == nil, state.turnSeat == leaver.seat {
      outcome.cancelled.append(TimerKey.activate)
      activate(from: leaver.seat, including: false, in: &state, into: &outcome)
    }
    return outcome
  }

  private static func end(
    _ reason: EndReason, in state: inout State, into outcome: inout Outcome<Event, Action>
  ) {
    // NB: a round cut short by the host leaving is recorded as abandoned.
    if state.phase == .dealing || state.phase == .playing { _ = close(.abandoned, in: &state) }
    state.phase = .gameOver
    state.endReason = reason
    state.pause = nil
    state.hasTurned = false
    outcome.events.append(.gameEnded(reason))
    outcome.cancelled += allTimerKeys(state)
  }

  // MARK: Helpers

  /// `ids` ordered clockwise starting at `seat` (a player in `seat` comes first).
  static func clockwise(_ ids: [PlayerID], from seat: Seat, in state: State) -> [PlayerID] {
    ids.sorted { a, b in
      distance(state.players[state.index(of: a)!].seat, from: seat)
        < distance(state.players[state.index(of: b)!].seat, from: seat)
    }
  }

  private static func distance(_ seat: Seat, from origin: Seat) -> Int {
    (seat.rawValue - origin.rawValue + 4) % 4
  }

  static func computerSnapKeys(_ state: State) -> [String] {
    state.players.filter(\.isComputer).map { TimerKey.snap($0.id) }
  }

  static func allTimerKeys(_ state: State) -> [String] {
    [TimerKey.deal, TimerKey.activate, TimerKey.turn, TimerKey.pause] + computerSnapKeys(state)
  }

  /// Records the round: each player's games won, the winner, and the cards turned in it.
  private static func close(_ ending: GameEnding, in state: inout State) -> GameRecord {
    let names = state.players.map(\.id.rawValue).joined(separator: ", ")
    let computers = state.players.filter(\.isComputer).map(\.id.rawValue)
    let summary =
      "round \(state.round); players \(names)"
      + (computers.isEmpty ? "" : "; computer \(computers.joined(separator: ", "))")
    let scores = state.players.map { PlayerScore(player: $0.id, score: $0.gamesWon) }
    let winner = ending == .finished ? state.winner : nil
    return state.ledger.close(
      game: name, options: summary, seed: state.roundSeed,
      score: scores.first { $0.player == winner }?.score ?? 0, players: scores, ending: ending,
      winner: winner)
  }
}
