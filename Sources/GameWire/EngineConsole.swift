import CardTableCore

/// The engine console's interpreter: one JSON command in, one JSON reply out (docs/ENGINE.md).
///
/// It holds at most one running game. Every reply is a single line: `{"ok":true,...}` or
/// `{"ok":false,"error":{"code":...,"message":...},"state":...}`; a bad line never ends it.
public final class EngineConsole {
  private var session: (any GameSession)?
  private let newSeed: () -> UInt64
  private let encoder = WireEncoder()

  /// The longest line the console reads; a longer one is refused with `too-large` unread.
  public static let maximumLineBytes = 1 << 20

  /// - Parameter newSeed: where seeds come from when a `new` command gives none.
  public init(newSeed: @escaping () -> UInt64 = { UInt64.random(in: .min ... .max) }) {
    self.newSeed = newSeed
  }

  /// Answers one line of input with one line of output (without the newline).
  public func reply(to line: String) -> String {
    var writer = JSONWriter()
    var line = line
    line.withUTF8 { reply(to: UnsafeRawBufferPointer($0), into: &writer) }
    return writer.string
  }

  /// Answers one command with its reply as ``JSON``.
  public func handle(_ line: String) -> JSON {
    (try? JSON(parsing: reply(to: line))) ?? .null
  }

  /// Appends the reply to one line of UTF-8 input (without its newline) to `writer`.
  public func reply(to line: UnsafeRawBufferPointer, into writer: inout JSONWriter) {
    do throws(WireError) {
      let request: JSON
      do {
        request = try JSON(parsing: line)
      } catch {
        throw .invalidJSON(error)
      }
      guard case .object = request else {
        throw .badRequest("A command must be a JSON object such as {\"cmd\":\"state\"}.")
      }
      let name = try request.requiredString("cmd", in: "A command")
      write(try run(name, request), into: &writer)
    } catch {
      refuse(error, into: &writer)
    }
  }

  /// Appends the refusal of a line of `bytes` bytes, over ``maximumLineBytes``, to `writer`.
  public func refuseLongLine(of bytes: Int, into writer: inout JSONWriter) {
    refuse(
      WireError(
        code: "too-large",
        message: "A line of \(bytes) bytes is over the limit of \(EngineConsole.maximumLineBytes)."),
      into: &writer)
  }

  private func refuse(_ error: WireError, into writer: inout JSONWriter) {
    write(
      Reply(ok: false, [("error", ThroughEncodable(error))], state: StateValue(session: session)),
      into: &writer)
  }

  private func write(_ reply: Reply, into writer: inout JSONWriter) {
    do {
      try encoder.encode(reply, into: &writer)
    } catch {
      // NB: nothing the console writes throws; were it to, the line still gets its reply.
      writer.raw(
        #"{"ok":false,"error":{"code":"internal","message":"The reply could not be written."}}"#)
    }
  }

  /// The commands that ask the running game.
  private static let sessionCommands: Set = [
    "act", "advance", "state", "view", "restart", "results",
  ]

  private func run(_ name: String, _ request: JSON) throws(WireError) -> Reply {
    switch name {
    case "new":
      session = try GameCatalog.start(NewGame(request, newSeed: newSeed))
      return acknowledge(.empty)
    case "games":
      return Reply([("games", GameCatalog.names)])
    case "help":
      return Reply([
        (
          "commands",
          ["new", "act", "advance", "state", "view", "restart", "results", "games", "help"]
        ),
        ("games", GameCatalog.names),
      ])
    default:
      break
    }
    guard Self.sessionCommands.contains(name) || GameCatalog.commandNames.contains(name) else {
      throw .unknownCommand(name)
    }
    guard let session else { throw .noGame }
    switch name {
    case "act":
      guard let action = request["action"], case .object = action else {
        throw .badRequest("act needs \"action\", an object such as {\"type\":\"flip\",\"card\":0}.")
      }
      let player = try request["player"].map { member throws(WireError) in
        guard let name = member.stringValue else {
          throw WireError.badRequest("act: \"player\" must be a string.")
        }
        return PlayerID(name)
      }
      return acknowledge(try session.perform(action, as: player))
    case "advance":
      guard let seconds = request["seconds"]?.doubleValue, seconds >= 0, seconds.isFinite else {
        throw .badRequest("advance needs \"seconds\", a number of seconds of at least 0.")
      }
      // NB: two advances of 1e308 s overflowed the clock to infinity, printed as "clock":null.
      guard (session.clock + seconds).isFinite else {
        throw .badRequest("advance: \(seconds) s would move the clock past the largest time.")
      }
      return acknowledge(session.advance(by: seconds))
    case "state":
      return acknowledge(.empty)
    case "view":
      let player = try request.requiredString("player", in: "view")
      return Reply([("view", session.view(for: .player(PlayerID(player))))])
    case "results":
      return Reply([("results", ThroughEncodable(session.results))])
    case "restart":
      self.session = try session.restart()
      return acknowledge(.empty)
    default:
      guard let answer = try session.command(name, request) else {
        throw .unknownCommand(name)
      }
      return Reply(answer: answer)
    }
  }

  private func acknowledge(_ events: EventBatch) -> Reply {
    Reply(events: events.shown(to: .referee), state: StateValue(session: session))
  }
}

/// One reply of the console: `ok` and the members of its answer, in order: `members`, then
/// `events` and `state` when it has them.
///
/// NB: the events and the state, in almost every reply, are members of their own types rather
/// than in `members`: as existentials each cost an allocation, made and freed with every line.
struct Reply: WireEncodable {
  var ok: Bool
  var members: [(String, any WireEncodable)]
  var events: EventBatch.Shown?
  var state: StateValue?
  var answer: JSON?

  init(ok: Bool = true, _ members: [(String, any WireEncodable)], state: StateValue? = nil) {
    self.ok = ok
    self.members = members
    self.state = state
  }

  /// An action's or a command's acknowledgement: its events and the state after it.
  init(events: EventBatch.Shown, state: StateValue) {
    self.init([], state: state)
    self.events = events
  }

  /// A game command's own answer, which already says `ok`.
  init(answer: JSON) {
    self.init([])
    self.answer = answer.setting("ok", to: true)
  }

  func write(to writer: inout WireWriter) {
    if let answer { return answer.write(to: &writer) }
    writer.object { reply in
      reply.member("ok", ok)
      for (key, value) in members { reply.member(named: key, value) }
      reply.optional("events", events)
      reply.optional("state", state)
    }
  }
}

/// The running game's state, or `null` before the first `new`.
struct StateValue: WireEncodable {
  let session: (any GameSession)?

  func write(to writer: inout WireWriter) {
    guard let session else { return writer.json { $0.writeNull() } }
    session.state.write(to: &writer)
  }
}
