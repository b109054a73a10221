import CardTableCore
import GameServer
import GameWire
import Glibc
import Testing

@testable import GameStore

/// Records what the server sends and the timer it asks for; the test is the clock.
final class RecordingHost: ServerHost {
  private(set) var sent: [(ClientID, String)] = []
  /// The wake time the server asked for last.
  private(set) var wake: Double?

  func send(_ message: UnsafeRawBufferPointer, to client: ClientID) {
    sent.append((client, String(decoding: message, as: UTF8.self)))
  }

  func wake(at time: Double?) { wake = time }

  /// The timer fires, as a real one does: once, then it is no longer set.
  func fire(_ server: GameServer, at time: Double) {
    wake = nil
    server.wake(at: time)
  }

  func messages(to client: ClientID) -> [JSON] {
    sent.filter { $0.0 == client }.compactMap { try? JSON(parsing: $0.1) }
  }
}

/// A fresh directory under /tmp for one test, removed with everything in it when done.
final class TemporaryDirectory {
  let path: String

  init() {
    var template = Array("/tmp/cardtable-server-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) }
    }
    guard let made else { preconditionFailure("mkdtemp failed") }
    path = made
  }

  deinit {
    _ = system("rm -rf '\(path)'")
  }
}

/// A game server on a real SQLite store in a temporary directory, with a recording host, a
/// wall clock the test moves and seeded randomness, so that every run is the same.
final class TestServer {
  let directory: TemporaryDirectory
  let host = RecordingHost()
  private(set) var store: SQLiteStore
  private(set) var server: GameServer
  /// Milliseconds since 1970 on the server's wall clock.
  var wall: Int64 = 1_800_000_000_000
  /// The seed the server picks for a game dealt without one.
  var nextSeed: UInt64 = 5
  var configuration: GameServer.Configuration
  /// What the server is given of ``store`` (the store itself, or something around it).
  private let wrap: (SQLiteStore) -> any GameStore

  init(
    configuration: GameServer.Configuration = GameServer.Configuration(),
    wrap: @escaping (SQLiteStore) -> any GameStore = { $0 }
  ) throws {
    directory = TemporaryDirectory()
    self.configuration = configuration
    self.wrap = wrap
    store = try SQLiteStore.open(directory: directory.path)
    let box = Box()
    server = Self.makeServer(
      host: host, store: wrap(store), configuration: configuration, box: box)
    box.owner = self
  }

  private final class Box {
    weak var owner: TestServer?
  }

  private static func makeServer(
    host: RecordingHost, store: any GameStore, configuration: GameServer.Configuration, box: Box
  ) -> GameServer {
    var random = SplitMix64(seed: 99)
    return GameServer(
      host: host, store: store, configuration: configuration,
      newSeed: { box.owner?.nextSeed ?? 0 }, wallClock: { box.owner?.wall ?? 0 },
      random: { random.next() })
  }

  /// The server as it comes back after a crash: a new process on the same data. The old one
  /// is dropped without being shut down.
  func restart() throws {
    store = try SQLiteStore.open(directory: directory.path)
    let box = Box()
    box.owner = self
    server = Self.makeServer(
      host: host, store: wrap(store), configuration: configuration, box: box)
  }

  /// Connects `client` and returns what it was sent since.
  @discardableResult
  func connect(_ client: ClientID, at now: Double = 0) -> [JSON] {
    let before = host.sent.count
    server.connected(client, at: now)
    return sent(to: client, since: before)
  }

  /// Sends `text` from `client` at host time `now` and returns what `client` was sent since.
  @discardableResult
  func send(_ text: String, from client: ClientID, at now: Double = 0) -> [JSON] {
    let before = host.sent.count
    server.received(text, from: client, at: now)
    return sent(to: client, since: before)
  }

  /// Fires the host's timer at `now` and returns what `client` was sent since.
  @discardableResult
  func fire(at now: Double, for client: ClientID) -> [JSON] {
    let before = host.sent.count
    host.fire(server, at: now)
    return sent(to: client, since: before)
  }

  func sent(to client: ClientID, since index: Int) -> [JSON] {
    host.sent[index...].filter { $0.0 == client }.compactMap { try? JSON(parsing: $0.1) }
  }

  /// The token each client said hello with, as the server answered.
  private(set) var tokens: [ClientID: String] = [:]

  /// Connects `client`, says hello (with `token` when given) and returns the token it plays as.
  @discardableResult
  func hello(_ client: ClientID, token: String? = nil, at now: Double = 0) -> String {
    connect(client, at: now)
    let message = token.map { #"{"cmd":"hello","token":"\#($0)"}"# } ?? #"{"cmd":"hello"}"#
    let given = send(message, from: client, at: now).first?["token"]?.stringValue ?? ""
    tokens[client] = given
    return given
  }

  /// Deals a new game for `client` and returns the room's id.
  @discardableResult
  func newRoom(_ client: ClientID, _ request: String, at now: Double = 0) -> String {
    let replies = send(request, from: client, at: now)
    return replies.first { $0["type"] == "joined" }?["room"]?.stringValue ?? ""
  }

  /// Fills the store as a full disk would for `room`'s next action: the database may not grow,
  /// and filler actions far down the room's log take the room left in the pages its next action
  /// would go to; `false` takes them out again.
  func fillDisk(_ full: Bool, room: String) throws {
    let database = store.database
    guard full else {
      _ = try database.scalar("PRAGMA max_page_count = 1000000000")
      try database.run("DELETE FROM actions WHERE room = ?1 AND idx >= 1000000", .text(room))
      return
    }
    let ordinal = try database.scalar("SELECT current FROM rooms WHERE id = ?1", .text(room))
    let pages = try database.scalar("PRAGMA page_count")?.integer ?? 0
    _ = try database.scalar("PRAGMA max_page_count = \(pages)")
    var index: Int64 = 1_000_000
    for size in [1_000, 100, 10, 1] {
      while (try? database.run(
        """
        INSERT INTO actions (room, ordinal, idx, time, at, player, automatic, action)
        VALUES (?1, ?2, ?3, 0, 0, 'filler', 0, hex(randomblob(?4)))
        """, .text(room), ordinal ?? 0, .integer(index), .integer(Int64(size)))) != nil
      {
        index += 1
      }
    }
  }
}

/// The update among `messages`, if any.
func update(_ messages: [JSON]) -> JSON? {
  messages.last { $0["type"] == "update" }
}

/// The error code among `messages`, if any.
func errorCode(_ messages: [JSON]) -> String? {
  messages.first { $0["type"] == "error" }?["error"]?["code"]?.stringValue
}

/// A Memory deck that lays out pairs side by side: cards 0 and 1 match, 0 and 2 do not.
let pairedDeck = #"["A♥","A♥","K♠","K♠","2♦","2♦","3♣","3♣","Q♥","Q♥","J♠","J♠"]"#
