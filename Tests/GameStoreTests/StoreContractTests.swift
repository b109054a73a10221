import CardTableCore
import CardTableTesting
import Dispatch
import Glibc
import Testing

@testable import GameStore

/// The backends every ``GameStore`` test runs on: the SQLite file, a real PostgreSQL
/// (``ScratchPostgres``, started by the tests) and the store in memory of `serve --in-memory`.
enum Backend: String, CaseIterable, CustomTestStringConvertible {
  case sqlite
  case postgres
  case memory

  var testDescription: String { rawValue }

  /// A fresh, empty store on this backend, and what must live as long as it.
  func makeStore() throws -> (store: any GameStore, keep: AnyObject?) {
    switch self {
    case .sqlite:
      let directory = TemporaryDirectory()
      return (try SQLiteStore.open(directory: directory.path), directory)
    case .postgres:
      let server = try ScratchPostgres.shared.get()
      return (try PostgresStore(url: try server.newDatabase()), nil)
    case .memory:
      return (MemoryStore(), nil)
    }
  }
}

/// What every backend of ``GameStore`` does alike: the protocol's contract, run on SQLite, on
/// PostgreSQL and in memory.
@Suite struct StoreContractTests {
  @Test(arguments: Backend.allCases)
  func roomsRoundTripWithTheirMatchActionsAndResults(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let owner = try store.player(.random(), at: 10).key
    let id = RoomID.random()
    #expect(try store.claim(id))
    try store.createRoom(
      NewRoom(id: id, owner: owner, match: sampleMatch(), status: .playing, created: 50))
    try store.save(
      RoomChange(
        room: id, ordinal: 0, actions: sampleActions(from: 0, count: 5), status: .playing, at: 60))
    let result = sampleResult(room: id, player: owner, index: 0, score: 2, duration: 31.5, end: 70)
    // NB: text and numbers that a careless backend would change on the way.
    let odd = ActionRecord(
      index: 5, time: 0.1 + 0.2, at: 69, player: "Zoë \"Z\" O'Neil", automatic: false,
      action: #"{"type":"flip","card":1,"note":"K♦ \\ 'quoted' $1"}"#)
    try store.save(
      RoomChange(
        room: id, ordinal: 0, actions: [odd] + sampleActions(from: 6, count: 1),
        results: [result], status: .over, at: 70))

    let room = try #require(try store.room(id))
    #expect(room.owner == owner)
    #expect(room.status == .over)
    #expect(room.created == 50 && room.updated == 70)
    #expect(room.match == sampleMatch())
    #expect(room.match?.laterSeeds == LaterSeeds(key: (0x0123_4567_89ab_cdef, .max)))
    #expect(
      room.actions == sampleActions(from: 0, count: 5) + [odd] + sampleActions(from: 6, count: 1))
    #expect(room.resultCount == 1)
    #expect(try store.results(in: id) == [result])
    #expect(try store.results(of: owner, game: "memory") == [result])
    #expect(try store.results(of: owner, game: nil) == [result])
    #expect(try store.results(of: owner, game: "set").isEmpty)
    #expect(try store.room(RoomID.random()) == nil)
    #expect(try store.players().map(\.key) == [owner])
  }

  @Test(arguments: Backend.allCases)
  func aRestartBeginsTheNextMatchAndTheRoomReadsIt(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let owner = try store.player(.random(), at: 10).key
    let id = RoomID.random()
    _ = try store.claim(id)
    try store.createRoom(
      NewRoom(id: id, owner: owner, match: sampleMatch(), status: .playing, created: 50))
    try store.save(
      RoomChange(
        room: id, ordinal: 0, actions: sampleActions(from: 0, count: 4), status: .playing, at: 51))
    let again = sampleMatch(ordinal: 1, replay: true)
    try store.save(
      RoomChange(
        room: id, newMatch: again, ordinal: 1, actions: sampleActions(from: 0, count: 1),
        status: .playing, at: 52))
    let room = try #require(try store.room(id))
    #expect(room.match == again)
    #expect(room.actions == sampleActions(from: 0, count: 1))
    let matches = try store.matches(in: id)
    #expect(matches.map(\.match.ordinal) == [0, 1])
    #expect(matches.map(\.actions.count) == [4, 1])
  }

