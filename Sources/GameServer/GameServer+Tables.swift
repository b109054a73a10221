import CardTableCore
import GameStore
import GameWire

// Tables several players share (docs/PROTOCOL.md "Tables: playing together"): hosting,
// joining by code or link, the lobby's seats, the start, leaving, the grace period of a player
// whose connection dropped, and Snap!'s receipts.
extension GameServer {
  /// The most wrong table codes a connection may try in a minute.
  public static let wrongCodesPerMinute = 10

  // MARK: Hosting and joining

  func host(_ request: JSON, for client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    let owner = try player(of: client)
    let game = try request.requiredString("game", in: "host")
    guard GameCatalog.names.contains(game) else { throw .unknownGame(game) }
    try mayMakeRoom(client, at: now)
    let options = request["options"].flatMap { $0 == .null ? nil : $0 } ?? [:]
    // NB: checked now, as the start will read them, so that a table cannot be started badly.
    guard try GameCatalog.seatRange(of: game).upperBound > 1 else {
      throw WireError(code: "single-player", message: "\(game) is played by one player.")
    }
    _ = try GameCatalog.options(options, of: game, seating: ["host", "guest"])
    try GameCatalog.checkOptions(options, of: game)
    var deal: JSON = ["options": options]
    for member in ["seed", "deck"] {
      if let value = request[member], value != .null { deal = deal.setting(member, to: value) }
    }
    _ = try NewGame(deal.setting("game", to: .string(game)), newSeed: newSeed)
    let id = RoomID.random(using: &random)
    let wall = wallClock()
    let table = Table(
      code: newCode(), game: game, options: deal,
      isPublic: request["public"]?.boolValue ?? false, host: owner.key,
      name: Table.seatName(of: owner, at: nil))
    let room = Room(
      id: id, owner: owner.key, game: game, session: nil, table: table, seedChosen: false,
      now: now, wall: wall)
    do {
      guard try store.claim(id) else { throw StoreError.leaseLost(path: "", room: id.rawValue) }
      try store.createRoom(
        NewRoom(
          id: id, owner: owner.key, game: game, match: nil, table: table.record,
          status: .playing, created: wall))
    } catch {
      store.release(id)
      log("cardtable: could not create a table: \(error)")
      throw .storageUnavailable
    }
    enter(client, room, countdown: 0, reply: reply)
  }

  /// A code no table has yet.
  private func newCode() -> TableCode {
    while true {
      let code = TableCode.random(using: &random)
      if (try? store.room(code: code.rawValue)) == nil { return code }
    }
  }

  func join(_ request: JSON, for client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    try player(of: client)
    let typed = try request.requiredString("code", in: "join")
    let guesser = connections[client]?.address ?? client.description
    var tried = (wrongCodes[guesser] ?? []).filter { now - $0 < 60 }
    guard tried.count < Self.wrongCodesPerMinute else {
      throw WireError(
        code: "too-many-codes", message: "Too many wrong codes; wait a minute and try again.")
    }
    let found: RoomID?
    do {
      found = try TableCode(typed: typed).flatMap { code throws(StoreError) in
        try store.room(code: code.rawValue)
      }
    } catch {
      log("cardtable: could not look up a table: \(error)")
      throw .storageUnavailable
    }
    guard let id = found else {
      tried.append(now)
      if wrongCodes.count >= 10_000 {
        // NB: the addresses whose minute is over are forgotten, so the list stays short.
        wrongCodes = wrongCodes.filter { $0.value.contains { now - $0 < 60 } }
      }
      wrongCodes[guesser] = tried
      throw WireError(code: "no-such-table", message: "There is no table with the code \(typed).")
    }
    try open(id, for: client, at: now, reply: reply)
  }

  /// Seats `client`'s player at `room`'s table if it waits in its lobby with a seat free and
  /// they have none; returns whether the table changed.
  func takeSeat(_ client: ClientID, at room: Room) throws(WireError) -> Bool {
    guard var table = room.table, table.phase == .lobby,
      let player = connections[client]?.player, table.seat(of: player.key) == nil,
      table.seats.count < table.seatRange.upperBound
    else { return false }
    // NB: people sit before the computer players, in the order the game will seat them.
    table.seats.insert(
      Table.Seat(player: player.key, name: table.name(for: Table.wanted(player)), computer: false),
      at: table.seats.firstIndex(where: \.computer) ?? table.seats.endIndex)
    room.table = table
    return true
  }

