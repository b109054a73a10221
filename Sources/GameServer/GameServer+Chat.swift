import CardTableCore
import GameStore
import GameWire

// A table's chat (docs/PROTOCOL.md "Table chat"): seated players and watchers write short
// lines and quick reactions, kept with the room before anyone sees them; a player can mute
// another, and the host can turn watchers' chat off.
extension GameServer {
  /// `say`, `mute`/`unmute` and `chat-settings` at the client's table.
  func chatCommand(
    _ command: RoomCommand, _ request: JSON, _ room: Room, from client: ClientID, at now: Double,
    reply: JSON?
  ) throws(WireError) {
    guard let table = room.table else {
      throw WireError(code: "not-a-table", message: "Only a table has a chat.")
    }
    guard room.status != .abandoned else { throw .roomClosed }
    let player = try self.player(of: client)
    switch command {
    case .say:
      try say(request, at: table, room, by: player, from: client, at: now, reply: reply)
    case .mute(let muting):
      let name = try request.requiredString("name", in: command.name)
      guard let other = chatWriter(named: name, in: room) else {
        throw WireError(
          code: "no-such-player", message: "Nobody at this table is called \(name).")
      }
      guard other != player.key else { throw .badRequest("You cannot mute yourself.") }
      if muting {
        room.chat.muted[player.key, default: []].insert(other)
      } else {
        room.chat.muted[player.key]?.remove(other)
      }
      send(tableMessage(room, table, for: client, reply: reply), to: client)
    case .chatSettings:
      guard table.seat(of: player.key) == 0 else {
        throw WireError(code: "not-the-host", message: "Only the table's host can do that.")
      }
      guard let watchers = request["watchers"]?.boolValue else {
        throw .badRequest("chat-settings needs \"watchers\": true or false.")
      }
      if watchers != table.watcherChat {
        room.table?.watcherChat = watchers
        do {
          try saveTable(room, at: now)
        } catch {
          room.table?.watcherChat = !watchers
          throw error
        }
      }
      broadcastTable(room, reply: (client, reply))
    default:
      break
    }
  }

  private func say(
    _ request: JSON, at table: Table, _ room: Room, by player: PlayerRecord, from client: ClientID,
    at now: Double, reply: JSON?
  ) throws(WireError) {
    let content = try TableChat.content(of: request)
    let seat = table.seat(of: player.key)
    if seat == nil, !table.watcherChat {
      throw WireError(code: "chat-off", message: "The host has turned watchers' chat off.")
    }
    try room.chat.mayWrite(player.key, at: now)
    let name = seat.map { table.seats[$0].name.rawValue } ?? Table.wanted(player) ?? "Watcher"
    let wall = wallClock()
    let line = room.chat.line(by: player.key, name: name, seat: seat, content: content, at: wall)
    do {
      try store.save(
        RoomChange(
          room: room.id, ordinal: room.ordinal, chat: [line], status: room.status, at: wall))
    } catch {
      throw storeFailed(room, error, doing: "keep a chat line of")
    }
    room.chat.add(line)
    for reader in room.clients {
      let key = connections[reader]?.player?.key
      guard !room.chat.hides(line.player, from: key) else { continue }
      var message: JSON = [
        "type": "chat", "room": .string(room.id.rawValue),
        "lines": [TableChat.json(line, for: key)],
      ]
      if reader == client, let reply { message = message.setting("reply", to: reply) }
      send(message, to: reader)
    }
  }

  /// The latest lines of the room's chat for a client entering it (none: nothing is sent).
  func sendChatHistory(_ room: Room, to client: ClientID) {
    let key = connections[client]?.player?.key
    let lines = room.chat.recent.filter { !room.chat.hides($0.player, from: key) }
    guard !lines.isEmpty else { return }
    send(
      [
        "type": "chat", "room": .string(room.id.rawValue),
        "lines": .array(lines.map { TableChat.json($0, for: key) }), "history": true,
      ] as JSON, to: client)
  }

  /// The names of those `reader` muted, as the table now knows them.
  func mutedNames(_ room: Room, by reader: PlayerKey?) -> [String] {
    guard let reader, let muted = room.chat.muted[reader], !muted.isEmpty else { return [] }
    return muted.compactMap { name(of: $0, in: room) }.sorted()
  }

  /// Whom a name means at the table: a seat's player, else the writer of its latest line.
  private func chatWriter(named name: String, in room: Room) -> PlayerKey? {
    if let seat = room.table?.seats.first(where: {
      $0.name.rawValue == name && !$0.left && $0.player != nil
    }) {
      return seat.player
    }
    return room.chat.recent.last { $0.name == name }?.player
  }

  /// The name a player goes by at the table: their seat's, else their latest line's.
  private func name(of player: PlayerKey, in room: Room) -> String? {
    if let seat = room.table?.seat(of: player) { return room.table?.seats[seat].name.rawValue }
    return room.chat.recent.last { $0.player == player }?.name
  }
}
