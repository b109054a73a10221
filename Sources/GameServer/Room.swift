import CardTableCore
import GameStore
import GameWire

/// One room in memory: its game, its clock on the host's, the clients in it, its table when
/// several share it, and what of it the store already has.
///
/// Every change goes to the store before anyone hears of it (``persist(in:at:wall:)``); when the
/// store refuses, the game is taken back to what the store has. A room lives in memory while
/// clients have it open; the store keeps it in between.
final class Room {
  let id: RoomID
  let owner: PlayerKey
  let game: String
  private(set) var status: RoomStatus
  /// The game; nil while a table waits in its lobby.
  private(set) var session: (any GameSession)?
  /// The table, when several players share the room.
  var table: Table?
  /// The current match's number in the room (a restart begins the next).
  private(set) var ordinal: Int
  /// Whether the current match was dealt from a seed the player chose.
  private(set) var seedChosen: Bool
  /// Whether the current match is a restart of a deal the player had seen.
  private(set) var replay: Bool
  /// The clients in the room, in the order they came.
  private(set) var clients: [ClientID] = []
  /// When the cards a call is about last changed, on the match clock: Snap!'s last turned
  /// card, Set's table (receipts count from it).
  var lastChange: Double?
  /// Whether the clients were last told that the table's game is over.
  var tableOver = false
  /// Who found the last set at a Set race (a too-late claim is told who was first).
  var lastFinder: PlayerID?
  /// How long a seated player may be gone before the table makes them leave.
  var grace = Table.gracePeriod
  /// The table's chat: its latest lines, mutes and rate limits.
  var chat = TableChat()

  /// How many of the current match's actions and results the store has.
  private var storedVersion = 0
  private var storedResults = 0
  /// The room's games ended so far, across its matches.
  private var resultIndex: Int
  /// When each stored action of the current match was accepted (ms since 1970).
  private var acceptedAt: [Int64] = []
  /// When the current match was dealt (ms since 1970).
  private var matchStarted: Int64
  /// The host time at which the match clock read 0.
  private var startedAt: Double
  /// Until when (host time) the room waits before its clock runs again, when just woken.
  private(set) var resumesAt: Double?
  /// A store failure's retry time for the timers (host time), so a failing disk is not
  /// hammered in a loop.
  private var retryAt: Double?

  /// A room just dealt (and already created in the store), or a table's lobby (no session).
  init(
    id: RoomID, owner: PlayerKey, game: String, session: (any GameSession)?, table: Table?,
    seedChosen: Bool, now: Double, wall: Int64
  ) {
    self.id = id
    self.owner = owner
    self.game = game
    self.session = session
    self.table = table
    status = session?.isFinished == true ? .over : .playing
    ordinal = 0
    self.seedChosen = seedChosen
    replay = false
    resultIndex = 0
    matchStarted = wall
    startedAt = now
    if let session { adopt(session, wall: wall) }
  }

  /// A room woken from the store, its game replayed; its clock waits `countdown` seconds.
  init(
    restoring record: RoomRecord, session: (any GameSession)?, table: Table?, now: Double,
    countdown: Double
  ) {
    id = record.id
    owner = record.owner
    game = record.game
    self.session = session
    self.table = table
    status = record.status
    ordinal = record.match?.ordinal ?? 0
    seedChosen = record.match?.seedChosen ?? false
    replay = record.match?.replay ?? false
    storedVersion = session?.version ?? 0
    storedResults = session?.resultCount ?? 0
    resultIndex = record.resultCount
    acceptedAt = record.actions.map(\.at)
    matchStarted = record.match?.started ?? record.created
    startedAt = now + countdown - (session?.clock ?? 0)
    resumesAt = countdown > 0 ? now + countdown : nil
    // NB: after a restart nobody is connected yet; the grace period starts now for everyone.
    if var table {
      for index in table.seats.indices where !table.seats[index].computer {
        table.seats[index].absentSince = now
      }
      self.table = table
    }
  }

