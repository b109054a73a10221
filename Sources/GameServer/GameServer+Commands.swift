import CardTableCore
import GameStore
import GameWire

// Each message, read once into a ``ServerCommand`` and carried out (docs/PROTOCOL.md).

extension GameServer {
  func handle(_ request: JSON, from client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    let command = try ServerCommand(request)
    // NB: what does not wait for the group commit sees the store with every earlier change.
    if command.groupCommits {
      staging = configuration.groupCommit
      if staging { answering = (client, reply) }
    } else {
      store.commit()
    }
    defer { staging = false }
    switch command {
    case .hello(let token):
      let player = try identify(client, token: token)
      sendHello(client, player, reply: reply)
    case .new(let request):
      try newRoom(request, for: client, at: now, reply: reply)
    case .open(let id):
      try open(id, for: client, at: now, reply: reply)
    case .leave:
      try leaveSeat(client, at: now)
      leaveRoom(client)
      send(Left(reply: reply), to: client)
    case .host(let request):
      try host(request, for: client, at: now, reply: reply)
    case .join(let request):
      try join(request, for: client, at: now, reply: reply)
    case .tables:
      try listTables(for: client, reply: reply)
    case .rooms:
      try listRooms(for: client, reply: reply)
    case .scores(let request):
      try scores(request, for: client, reply: reply)
    case .stats:
      try statistics(for: client, reply: reply)
    case .profile(let request):
      try profile(request, for: client, reply: reply)
    case .settings(let request):
      try settings(request, for: client, reply: reply)
    case .transfer:
      try makeTransfer(for: client, at: now, reply: reply)
    case .claim(let request):
      try claimTransfer(request, for: client, at: now, reply: reply)
    case .room(let command, let request):
      try inRoom(command, request, from: client, at: now, reply: reply)
    }
  }

  /// The commands about the client's room, checked in the order docs/PROTOCOL.md gives: a
  /// room, then a table's lobby, then a dealt game, then what watchers and closed rooms may
  /// ask, then what only the room's players may do.
  func inRoom(
    _ command: RoomCommand, _ request: JSON, from client: ClientID, at now: Double, reply: JSON?
  ) throws(WireError) {
    guard let id = connections[client]?.room, let room = rooms[id] else { throw .noGame }
    let behind = run(room, at: now)
    let key = connections[client]?.player?.key
    switch command {
    case .seat, .unseat, .start:
      try lobbyCommand(command, request, room, from: client, at: now, reply: reply)
      return
    case .rename:
      try rename(request, room, from: client, at: now, reply: reply)
      return
    case .say, .mute, .chatSettings:
      try chatCommand(command, request, room, from: client, at: now, reply: reply)
      return
    default:
      break
    }
    guard let session = room.session else {
      if command == .state, let table = room.table {
        send(tableMessage(room, table, for: client, reply: reply), to: client)
        return
      }
      throw WireError(code: "not-started", message: "The table has not started yet.")
    }
    if try answerReading(command, request, room, session, key: key, to: client, reply: reply) {
      return
    }
    guard room.status != .abandoned else { throw .roomClosed }
    guard let seat = room.name(of: key) else { throw .watching }
    if let behind { throw behind }
    switch command {
    case .abandon:
      try abandon(room, for: client, at: now, reply: reply)
      return
    case .restart:
      try restart(room, for: client, at: now, reply: reply)
      return
    case .rematch:
      try rematch(room, from: client, at: now, reply: reply)
      return
    default:
      break
    }
    if room.isResuming(at: now), let resumesAt = room.resumesAt {
      throw .resuming(in: resumesAt - now)
    }
    let before = session.version
    if command == .act {
      guard let action = request["action"], action.keys != nil else {
        throw .badRequest("act needs \"action\", an object such as {\"type\":\"flip\",\"card\":0}.")
      }
      if let named = action["player"]?.stringValue, PlayerID(named) != seat {
        throw WireError(
          code: "not-your-seat", message: "You play as \(seat) and cannot act for \(named).")
      }
      let events: EventBatch
      do {
        events = try session.perform(action, as: seat)
      } catch {
        refused(room, player: seat, code: error.code)
        throw error
      }
      try save(room, at: now)
      counters.actions += 1
      broadcast(room, events: events, reply: (client, reply))
      receipt(room, after: before, events: events)
    } else {
      guard let answer = try session.command(command.name, request) else {
        throw .unknownCommand(command.name)
      }
      try save(room, at: now)
      send(
        Answer(cmd: command.name, body: GameAnswerBody(answer: answer), reply: reply), to: client)
      if session.version != before { broadcast(room, events: .empty, reply: nil) }
    }
    reschedule(room)
  }