  /// The group commit's transaction: several rooms' changes (one room's twice) all written in
  /// order, or — when one of them fails — none.
  @Test(arguments: Backend.allCases)
  func theChangesOfSeveralRoomsAreWrittenTogetherOrNotAtAll(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let owner = try store.player(.random(), at: 10).key
    let ids = (0..<3).map { _ in RoomID.random() }
    for id in ids {
      _ = try store.claim(id)
      try store.createRoom(
        NewRoom(id: id, owner: owner, match: sampleMatch(), status: .playing, created: 50))
    }
    try store.save([
      RoomChange(
        room: ids[0], ordinal: 0, actions: sampleActions(from: 0, count: 2), status: .playing,
        at: 60),
      RoomChange(
        room: ids[1], ordinal: 0, actions: sampleActions(from: 0, count: 1), status: .playing,
        at: 61),
      RoomChange(
        room: ids[0], ordinal: 0, actions: sampleActions(from: 2, count: 1), status: .over, at: 62),
    ])
    #expect(try store.room(ids[0])?.actions == sampleActions(from: 0, count: 3))
    #expect(try store.room(ids[0])?.status == .over)
    #expect(try store.room(ids[0])?.updated == 62)
    #expect(try store.room(ids[1])?.actions == sampleActions(from: 0, count: 1))

    // NB: the last change names a room that does not exist: the first two are not kept either.
    #expect(throws: StoreError.self) {
      try store.save([
        RoomChange(
          room: ids[2], ordinal: 0, actions: sampleActions(from: 0, count: 1), status: .playing,
          at: 70),
        RoomChange(
          room: ids[1], ordinal: 0, actions: sampleActions(from: 1, count: 1), status: .playing,
          at: 71),
        RoomChange(room: RoomID.random(), ordinal: 0, status: .playing, at: 72),
      ])
    }
    #expect(try store.room(ids[2])?.actions.isEmpty == true)
    #expect(try store.room(ids[1])?.actions == sampleActions(from: 0, count: 1))
    #expect(try store.room(ids[1])?.updated == 61)
  }

  @Test(arguments: Backend.allCases)
  func aPlayerIsFoundAgainByToken(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let token = PlayerToken.random()
    let first = try store.player(token, at: 5)
    #expect(first.settings == "{}")
    try store.saveSettings(#"{"name":"Ann ♥"}"#, of: first.key)
    let again = try store.player(token, at: 99)
    #expect(again.key == first.key)
    #expect(again.settings == #"{"name":"Ann ♥"}"#)
    #expect(again.created == 5)
    #expect(try store.player(.random(), at: 6).key != first.key)
  }

  /// Moves saved as a server saves them — actions alone, at the change's time, the status
  /// known to stay — change when the room last changed, for its record, a player's list of
  /// rooms and the idle rooms alike (SQLite then leaves the room's row as it is).
  @Test(arguments: Backend.allCases)
  func aRoomLastChangedWithItsLastMove(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let ann = try store.player(.random(), at: 1).key
    let ids = [RoomID.random(), RoomID.random()]
    for (index, id) in ids.enumerated() {
      _ = try store.claim(id)
      try store.createRoom(
        NewRoom(
          id: id, owner: ann, match: sampleMatch(), status: .playing, created: 10 + Int64(index)))
    }
    func move(_ room: RoomID, _ index: Int, at: Int64) -> RoomChange {
      var action = sampleActions(from: index, count: 1)[0]
      action.at = at
      return RoomChange(
        room: room, ordinal: 0, actions: [action], status: .playing, statusChanged: false, at: at)
    }
    try store.save([move(ids[0], 0, at: 20), move(ids[1], 0, at: 30)])
    try store.save(move(ids[0], 1, at: 40))
    #expect(try store.room(ids[0])?.updated == 40)
    #expect(try store.room(ids[1])?.updated == 30)
    #expect(try store.openRooms(of: ann, limit: 10).map(\.id) == [ids[0], ids[1]])
    #expect(try store.openRooms(of: ann, limit: 10).map(\.updated) == [40, 30])
    #expect(try store.idleRooms(before: 35, limit: 10) == [ids[1]])
    #expect(try store.idleRooms(before: 41, limit: 10) == [ids[1], ids[0]])
    // NB: a later change of another kind (a game ended) is when it last changed after that.
    try store.save(
      RoomChange(
        room: ids[1], ordinal: 0, actions: sampleActions(from: 1, count: 1), status: .over, at: 50))
    #expect(try store.room(ids[1])?.updated == 50)
    #expect(try store.idleRooms(before: 60, limit: 10) == [ids[0]])
  }

  @Test(arguments: Backend.allCases)
  func openRoomsListsTheOwnersUnfinishedRoomsNewestFirst(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let (ann, bob) = (
      try store.player(.random(), at: 1).key, try store.player(.random(), at: 1).key
    )
    var ids: [RoomID] = []
    for (index, status) in [RoomStatus.playing, .over, .playing, .abandoned, .playing].enumerated()
    {
      let id = RoomID.random()
      ids.append(id)
      try store.createRoom(
        NewRoom(id: id, owner: ann, match: sampleMatch(), status: status, created: Int64(index)))
    }
    try store.createRoom(
      NewRoom(id: .random(), owner: bob, match: sampleMatch(), status: .playing, created: 9))
    _ = try store.claim(ids[0])
    try store.save(
      RoomChange(
        room: ids[0], ordinal: 0, actions: sampleActions(from: 0, count: 3), status: .playing,
        at: 100))
    let open = try store.openRooms(of: ann, limit: 10)
    #expect(open.map(\.id) == [ids[0], ids[4], ids[2]])
    #expect(open.map(\.version) == [3, 0, 0])
    #expect(open.first?.options == sampleMatch().options)
    #expect(try store.openRooms(of: ann, limit: 2).count == 2)
    #expect(try store.idleRooms(before: 3, limit: 10) == [ids[2]])
  }

  @Test(arguments: Backend.allCases)
  func aChangeToARoomThatDoesNotExistWritesNothing(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let id = RoomID.random()
    _ = try store.claim(id)
    let change = RoomChange(
      room: id, ordinal: 0, actions: sampleActions(from: 0, count: 1), status: .playing, at: 1)
    #expect(throws: StoreError.self) { try store.save(change) }
    #expect(try store.room(id) == nil)
  }

  @Test(arguments: Backend.allCases)
  func aChangeThatFailsPartWayKeepsNoneOfIt(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let owner = try store.player(.random(), at: 1).key
    let id = RoomID.random()
    _ = try store.claim(id)
    try store.createRoom(
      NewRoom(id: id, owner: owner, match: sampleMatch(), status: .playing, created: 1))
    try store.save(
      RoomChange(
        room: id, ordinal: 0, actions: sampleActions(from: 0, count: 2), status: .playing, at: 2))
    // NB: the third action repeats an index already stored: the whole change is refused.
    let clash = sampleActions(from: 2, count: 2) + sampleActions(from: 1, count: 1)
    let result = sampleResult(room: id, player: owner, index: 0, score: 1, duration: 1, end: 3)
    #expect(throws: StoreError.self) {
      try store.save(
        RoomChange(room: id, ordinal: 0, actions: clash, results: [result], status: .over, at: 3))
    }
    let room = try #require(try store.room(id))
    #expect(room.actions == sampleActions(from: 0, count: 2))
    #expect(room.status == .playing && room.updated == 2 && room.resultCount == 0)
    // …and the store goes on working.
    try store.save(
      RoomChange(
        room: id, ordinal: 0, actions: sampleActions(from: 2, count: 1), status: .playing, at: 4))
    #expect(try store.room(id)?.actions.count == 3)
  }

  @Test(arguments: Backend.allCases)
  func tablesKeepTheirCodeLobbySeatsAndEachPlayersResults(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let (ann, bob) = (
      try store.player(.random(), at: 1).key, try store.player(.random(), at: 2).key
    )
    let id = RoomID.random()
    let lobby = TableRecord(
      code: "KXQ4TPA", phase: .lobby, isPublic: true, options: #"{"options":{"speed":"quick"}}"#,
      seats: [SeatRecord(seat: 0, player: ann, name: "Ann", computer: false)])
    _ = try store.claim(id)
    try store.createRoom(
      NewRoom(
        id: id, owner: ann, game: "snap", match: nil, table: lobby, status: .playing, created: 5))
    let waiting = try #require(try store.room(id))
    #expect(waiting.match == nil && waiting.table == lobby && waiting.game == "snap")
    #expect(try store.room(code: "KXQ4TPA") == id)
    #expect(try store.room(code: "NOPE000") == nil)
    #expect(try store.publicTables(limit: 10).map(\.room) == [id])
    #expect(try store.publicTables(limit: 10).first?.table == lobby)
    #expect(try store.openRooms(of: ann, limit: 10).map(\.id) == [id])

    var playing = lobby
    playing.phase = .playing
    playing.seats += [
      SeatRecord(seat: 1, player: bob, name: "Bob", computer: false),
      SeatRecord(seat: 2, player: nil, name: "Computer", computer: true),
    ]
    let match = sampleMatch(game: "snap")
    try store.save(
      RoomChange(
        room: id, table: playing, newMatch: match, ordinal: 0,
        actions: sampleActions(from: 0, count: 2), status: .playing, at: 6))
    #expect(try store.publicTables(limit: 10).isEmpty)
    #expect(try store.room(id)?.table == playing)
    #expect(try store.openRooms(of: bob, limit: 10).map(\.id) == [id])

    let results = [ann, bob].map { player in
      sampleResult(room: id, player: player, index: 0, score: 3, duration: 12, end: 9)
    }
    try store.save(RoomChange(room: id, ordinal: 0, results: results, status: .over, at: 9))
    #expect(try store.room(id)?.resultCount == 1)
    #expect(try store.results(in: id).count == 1)
    #expect(try store.results(of: bob, game: "memory") == [results[1]])
    #expect(try store.openRooms(of: bob, limit: 10).isEmpty)
  }

  @Test(arguments: Backend.allCases)
  func ratingsAddUpPerGameAndCategoryAndPlayersAreFoundByTheirPublicID(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let (ann, bob) = (
      try store.player(.random(), at: 1).key, try store.player(.random(), at: 2).key
    )
    let id = RoomID.random()
    _ = try store.claim(id)
    try store.createRoom(
      NewRoom(id: id, owner: ann, match: sampleMatch(), status: .playing, created: 5))
    #expect(try store.ratings(of: ann).isEmpty)
    func rated(_ index: Int, _ player: PlayerKey, _ category: String, _ change: Double, at: Int64)
      -> RatingRecord
    {
      RatingRecord(
        room: id, index: index, player: player, game: "memory", category: category, was: 1500,
        change: change, at: at)
    }
    try store.save(
      RoomChange(
        room: id, ordinal: 0,
        ratings: [rated(0, ann, "easy", 20, at: 10), rated(0, bob, "easy", -20, at: 10)],
        status: .playing, at: 10))
    try store.save(
      RoomChange(
        room: id, ordinal: 0,
        ratings: [rated(1, ann, "easy", -12.25, at: 20), rated(2, ann, "hard", 0.5, at: 30)],
        status: .playing, at: 30))
    #expect(
      try store.ratings(of: ann) == [
        RatingSummary(
          game: "memory", category: "hard", rating: Rating(value: 1500.5, games: 1), last: 30),
        RatingSummary(
          game: "memory", category: "easy", rating: Rating(value: 1507.75, games: 2), last: 20),
      ])
    #expect(try store.ratings(of: bob).map(\.rating) == [Rating(value: 1480, games: 1)])

    #expect(try store.player(publicID: "PAGEOFANN0000000") == nil)
    #expect(try store.publicID(of: ann, new: "PAGEOFANN0000000") == "PAGEOFANN0000000")
    #expect(try store.publicID(of: ann, new: "SOMETHINGELSE000") == "PAGEOFANN0000000", "kept")
    #expect(try store.player(publicID: "PAGEOFANN0000000")?.key == ann)
    #expect(try store.publicID(of: bob, new: "PAGEOFBOB0000000") == "PAGEOFBOB0000000")
  }

  @Test(arguments: Backend.allCases)
  func aTransferCodeIsTakenOnceInTimeAndANewOneReplacesTheOld(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let token = PlayerToken.random()
    let ann = try store.player(token, at: 1).key
    func transfer(_ code: String, expires: Int64) -> TransferRecord {
      TransferRecord(
        code: TransferRecord.hash(code: code), player: ann,
        sealed: TransferRecord.seal(token, code: code), expires: expires)
    }
    try store.keepTransfer(transfer("AAAABBBB", expires: 100), now: 10)
    try store.keepTransfer(transfer("CCCCDDDD", expires: 100), now: 20)
    #expect(
      try store.takeTransfer(TransferRecord.hash(code: "AAAABBBB"), now: 30) == nil, "replaced")
    let sealed = try #require(
      try store.takeTransfer(TransferRecord.hash(code: "CCCCDDDD"), now: 99))
    #expect(TransferRecord.open(sealed, code: "CCCCDDDD") == token)
    #expect(TransferRecord.open(sealed, code: "CCCCDDDE") != token, "only its code opens it")
    #expect(try store.takeTransfer(TransferRecord.hash(code: "CCCCDDDD"), now: 99) == nil, "once")
    try store.keepTransfer(transfer("EEEEFFFF", expires: 200), now: 150)
    #expect(
      try store.takeTransfer(TransferRecord.hash(code: "EEEEFFFF"), now: 200) == nil, "out of time")
  }

  @Test(arguments: Backend.allCases)
  func aTablesChatIsKeptLineByLineWithWhetherWatchersMayWrite(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let (ann, zoe) = (
      try store.player(.random(), at: 1).key, try store.player(.random(), at: 2).key
    )
    let id = RoomID.random()
    var table = TableRecord(
      code: "CHAT000", phase: .lobby, isPublic: false, options: "{}",
      seats: [SeatRecord(seat: 0, player: ann, name: "Ann", computer: false)])
    _ = try store.claim(id)
    try store.createRoom(
      NewRoom(
        id: id, owner: ann, game: "snap", match: nil, table: table, status: .playing, created: 5))
    #expect(try store.room(id)?.table?.watcherChat == true)
    #expect(try store.chat(in: id, last: nil).isEmpty)
    // NB: text a careless backend would change on the way, and a watcher's line (no seat).
    let said = [
      ChatRecord(index: 0, at: 6, player: ann, name: "Ann", seat: 0, text: "<b>hi</b> 'K♦' \\ $1"),
      ChatRecord(
        index: 1, at: 7, player: zoe, name: "Zoë", seat: nil, text: "snap", kind: .reaction),
      ChatRecord(index: 2, at: 8, player: ann, name: "Ann", seat: 0, text: "again"),
    ]
    try store.save(
      RoomChange(room: id, ordinal: 0, chat: Array(said[0...1]), status: .playing, at: 7))
    table.watcherChat = false
    try store.save(
      RoomChange(room: id, table: table, ordinal: 0, chat: [said[2]], status: .playing, at: 8))
    #expect(try store.chat(in: id, last: nil) == said)
    #expect(try store.chat(in: id, last: 2) == Array(said[1...2]), "the latest, oldest first")
    #expect(try store.room(id)?.table?.watcherChat == false)
    #expect(try store.room(id)?.updated == 8)
    // NB: a line whose place is taken is refused with the rest of its change.
    #expect(throws: StoreError.self) {
      try store.save(RoomChange(room: id, ordinal: 0, chat: [said[0]], status: .over, at: 9))
    }
    #expect(try store.room(id)?.status == .playing)
  }

  @Test(arguments: Backend.allCases)
  func aLeaseIsHeldUntilReleased(_ backend: Backend) throws {
    let (store, keep) = try backend.makeStore()
    defer { withExtendedLifetime(keep) {} }
    let id = RoomID.random()
    #expect(try store.claim(id))
    #expect(try store.claim(id))
    #expect(store.holds(id))
    store.release(id)
    #expect(try store.claim(id))
    try store.check()
  }
}

