import CardTableCore
import GameWire

/// Identifies one client connection, whatever the transport.
public struct ClientID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt64
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }
  public var description: String { "client-\(rawValue)" }
}

/// Where a room's messages go: each is one JSON text for one client, valid only during the call.
public typealias Deliver = (ClientID, UnsafeRawBufferPointer) -> Void

/// A message for one client, as tests collect them.
public struct Outgoing: Sendable, Equatable {
  public var client: ClientID
  public var text: String

  public init(client: ClientID, text: String) {
    self.client = client
    self.text = text
  }

  /// The message parsed.
  public var message: JSON { (try? JSON(parsing: text)) ?? .null }
}

/// One table's game as the protocol sees it (docs/PROTOCOL.md): reads client messages, runs the
/// game's timers against a clock it is given, and answers with updates, answers and errors.
///
/// It never reads a clock or sleeps: every call says what time it is (seconds on the host's
/// clock), and ``nextWake`` says when it next wants to be called, so tests drive it exactly.
/// Messages are written as JSON text into one buffer the room keeps and handed to `deliver`.
public final class RoomCore {
  /// The player every client of a solitaire room plays as.
  public let player: PlayerID
  private(set) var clients: [ClientID] = []
  private var session: (any GameSession)?
  /// The host time at which the current game's clock read 0.
  private var startedAt = 0.0
  /// Whether the client chose the seed; a seed the server picked is a secret until the game
  /// is over, since it names every face-down card.
  private var seedIsPublic = false
  private let newSeed: () -> UInt64
  private var writer = JSONWriter(capacity: 16 * 1024)
  private let encoder = WireEncoder()

  public init(player: PlayerID = .solo, newSeed: @escaping () -> UInt64) {
    self.player = player
    self.newSeed = newSeed
  }

  /// The host time at which the next timer of the game falls due, if any.
  public var nextWake: Double? {
    guard let session, let due = session.nextDue else { return nil }
    return startedAt + due
  }

  /// The running game's name, if any.
  public var game: String? { session?.game }

  /// Whether no client is left.
  public var isEmpty: Bool { clients.isEmpty }

  /// A client joined: it is greeted with the protocol version and the game list.
  public func join(_ client: ClientID, deliver: Deliver) {
    clients.append(client)
    send(Welcome(), to: client, deliver)
    if let session { send(update(session, events: .empty, for: nil), to: client, deliver) }
  }

  /// A client left; the room forgets it.
  public func leave(_ client: ClientID) {
    clients.removeAll { $0 == client }
  }

  /// Runs the timers that fell due by `now` and pushes what they did to every client.
  public func wake(at now: Double, deliver: Deliver) {
    catchUp(to: now, deliver)
  }

  /// Handles one text message (UTF-8) from `client` received at host time `now`.
  public func receive(
    _ text: UnsafeRawBufferPointer, from client: ClientID, at now: Double, deliver: Deliver
  ) {
    catchUp(to: now, deliver)
    var reply: JSON?
    do throws(WireError) {
      let request: JSON
      do {
        request = try JSON(parsing: text)
      } catch {
        throw .invalidJSON(error)
      }
      guard request.keys != nil else {
        throw .badRequest("A message must be a JSON object such as {\"cmd\":\"state\"}.")
      }
      reply = request["id"]
      try handle(request, from: client, at: now, reply: reply, deliver)
    } catch {
      send(ErrorMessage(error: error, reply: reply), to: client, deliver)
    }
  }

  /// The message that refuses a request, as JSON text.
  public static func errorText(_ error: WireError, reply: JSON? = nil) -> String {
    (try? WireEncoder().text(of: ErrorMessage(error: error, reply: reply))) ?? ""
  }

  private func handle(
    _ request: JSON, from client: ClientID, at now: Double, reply: JSON?, _ deliver: Deliver
  ) throws(WireError) {
    let name = try request.requiredString("cmd", in: "A message")
    switch name {
    case "new":
      let new = try NewGame(request, newSeed: newSeed)
      let session = try GameCatalog.start(new)
      seedIsPublic = new.seedChosen
      self.session = session
      startedAt = now
      broadcast(session, events: .empty, reply: (client, reply), deliver)
    case "restart":
      let session = try running().restart()
      self.session = session
      startedAt = now
      broadcast(session, events: .empty, reply: (client, reply), deliver)
    case "state":
      send(update(try running(), events: .empty, for: reply), to: client, deliver)
    case "results":
      send(Results(results: try running().results, reply: reply), to: client, deliver)
    case "act":
      let session = try running()
      guard let action = request["action"], action.keys != nil else {
        throw .badRequest("act needs \"action\", an object such as {\"type\":\"flip\",\"card\":0}.")
      }
      if let named = action["player"]?.stringValue, PlayerID(named) != player {
        throw WireError(
          code: "not-your-seat", message: "You play as \(player) and cannot act for \(named).")
      }
      let events = try session.perform(action, as: player)
      broadcast(session, events: events, reply: (client, reply), deliver)
    default:
      guard GameCatalog.commandNames.contains(name) else { throw .unknownCommand(name) }
      let session = try running()
      guard let answer = try session.command(name, request) else {
        throw .unknownCommand(name)
      }
      var message = answer.setting("type", to: "answer").setting("cmd", to: .string(name))
      if let reply { message = message.setting("reply", to: reply) }
      send(message, to: client, deliver)
      broadcast(session, events: .empty, reply: nil, deliver)
    }
  }

