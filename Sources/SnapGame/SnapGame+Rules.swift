import CardTableCore

extension SnapGame {
  /// Applies a player's action or a timer's follow-up (RULES §5.2–§5.4).
  ///
  /// Every rule is checked before anything changes, so a refused action leaves `state`
  /// untouched. The timers' actions (``Action/start``, ``Action/activateNext``,
  /// ``Action/resume``) are performed only by ``PlayerID/referee``.
  public static func apply(
    _ action: Action, by player: PlayerID, to state: inout State,
    into outcome: inout Outcome<SnapGame>
  ) throws(RuleViolation) {
    switch action {
    case .start, .activateNext, .resume:
      guard player == .referee else { throw .onlyTheTimer }
      guard state.phase != .gameOver else { throw .gameOver }
      switch action {
      case .start: try start(&state, into: &outcome)
      case .activateNext: try activateNext(&state, into: &outcome)
      default: try resume(&state, into: &outcome)
      }
    case .turn, .snap, .leave, .nextRound:
      guard let index = state.index(of: player) else { throw .notAPlayer(player) }
      guard !state.players[index].hasLeft else { throw .playerLeft(player) }
      guard state.phase != .gameOver else { throw .gameOver }
      switch action {
      case .turn: try turn(index, in: &state, into: &outcome)
      case .snap: try snap(index, in: &state, into: &outcome)
      case .leave: leave(index, in: &state, into: &outcome)
      default: try nextRound(index, in: &state, into: &outcome)
      }
    }
  }

  /// The round is over (a player holds all 52 cards) or the whole game has ended.
  public static func isOver(_ state: State) -> Bool {
    state.phase == .roundOver || state.phase == .gameOver
  }

  /// The 52 cards are all in play, each once, and no guest who left holds any (the host's
  /// leaving ends the game with the cards where they lie).
  public static func invariantViolation(in state: State) -> String? {
    var seen = [Bool](repeating: false, count: deckSize)
    for (index, player) in state.players.enumerated() {
      if index > 0 && player.hasLeft && player.cardCount > 0 {
        return "\(player.id) left holding cards"
      }
      for card in player.closed + player.open {
        if seen[card.deckIndex] { return "\(card) is in play twice" }
        seen[card.deckIndex] = true
      }
    }
    return seen.allSatisfy { $0 } ? nil : "a card is missing from play"
  }

  /// Whether two players still at the table show open cards of the same rank.
  public static func hasMatch(in state: State) -> Bool {
    var seen: UInt16 = 0
    for player in state.players where !player.hasLeft {
      guard let top = player.open.last else { continue }
      let bit: UInt16 = 1 << top.rank.rawValue
      if seen & bit != 0 { return true }
      seen |= bit
    }
    return false
  }

