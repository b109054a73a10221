import CardTableCore
import GameStore
import GameWire

/// One table in memory: its game, its clock on the host's, the clients watching it, and what of
/// it the store already has.
///
/// Every change goes to the store before anyone hears of it (``persist(at:wall:)``); when the
/// store refuses, the game is taken back to what the store has. A room lives in memory while
/// clients have it open; the store keeps it in between.
final class Room {
  let id: RoomID
  let owner: PlayerKey
  /// The player every client of the room plays or watches as.
  let player: PlayerID = .solo
  private(set) var status: RoomStatus
  private(set) var session: any GameSession
  /// The current match's number in the room (a restart begins the next).
  private(set) var ordinal: Int
  /// Whether the current match was dealt from a seed the player chose.
  private(set) var seedChosen: Bool
  /// Whether the player knew the deal before it began (a chosen seed or a given deck): its
  /// results stay out of high scores and streaks.
  var practice: Bool { seedChosen || session.deal["deck"] != nil }
  /// Whether the current match is a restart of a deal the player had seen.
  private(set) var replay: Bool
  /// The clients in the room, in the order they came.
  private(set) var clients: [ClientID] = []

  /// How many of the current match's actions and results the store has.
  private var storedVersion: Int
  private var storedResults: Int
  /// The room's results recorded so far, across its matches.
  private var resultIndex: Int
  /// When each stored action of the current match was accepted (ms since 1970).
  private var acceptedAt: [Int64]
  /// When the current match was dealt (ms since 1970).
  private var matchStarted: Int64
  /// The host time at which the match clock read 0.
  private var startedAt: Double
  /// Until when (host time) the room waits before its clock runs again, when just woken.
  private(set) var resumesAt: Double?
  /// A store failure's retry time for the timers (host time), so a failing disk is not
  /// hammered in a loop.
  private var retryAt: Double?

  /// A room just dealt (and already created in the store).
  init(
    id: RoomID, owner: PlayerKey, session: any GameSession, seedChosen: Bool, now: Double,
    wall: Int64
  ) {
    self.id = id
    self.owner = owner
    self.session = session
    self.status = session.isFinished ? .over : .playing
    ordinal = 0
    self.seedChosen = seedChosen
    replay = false
    storedVersion = session.version
    storedResults = session.resultCount
    resultIndex = session.resultCount
    acceptedAt = Array(repeating: wall, count: session.version)
    matchStarted = wall
    startedAt = now
  }

  /// A room woken from the store, its game replayed; its clock waits `countdown` seconds.
  init(restoring record: RoomRecord, session: any GameSession, now: Double, countdown: Double) {
    id = record.id
    owner = record.owner
    self.session = session
    status = record.status
    ordinal = record.match.ordinal
    seedChosen = record.match.seedChosen
    replay = record.match.replay
    storedVersion = session.version
    storedResults = session.resultCount
    resultIndex = record.resultCount
    acceptedAt = record.actions.map(\.at)
    matchStarted = record.match.started
    startedAt = now + countdown - session.clock
    resumesAt = countdown > 0 ? now + countdown : nil
  }

  // MARK: Clients

  func add(_ client: ClientID) {
    if !clients.contains(client) { clients.append(client) }
  }

  func remove(_ client: ClientID) {
    clients.removeAll { $0 == client }
  }

  // MARK: Time

  /// The host time at which the room next wants to run, if any.
  var nextWake: Double? {
    guard status != .abandoned, let due = session.nextDue else { return nil }
    return max(startedAt + due, retryAt ?? -.infinity)
  }

  /// The seconds left before the room's clock runs again, to the millisecond (0: it runs).
  func countdown(at now: Double) -> Double {
    guard let resumesAt, resumesAt > now else { return 0 }
    return ((resumesAt - now) * 1000).rounded() / 1000
  }

  /// Whether the room still waits before its clock runs again.
  func isResuming(at now: Double) -> Bool {
    guard let resumesAt else { return false }
    if now >= resumesAt {
      self.resumesAt = nil
      return false
    }
    return true
  }

  /// Runs the timers due by `now`; returns their events (nothing while resuming).
  func catchUp(to now: Double) -> EventBatch {
    guard status != .abandoned, !isResuming(at: now) else { return .empty }
    var target = now - startedAt
    // NB: woken at exactly `nextWake`, the difference can round just below the due time.
    if let due = session.nextDue, due > target, due - target <= 1e-9 * max(1, abs(now)) {
      target = due
    }
    guard target > session.clock else { return .empty }
    return session.advance(by: target - session.clock)
  }

  // MARK: Changes