/// What only PostgreSQL does: several servers on one database, each room run by one of them.
@Suite struct PostgresStoreTests {
  func database() throws -> (server: ScratchPostgres, url: String) {
    let server = try ScratchPostgres.shared.get()
    return (server, try server.newDatabase())
  }

  @Test func twoServersNeverHoldOneRoomAndALeaseFollowsItsConnection() throws {
    let (_, url) = try database()
    var first: PostgresStore? = try PostgresStore(url: url)
    let second = try PostgresStore(url: url)
    let id = RoomID.random()
    #expect(try first?.claim(id) == true)
    #expect(try second.claim(id) == false)
    #expect(second.holds(id) == false)
    first?.release(id)
    #expect(try second.claim(id))
    #expect(try first?.claim(id) == false)
    // NB: a server that ends (its connection closes) lets its rooms go.
    second.release(id)
    #expect(try first?.claim(id) == true)
    first = nil
    // NB: PostgreSQL lets the lock go when it has seen the connection end, a moment later.
    #expect(try eventually { () throws(StoreError) in try second.claim(id) })
  }

  /// Whether `condition` becomes true within ten seconds, asked again every few milliseconds.
  func eventually(_ condition: () throws(StoreError) -> Bool) throws(StoreError) -> Bool {
    for _ in 0..<2_000 {
      if try condition() { return true }
      usleep(5_000)
    }
    return false
  }

