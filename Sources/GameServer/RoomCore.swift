import CardTableCore
import GameWire

/// Identifies one client connection, whatever the transport.
public struct ClientID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt64
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }
  public var description: String { "client-\(rawValue)" }
}

/// A message for one client.
public struct Outgoing: Sendable, Equatable {
  public var client: ClientID
  public var message: JSON

  public init(client: ClientID, message: JSON) {
    self.client = client
    self.message = message
  }
}

/// One table's game as the protocol sees it (docs/PROTOCOL.md): reads client messages, runs the
/// game's timers against a clock it is given, and answers with updates, answers and errors.
///
/// It never reads a clock or sleeps: every call says what time it is (seconds on the host's
/// clock), and ``nextWake`` says when it next wants to be called, so tests drive it exactly.
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

  /// A client joined: it is greeted with the protocol version and the game list.
  public func join(_ client: ClientID) -> [Outgoing] {
    clients.append(client)
    var messages = [
      Outgoing(
        client: client,
        message: ["type": "welcome", "protocol": 1, "games": JSON(GameCatalog.names)])
    ]
    if let session { messages.append(update(session, events: .empty, to: client, reply: nil)) }
    return messages
  }

  /// A client left; the room forgets it.
  public func leave(_ client: ClientID) {
    clients.removeAll { $0 == client }
  }

  /// Whether no client is left.
  public var isEmpty: Bool { clients.isEmpty }

  /// Runs the timers that fell due by `now` and pushes what they did to every client.
  public func wake(at now: Double) -> [Outgoing] {
    catchUp(to: now)
  }

  /// Handles one text message from `client` received at host time `now`.
  public func receive(_ text: String, from client: ClientID, at now: Double) -> [Outgoing] {
    var messages = catchUp(to: now)
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
      messages += try handle(request, from: client, at: now, reply: reply)
    } catch {
      messages.append(Outgoing(client: client, message: RoomCore.error(error, reply: reply)))
    }
    return messages
  }

  /// The message that refuses a request.
  public static func error(_ error: WireError, reply: JSON? = nil) -> JSON {
    var message: JSON = ["type": "error", "error": error.json]
    if let reply { message = message.setting("reply", to: reply) }
    return message
  }

  private func handle(_ request: JSON, from client: ClientID, at now: Double, reply: JSON?)
    throws(WireError) -> [Outgoing]
  {
    let name = try request.requiredString("cmd", in: "A message")
    switch name {
    case "new":
      let game = try request.requiredString("game", in: "new")
      let seed: UInt64
      if let member = request["seed"], member != .null {
        guard let value = member.uint64Value else {
          throw .badRequest("new: \"seed\" must be a whole number from 0 to 2^64-1.")
        }
        seed = value
      } else {
        seed = newSeed()
      }
      seedIsPublic = request["seed"].map { $0 != .null } ?? false
      let deck = try request["deck"].map { member throws(WireError) in
        guard let list = member.arrayValue?.compactMap(\.stringValue),
          list.count == member.arrayValue?.count
        else { throw WireError.badRequest("new: \"deck\" must be an array of card texts.") }
        return list
      }
      let session = try GameCatalog.start(
        game: game, options: request["options"], deck: deck, seed: seed)
      self.session = session
      startedAt = now
      return broadcast(session, events: .empty, reply: (client, reply))
    case "restart":
      let session = try running().restart()
      self.session = session
      startedAt = now
      return broadcast(session, events: .empty, reply: (client, reply))
    case "state":
      return [update(try running(), events: .empty, to: client, reply: reply)]
    case "results":
      var message: JSON = [
        "type": "answer", "cmd": "results",
        "results": .array(try running().results.map(\.json)),
      ]
      if let reply { message = message.setting("reply", to: reply) }
      return [Outgoing(client: client, message: message)]
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
      return broadcast(session, events: events, reply: (client, reply))
    default:
      guard GameCatalog.commandNames.contains(name) else { throw .unknownCommand(name) }
      let session = try running()
      guard let answer = try session.command(name, request) else {
        throw .unknownCommand(name)
      }
      var message = answer.setting("type", to: "answer").setting("cmd", to: .string(name))
      if let reply { message = message.setting("reply", to: reply) }
      return [Outgoing(client: client, message: message)]
        + broadcast(session, events: .empty, reply: nil)
    }
  }

  private func running() throws(WireError) -> any GameSession {
    guard let session else { throw .noGame }
    return session
  }

  private func catchUp(to now: Double) -> [Outgoing] {
    // NB: the game's clock follows the host's, so logged actions carry their real times.
    guard let session, now - startedAt > session.clock else { return [] }
    let events = session.advance(by: now - startedAt - session.clock)
    guard events.count > 0 else { return [] }
    return broadcast(session, events: events, reply: nil)
  }

  private func broadcast(
    _ session: any GameSession, events: EventBatch, reply: (ClientID, JSON?)?
  ) -> [Outgoing] {
    clients.map { client in
      update(session, events: events, to: client, reply: reply?.0 == client ? reply?.1 : nil)
    }
  }

  private func update(
    _ session: any GameSession, events: EventBatch, to client: ClientID, reply: JSON?
  ) -> Outgoing {
    let viewer = Viewer.player(player)
    let seed = seedIsPublic || session.isOver ? JSON(session.seed) : .null
    var message: JSON = [
      "type": "update", "game": .string(session.game), "seed": seed,
      "version": JSON(session.version), "events": .array(events.json(for: viewer)),
      "view": session.view(for: viewer),
    ]
    if let reply { message = message.setting("reply", to: reply) }
    return Outgoing(client: client, message: message)
  }
}
