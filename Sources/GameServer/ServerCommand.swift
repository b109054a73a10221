import CardTableCore
import GameStore
import GameWire

/// A client's message, read once (docs/PROTOCOL.md "Client → server"): which command it is,
/// and what of it is checked before anything is done.
///
/// A command's other members are read by its handler, after the checks that come first — the
/// player's `hello`, the room the connection is in — so that a message wrong in several ways
/// is refused for the same reason as ever.
enum ServerCommand: Equatable {
  case hello(token: PlayerToken?)
  case new(JSON)
  case open(RoomID)
  case leave
  case host(JSON)
  case join(JSON)
  case tables
  case rooms
  case scores(JSON)
  case stats
  /// A player's page: the asker's own, or another's they chose to show.
  case profile(JSON)
  case settings(JSON)
  /// A one-time code that moves this player to another device.
  case transfer
  /// Takes the player a transfer code names.
  case claim(JSON)
  /// A command about the room the connection is in.
  case room(RoomCommand, JSON)

  /// Reads `request`'s `cmd`.
  ///
  /// - Throws: `bad-request` without a `cmd` (or `open` without a `room`), `no-such-room` for
  ///   a room id that cannot be one, `unknown-command` for a name no command has.
  init(_ request: JSON) throws(WireError) {
    let name = try request.requiredString("cmd", in: "A message")
    switch name {
    case "hello":
      self = .hello(token: request["token"]?.stringValue.flatMap(PlayerToken.init(rawValue:)))
    case "new": self = .new(request)
    case "open":
      guard let text = request["room"]?.stringValue else {
        throw .badRequest("open needs \"room\", the room's id from its link.")
      }
      guard let id = RoomID(rawValue: text) else { throw .noSuchRoom }
      self = .open(id)
    case "leave": self = .leave
    case "host": self = .host(request)
    case "join": self = .join(request)
    case "tables": self = .tables
    case "rooms": self = .rooms
    case "scores": self = .scores(request)
    case "stats": self = .stats
    case "profile": self = .profile(request)
    case "settings": self = .settings(request)
    case "transfer": self = .transfer
    case "claim": self = .claim(request)
    default:
      guard let command = RoomCommand(name) else { throw .unknownCommand(name) }
      self = .room(command, request)
    }
  }
}

/// A command about the connection's room.
enum RoomCommand: Equatable {
  /// A player's action: `{"cmd":"act","action":{...}}`.
  case act
  case state
  case results
  case viewAt
  case abandon
  case restart
  /// The host seats a computer player at a table in its lobby.
  case seat
  /// The host frees a seat in the lobby.
  case unseat
  /// The host starts the table's game.
  case start
  /// A seated player takes another name in the lobby.
  case rename
  /// A seated player accepts a rematch of the table's game just over.
  case rematch
  /// A line (or a quick reaction) in the table's chat, by a player or a watcher.
  case say
  /// Stops (true) or starts again (false) showing another's chat lines to the sender.
  case mute(Bool)
  /// The host turns watchers' chat on or off.
  case chatSettings
  /// A command of the room's game (``WireGame/commandNames``): `hint`, `history`, `deal`.
  case game(String)

  init?(_ name: String) {
    switch name {
    case "act": self = .act
    case "state": self = .state
    case "results": self = .results
    case "view-at": self = .viewAt
    case "abandon": self = .abandon
    case "restart": self = .restart
    case "seat": self = .seat
    case "unseat": self = .unseat
    case "start": self = .start
    case "rename": self = .rename
    case "rematch": self = .rematch
    case "say": self = .say
    case "mute": self = .mute(true)
    case "unmute": self = .mute(false)
    case "chat-settings": self = .chatSettings
    default:
      guard GameCatalog.commandNames.contains(name) else { return nil }
      self = .game(name)
    }
  }

  /// The command's name, as its answer's `cmd` says it.
  var name: String {
    switch self {
    case .act: "act"
    case .state: "state"
    case .results: "results"
    case .viewAt: "view-at"
    case .abandon: "abandon"
    case .restart: "restart"
    case .seat: "seat"
    case .unseat: "unseat"
    case .start: "start"
    case .rename: "rename"
    case .rematch: "rematch"
    case .say: "say"
    case .mute(let muting): muting ? "mute" : "unmute"
    case .chatSettings: "chat-settings"
    case .game(let name): name
    }
  }

  /// Whether it only reads the room, so that watchers and closed rooms are answered too: the
  /// log's `history`.
  var onlyReads: Bool { self == .game("history") }
}

extension ServerCommand {
  /// Whether its changes may wait for the group commit at the end of the host's turn: a move in
  /// the room's game, or a read of the room in memory. Anything else (a table's lobby, a
  /// restart, the store's records, another room) first commits what waits, and saves at once.
  var groupCommits: Bool {
    guard case .room(let command, _) = self else { return false }
    switch command {
    case .act, .state, .viewAt, .game: return true
    default: return false
    }
  }
}
