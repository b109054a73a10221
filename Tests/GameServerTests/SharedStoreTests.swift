import CardTableCore
import CardTableTesting
import GameServer
import GameWire
import Glibc
import Testing

@testable import GameStore

/// One of several game servers sharing a real PostgreSQL database (docs/DEPLOY.md "Several
/// instances"), each with its own recording host; the test is every clock.
final class SharedServer {
  let host = RecordingHost()
  private(set) var store: PostgresStore?
  private(set) var server: GameServer?

  /// A server on the database at `url` whose wall clock stands at `wall` (milliseconds since
  /// 1970); throws when the database cannot be used.
  init(url: String, wall: Int64 = 1_800_000_000_000, groupCommit: Bool = false) throws {
    let store = try PostgresStore(url: url)
    self.store = store
    server = GameServer(
      host: host, store: store,
      configuration: GameServer.Configuration(shared: true, groupCommit: groupCommit),
      newSeed: { 5 }, wallClock: { wall })
  }

  /// The process is killed: its connection to the database closes, nothing is shut down.
  func kill() {
    server = nil
    store = nil
  }

  @discardableResult
  func send(_ text: String, from client: ClientID, at now: Double = 0) -> [JSON] {
    let before = host.sent.count
    server?.received(text, from: client, at: now)
    return host.sent[before...].filter { $0.0 == client }.compactMap { try? JSON(parsing: $0.1) }
  }

