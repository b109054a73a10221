import CardTableCore
import GameWire

// The server's messages (docs/PROTOCOL.md), each written straight from its members.

/// `{"type":"welcome","protocol":2,"games":[...],"catalog":[...]}`.
struct Welcome: Encodable {
  /// Every game's catalog entry, written once.
  static let catalog: JSON = (try? WireEncoder().json(of: GameCatalog.entries)) ?? []

  let type = "welcome"
  let `protocol` = GameServer.protocolVersion
  let games = GameCatalog.names
  let catalog = Welcome.catalog
  /// Several servers share the rooms (a PostgreSQL store): a page keeps a room's connection
  /// on the room's own address, `/ws?room=ID`, which the proxy routes to the room's server.
  var shared: Bool? = nil
}

/// `{"type":"hello","token":T,"settings":{...},"reply":R}`.
struct Hello: Encodable {
  let type = "hello"
  var token: String
  var settings: JSON
  var reply: JSON?
}

/// `{"type":"joined","room":R,"game":G,"role":…,"status":…,"countdown":C}`.
struct Joined: Encodable {
  let type = "joined"
  var room: String
  var game: String
  var role: String
  var status: String
  var countdown: Double
}

/// `{"type":"left","reply":R}`.
struct Left: Encodable {
  let type = "left"
  var reply: JSON?
}

/// `{"type":"closed","room":R,"status":"abandoned"}`.
struct Closed: Encodable {
  let type = "closed"
  var room: String
  let status = "abandoned"
}

/// `{"type":"update","game":G,"seed":S,"version":V,"events":[...],"view":{...},"reply":R}`.
struct Update: WireEncodable {

  var game: String
  var seed: UInt64?
  /// The day whose *Today's deal* this is (`YYYY-MM-DD`), if it is one.
  var today: String?
  var version: Int
  var events: EventBatch.Shown
  var view: Headed
  var reply: JSON?

  func write(to writer: inout WireWriter) {
    writer.object { update in
      update.type("update")
      update.member("game", game)
      update.member("seed", seed)
      update.optional("today", today)
      update.member("version", version)
      update.member("events", events)
      update.member("view", view)
      update.optional("reply", reply)
    }
  }
}

/// `{"type":"receipt","player":P,"result":…,"after":S,"reason":…}`: after a Snap! call (or a
/// claim too late at a Set race), who called, how long after the card was turned (seconds,
/// to the millisecond; null when nothing was turned) and how it went.
///
/// NB: written straight from its members: built as a `JSON` value and encoded through
/// `Encodable`, a receipt cost 11,700 instructions, 4 % of a Snap! action.
struct Receipt: WireEncodable {
  var player: PlayerID
  var result: String
  var after: Double?
  var reason: String

  func write(to writer: inout WireWriter) {
    writer.object { receipt in
      receipt.type("receipt")
      receipt.member("player", player)
      receipt.member("result", result)
      receipt.member("after", after)
      receipt.member("reason", reason)
    }
  }
}

/// What every client's ``Update`` of one version of a room shares.
struct UpdateHead {
  var game: String
  /// The seed, when the player chose it or the game is over (else it would tell the deal).
  var seed: UInt64?
  var today: String?
  var version: Int

  init(_ room: Room, _ session: any GameSession) {
    game = session.game
    seed = room.seedChosen || session.isFinished ? session.seed : nil
    today = room.todaysDeal
    version = session.version
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

extension WireError {
  static let noSuchRoom = WireError(code: "no-such-room", message: "There is no game at this link.")
  static let watching = WireError(
    code: "watching",
    message: "You are watching this game; only the player who started it can play.")
  static let roomClosed = WireError(
    code: "room-closed", message: "This game was abandoned; it can no longer be played.")
  static let storageUnavailable = WireError(
    code: "storage-unavailable",
    message: "The game could not be saved, so nothing was done; try again in a moment.")
  /// `storage-unavailable` because the server's disk is full.
  static let storageFull = WireError(
    code: "storage-unavailable",
    message:
      "The game could not be saved: the server's disk is full. Nothing was done; the game goes on when space returns."
  )

  /// Another server runs this room now (several servers share one database): connect again
  /// by the room's address, which reaches the one that runs it.
  static let roomElsewhere = WireError(
    code: "room-elsewhere",
    message: "This game is being played on another server; connecting to it again.")

  static func resuming(in seconds: Double) -> WireError {
    let whole = max(1, Int(seconds.rounded(.up)))
    return WireError(code: "resuming", message: "The game resumes in \(whole) s.")
  }
}
