import CardTableCore

/// The engine console's interpreter: one JSON command in, one JSON reply out (docs/ENGINE.md).
///
/// It holds at most one running game. Every reply is a single line: `{"ok":true,...}` or
/// `{"ok":false,"error":{"code":...,"message":...},"state":...}`; a bad line never ends it.
public final class EngineConsole {
  private var session: (any GameSession)?
  private let newSeed: () -> UInt64

  /// - Parameter newSeed: where seeds come from when a `new` command gives none.
  public init(newSeed: @escaping () -> UInt64 = { UInt64.random(in: .min ... .max) }) {
    self.newSeed = newSeed
  }

  /// Answers one line of input with one line of output (without the newline).
  public func reply(to line: String) -> String {
    handle(line).text
  }

  /// Answers one command.
  public func handle(_ line: String) -> JSON {
    do throws(WireError) {
      let request: JSON
      do {
        request = try JSON(parsing: line)
      } catch {
        throw .invalidJSON(error)
      }
      guard request.keys != nil else {
        throw .badRequest("A command must be a JSON object such as {\"cmd\":\"state\"}.")
      }
      let name = try request.requiredString("cmd", in: "A command")
      return try run(name, request)
    } catch {
      return [
        "ok": false, "error": error.json, "state": session?.state() ?? .null,
      ]
    }
  }

  private func run(_ name: String, _ request: JSON) throws(WireError) -> JSON {
    switch name {
    case "new":
      let game = try request.requiredString("game", in: "new")
      let seed = try seed(of: request)
      let deck = try deck(of: request)
      session = try GameCatalog.start(
        game: game, options: request["options"], deck: deck, seed: seed)
      return reply(events: .empty)
    case "games":
      return ["ok": true, "games": JSON(GameCatalog.names)]
    case "help":
      return [
        "ok": true,
        "commands": JSON([
          "new", "act", "advance", "state", "view", "restart", "results", "games", "help",
        ]),
        "games": JSON(GameCatalog.names),
      ]
    default:
      break
    }
    let known = ["act", "advance", "state", "view", "restart", "results"]
    guard known.contains(name) || GameCatalog.commandNames.contains(name) else {
      throw .unknownCommand(name)
    }
    guard let session else { throw .noGame }
    switch name {
    case "act":
      guard let action = request["action"], action.keys != nil else {
        throw .badRequest("act needs \"action\", an object such as {\"type\":\"flip\",\"card\":0}.")
      }
      let player = try request["player"].map { member throws(WireError) in
        guard let name = member.stringValue else {
          throw WireError.badRequest("act: \"player\" must be a string.")
        }
        return PlayerID(name)
      }
      return reply(events: try session.perform(action, as: player))
    case "advance":
      guard let seconds = request["seconds"]?.doubleValue, seconds >= 0, seconds.isFinite else {
        throw .badRequest("advance needs \"seconds\", a number of seconds of at least 0.")
      }
      // NB: two advances of 1e308 s overflowed the clock to infinity, printed as "clock":null.
      guard (session.clock + seconds).isFinite else {
        throw .badRequest("advance: \(seconds) s would move the clock past the largest time.")
      }
      return reply(events: session.advance(by: seconds))
    case "state":
      return reply(events: .empty)
    case "view":
      let player = try request.requiredString("player", in: "view")
      return ["ok": true, "view": session.view(for: .player(PlayerID(player)))]
    case "results":
      return ["ok": true, "results": .array(session.results.map(\.json))]
    case "restart":
      self.session = session.restart()
      return reply(events: .empty)
    default:
      guard let answer = try session.command(name, request) else {
        throw .unknownCommand(name)
      }
      return answer.setting("ok", to: true)
    }
  }

  private func reply(events: EventBatch) -> JSON {
    [
      "ok": true, "events": .array(events.json(for: .referee)),
      "state": session?.state() ?? .null,
    ]
  }

  private func seed(of request: JSON) throws(WireError) -> UInt64 {
    guard let member = request["seed"], member != .null else { return newSeed() }
    guard let seed = member.uint64Value else {
      throw .badRequest(
        "new: \"seed\" must be a whole number from 0 to 2^64-1, not \(member.text).")
    }
    return seed
  }

  private func deck(of request: JSON) throws(WireError) -> [String]? {
    guard let member = request["deck"], member != .null else { return nil }
    guard let list = member.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
      throw .badRequest("new: \"deck\" must be an array of card texts such as [\"A♥\",\"K♠\"].")
    }
    return list.compactMap(\.stringValue)
  }
}