  /// Saves what happened since the last save: the new actions, the results they made, the
  /// room's status. When the store refuses, the game goes back to what the store has and the
  /// error is thrown; nobody has been told of the change yet.
  func persist(in store: any GameStore, at now: Double, wall: Int64) throws(StoreError) {
    let actions = session.loggedActions(from: storedVersion)
    let results = session.loggedResults(from: storedResults, for: player)
    let status: RoomStatus =
      self.status == .abandoned ? .abandoned : session.isFinished ? .over : .playing
    guard !actions.isEmpty || !results.isEmpty || status != self.status else { return }
    let records = actions.enumerated().map { offset, action in
      ActionRecord(
        index: storedVersion + offset, time: action.time, at: wall, player: action.player.rawValue,
        automatic: action.automatic, action: action.action.text)
    }
    let at = acceptedAt + records.map(\.at)
    let resultRecords = results.enumerated().map { offset, result in
      record(result, index: resultIndex + offset, acceptedAt: at, wall: wall)
    }
    do {
      try store.save(
        RoomChange(
          room: id, ordinal: ordinal, actions: records, results: resultRecords, status: status,
          at: wall))
    } catch {
      session.rollback(to: storedVersion)
      retryAt = now + 1
      throw error
    }
    retryAt = nil
    acceptedAt = at
    storedVersion = session.version
    storedResults += results.count
    resultIndex += results.count
    self.status = status
  }

  /// Deals the current game again as a new match of the room, saved before it replaces the
  /// current one. The player has seen these cards: the match is a replay. The game it replaces,
  /// if unfinished, is recorded as abandoned, so that a losing game is not restarted out of a
  /// streak.
  func restart(in store: any GameStore, at now: Double, wall: Int64) throws(WireError) {
    let fresh = try session.restart()
    let before = session.resultCount
    let givenUp =
      (session.abandon() ? session.loggedResults(from: before, for: player) : [])
      .enumerated().map { offset, result in
        record(result, index: resultIndex + offset, acceptedAt: acceptedAt, wall: wall)
      }
    let match = MatchRecord(
      ordinal: ordinal + 1, game: fresh.game, options: fresh.deal.text, seed: fresh.seed,
      seedChosen: seedChosen,
      laterKey: [fresh.laterSeeds.key.0, fresh.laterSeeds.key.1, fresh.laterSeeds.drawn],
      replay: true, started: wall)
    let actions = fresh.loggedActions(from: 0).enumerated().map { index, action in
      ActionRecord(
        index: index, time: action.time, at: wall, player: action.player.rawValue,
        automatic: action.automatic, action: action.action.text)
    }
    let at = actions.map(\.at)
    let results = fresh.loggedResults(from: 0, for: player).enumerated().map { offset, result in
      record(
        result, index: resultIndex + givenUp.count + offset, acceptedAt: at, wall: wall,
        replay: true, started: wall)
    }
    let status: RoomStatus = fresh.isFinished ? .over : .playing
    do {
      try store.save(
        RoomChange(
          room: id, newMatch: match, ordinal: match.ordinal, actions: actions,
          results: givenUp + results, status: status, at: wall))
    } catch {
      // NB: the abandonment went into the old match only in memory; the store has none of it.
      session.rollback(to: storedVersion)
      throw .storageUnavailable
    }
    session = fresh
    ordinal = match.ordinal
    replay = true
    storedVersion = fresh.version
    storedResults = fresh.resultCount
    resultIndex += givenUp.count + results.count
    acceptedAt = at
    matchStarted = wall
    startedAt = now
    resumesAt = nil
    self.status = status
  }

  /// Gives the room up: its unfinished game is recorded as abandoned and it closes for good.
  func abandon(in store: any GameStore, at now: Double, wall: Int64) throws(StoreError) {
    guard status != .abandoned else { return }
    try persist(in: store, at: now, wall: wall)
    let before = session.resultCount
    _ = session.abandon()
    let results = session.loggedResults(from: before, for: player).enumerated().map {
      offset, result in
      record(result, index: resultIndex + offset, acceptedAt: acceptedAt, wall: wall)
    }
    do {
      try store.save(
        RoomChange(room: id, ordinal: ordinal, results: results, status: .abandoned, at: wall))
    } catch {
      session.rollback(to: storedVersion)
      throw error
    }
    storedResults = session.resultCount
    resultIndex += results.count
    status = .abandoned
  }

  /// A result as the store keeps it, timed by the wall clock of the actions that dealt and
  /// ended it.
  private func record(
    _ result: LoggedResult, index: Int, acceptedAt at: [Int64], wall: Int64, replay: Bool? = nil,
    started: Int64? = nil
  ) -> ResultRecord {
    let start =
      result.dealtBy.flatMap { at.indices.contains($0) ? at[$0] : nil }
      ?? started ?? matchStarted
    let end = result.endedBy.flatMap { at.indices.contains($0) ? at[$0] : nil } ?? wall
    return ResultRecord(
      room: id, ordinal: replay == nil ? ordinal : ordinal + 1, index: index, game: result.game,
      options: result.options, seed: result.seed, score: result.score, moves: result.moves,
      ending: result.ending, winner: result.winner?.rawValue, won: result.won, start: start,
      end: end, duration: max(0, result.end - result.start), practice: practice,
      replay: replay ?? self.replay, record: result.json.text)
  }
}