  private func adopt(_ session: any GameSession, wall: Int64) {
    storedVersion = session.version
    storedResults = session.resultCount
    resultIndex += session.resultCount
    acceptedAt = Array(repeating: wall, count: session.version)
  }

  /// The day (UTC, `YYYY-MM-DD`) whose *Today's deal* the current match is, if it is one: its
  /// seed is the game's seed of the day it was dealt.
  var todaysDeal: String? {
    guard seedChosen, let session else { return nil }
    if let known = todaysDealSeen, known.seed == session.seed, known.started == matchStarted {
      return known.date
    }
    let day = TodaysDeal.date(atMilliseconds: matchStarted)
    let date = (try? TodaysDeal.seed(of: session.game, on: day)) == session.seed ? day : nil
    todaysDealSeen = (session.seed, matchStarted, date)
    return date
  }
  /// ``todaysDeal`` as last worked out, and for which match.
  private var todaysDealSeen: (seed: UInt64, started: Int64, date: String?)?

  /// Whether the player knew the deal before it began (a chosen seed or a given deck): its
  /// results stay out of high scores and streaks.
  var practice: Bool { seedChosen || session?.deal["deck"] != nil }

  // MARK: Clients and seats

  func add(_ client: ClientID) {
    if !clients.contains(client) { clients.append(client) }
  }

  func remove(_ client: ClientID) {
    clients.removeAll { $0 == client }
  }

  /// The name `player` plays as: their seat's at a table, `You` in a room of one player's;
  /// nil for a watcher.
  func name(of player: PlayerKey?) -> PlayerID? {
    if let table {
      return table.seat(of: player).map { table.seats[$0].name }
    }
    return player == owner ? .solo : nil
  }

  /// Through whose eyes `player` sees the game: their own seat's, or — for a watcher — the
  /// solitaire player's in a room of one (the same secrets hidden), nobody's at a table.
  func viewer(of player: PlayerKey?) -> Viewer {
    if let name = name(of: player) { return .player(name) }
    return .player(table == nil ? .solo : .spectator)
  }

  /// The players whose results a game of this room makes: the owner, or every seated person.
  private var recorded: [(key: PlayerKey, name: PlayerID)] {
    guard let table else { return [(owner, .solo)] }
    return table.seats.compactMap { seat in
      guard !seat.computer, let player = seat.player else { return nil }
      return (player, seat.name)
    }
  }

  // MARK: Time

  /// The host time at which the room next wants to run, if any: a timer of its game, or the end
  /// of a seated player's grace period.
  var nextWake: Double? {
    guard status != .abandoned else { return nil }
    var due: Double?
    if let session, let next = session.nextDue {
      due = max(startedAt + next, retryAt ?? -.infinity)
    }
    if let table, table.phase == .playing, session?.isFinished == false {
      for seat in table.seats where !seat.left {
        if let since = seat.absentSince { due = min(due ?? .infinity, since + grace) }
      }
    }
    return due
  }