  /// The players whose top open card has the rank of another player's top open card, in seat
  /// order (RULES §5.3: AABC, AAAB, AAAA and AABB all match).
  public static func matchingPlayers(in state: State) -> [PlayerID] {
    guard hasMatch(in: state) else { return [] }
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

  private static func turn(
    _ index: Int, in state: inout State, into outcome: inout Outcome<SnapGame>
  )
    throws(RuleViolation)
  {
    guard state.phase == .playing else { throw .notPlaying }
    guard state.pause == nil else { throw .cardsMoving }
    guard state.turnSeat == state.players[index].seat else { throw .notYourTurn }
    guard !state.hasTurned else { throw .alreadyTurned }
    guard let card = state.players[index].closed.popLast() else { throw .noCardsToTurn }

    state.players[index].open.append(card)
    state.hasTurned = true
    state.snapDecided = false
    state.turns += 1
    outcome.events.append(.turned(state.players[index].id, card: card))
    outcome.scheduled.append(Scheduled(after: activationDelay, .activateNext, key: .activate))
    outcome.cancelled.append(.turn)
    cancelComputerSnaps(in: state, into: &outcome)
    scheduleComputerSnaps(&state, into: &outcome)
  }

  private static func start(_ state: inout State, into outcome: inout Outcome<SnapGame>)
    throws(RuleViolation)
  {
    guard state.phase == .dealing else { throw .nothingPending }
    state.phase = .playing
    activate(from: state.startingSeat, including: true, in: &state, into: &outcome)
  }

  private static func activateNext(_ state: inout State, into outcome: inout Outcome<SnapGame>)
    throws(RuleViolation)
  {
    guard state.phase == .playing, state.pause == nil, state.hasTurned,
      let seat = state.turnSeat
    else { throw .nothingPending }
    activate(from: seat, including: false, in: &state, into: &outcome)
  }

  /// Activates the first player clockwise from `seat` who can take a turn, recycling their
  /// open pile when their closed pile is empty (RULES §5.2).
  ///
  /// Players without cards, and players with no closed card and exactly one open card, are
  /// skipped. With `including` false the search starts at the next seat and comes back to
  /// `seat` last.
  static func activate(
    from seat: Seat, including: Bool, in state: inout State, into outcome: inout Outcome<SnapGame>
  ) {
    outcome.cancelled.append(.turn)
    var candidate = including ? seat : seat.clockwise
    for _ in Seat.allCases {
      if let index = state.index(at: candidate), state.players[index].canTakeTurn {
        state.turnSeat = candidate
        state.hasTurned = false
        let id = state.players[index].id
        outcome.events.append(.activated(id))
        if state.players[index].closed.isEmpty {
          let matchShowed = hasMatch(in: state)
          outcome.events.append(recycle(index, in: &state))
          // NB: a recycle only takes a top card away; if that ends the match, the computer
          // players' pending calls would now be wrong, and a player who can see would not call.
          // Calls made while no match showed are the deliberate false ones and stay.
          if matchShowed, !hasMatch(in: state) { cancelComputerSnaps(in: state, into: &outcome) }
        }
        if state.players[index].isComputer {
          outcome.scheduled.append(
            Scheduled(
              after: computerDelay(&state.random, speed: state.computerSpeed), .turn, by: id,
              key: .turn))
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
    state.players[index].closed.insert(contentsOf: state.players[index].open.reversed(), at: 0)
    state.players[index].open.removeAll()
    return .recycled(state.players[index].id, count: count)
  }

  // MARK: Snap!

  private static func snap(
    _ index: Int, in state: inout State, into outcome: inout Outcome<SnapGame>
  )
    throws(RuleViolation)
  {
    guard state.phase == .playing else { throw .notPlaying }
    guard state.players[index].cardCount > 0 else { throw .noCards }
    let caller = state.players[index].id
    guard !state.snapDecided else {
      outcome.events.append(.snapCalled(by: caller, result: .tooLate))
      return
    }
    let matching = clockwise(matchingPlayers(in: state), from: state.players[index].seat, in: state)
    let result: SnapResult = matching.isEmpty ? .wrong : .correct(matching: matching)
    state.snapDecided = true
    state.pause = Pause(caller: caller, result: result)
    outcome.events.append(.snapCalled(by: caller, result: result))
    outcome.scheduled.append(Scheduled(after: pauseStep, .resume, key: .pause))
    outcome.cancelled.append(contentsOf: [.activate, .turn])
  }

  private static func resume(_ state: inout State, into outcome: inout Outcome<SnapGame>)
    throws(RuleViolation)
  {
    guard state.phase == .playing, var pause = state.pause else { throw .nothingPending }
    if !pause.moved {
      pause.moved = true
      state.pause = pause
      if let caller = state.index(of: pause.caller), !state.players[caller].hasLeft {
        switch pause.result {
        case .correct(let matching): winPiles(of: matching, by: caller, in: &state, into: &outcome)
        case .wrong: pay(from: caller, in: &state, into: &outcome)
        case .tooLate: break
        }
      }
      outcome.scheduled.append(Scheduled(after: pauseStep, .resume, key: .pause))
      return
    }
    state.pause = nil
    if declareWinner(in: &state, into: &outcome) { return }
    resumeTurns(in: &state, into: &outcome)
  }

  /// Moves every matching open pile, clockwise from the caller, to the bottom of the caller's
  /// closed pile; each pile's cards go one by one from its bottom, so its top card ends lowest.
  private static func winPiles(
    of matching: [PlayerID], by caller: Int, in state: inout State,
    into outcome: inout Outcome<SnapGame>
  ) {
    for id in matching {
      guard let from = state.index(of: id), !state.players[from].hasLeft else { continue }
      let pile = state.players[from].open
      guard !pile.isEmpty else { continue }
      state.players[from].open.removeAll()
      state.players[caller].closed.insert(contentsOf: pile.reversed(), at: 0)
      outcome.events.append(
        .pileWon(by: state.players[caller].id, from: id, count: pile.count, cards: pile))
    }
  }

  /// A wrong caller pays the top card of their closed pile to the bottom of the closed pile of
  /// each other player with cards, clockwise; they recycle when short and stop when empty.
  private static func pay(
    from caller: Int, in state: inout State, into outcome: inout Outcome<SnapGame>
  ) {
    let payer = state.players[caller].id
    let others = state.players.filter { $0.id != payer && !$0.hasLeft && $0.cardCount > 0 }
    for id in clockwise(others.map(\.id), from: state.players[caller].seat, in: state) {
      if state.players[caller].closed.isEmpty, !state.players[caller].open.isEmpty {
        outcome.events.append(recycle(caller, in: &state))
      }
      guard let card = state.players[caller].closed.popLast(), let to = state.index(of: id) else {
        break
      }
      state.players[to].closed.insert(card, at: 0)
      outcome.events.append(.paid(by: payer, Transfer(to: id, card: card)))
    }
  }

  /// After the cards moved: the player who held the turn gets it back if they had not turned
  /// and still can; otherwise the pending activation of the next player runs now.
  private static func resumeTurns(in state: inout State, into outcome: inout Outcome<SnapGame>) {
    guard let seat = state.turnSeat else { return }
    let holderCanPlay =
      !state.hasTurned && (state.index(at: seat).map { state.players[$0].canTakeTurn } ?? false)
    activate(from: seat, including: holderCanPlay, in: &state, into: &outcome)
  }

  /// Ends the round when a player holds all 52 cards; returns whether it did.
  static func declareWinner(in state: inout State, into outcome: inout Outcome<SnapGame>) -> Bool {
    var found: Int?
    for index in state.players.indices
    where !state.players[index].hasLeft && state.players[index].cardCount == deckSize {
      found = index
    }
    guard let index = found else { return false }
    state.players[index].gamesWon += 1
    state.winner = state.players[index].id
    outcome.marks.append(.ended(record(of: state, .finished)))
    state.phase = .roundOver
    state.pause = nil
    state.hasTurned = false
    outcome.events.append(
      .roundWon(state.players[index].id, gamesWon: state.players[index].gamesWon))
    cancelAllTimers(in: state, into: &outcome)
    return true
  }

  // MARK: Rounds and leaving

  private static func nextRound(
    _ index: Int, in state: inout State, into outcome: inout Outcome<SnapGame>
  ) throws(RuleViolation) {
    guard index == 0 else { throw .notHost }
    guard state.phase == .roundOver else { throw .roundNotOver }
    var seat = state.startingSeat.clockwise
    while state.index(at: seat) == nil { seat = seat.clockwise }
    state.round += 1
    state.startingSeat = seat
    state.phase = .dealing
    state.turnSeat = nil
    state.hasTurned = false
    state.snapDecided = false
    state.pause = nil
    state.winner = nil
    state.turns = 0
    // NB: each round shuffles with a seed of its own, kept in its record: dealing that seed
    // again gives the same round. The computer players then draw from the same generator, so
    // the round's seed tells nothing of the rounds after it.
    state.roundSeed = state.later.next()
    var random = SplitMix64(seed: state.roundSeed)
    deal(random.shuffled(PlayingCard.standardDeck), in: &state)
    state.random = random
    outcome.marks.append(.dealt)
    outcome.events.append(
      .dealt(round: state.round, starting: state.players[state.index(at: seat) ?? 0].id))
    cancelAllTimers(in: state, into: &outcome)
    outcome.scheduled.append(dealingTimer)
  }

  /// A player leaves (RULES §5.4). The host leaving ends the game; a guest's cards — closed
  /// pile from the top, then open pile from the top — are dealt round-robin, clockwise from the
  /// next seat, onto the bottom of the closed piles of the players who still have cards.
  private static func leave(
    _ index: Int, in state: inout State, into outcome: inout Outcome<SnapGame>
  ) {
    let leaver = state.players[index]
    guard index != 0 else {
      state.players[index].hasLeft = true
      outcome.events.append(.left(leaver.id, given: []))
      end(.hostLeft, in: &state, into: &outcome)
      return
    }
    let others = state.players.filter { $0.id != leaver.id && !$0.hasLeft }
    // NB: if nobody else has cards (the leaver won the round), everyone left gets a share.
    let holders = others.filter { $0.cardCount > 0 }
    let recipients = clockwise(
      (holders.isEmpty ? others : holders).map(\.id), from: leaver.seat, in: state
    )
    .compactMap { state.index(of: $0) }
    let matchShowed = hasMatch(in: state)
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
    outcome.cancelled.append(.snap(index))
    // NB: the leaver's open pile left with them; if that ended the match, the computer
    // players' pending calls would now be wrong (as after a recycle).
    if matchShowed, !hasMatch(in: state) { cancelComputerSnaps(in: state, into: &outcome) }

    let inPlay = state.phase == .dealing || state.phase == .playing
    if inPlay, declareWinner(in: &state, into: &outcome) {
      if state.present.count < 2 { end(.tooFewPlayers, in: &state, into: &outcome) }
      return
    }
    if state.present.count < 2 {
      end(.tooFewPlayers, in: &state, into: &outcome)
      return
    }
    // NB: an active leaver who had already turned was waiting for the 0.5 s activation; the
    // next player is activated at once instead, so the table never shows nobody's turn.
    if state.phase == .playing, state.pause == nil, state.turnSeat == leaver.seat {
      outcome.cancelled.append(.activate)
      activate(from: leaver.seat, including: false, in: &state, into: &outcome)
    }
  }

  private static func end(
    _ reason: EndReason, in state: inout State, into outcome: inout Outcome<SnapGame>
  ) {
    // NB: a round cut short by the host leaving is recorded as abandoned.
    if state.phase == .dealing || state.phase == .playing {
      outcome.marks.append(.ended(record(of: state, .abandoned)))
    }
    state.phase = .gameOver
    state.endReason = reason
    state.pause = nil
    state.hasTurned = false
    outcome.events.append(.gameEnded(reason))
    cancelAllTimers(in: state, into: &outcome)
  }

  // MARK: Helpers

  /// `ids` ordered clockwise starting at `seat` (a player in `seat` comes first).
  static func clockwise(_ ids: [PlayerID], from seat: Seat, in state: State) -> [PlayerID] {
    func distance(_ id: PlayerID) -> Int {
      guard let index = state.index(of: id) else { return Seat.allCases.count }
      return (state.players[index].seat.rawValue - seat.rawValue + 4) % 4
    }
    return ids.sorted { distance($0) < distance($1) }
  }

  /// Cancels every computer player's pending Snap! call.
  static func cancelComputerSnaps(in state: State, into outcome: inout Outcome<SnapGame>) {
    for index in state.players.indices where state.players[index].isComputer {
      outcome.cancelled.append(.snap(index))
    }
  }

  /// Cancels every timer of the game.
  static func cancelAllTimers(in state: State, into outcome: inout Outcome<SnapGame>) {
    outcome.cancelled.append(contentsOf: [.deal, .activate, .turn, .pause])
    cancelComputerSnaps(in: state, into: &outcome)
  }

  /// The current round given up before it was decided (nil between rounds and at the end).
  public static func abandonedRecord(of state: State) -> GameRecord<Settings>? {
    isOver(state) ? nil : record(of: state, .abandoned)
  }

  /// The record of the current round, ended now: each player's games won, the winner, and the
  /// cards turned in it.
  private static func record(of state: State, _ ending: GameEnding) -> GameRecord<Settings> {
    let scores = state.players.map { PlayerScore(player: $0.id, score: $0.gamesWon) }
    let winner = ending == .finished ? state.winner : nil
    let settings = Settings(
      round: state.round, players: state.players.map(\.id),
      computer: state.players.filter(\.isComputer).map(\.id), computerSpeed: state.computerSpeed)
    return GameRecord(
      settings: settings, seed: state.roundSeed,
      score: scores.first { $0.player == winner }?.score ?? 0, players: scores,
      moves: state.turns, ending: ending, winner: winner)
  }
}
