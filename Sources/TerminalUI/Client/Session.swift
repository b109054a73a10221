import GameWire

/// What the server has told this terminal so far: who it plays as, the room it is in, the
/// latest view and the table's seats. The screens draw from it; only messages change it.
public struct Session {
  /// One of the player's unfinished rooms (`rooms`), for *Continue*.
  public struct Unfinished: Equatable, Sendable {
    public var room: String
    public var game: String
    public var options: JSON
    public var version: Int
    public var updated: Int64
  }

  /// A receipt of a call or claim at a table, as the server worded it.
  public struct Receipt: Equatable, Sendable {
    public var player: String
    public var result: String
    public var after: Double?
    public var reason: String?
  }

  /// A line of a table's chat (docs/PROTOCOL.md "Table chat").
  public struct ChatLine: Equatable, Sendable {
    public var index: Int
    public var name: String
    /// The words, or a quick reaction's words (``Session/reactionWords``).
    public var text: String
    public var watcher: Bool
    public var you: Bool
    public var reaction: Bool

    /// `Ann: hi`, `Zoe (watcher): hi`, `You: hi`, `Bob 👏 Well played`.
    public var shown: String {
      let who = (you ? "You" : name) + (watcher ? " (watcher)" : "")
      return reaction ? "\(who) \(text)" : "\(who): \(text)"
    }
  }

  /// The quick reactions as the terminal shows them (the server names them).
  public static let reactionWords = [
    "clap": "👏 Well played", "wow": "😮 Wow", "laugh": "😂 Ha!", "oops": "🙈 Oops",
    "snap": "⚡ So fast!", "gg": "🤝 Good game",
  ]

  public var token: String?
  public var settings: JSON = .object([])
  public var room: String?
  public var game: String?
  /// `player` or `watcher`.
  public var role: String = "player"
  /// `playing`, `over` or `abandoned`.
  public var status: String = "playing"
  /// When the room's clock runs again after a wake-up (``Clock/now``), if it counts down.
  public var resumesAt: Double?
  public var view: JSON?
  public var version = 0
  public var seed: JSON = .null
  /// The events of the latest update.
  public var events: [JSON] = []
  /// The table's seats and phase, at a table.
  public var table: JSON?
  public var receipts: [Receipt] = []
  /// The table's chat, oldest first (the latest 100).
  public var chat: [ChatLine] = []
  /// Whether the newest news at the table is a chat line rather than a receipt.
  public var chatIsNewest = false
  /// The latest refusal's words, until the next accepted update.
  public var error: String?
  /// The latest refusal's code.
  public var errorCode: String?
  /// A message about a seat (a player who dropped, came back).
  public var notice: String?
  public var unfinished: [Unfinished]?
  /// Matchismo's and Set's history entries, oldest first, once asked for.
  public var history: [String] = []
  /// The number of updates received, so a screen can tell a new one.
  public var updates = 0
  /// Whether the server closed the room for good.
  public var closed = false

  public init() {}

  /// Takes one server message in; returns what it was (`type`).
  @discardableResult
  public mutating func take(_ message: JSON, now: Double) -> String {
    let type = message["type"]?.stringValue ?? ""
    switch type {
    case "hello":
      token = message["token"]?.stringValue
      settings = message["settings"] ?? .object([])
    case "joined":
      room = message["room"]?.stringValue
      game = message["game"]?.stringValue
      role = message["role"]?.stringValue ?? "player"
      status = message["status"]?.stringValue ?? "playing"
      let countdown = message["countdown"]?.doubleValue ?? 0
      resumesAt = countdown > 0 ? now + countdown : nil
      receipts = []
      chat = []
      chatIsNewest = false
      history = []
      error = nil
      errorCode = nil
      closed = false
    case "update":
      game = message["game"]?.stringValue ?? game
      view = message["view"]
      version = message["version"]?.intValue ?? version
      seed = message["seed"] ?? .null
      events = message["events"]?.arrayValue ?? []
      // NB: alone with the computers there are no receipts (they are a table's); the calls'
      // events say the same, and the screen shows them alike.
      if table == nil {
        for event in events where event["type"]?.stringValue == "snap" {
          guard let player = event["player"]?.stringValue, let result = event["result"]?.stringValue
          else { continue }
          receipts.append(Receipt(player: player, result: result, after: nil, reason: nil))
        }
      }
      if view?["over"]?.boolValue == true {
        status = "over"
      } else if status == "over" {
        status = "playing"
      }
      error = nil
      errorCode = nil
      updates += 1
    case "table":
      table = message
    case "seat":
      let name = message["name"]?.stringValue ?? "A player"
      if message["connected"]?.boolValue == false {
        let seconds = message["leavesIn"]?.intValue ?? 30
        notice = "\(name) lost the connection: leaves in \(seconds) s unless back."
      } else {
        notice = "\(name) is back."
      }
    case "receipt":
      receipts.append(
        Receipt(
          player: message["player"]?.stringValue ?? "?",
          result: message["result"]?.stringValue ?? "?", after: message["after"]?.doubleValue,
          reason: message["reason"]?.stringValue))
      if receipts.count > 100 { receipts.removeFirst(receipts.count - 100) }
      chatIsNewest = false
    case "chat":
      let lines = (message["lines"]?.arrayValue ?? []).map { line in
        let reaction = line["reaction"]?.stringValue
        return ChatLine(
          index: line["index"]?.intValue ?? 0, name: line["name"]?.stringValue ?? "?",
          text: reaction.map { Self.reactionWords[$0] ?? $0 } ?? line["text"]?.stringValue ?? "",
          watcher: line["watcher"]?.boolValue == true, you: line["you"]?.boolValue == true,
          reaction: reaction != nil)
      }
      if message["history"]?.boolValue == true {
        chat = lines
      } else {
        chat += lines.filter { line in !chat.contains { $0.index == line.index } }
        chatIsNewest = !lines.isEmpty
      }
      if chat.count > 100 { chat.removeFirst(chat.count - 100) }
    case "answer":
      switch message["cmd"]?.stringValue {
      case "rooms":
        unfinished = (message["rooms"]?.arrayValue ?? []).compactMap { room in
          guard let id = room["room"]?.stringValue, let game = room["game"]?.stringValue else {
            return nil
          }
          return Unfinished(
            room: id, game: game, options: room["options"] ?? .object([]),
            version: room["version"]?.intValue ?? 0,
            updated: Int64(room["updated"]?.doubleValue ?? 0))
        }
      case "history":
        history = (message["entries"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }
      default:
        break
      }
    case "error":
      error = message["error"]?["message"]?.stringValue ?? "refused"
      errorCode = message["error"]?["code"]?.stringValue
    case "closed":
      status = "abandoned"
      closed = true
    case "left":
      room = nil
      view = nil
      table = nil
    default:
      break
    }
    return type
  }

  /// Whether the room's clock is still counting down after a wake-up.
  public func countingDown(at now: Double) -> Bool {
    resumesAt.map { now < $0 } ?? false
  }

  /// Whether this terminal plays (rather than watches).
  public var playing: Bool { role == "player" }

  /// The game over and nothing left to do but leave or deal again.
  public var over: Bool { view?["over"]?.boolValue == true || status != "playing" }

  /// This terminal's name at its table, from the seat marked `you`.
  public var yourName: String? {
    table?["seats"]?.arrayValue?.first { $0["you"]?.boolValue == true }?["name"]?.stringValue
  }

  /// The phase of the table, when the room is one.
  public var tablePhase: String? { table?["phase"]?.stringValue }
}