  func listTables(for client: ClientID, reply: JSON?) throws(WireError) {
    try player(of: client)
    let tables: [TableSummary]
    do {
      tables = try store.publicTables(limit: 50)
    } catch {
      log("cardtable: could not list tables: \(error)")
      throw .storageUnavailable
    }
    let list = tables.map { summary in
      TablesBody.Listing(
        room: summary.room.rawValue, game: summary.game,
        code: TableCode(rawValue: summary.table.code)?.description ?? summary.table.code,
        host: summary.table.seats.first?.name ?? "", seats: summary.table.seats.count,
        players: (try? GameCatalog.seatRange(of: summary.game))?.upperBound ?? 1)
    }
    send(Answer(cmd: "tables", body: TablesBody(tables: list), reply: reply), to: client)
  }

  // MARK: The lobby

  func lobbyCommand(
    _ command: RoomCommand, _ request: JSON, _ room: Room, from client: ClientID, at now: Double,
    reply: JSON?
  ) throws(WireError) {
    guard var table = room.table else {
      throw WireError(code: "not-a-table", message: "Only a table has seats.")
    }
    guard table.seat(of: connections[client]?.player?.key) == 0 else {
      throw WireError(code: "not-the-host", message: "Only the table's host can do that.")
    }
    guard table.phase == .lobby else {
      throw WireError(code: "already-started", message: "The table has already started.")
    }
    switch command {
    case .seat:
      guard table.takesComputers else {
        throw WireError(code: "no-computers", message: "\(room.game) has no computer players.")
      }
      guard table.seats.count < table.seatRange.upperBound else {
        throw WireError(code: "table-full", message: "Every seat is taken.")
      }
      let taken = Set(table.seats.map(\.name))
      guard let computer = Table.computerNames.first(where: { !taken.contains($0) }) else {
        throw WireError(code: "table-full", message: "Every computer player is seated.")
      }
      table.seats.append(Table.Seat(player: nil, name: computer, computer: true))
    case .unseat:
      let seat = try request.requiredInt("seat", in: "unseat")
      guard table.seats.indices.contains(seat), seat > 0 else {
        throw .badRequest("unseat: \"seat\" must be a taken seat other than the host's.")
      }
      table.seats.remove(at: seat)
    default:
      try start(room, table, from: client, at: now, reply: reply)
      return
    }
    room.table = table
    try saveTable(room, at: now)
    broadcastTable(room, reply: (client, reply))
  }

  /// `rename`: a person seated in the lobby takes another name (docs/PROTOCOL.md "Names"),
  /// which their settings keep for the next table.
  func rename(_ request: JSON, _ room: Room, from client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    guard var table = room.table else {
      throw WireError(code: "not-a-table", message: "Only a table has seats.")
    }
    guard let seat = table.seat(of: connections[client]?.player?.key) else {
      throw WireError(code: "not-seated", message: "Only a seated player can take a name here.")
    }
    guard table.phase == .lobby else {
      throw WireError(code: "already-started", message: "The table has already started.")
    }
    let name = try PlayerName.check(try request.requiredString("name", in: "rename"))
    let others = table.seats.indices.filter { $0 != seat }.map { table.seats[$0].name.rawValue }
    guard !others.contains(name), name != PlayerID.referee.rawValue else {
      throw WireError(code: "name-taken", message: "Another seat at this table is called \(name).")
    }
    guard table.seats[seat].name.rawValue != name else {
      broadcastTable(room, reply: (client, reply))
      return
    }
    table.seats[seat].name = PlayerID(name)
    room.table = table
    try saveTable(room, at: now)
    keepName(name, for: client)
    broadcastTable(room, reply: (client, reply))
  }

  /// Keeps `name` in the settings of `client`'s player; a failure only costs the next table's
  /// prefilled name, so it is logged, not refused.
  private func keepName(_ name: String, for client: ClientID) {
    guard var owner = connections[client]?.player else { return }
    let settings = ((try? JSON(parsing: owner.settings)) ?? [:]).setting("name", to: .string(name))
    do {
      try store.saveSettings(settings.text, of: owner.key)
    } catch {
      log("cardtable: could not keep a player's new name: \(error)")
      return
    }
    owner.settings = settings.text
    for (id, connection) in connections where connection.player?.key == owner.key {
      connections[id]?.player = owner
    }
  }

  private func start(
    _ room: Room, _ table: Table, from client: ClientID, at now: Double, reply: JSON?
  )
    throws(WireError)
  {
    let seated = table.seats.filter { !$0.left }
    let fewest = table.fewestSeats
    guard seated.count >= fewest else {
      throw WireError(
        code: "too-few-players", message: "\(room.game) needs at least \(fewest) players.")
    }
    try deal(room, table, ordinal: 0, from: client, reply: reply, at: now)
  }

