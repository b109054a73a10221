import CardTableCore
import GameStore
import GameWire

// Rooms: made, opened, entered and left, run, and saved.

extension GameServer {
  // MARK: Rooms

  func newRoom(_ request: JSON, for client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    let owner = try player(of: client)
    // NB: `today: true` is the server's own date (UTC), so that everyone gets the same deal.
    let asked =
      request["today"] == true
      ? request.setting("today", to: .string(TodaysDeal.date(atMilliseconds: wallClock())))
      : request
    let new = try NewGame(asked, newSeed: newSeed)
    try mayMakeRoom(client, at: now)
    let later =
      new.seedChosen
      ? LaterSeeds(seed: new.seed) : LaterSeeds(key: (random.next(), random.next()))
    let session = try GameCatalog.start(new, later: later)
    let id = RoomID.random(using: &random)
    let wall = wallClock()
    let room = Room(
      id: id, owner: owner.key, game: session.game, session: session, table: nil,
      seedChosen: new.seedChosen, now: now, wall: wall)
    let actions = session.actionRecords(from: 0, at: wall)
    let results = session.loggedResults(from: 0, for: .solo).enumerated().map {
      index, result in
      ResultRecord(
        room: id, player: owner.key, ordinal: 0, index: index, game: result.game,
        options: result.options, seed: result.seed, score: result.score, moves: result.moves,
        ending: result.ending, winner: result.winner?.rawValue, won: result.won, start: wall,
        end: wall, duration: 0, practice: room.practice, replay: false, record: result.json.text)
    }
    let match = MatchRecord(
      ordinal: 0, game: session.game, options: session.deal.text, seed: session.seed,
      seedChosen: new.seedChosen, laterKey: [later.key.0, later.key.1], replay: false,
      started: wall)
    do {
      guard try store.claim(id) else { throw StoreError.leaseLost(path: "", room: id.rawValue) }
      try store.createRoom(
        NewRoom(
          id: id, owner: owner.key, match: match, actions: actions, results: results,
          status: room.status, created: wall))
    } catch {
      store.release(id)
      log("cardtable: could not create a room: \(error)")
      throw .storageUnavailable
    }
    enter(client, room, countdown: 0, reply: reply)
  }

  func open(_ id: RoomID, for client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    try player(of: client)
    if let room = rooms[id] {
      run(room, at: now)
      try seatOrWatch(client, at: room, now: now)
      enter(client, room, countdown: room.countdown(at: now), reply: reply)
      tellTable(room, arrived: client)
      return
    }
    let room: Room
    do {
      // NB: the lease first, then the room as the store has it: whoever ran it before has
      // saved everything it acknowledged.
      guard try store.claim(id) else { throw WireError.roomElsewhere }
      let countdown = try countdown(for: id)
      guard let loaded = try load(id, at: now, countdown: countdown) else {
        throw WireError.noSuchRoom
      }
      room = loaded
    } catch let error as WireError {
      store.release(id)
      throw error
    } catch {
      store.release(id)
      log("cardtable: could not open room \(id): \(error)")
      throw .storageUnavailable
    }
    rooms[id] = room
    try seatOrWatch(client, at: room, now: now)
    enter(client, room, countdown: room.countdown(at: now), reply: reply)
    tellTable(room, arrived: client)
  }

  /// Once `client` is in a table's room, the others learn of the new seat or watcher, with the
  /// newcomer counted as connected.
  private func tellTable(_ room: Room, arrived client: ClientID) {
    guard room.table != nil, room.clients.contains(client) else { return }
    broadcastTable(room, except: client)
  }

  /// Before `client` enters `room`: a seat at a table in its lobby, or a place among the
  /// watchers while there is one.
  private func seatOrWatch(_ client: ClientID, at room: Room, now: Double) throws(WireError) {
    if try takeSeat(client, at: room) {
      do {
        try room.persist(in: store, at: now, wall: wallClock(), tableChanged: true)
      } catch {
        throw storeFailed(room, error, doing: "seat a player at")
      }
      return
    }
    let key = connections[client]?.player?.key
    guard room.name(of: key) == nil else { return }
    let watchers = room.clients.filter { room.name(of: connections[$0]?.player?.key) == nil }
    if watchers.count >= Table.watcherLimit {
      if rooms[room.id] === room, room.clients.isEmpty {
        rooms[room.id] = nil
        store.release(room.id)
      }
      throw WireError(
        code: "room-full", message: "This game has as many watchers as it takes; try later.")
    }
  }

  /// The pause a room of this game takes when woken from the store: a real-time game's players
  /// need a moment before it runs again.
  func countdown(for id: RoomID) throws(WireError) -> Double {
    let record: RoomRecord?
    do {
      record = try store.room(id)
    } catch {
      log("cardtable: could not read room \(id): \(error)")
      throw .storageUnavailable
    }
    guard let record else { throw .noSuchRoom }
    guard record.status == .playing, record.match != nil else { return 0 }
    return GameCatalog.resumeCountdown(of: record.game)
  }

  /// Takes one of the rooms the client's address may make now, or refuses `too-many-rooms`.
  func mayMakeRoom(_ client: ClientID, at now: Double) throws(WireError) {
    guard let address = connections[client]?.address else { return }
    let burst = max(1, configuration.roomsPerMinute * 2)
    var allowance = roomAllowance[address] ?? (burst, now)
    allowance.tokens = min(
      burst, allowance.tokens + max(0, now - allowance.at) * configuration.roomsPerMinute / 60)
    allowance.at = now
    guard allowance.tokens >= 1 else {
      roomAllowance[address] = allowance
      throw WireError(
        code: "too-many-rooms",
        message: "Too many new games from your address; wait a minute and try again.")
    }
    allowance.tokens -= 1
    // NB: a full allowance is the default; only addresses that used some are kept.
    roomAllowance[address] = allowance.tokens >= burst ? nil : allowance
  }

