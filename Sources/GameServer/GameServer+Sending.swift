import CardTableCore
import GameStore
import GameWire

// Sending: updates to everyone in a room, each with their own view, and any message.

extension GameServer {
  // MARK: Sending

  func broadcast(_ room: Room, events: EventBatch, reply: (ClientID, JSON?)?) {
    guard let session = room.session else { return }
    // NB: what every client's update shares is read once: each read through `any GameSession`
    // costs a call, and these were read again for every seat.
    let head = UpdateHead(room, session)
    for client in room.clients {
      write(
        update(
          room, session, head, events: events, for: client,
          reply: reply?.0 == client ? reply?.1 : nil))
      // NB: the client's room is known: neither it nor whether it waits is looked up by name.
      writer.withBytes { bytes in
        guard room.isStaged else { return host.send(bytes, to: client) }
        batch.keep(bytes, for: client, in: room.id)
      }
    }
  }

  /// The update `client` gets: its own view and its own events.
  func update(_ room: Room, events: EventBatch, for client: ClientID, reply: JSON?)
    -> Update
  {
    // NB: only called for a room whose game is dealt.
    guard let session = room.session else { preconditionFailure("an update of a lobby") }
    return update(
      room, session, UpdateHead(room, session), events: events, for: client, reply: reply)
  }

  private func update(
    _ room: Room, _ session: any GameSession, _ head: UpdateHead, events: EventBatch,
    for client: ClientID, reply: JSON?
  ) -> Update {
    let viewer = room.viewer(of: connections[client]?.player?.key)
    return Update(
      game: head.game, seed: head.seed, today: head.today, version: head.version,
      events: events.shown(to: viewer), view: session.view(for: viewer), reply: reply)
  }

  func send(_ message: some Encodable, to client: ClientID) {
    write(message)
    sendWritten(to: client)
  }

  // NB: the protocol's own messages write themselves; the overloads spare them `Encodable`.
  func send(_ message: some WireEncodable, to client: ClientID) {
    write(message)
    sendWritten(to: client)
  }

  /// Sends `message` to every client of `clients`, written once.
  func send(_ message: some Encodable, toEach clients: some Sequence<ClientID>) {
    write(message)
    sendWritten(toEach: clients)
  }

  func send(_ message: some WireEncodable, toEach clients: some Sequence<ClientID>) {
    write(message)
    sendWritten(toEach: clients)
  }

  /// Sends what ``writer`` holds to `client`.
  private func sendWritten(to client: ClientID) {
    writer.withBytes { deliver($0, to: client) }
  }

  private func sendWritten(toEach clients: some Sequence<ClientID>) {
    // NB: a copy: sending may close a connection, and what that sends is written in `writer`.
    let bytes = writer.bytes
    bytes.withUnsafeBytes { bytes in
      for client in clients { deliver(bytes, to: client) }
    }
  }

  /// Writes `message` into ``writer``.
  private func write(_ message: some Encodable) {
    rewrite { try encoder.encode(message, into: &$0) }
  }

  /// Writes `message` into ``writer`` by its own `write(to:)`.
  private func write(_ message: some WireEncodable) {
    rewrite { try encoder.encode(message, into: &$0) }
  }

  /// Writes into an emptied ``writer`` what `encode` writes.
  private func rewrite(_ encode: (inout JSONWriter) throws -> Void) {
    writer.removeAll()
    do {
      try encode(&writer)
    } catch {
      // NB: no message of the protocol throws when encoded; say so rather than stay silent.
      writer.removeAll()
      writer.raw(
        #"{"type":"error","error":{"code":"internal","message":"The message could not be written."}}"#
      )
    }
  }

  /// Sends `bytes` to `client`.
  private func deliver(_ bytes: UnsafeRawBufferPointer, to client: ClientID) {
    // NB: what a client in a room whose changes wait for the group commit is sent waits too.
    guard !batch.isEmpty, let room = connections[client]?.room, batch.holds(client, in: room)
    else { return host.send(bytes, to: client) }
    batch.keep(bytes, for: client, in: room)
  }
}