  /// Deals the table's game for its seats as the room's match `ordinal`: the first at the
  /// start, a rematch's after (a new deal: a practice table's seed and deck only deal the
  /// first). Everyone gets `table` and their own `update`; the reply goes to `client`'s.
  func deal(
    _ room: Room, _ table: Table, ordinal: Int, from client: ClientID?, reply: JSON?,
    at now: Double
  ) throws(WireError) {
    let seated = table.seats.filter { !$0.left }
    let options = try GameCatalog.options(
      table.options["options"] ?? [:], of: room.game,
      seating: seated.filter { !$0.computer }.map(\.name),
      computers: seated.filter(\.computer).map(\.name))
    let deal = ordinal == 0 ? table.options : table.options.removing("seed").removing("deck")
    let new = try NewGame(
      deal.setting("game", to: .string(room.game)).setting("options", to: options),
      newSeed: newSeed)
    let later =
      new.seedChosen
      ? LaterSeeds(seed: new.seed) : LaterSeeds(key: (random.next(), random.next()))
    let session = try GameCatalog.start(new, later: later)
    let wall = wallClock()
    let match = MatchRecord(
      ordinal: ordinal, game: session.game, options: session.deal.text, seed: session.seed,
      seedChosen: new.seedChosen, laterKey: [later.key.0, later.key.1], replay: false,
      started: wall)
    do {
      try room.start(session, match: match, table: table, in: store, wall: wall)
    } catch {
      throw storeFailed(room, error, doing: ordinal == 0 ? "start table" : "deal a rematch")
    }
    room.clockStarts(at: now)
    room.lastChange = session.clock
    room.tableOver = session.isFinished
    refreshRatings(room)
    broadcastTable(room, reply: nil)
    broadcast(room, events: .empty, reply: client.map { ($0, reply) })
    reschedule(room)
  }

  func saveTable(_ room: Room, at now: Double) throws(WireError) {
    do {
      try room.persist(in: store, at: now, wall: wallClock(), tableChanged: true)
    } catch {
      throw storeFailed(room, error, doing: "save table")
    }
  }

  // MARK: Leaving and coming back

  /// `leave` at a table: in the lobby the player gives up their seat (the host stays); once it
  /// has started they leave the game as its rules say.
  func leaveSeat(_ client: ClientID, at now: Double) throws(WireError) {
    guard let id = connections[client]?.room, let room = rooms[id], var table = room.table,
      let seat = table.seat(of: connections[client]?.player?.key)
    else { return }
    switch table.phase {
    case .lobby where seat == 0:
      // NB: a table waits for its host: the host leaving the lobby closes it for everyone.
      do {
        try room.abandon(in: store, at: now, wall: wallClock())
      } catch {
        throw storeFailed(room, error, doing: "close table")
      }
      for other in room.clients where other != client {
        send(Closed(room: room.id.rawValue), to: other)
      }
    case .lobby:
      table.seats.remove(at: seat)
      room.table = table
      try saveTable(room, at: now)
      broadcastTable(room, except: client)
    case .playing:
      try makeLeave(room, seat: seat, at: now)
    }
  }

  /// The game's `leave` for a seat, saved and pushed, and the seat marked as left.
  private func makeLeave(_ room: Room, seat: Int, at now: Double) throws(WireError) {
    guard let session = room.session, var table = room.table, !table.seats[seat].left else {
      return
    }
    let name = table.seats[seat].name
    var events = EventBatch.empty
    if !session.isFinished {
      do throws(WireError) {
        events = try session.perform(["type": "leave"], as: name)
      } catch {
        // NB: a game the player can no longer leave (it is over) needs nothing more.
      }
    }
    table.seats[seat].left = true
    table.seats[seat].absentSince = nil
    room.table = table
    do {
      try room.persist(in: store, at: now, wall: wallClock(), tableChanged: true)
    } catch {
      throw storeFailed(room, error, doing: "save a player leaving room")
    }
    broadcast(room, events: events, reply: nil)
    broadcastTable(room)
    reschedule(room)
    _ = try? rematchIfAgreed(room, at: now)
  }

  /// When the last connection of a seated player leaves a started table, their grace period
  /// begins and the others are told.
  func seatMayBeAbsent(_ room: Room, player: PlayerKey?) {
    guard let table = room.table, table.phase == .playing, room.session?.isFinished == false,
      let seat = table.seat(of: player), !table.seats[seat].computer,
      table.seats[seat].absentSince == nil,
      !room.clients.contains(where: { connections[$0]?.player?.key == player })
    else { return }
    room.table?.seats[seat].absentSince = lastNow
    tellSeat(room, seat, connected: false)
    reschedule(room)
  }