  private func running() throws(WireError) -> any GameSession {
    guard let session else { throw .noGame }
    return session
  }

  private func catchUp(to now: Double, _ deliver: Deliver) {
    // NB: the game's clock follows the host's, so logged actions carry their real times.
    guard let session else { return }
    var target = now - startedAt
    // NB: woken at exactly `nextWake`, the difference can round just below the due time.
    if let due = session.nextDue, due > target, due - target <= 1e-9 * max(1, abs(now)) {
      target = due
    }
    guard target > session.clock else { return }
    let events = session.advance(by: target - session.clock)
    guard events.count > 0 else { return }
    broadcast(session, events: events, reply: nil, deliver)
  }

  private func broadcast(
    _ session: any GameSession, events: EventBatch, reply: (ClientID, JSON?)?, _ deliver: Deliver
  ) {
    for client in clients {
      send(
        update(session, events: events, for: reply?.0 == client ? reply?.1 : nil), to: client,
        deliver)
    }
  }

  private func update(_ session: any GameSession, events: EventBatch, for reply: JSON?) -> Update {
    let viewer = Viewer.player(player)
    return Update(
      game: session.game, seed: seedIsPublic || session.isOver ? session.seed : nil,
      version: session.version, events: events.shown(to: viewer),
      view: session.view(for: viewer), reply: reply)
  }

  private func send(_ message: some Encodable, to client: ClientID, _ deliver: Deliver) {
    writer.removeAll()
    do {
      try encoder.encode(message, into: &writer)
    } catch {
      // NB: no message of the protocol throws when encoded; say so rather than stay silent.
      writer.removeAll()
      writer.raw(
        #"{"type":"error","error":{"code":"internal","message":"The message could not be written."}}"#
      )
    }
    writer.bytes.withUnsafeBytes { deliver(client, $0) }
  }
}

extension RoomCore {
  /// ``join(_:deliver:)`` collecting the messages.
  public func join(_ client: ClientID) -> [Outgoing] {
    collect { join(client, deliver: $0) }
  }

  /// ``wake(at:deliver:)`` collecting the messages.
  public func wake(at now: Double) -> [Outgoing] {
    collect { wake(at: now, deliver: $0) }
  }

  /// ``receive(_:from:at:deliver:)`` for a text, collecting the messages.
  public func receive(_ text: String, from client: ClientID, at now: Double) -> [Outgoing] {
    var text = text
    return text.withUTF8 { bytes in
      collect { receive(UnsafeRawBufferPointer(bytes), from: client, at: now, deliver: $0) }
    }
  }

  private func collect(_ body: (Deliver) -> Void) -> [Outgoing] {
    var messages: [Outgoing] = []
    body { client, bytes in
      messages.append(Outgoing(client: client, text: String(decoding: bytes, as: UTF8.self)))
    }
    return messages
  }
}

// MARK: Messages (docs/PROTOCOL.md)

/// `{"type":"welcome","protocol":1,"games":[...]}`.
struct Welcome: Encodable {
  let type = "welcome"
  let `protocol` = 1
  let games = GameCatalog.names
}

/// `{"type":"update","game":G,"seed":S,"version":V,"events":[...],"view":{...},"reply":R}`.
struct Update: Encodable {
  enum CodingKeys: String, CodingKey {
    case type, game, seed, version, events, view, reply
  }

  var game: String
  var seed: UInt64?
  var version: Int
  var events: EventBatch.Shown
  var view: any Encodable
  var reply: JSON?

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("update", forKey: .type)
    try container.encode(game, forKey: .game)
    try container.encode(seed, forKey: .seed)
    try container.encode(version, forKey: .version)
    try container.encode(events, forKey: .events)
    try container.encode(view, forKey: .view)
    try container.encodeIfPresent(reply, forKey: .reply)
  }
}

/// `{"type":"answer","cmd":"results","results":[...],"reply":R}`.
struct Results: Encodable {
  enum CodingKeys: String, CodingKey {
    case type, cmd, results, reply
  }

  var results: any Encodable
  var reply: JSON?

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("answer", forKey: .type)
    try container.encode("results", forKey: .cmd)
    try container.encode(results, forKey: .results)
    try container.encodeIfPresent(reply, forKey: .reply)
  }
}

/// `{"type":"error","error":{"code":...,"message":...},"reply":R}`.
struct ErrorMessage: Encodable {
  enum CodingKeys: String, CodingKey {
    case type, error, reply
  }

  var error: WireError
  var reply: JSON?

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("error", forKey: .type)
    try container.encode(error, forKey: .error)
    try container.encodeIfPresent(reply, forKey: .reply)
  }
}