  /// The seats whose grace period has run out by `now`.
  func expiredSeats(at now: Double) -> [Int] {
    guard let table, table.phase == .playing, session?.isFinished == false else { return [] }
    return table.seats.indices.filter { index in
      let seat = table.seats[index]
      return !seat.left && seat.absentSince.map { $0 + grace <= now } == true
    }
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
    guard status != .abandoned, let session, !isResuming(at: now) else { return .empty }
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
  /// room's status and its table. When the store refuses, the game goes back to what the store
  /// has and the error is thrown; nobody has been told of the change yet.
  func persist(in store: any GameStore, at now: Double, wall: Int64, tableChanged: Bool = false)
    throws(StoreError)
  {
    guard let unsaved = unsaved(wall: wall, tableChanged: tableChanged) else { return }
    do {
      try store.save(unsaved.change)
    } catch {
      session?.rollback(to: storedVersion)
      retryAt = now + 1
      throw error
    }
    kept(unsaved)
  }

  /// What happened since the last save, staged for the group commit at the end of the host's
  /// turn (``GroupCommit``): the room counts it as saved until ``committed()`` or
  /// ``uncommitted(at:)`` says how the commit went. Nil when nothing changed.
  func stage(wall: Int64) -> RoomChange? {
    guard let unsaved = unsaved(wall: wall, tableChanged: false) else { return nil }
    if beforeCommit == nil {
      beforeCommit = Saved(
        version: storedVersion, results: storedResults, resultIndex: resultIndex,
        accepted: acceptedAt.count, status: status)
    }
    kept(unsaved)
    return unsaved.change
  }

  /// Whether the room has staged changes that the store does not have yet.
  var isStaged: Bool { beforeCommit != nil }

  /// The staged changes are in the store.
  func committed() {
    beforeCommit = nil
  }

  /// The staged changes were refused: the game goes back to what the store has, and its
  /// timers are tried again a moment after host time `now`.
  func uncommitted(at now: Double) {
    guard let saved = beforeCommit else { return }
    beforeCommit = nil
    session?.rollback(to: saved.version)
    storedVersion = saved.version
    storedResults = saved.results
    resultIndex = saved.resultIndex
    // NB: a staged room's times only grow; the store's are the first `accepted`.
    acceptedAt.removeLast(max(0, acceptedAt.count - saved.accepted))
    status = saved.status
    retryAt = now + 1
  }

  /// What the store had of the room before its first staged change, while any waits.
  private var beforeCommit: Saved?

  private struct Saved {
    var version: Int
    var results: Int
    var resultIndex: Int
    /// How many of `acceptedAt` the store has.
    var accepted: Int
    var status: RoomStatus
  }

  /// A change not yet in the store, and what the room counts once it is.
  private struct Unsaved {
    var change: RoomChange
    var results: Int
    var status: RoomStatus
  }

  private func unsaved(wall: Int64, tableChanged: Bool) -> Unsaved? {
    let session = self.session
    let records = session?.actionRecords(from: storedVersion, at: wall) ?? []
    let ended = session?.resultCount ?? 0
    let status: RoomStatus =
      self.status == .abandoned ? .abandoned : session?.isFinished == true ? .over : .playing
    guard !records.isEmpty || ended > storedResults || status != self.status || tableChanged
    else { return nil }
    // NB: the times are joined only for a game that ended: copying every time of the match
    // for each action made a long game's actions cost more the longer it went on.
    let results =
      ended > storedResults
      ? results(
        of: session, from: storedResults, index: resultIndex, at: acceptedAt + records.map(\.at),
        wall: wall) : []
    return Unsaved(
      change: RoomChange(
        room: id, table: tableChanged ? table?.record : nil, ordinal: ordinal, actions: records,
        results: results, status: status, statusChanged: status != self.status, at: wall),
      results: ended, status: status)
  }

  private func kept(_ unsaved: Unsaved) {
    retryAt = nil
    acceptedAt.append(contentsOf: unsaved.change.actions.lazy.map(\.at))
    storedVersion = session?.version ?? 0
    resultIndex += unsaved.results - storedResults
    storedResults = unsaved.results
    status = unsaved.status
  }

  /// Starts a table's match — its first at the start, a later one at a rematch — with `table`'s
  /// seats: the game dealt for them, saved with the table.
  func start(
    _ session: any GameSession, match: MatchRecord, table: Table, in store: any GameStore,
    wall: Int64
  ) throws(StoreError) {
    var table = table
    table.phase = .playing
    seedChosen = match.seedChosen
    let actions = session.actionRecords(from: 0, at: wall)
    let previous = self.table
    self.table = table
    let results = results(
      of: session, from: 0, index: resultIndex, at: actions.map(\.at), wall: wall,
      ordinal: match.ordinal, replay: false, started: wall)
    let status: RoomStatus = session.isFinished ? .over : .playing
    do {
      try store.save(
        RoomChange(
          room: id, table: table.record, newMatch: match, ordinal: match.ordinal,
          actions: actions, results: results, status: status, at: wall))
    } catch {
      self.table = previous
      throw error
    }
    self.session = session
    ordinal = match.ordinal
    replay = false
    matchStarted = wall
    storedVersion = 0
    storedResults = 0
    adopt(session, wall: wall)
    self.status = status
  }

  /// Restarts the clock of a just-dealt match at host time `now`.
  func clockStarts(at now: Double) {
    startedAt = now - (session?.clock ?? 0)
    resumesAt = nil
  }

  /// Deals the current game again as a new match of the room, saved before it replaces the
  /// current one. The player has seen these cards: the match is a replay. The game it replaces,
  /// if unfinished, is recorded as abandoned, so that a losing game is not restarted out of a
  /// streak.
  func restart(in store: any GameStore, at now: Double, wall: Int64) throws(WireError) {
    guard let session else { throw .noGame }
    let fresh = try session.restart()
    let before = session.resultCount
    let givenUp =
      session.abandon()
      ? results(of: session, from: before, index: resultIndex, at: acceptedAt, wall: wall) : []
    let match = MatchRecord(
      ordinal: ordinal + 1, game: fresh.game, options: fresh.deal.text, seed: fresh.seed,
      seedChosen: seedChosen,
      laterKey: [fresh.laterSeeds.key.0, fresh.laterSeeds.key.1, fresh.laterSeeds.drawn],
      replay: true, started: wall)
    let actions = fresh.actionRecords(from: 0, at: wall)
    let at = actions.map(\.at)
    let abandonedCount = session.resultCount - before
    let results = results(
      of: fresh, from: 0, index: resultIndex + abandonedCount, at: at, wall: wall,
      ordinal: match.ordinal, replay: true, started: wall)
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
    self.session = fresh
    ordinal = match.ordinal
    replay = true
    storedVersion = fresh.version
    storedResults = fresh.resultCount
    resultIndex += abandonedCount + fresh.resultCount
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
    let before = session?.resultCount ?? 0
    _ = session?.abandon()
    let ended = session?.resultCount ?? 0
    let results = results(of: session, from: before, index: resultIndex, at: acceptedAt, wall: wall)
    do {
      try store.save(
        RoomChange(room: id, ordinal: ordinal, results: results, status: .abandoned, at: wall))
    } catch {
      session?.rollback(to: storedVersion)
      throw error
    }
    storedResults = ended
    resultIndex += ended - before
    status = .abandoned
  }

  /// The results of `session`'s games from the `from`-th on, as the store keeps them: one per
  /// recorded player (the owner, or each seated person), timed by the wall clock of the actions
  /// that dealt and ended each game.
  private func results(
    of session: (any GameSession)?, from: Int, index: Int, at: [Int64], wall: Int64,
    ordinal: Int? = nil, replay: Bool? = nil, started: Int64? = nil
  ) -> [ResultRecord] {
    guard let session, session.resultCount > from else { return [] }
    var records: [ResultRecord] = []
    for (key, name) in recorded {
      for (offset, result) in session.loggedResults(from: from, for: name).enumerated() {
        let start =
          result.dealtBy.flatMap { at.indices.contains($0) ? at[$0] : nil } ?? started
          ?? matchStarted
        let end = result.endedBy.flatMap { at.indices.contains($0) ? at[$0] : nil } ?? wall
        records.append(
          ResultRecord(
            room: id, player: key, ordinal: ordinal ?? self.ordinal, index: index + offset,
            game: result.game, options: result.options, seed: result.seed, score: result.score,
            moves: result.moves, ending: result.ending, winner: result.winner?.rawValue,
            won: result.won, start: start, end: end, duration: max(0, result.end - result.start),
            practice: practice, replay: replay ?? self.replay, record: result.json.text))
      }
    }
    return records
  }
}

extension GameSession {
  /// The store's records of the actions from `version` on, each accepted at `wall`.
  func actionRecords(from version: Int, at wall: Int64) -> [ActionRecord] {
    loggedActionTexts(from: version).enumerated().map { offset, action in
      ActionRecord(
        index: version + offset, time: action.time, at: wall, player: action.player.rawValue,
        automatic: action.automatic, action: action.action)
    }
  }
}