  /// Tells everyone in `room` but `client` that a seated player's connection dropped (with the
  /// seconds they have to come back) or that they are back.
  func tellSeat(_ room: Room, _ seat: Int, connected: Bool, except client: ClientID? = nil) {
    guard let table = room.table else { return }
    var message = JSON.object([
      ("type", "seat"), ("seat", JSON(seat)), ("name", .string(table.seats[seat].name.rawValue)),
      ("connected", JSON(connected)),
    ])
    if !connected { message = message.setting("leavesIn", to: JSON(room.grace)) }
    for other in room.clients where other != client { send(message, to: other) }
  }

  /// Makes every seated player whose grace period ran out leave, as the game's rules say.
  func expireSeats(of room: Room, at now: Double) {
    for seat in room.expiredSeats(at: now) {
      do throws(WireError) {
        try makeLeave(room, seat: seat, at: now)
      } catch {
        // NB: the store failed; the seat stays absent and is tried again at the next wake.
      }
    }
  }

  // MARK: Messages

  func tableMessage(_ room: Room, _ table: Table, for client: ClientID, reply: JSON?) -> JSON {
    let key = connections[client]?.player?.key
    let watchers = room.clients.filter { table.seat(of: connections[$0]?.player?.key) == nil }
    var message = table.message(
      room: room.id, game: room.game, you: table.seat(of: key), watchers: watchers.count,
      over: room.session?.isFinished == true
    ) { seat in
      room.clients.contains { connections[$0]?.player?.key == table.seats[seat].player }
    }
    let muted = mutedNames(room, by: key)
    if !muted.isEmpty { message = message.setting("muted", to: JSON(muted)) }
    if let reply { message = message.setting("reply", to: reply) }
    return message
  }

  /// Sends every client of the room its `table` message.
  func broadcastTable(
    _ room: Room, except skipped: ClientID? = nil, reply: (ClientID, JSON?)? = nil
  ) {
    guard let table = room.table else { return }
    for client in room.clients where client != skipped {
      send(
        tableMessage(room, table, for: client, reply: reply?.0 == client ? reply?.1 : nil),
        to: client)
    }
  }

  /// After a Snap! call, every client of a table learns who called, how long after the card
  /// was turned, and how it went.
  func receipt(_ room: Room, after version: Int, events: EventBatch) {
    guard let session = room.session, events.count > 0 else { return }
    for note in events.notes {
      switch note {
      case .call(let player, let receipt):
        if room.table != nil { sendReceipt(room, player: player, receipt) }
      case .found(let player):
        room.lastFinder = player
      case .changed:
        room.lastChange = session.clock
      }
    }
    // NB: the table's phase follows its game: over at its end (and playing again after Set's
    // Deal).
    if room.table != nil, session.isFinished != room.tableOver {
      room.tableOver = session.isFinished
      // NB: the results are in the store already: the count of wins is read from them.
      if session.isFinished {
        room.table?.wins = wins(at: room)
        rate(room)
      }
      room.table?.rematch = []
      broadcastTable(room)
    }
  }

  /// A claim refused because another player's call was decided first (Set's `card-matched`
  /// at a race) is told to the table as too late, with who was first.
  func refused(_ room: Room, player: PlayerID, code: String) {
    guard room.table != nil,
      let receipt = GameCatalog.tooLateReceipt(
        refusedWith: code, firstFinder: room.lastFinder, of: room.game)
    else { return }
    sendReceipt(room, player: player, receipt)
  }

  private func sendReceipt(_ room: Room, player: PlayerID, _ receipt: CallReceipt) {
    let clock = room.session?.clock ?? 0
    let after = room.lastChange.map { ((clock - $0) * 1000).rounded() / 1000 }
    send(
      Receipt(player: player, result: receipt.result, after: after, reason: receipt.reason),
      toEach: room.clients)
  }
}

extension Table {
  /// The name a player asks to sit as: their settings' `name`.
  static func wanted(_ player: PlayerRecord) -> String? {
    // NB: a name kept before the rules of PlayerName is not used.
    PlayerName.valid((try? JSON(parsing: player.settings))?["name"]?.stringValue)
  }

  /// The host's name at a new table.
  static func seatName(of player: PlayerRecord, at table: Table?) -> PlayerID {
    PlayerID(wanted(player) ?? "Player 1")
  }
}