  @discardableResult
  func connect(_ client: ClientID, token: String? = nil) -> [JSON] {
    let before = host.sent.count
    server?.connected(client, at: 0)
    let hello = token.map { #"{"cmd":"hello","token":"\#($0)"}"# } ?? #"{"cmd":"hello"}"#
    server?.received(hello, from: client, at: 0)
    return host.sent[before...].filter { $0.0 == client }.compactMap { try? JSON(parsing: $0.1) }
  }

  func open(_ room: String, from client: ClientID, at now: Double = 0) -> [JSON] {
    send(#"{"cmd":"open","room":"\#(room)"}"#, from: client, at: now)
  }

  func flip(_ card: Int, from client: ClientID, at now: Double = 0) -> [JSON] {
    send(#"{"cmd":"act","action":{"type":"flip","card":\#(card)}}"#, from: client, at: now)
  }
}

/// Several servers on one database: each room runs in one of them at a time, moves to another
/// when its server lets it go or dies, and loses no acknowledged move on the way.
@Suite struct SharedStoreTests {
  let url: String
  let database: ScratchPostgres

  init() throws {
    database = try ScratchPostgres.shared.get()
    url = try database.newDatabase()
  }

  @Test func theWelcomeTellsPagesThatRoomsHaveAddressesOfTheirOwn() throws {
    let one = try SharedServer(url: url)
    #expect(one.connect(ClientID(1)).first?["shared"] == true)
  }

  @Test func aRoomRunsOnOneServerAndMovesWhenItsServerLetsItGo() throws {
    let (a, b) = (try SharedServer(url: url), try SharedServer(url: url))
    let ann = ClientID(1)
    let token = a.connect(ann).compactMap { $0["token"]?.stringValue }.first ?? ""
    let joined = a.send(#"{"cmd":"new","game":"memory","seed":3}"#, from: ann)
    let room = try #require(joined.first { $0["type"] == "joined" }?["room"]?.stringValue)
    #expect(update(a.flip(0, from: ann, at: 1))?["version"] == 1)

    // Another server will not run it while the first does…
    b.connect(ann, token: token)
    #expect(errorCode(b.open(room, from: ann)) == "room-elsewhere")
    // …and takes it, as the store has it, once the first lets it go.
    a.server?.disconnected(ann, at: 2)
    let opened = b.open(room, from: ann, at: 3)
    #expect(opened.contains { $0["type"] == "joined" })
    #expect(update(opened)?["version"] == 1)
    #expect(update(b.flip(1, from: ann, at: 4))?["version"] == 2)
    a.connect(ClientID(2), token: token)
    #expect(errorCode(a.open(room, from: ClientID(2))) == "room-elsewhere")
  }

  @Test func aKilledServersRoomsContinueOnAnotherWithEveryAcknowledgedMove() throws {
    let (a, b) = (try SharedServer(url: url), try SharedServer(url: url))
    let ann = ClientID(1)
    let token = a.connect(ann).compactMap { $0["token"]?.stringValue }.first ?? ""
    let joined = a.send(#"{"cmd":"new","game":"concentration","seed":8}"#, from: ann)
    let room = try #require(joined.first { $0["type"] == "joined" }?["room"]?.stringValue)
    var acknowledged = 0
    for card in 0..<6 {
      if let version = update(a.flip(card, from: ann, at: Double(card) * 2 + 1))?["version"]?
        .intValue
      {
        acknowledged = version
      }
    }
    #expect(acknowledged > 0)
    a.kill()
    b.connect(ann, token: token)
    // NB: the database frees the dead server's lease once it has seen its connection close.
    var opened: [JSON] = []
    for attempt in 0..<2_000 {
      opened = b.open(room, from: ann, at: 100 + Double(attempt))
      guard errorCode(opened) == "room-elsewhere" else { break }
      usleep(5_000)
    }
    #expect(opened.contains { $0["type"] == "joined" })
    #expect(update(opened)?["version"]?.intValue == acknowledged)
  }

  @Test func aServerCutOffFromTheDatabaseGivesItsRoomsUpAndAcknowledgesNothingMore() throws {
    let (a, b) = (try SharedServer(url: url), try SharedServer(url: url))
    let (ann, watcher) = (ClientID(1), ClientID(2))
    let token = a.connect(ann).compactMap { $0["token"]?.stringValue }.first ?? ""
    let joined = a.send(#"{"cmd":"new","game":"memory","seed":3}"#, from: ann)
    let room = try #require(joined.first { $0["type"] == "joined" }?["room"]?.stringValue)
    a.connect(watcher)
    #expect(a.open(room, from: watcher).contains { $0["type"] == "joined" })
    #expect(update(a.flip(0, from: ann, at: 1))?["version"] == 1)

    let pid = try #require(try a.store?.database.scalar("SELECT pg_backend_pid()"))
    #expect(database.psql(url, "SELECT pg_terminate_backend(\(pid), 10000)") == "t")
    // The next move fails with the connection, and the lease is gone with it: the room leaves
    // this server and both its clients are told to go where it runs now.
    let before = a.host.sent.count
    #expect(errorCode(a.flip(1, from: ann, at: 2)) == "room-elsewhere")
    let told = a.host.sent[before...].filter { $0.0 == watcher }.compactMap {
      try? JSON(parsing: $0.1)
    }
    #expect(errorCode(told) == "room-elsewhere")
    #expect(a.server?.roomCount == 0)

    b.connect(ann, token: token)
    let opened = b.open(room, from: ann, at: 4)
    #expect(update(opened)?["version"] == 1)
    #expect(update(b.flip(1, from: ann, at: 5))?["version"] == 2)
  }

  /// Group commit on a shared database: a room whose lease is gone fails alone; the other
  /// rooms of the batch are written and told.
  @Test func aBatchWithARoomWhoseLeaseIsGoneWritesTheOthersAndSendsThatOneElsewhere() throws {
    let a = try SharedServer(url: url, groupCommit: true)
    let (ann, bob) = (ClientID(1), ClientID(2))
    a.connect(ann)
    let bobToken = a.connect(bob).compactMap { $0["token"]?.stringValue }.first ?? ""
    let rooms = try [ann, bob].map { client in
      let joined = a.send(#"{"cmd":"new","game":"memory","seed":3}"#, from: client)
      return try #require(joined.first { $0["type"] == "joined" }?["room"]?.stringValue)
    }
    a.server?.endOfTurn()
    let before = a.host.sent.count
    #expect(a.flip(0, from: ann, at: 1).isEmpty && a.flip(0, from: bob, at: 1).isEmpty)
    // NB: as when another server took it: this one no longer holds Bob's room.
    a.store?.release(try #require(RoomID(rawValue: rooms[1])))
    a.server?.endOfTurn()
    let told = { (client: ClientID) in
      a.host.sent[before...].filter { $0.0 == client }.compactMap { try? JSON(parsing: $0.1) }
    }
    #expect(update(told(ann))?["version"] == 1)
    #expect(update(told(bob)) == nil)
    #expect(errorCode(told(bob)) == "room-elsewhere")

    // The database has Ann's move and not Bob's.
    let b = try SharedServer(url: url)
    b.connect(bob, token: bobToken)
    #expect(update(b.open(rooms[1], from: bob, at: 2))?["version"] == 0)
    #expect(database.psql(url, "SELECT count(*) FROM actions WHERE room = '\(rooms[0])'") == "1")
  }

  @Test func aServerClosingIdleRoomsLeavesThoseAnotherRuns() throws {
    let a = try SharedServer(url: url)
    let ann = ClientID(1)
    a.connect(ann)
    let joined = a.send(#"{"cmd":"new","game":"memory","seed":3}"#, from: ann)
    let room = try #require(joined.first { $0["type"] == "joined" }?["room"]?.stringValue)
    // A server whose clock says the room is 40 days untouched may not close it while another
    // runs it…
    let later = try SharedServer(url: url, wall: 1_800_000_000_000 + 40 * 86_400_000)
    #expect(later.server?.closeIdleRooms(at: 0) == 0)
    // …and closes it once that one has let it go.
    a.server?.disconnected(ann, at: 1)
    #expect(later.server?.closeIdleRooms(at: 1) == 1)
    let id = try #require(RoomID(rawValue: room))
    #expect(try later.store?.room(id)?.status == .abandoned)
  }

  @Test func twoServersRacingForOneRoomNeverBothRunIt() throws {
    let servers = try (0..<4).map { _ in try SharedServer(url: url) }
    let ann = ClientID(1)
    let token = servers[0].connect(ann).compactMap { $0["token"]?.stringValue }.first ?? ""
    let joined = servers[0].send(#"{"cmd":"new","game":"memory","seed":3}"#, from: ann)
    let room = try #require(joined.first { $0["type"] == "joined" }?["room"]?.stringValue)
    servers[0].server?.disconnected(ann, at: 1)
    var running = 0
    for (index, server) in servers.enumerated() {
      let client = ClientID(UInt64(10 + index))
      server.connect(client, token: token)
      let answer = server.open(room, from: client, at: 2)
      if answer.contains(where: { $0["type"] == "joined" }) {
        running += 1
      } else {
        #expect(errorCode(answer) == "room-elsewhere")
      }
    }
    #expect(running == 1)
    #expect(servers.map { $0.server?.roomCount ?? 0 }.reduce(0, +) == 1)
  }
}