  /// Answers a command that only reads the room — which watchers and a closed room answer
  /// too; false for any other command.
  private func answerReading(
    _ command: RoomCommand, _ request: JSON, _ room: Room, _ session: any GameSession,
    key: PlayerKey?, to client: ClientID, reply: JSON?
  ) throws(WireError) -> Bool {
    switch command {
    case .state:
      send(update(room, events: .empty, for: client, reply: reply), to: client)
    case .results:
      let results = try resultsWithBests(in: room, for: key)
      send(Answer(cmd: "results", body: ResultsBody(results: results), reply: reply), to: client)
    case .game(let name) where command.onlyReads:
      // NB: reads the log and changes nothing.
      guard let answer = try session.command(name, request) else {
        throw .unknownCommand(name)
      }
      send(Answer(cmd: name, body: GameAnswerBody(answer: answer), reply: reply), to: client)
    case .viewAt:
      let version = try request.requiredInt("version", in: "view-at")
      let view = try session.view(at: version, for: room.viewer(of: key))
      send(
        Answer(cmd: "view-at", body: ViewAtBody(version: version, view: view), reply: reply),
        to: client)
    default:
      return false
    }
    return true
  }

  /// `abandon`: a game of one's own closes as abandoned, and whoever watches it is told.
  private func abandon(_ room: Room, for client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    guard room.table == nil else {
      throw WireError(
        code: "not-alone", message: "A table is left with {\"cmd\":\"leave\"}, not abandoned.")
    }
    do {
      try room.abandon(in: store, at: now, wall: wallClock())
    } catch {
      throw storeFailed(room, error, doing: "abandon room")
    }
    send(
      Answer(cmd: "abandon", body: AbandonBody(room: room.id.rawValue), reply: reply), to: client)
    for other in room.clients { send(Closed(room: room.id.rawValue), to: other) }
  }

  /// `restart`: a game of one's own is dealt again.
  private func restart(_ room: Room, for client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    guard room.table == nil else {
      throw WireError(code: "not-alone", message: "A table's game cannot be dealt again.")
    }
    do {
      try room.restart(in: store, at: now, wall: wallClock())
    } catch {
      guard !store.holds(room.id) else { throw error }
      throw storeFailed(room, .leaseLost(path: "", room: room.id.rawValue), doing: "restart")
    }
    broadcast(room, events: .empty, reply: (client, reply))
    reschedule(room)
  }
}

extension GameServer {
  /// The room's results as the engine wrote them; each of `key`'s own won games carries
  /// `best`, what it bettered among that player's earlier ones (`score`, `time`).
  fileprivate func resultsWithBests(in room: Room, for key: PlayerKey?) throws(WireError) -> [JSON]
  {
    do {
      let results = try store.results(in: room.id)
      let own = results.filter { $0.player == key && $0.won && $0.counts }
      let earlier = try own.isEmpty ? [] : store.results(of: own[0].player, game: own[0].game)
      return results.map { result in
        let record = (try? JSON(parsing: result.record)) ?? .null
        guard result.player == key, case .object(let members) = record else { return record }
        let bests = HighScores.newBests(of: result, among: earlier) { result in
          GameCatalog.describe(game: result.game, options: result.options)
            ?? (result.options, .none)
        }
        guard !bests.isEmpty else { return record }
        return .object(members + [("best", JSON(bests.map(\.rawValue)))])
      }
    } catch {
      log("cardtable: could not read the results of room \(room.id): \(error)")
      throw .storageUnavailable
    }
  }
}