  /// Wakes a room from the store: replays its current match through the rules.
  func load(_ id: RoomID, at now: Double, countdown: Double) throws -> Room? {
    guard let record = try store.room(id) else { return nil }
    let table = try record.table.map { stored throws(StoreError) in
      guard let table = Table(stored, game: record.game) else {
        throw StoreError.corrupt(path: "room \(id)", reason: "its table code is not a code")
      }
      return table
    }
    var session: (any GameSession)?
    if let match = record.match {
      let log = record.actions.map { action in
        LoggedAction(
          time: action.time, player: PlayerID(action.player), automatic: action.automatic,
          action: (try? JSON(parsing: action.action)) ?? .null)
      }
      let deal = (try? JSON(parsing: match.options)) ?? [:]
      session = try GameCatalog.restore(
        game: match.game, deal: deal, seed: match.seed, later: match.laterSeeds, log: log)
    }
    let room = Room(
      restoring: record, session: session, table: table, now: now, countdown: countdown)
    if table?.phase == .playing {
      room.table?.wins = wins(at: room)
      refreshRatings(room)
    }
    if table != nil { room.chat = TableChat(latest: try store.chat(in: id, last: TableChat.shown)) }
    return room
  }

  /// Moves `client` into `room`: `joined`, then the table (at a table), then the room's
  /// update (once its game is dealt). The reply goes with the last of them.
  func enter(_ client: ClientID, _ room: Room, countdown: Double, reply: JSON?) {
    if connections[client]?.room != room.id { leaveRoom(client) }
    room.grace = configuration.gracePeriod
    rooms[room.id] = room
    connections[client]?.room = room.id
    room.add(client)
    let key = connections[client]?.player?.key
    let role = room.name(of: key) != nil ? "player" : "watcher"
    send(
      Joined(
        room: room.id.rawValue, game: room.game, role: role, status: room.status.rawValue,
        countdown: countdown), to: client)
    if let table = room.table {
      if let seat = table.seat(of: key), table.seats[seat].absentSince != nil {
        room.table?.seats[seat].absentSince = nil
        tellSeat(room, seat, connected: true, except: client)
        broadcastTable(room, except: client)
      }
      if let table = room.table {
        send(
          tableMessage(room, table, for: client, reply: room.session == nil ? reply : nil),
          to: client)
      }
      sendChatHistory(room, to: client)
    }
    if room.session != nil {
      send(update(room, events: .empty, for: client, reply: reply), to: client)
    }
    reschedule(room)
  }

  func leaveRoom(_ client: ClientID) {
    guard let id = connections[client]?.room else { return }
    connections[client]?.room = nil
    guard let room = rooms[id] else { return }
    room.remove(client)
    seatMayBeAbsent(room, player: connections[client]?.player?.key)
    // NB: a player who went is no longer waited for: the others' rematch may be agreed now.
    if !room.clients.isEmpty { _ = try? rematchIfAgreed(room, at: lastNow) }
    if room.clients.isEmpty {
      // NB: everything it did is in the store; its clock stops until it is opened again (here
      // or, sharing a database, by whichever server takes its lease next).
      rooms[id] = nil
      queued[id] = nil
      store.release(id)
    }
  }

  /// Runs a room's due timers, saves what they did and pushes it to its clients; a store that
  /// fails leaves the timers to run again a moment later.
  ///
  /// - Returns: what a participant is told while the room's timers cannot be saved (its game
  ///   is behind its clock, so a move now would be judged against an earlier state), else nil.
  @discardableResult
  func run(_ room: Room, at now: Double) -> WireError? {
    let before = room.session?.version ?? 0
    let events = room.catchUp(to: now)
    guard events.count > 0 else { return nil }
    do {
      try save(room, at: now)
    } catch {
      return error
    }
    counters.timers += 1
    broadcast(room, events: events, reply: nil)
    receipt(room, after: before, events: events)
    return nil
  }

  /// Saves a participant's change, or refuses it (the room is back as the store has it); while
  /// ``staging``, the change waits for the group commit at the end of the host's turn.
  func save(_ room: Room, at now: Double) throws(WireError) {
    guard !staging else { return stage(room) }
    do {
      try room.persist(in: store, at: now, wall: wallClock())
    } catch {
      throw storeFailed(room, error, doing: "save room")
    }
  }

  /// Says why a room's change could not be saved, and what the client is told: when another
  /// server has taken the room's lease, the room leaves this one — its clients are told
  /// `room-elsewhere` and connect again by its address — else `storage-unavailable`.
  func storeFailed(_ room: Room, _ error: StoreError, doing what: String) -> WireError {
    log("cardtable: could not \(what) \(room.id): \(error)")
    if case .full = error { return .storageFull }
    guard !store.holds(room.id) else { return .storageUnavailable }
    if rooms[room.id] === room {
      rooms[room.id] = nil
      queued[room.id] = nil
    }
    for client in room.clients {
      room.remove(client)
      connections[client]?.room = nil
      send(ErrorMessage(error: .roomElsewhere), to: client)
    }
    return .roomElsewhere
  }
}