  @Test func aSaveWithoutTheLeaseIsRefusedAndWritesNothing() throws {
    let (_, url) = try database()
    let (running, other) = (try PostgresStore(url: url), try PostgresStore(url: url))
    let owner = try running.player(.random(), at: 1).key
    let id = RoomID.random()
    #expect(try running.claim(id))
    try running.createRoom(
      NewRoom(id: id, owner: owner, match: sampleMatch(), status: .playing, created: 1))
    let change = RoomChange(
      room: id, ordinal: 0, actions: sampleActions(from: 0, count: 1), status: .playing, at: 2)
    #expect(throws: StoreError.leaseLost(path: other.path, room: id.rawValue)) {
      try other.save(change)
    }
    #expect(try other.room(id)?.actions.isEmpty == true)
    try running.save(change)
    #expect(try other.room(id)?.actions.count == 1)
  }

  @Test func aConnectionCutOffLosesItsLeasesAndTheStoreConnectsAgain() throws {
    let (server, url) = try database()
    let (cut, other) = (try PostgresStore(url: url), try PostgresStore(url: url))
    let owner = try cut.player(.random(), at: 1).key
    let id = RoomID.random()
    #expect(try cut.claim(id))
    try cut.createRoom(
      NewRoom(id: id, owner: owner, match: sampleMatch(), status: .playing, created: 1))
    let pid = try #require(try cut.database.scalar("SELECT pg_backend_pid()"))
    #expect(server.psql(url, "SELECT pg_terminate_backend(\(pid), 10000)") == "t")
    // NB: the store learns of it at its next statement, which fails; the one after connects.
    let change = RoomChange(
      room: id, ordinal: 0, actions: sampleActions(from: 0, count: 1), status: .playing, at: 2)
    #expect(throws: StoreError.self) { try cut.save(change) }
    #expect(cut.holds(id) == false)
    #expect(throws: StoreError.leaseLost(path: cut.path, room: id.rawValue)) {
      try cut.save(change)
    }
    #expect(try other.claim(id))
    #expect(try cut.claim(id) == false)
    #expect(try cut.room(id)?.actions.isEmpty == true)
    try other.save(change)
    #expect(try cut.room(id)?.actions.count == 1)
  }

  @Test func durabilityChoosesWhetherACommitWaitsForTheDisk() throws {
    let (_, url) = try database()
    let normal = try PostgresStore(url: url)
    let full = try PostgresStore(url: url, durability: .full)
    #expect(try normal.database.scalar("SHOW synchronous_commit") == "off")
    #expect(try full.database.scalar("SHOW synchronous_commit") == "on")
    // NB: a connection opened again after one was lost is set up the same way.
    let pid = try #require(try normal.database.scalar("SELECT pg_backend_pid()"))
    _ = try full.database.scalar("SELECT pg_terminate_backend($1::int, 10000)", [.text(pid)])
    #expect(throws: StoreError.self) { try normal.check() }
    #expect(try normal.database.scalar("SHOW synchronous_commit") == "off")
  }

  @Test func serversStartingTogetherMigrateTheDatabaseOnce() throws {
    let (server, url) = try database()
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      do {
        _ = try PostgresStore(url: url)
      } catch {
        failures.add("\(error)")
      }
    }
    #expect(failures.all.isEmpty)
    #expect(
      server.psql(url, "SELECT version FROM cardtable_schema") == "\(PostgresMigrations.latest)")
  }

  @Test(arguments: 0..<PostgresMigrations.latest)
  func aDatabaseAtEveryEarlierVersionIsMigratedWithItsData(from version: Int) throws {
    let (server, url) = try database()
    let old = try PostgresConnection(url: url)
    #expect(try PostgresMigrations.migrate(old, to: version) == version)
    if version >= 1 {
      #expect(server.psql(url, Self.versionOneRows) != nil)
    }
    if version == 2 {
      #expect(server.psql(url, Self.versionTwoRows) != nil)
    }
    if version >= 3 {
      #expect(server.psql(url, Self.versionThreeRows) != nil)
    }
    let store = try PostgresStore(url: url)
    #expect(try PostgresMigrations.version(of: store.database) == PostgresMigrations.latest)
    guard version >= 1 else { return }
    let id = try #require(RoomID(rawValue: "AAAAAAAAAAAAAAAA"))
    let room = try #require(try store.room(id))
    #expect(room.actions.map(\.index) == [0, 1])
    #expect(room.match?.seed == UInt64.max)
    #expect(room.match?.laterKey == [1, 2])
    guard version >= 2 else { return }
    let results = try store.results(of: PlayerKey(rawValue: 7), game: nil)
    #expect(results.map(\.score) == [3])
    guard version >= 3 else { return }
    // NB: a table from before the chat lets its watchers write, and has said nothing yet.
    let table = try #require(try RoomID(rawValue: "BBBBBBBBBBBBBBBB").flatMap(store.room))
    #expect(table.table?.watcherChat == true && table.table?.seats.map(\.name) == ["Ann"])
    #expect(try store.chat(in: table.id, last: nil).isEmpty)
  }

  @Test func aDatabaseFromANewerCardTableIsRefused() throws {
    let (server, url) = try database()
    _ = try PostgresStore(url: url)
    server.psql(url, "UPDATE cardtable_schema SET version = 99")
    #expect(
      throws: StoreError.newerSchema(
        path: PostgresStore.redacted(url), found: 99, known: PostgresMigrations.latest)
    ) {
      _ = try PostgresStore(url: url)
    }
  }

  @Test func anUnreachableDatabaseIsUnavailableAndItsPasswordIsNeverShown() throws {
    let url = "postgres://ann:s3cret@/nowhere?host=/tmp/cardtable-no-such-socket"
    do {
      _ = try PostgresStore(url: url)
      Issue.record("a database that is not there opened")
    } catch {
      guard case .unavailable(let path, _) = error else {
        Issue.record("not unavailable: \(error)")
        return
      }
      #expect(!"\(error)".contains("s3cret"))
      #expect(path == "postgres://ann@/nowhere?host=/tmp/cardtable-no-such-socket")
    }
    #expect(
      PostgresStore.redacted("postgres://db/x?password=p&sslmode=require")
        == "postgres://db/x?sslmode=require")
    #expect(PostgresStore.redacted("host=db password=p dbname=x") == "host=db dbname=x")
  }

  /// Rows as schema version 1 held them, in PostgreSQL's dialect.
  static let versionOneRows = """
    INSERT INTO players (id, token_hash, created, settings) VALUES (7, '\\x00ff', 5, '{"name":"Ann"}');
    INSERT INTO rooms (id, owner, game, status, created, updated, current)
      VALUES ('AAAAAAAAAAAAAAAA', 7, 'memory', 'playing', 10, 20, 0);
    INSERT INTO matches (room, ordinal, game, options, seed, seed_chosen, later_key, replay, started)
      VALUES ('AAAAAAAAAAAAAAAA', 0, 'memory', '{"options":{}}', -1, false,
        '\\x00000000000000010000000000000002', false, 10);
    INSERT INTO actions (room, ordinal, idx, time, at, player, automatic, action) VALUES
      ('AAAAAAAAAAAAAAAA', 0, 0, 0.5, 11, 'You', false, '{"type":"flip","card":0}'),
      ('AAAAAAAAAAAAAAAA', 0, 1, 1.0, 12, 'You', false, '{"type":"flip","card":1}');
    """

  /// A result as schema version 2 held it: without a player of its own.
  static let versionTwoRows = """
    INSERT INTO results (room, idx, ordinal, game, options, seed, score, moves, ending, winner, won,
      start, "end", duration, practice, replay, record)
    VALUES ('AAAAAAAAAAAAAAAA', 0, 0, 'memory', 'difficulty easy', 5, 3, 9, 'finished', NULL, true,
      10, 20, 9.5, false, false, '{}');
    """

  /// A result and a table as schema version 3 held them: per player, and without a chat.
  static let versionThreeRows = """
    INSERT INTO results (room, idx, player, ordinal, game, options, seed, score, moves, ending,
      winner, won, start, "end", duration, practice, replay, record)
    VALUES ('AAAAAAAAAAAAAAAA', 0, 7, 0, 'memory', 'difficulty easy', 5, 3, 9, 'finished', NULL,
      true, 10, 20, 9.5, false, false, '{}');
    INSERT INTO rooms (id, owner, game, status, created, updated, current, code, phase, public, lobby)
      VALUES ('BBBBBBBBBBBBBBBB', 7, 'snap', 'playing', 10, 20, 0, 'KXQ4TP', 'lobby', true, '{}');
    INSERT INTO seats (room, seat, player, name, computer) VALUES ('BBBBBBBBBBBBBBBB', 0, 7, 'Ann', false);
    """
}

/// Messages gathered from several threads.
final class Failures: @unchecked Sendable {
  private var lock = pthread_mutex_t()
  private var messages: [String] = []

  init() { pthread_mutex_init(&lock, nil) }
  deinit { pthread_mutex_destroy(&lock) }

  func add(_ message: String) {
    pthread_mutex_lock(&lock)
    messages.append(message)
    pthread_mutex_unlock(&lock)
  }

  var all: [String] {
    pthread_mutex_lock(&lock)
    defer { pthread_mutex_unlock(&lock) }
    return messages
  }
}
