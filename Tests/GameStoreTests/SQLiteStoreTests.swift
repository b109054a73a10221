import CardTableCore
import Glibc
import Testing

@testable import GameStore

/// A fresh directory under /tmp for one test, removed with everything in it when done.
final class TemporaryDirectory {
  let path: String

  init() {
    var template = Array("/tmp/cardtable-store-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) }
    }
    guard let made else { preconditionFailure("mkdtemp failed") }
    path = made
  }

  var database: String { path + "/" + SQLiteStore.fileName }

  deinit {
    _ = system("rm -rf '\(path)'")
  }
}

/// A room's first match, as the server makes one.
func sampleMatch(ordinal: Int = 0, game: String = "memory", replay: Bool = false) -> MatchRecord {
  MatchRecord(
    ordinal: ordinal, game: game, options: #"{"options":{"difficulty":"easy"}}"#,
    seed: UInt64.max - 5, seedChosen: false, laterKey: [0x0123_4567_89ab_cdef, .max],
    replay: replay, started: 1_000)
}

func sampleActions(from start: Int, count: Int) -> [ActionRecord] {
  (start..<start + count).map { index in
    ActionRecord(
      index: index, time: Double(index) * 0.5, at: Int64(index), player: "You",
      automatic: index % 3 == 2, action: #"{"type":"flip","card":\#(index % 12)}"#)
  }
}

func sampleResult(
  room: RoomID, player: PlayerKey = PlayerKey(rawValue: 1), index: Int, score: Int,
  duration: Double, end: Int64
) -> ResultRecord {
  ResultRecord(
    room: room, player: player, ordinal: 0, index: index, game: "memory",
    options: "difficulty easy",
    seed: UInt64(index), score: score, moves: 6 + score, ending: .finished, winner: nil, won: true,
    start: end - Int64(duration * 1000), end: end, duration: duration, practice: false,
    replay: false, record: #"{"game":"memory"}"#)
}

@Suite struct SQLiteStoreTests {
  @Test func aNewDatabaseIsAtTheLatestSchemaInWALMode() throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteStore.open(directory: directory.path + "/a/b")
    #expect(try Migrations.version(of: store.database) == Migrations.latest)
    #expect(try store.database.scalar("PRAGMA journal_mode")?.text == "wal")
    #expect(try store.database.scalar("PRAGMA foreign_keys")?.integer == 1)
  }

  /// The rest of what every store does is in ``StoreContractTests``, run on both backends.
  @Test func onlyAPlayersTokenHashIsKept() throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteStore.open(directory: directory.path)
    let token = PlayerToken.random()
    _ = try store.player(token, at: 5)
    // NB: the token's text is nowhere in the file.
    store.database.close()
    let bytes = try #require(readFile(directory.database))
    #expect(!bytes.contains(token.rawValue))
  }

  /// A store in `directory` with one room being played, created at 1 by a new player.
  func storeWithARoom(in directory: TemporaryDirectory, id: RoomID = .random()) throws -> (
    SQLiteStore, RoomID
  ) {
    let store = try SQLiteStore.open(directory: directory.path)
    let owner = try store.player(.random(), at: 1).key
    try store.createRoom(
      NewRoom(id: id, owner: owner, match: sampleMatch(), status: .playing, created: 1))
    return (store, id)
  }

  @Test func aDiskThatFillsUpRefusesTheWholeChangeAndKeepsWhatWasThere() throws {
    let directory = TemporaryDirectory()
    let (store, id) = try storeWithARoom(in: directory)
    try store.save(
      RoomChange(
        room: id, ordinal: 0, actions: sampleActions(from: 0, count: 2), status: .playing, at: 2))
    // NB: a database that may not grow past its current pages stands in for a full disk.
    let pages = try #require(try store.database.scalar("PRAGMA page_count")?.integer)
    _ = try store.database.scalar("PRAGMA max_page_count = \(pages)")
    let big = (2..<400).map { index in
      ActionRecord(
        index: index, time: 1, at: 3, player: "You", automatic: false,
        action: String(repeating: "x", count: 2_000))
    }
    #expect(throws: StoreError.full(path: directory.database)) {
      try store.save(RoomChange(room: id, ordinal: 0, actions: big, status: .playing, at: 3))
    }
    let room = try #require(try store.room(id))
    #expect(room.actions == sampleActions(from: 0, count: 2))
    #expect(room.updated == 2)
    #expect(StoreError.full(path: "x").exitCode == 4)
  }

  /// The write-ahead log is copied back into the file on a thread of its own, ahead of the
  /// commit that would do it on the server's loop; what was saved reads back, and closing the
  /// store leaves no log behind (docs/STORAGE.md "Checkpoints").
  @Test func theLogIsCopiedIntoTheFileOnAThreadOfItsOwn() throws {
    let directory = TemporaryDirectory()
    let id = RoomID.random()
    var saved = 0
    do {
      let (store, _) = try storeWithARoom(in: directory, id: id)
      #expect(store.checkpoints == 0)
      // NB: saves of 20 pages each, until the thread has checkpointed (it asks past 200).
      let deadline = ContinuousClock.now + .seconds(60)
      while store.checkpoints == 0 {
        try #require(ContinuousClock.now < deadline, "no checkpoint after \(saved) actions")
        let actions = (saved..<saved + 40).map { index in
          ActionRecord(
            index: index, time: 1, at: 3, player: "You", automatic: false,
            action:
              #"{"type":"flip","card":\#(index % 12),"note":"\#(String(repeating: "x", count: 2_000))"}"#
          )
        }
        try store.save(
          RoomChange(room: id, ordinal: 0, actions: actions, status: .playing, at: 3))
        saved += actions.count
      }
    }
    #expect(access(directory.database + "-wal", F_OK) != 0, "the log is left behind")
    let reopened = try SQLiteStore.open(directory: directory.path)
    let room = try #require(try reopened.room(id))
    #expect(room.actions.count == saved)
    #expect(room.actions.last?.index == saved - 1)
  }

  /// Saving an action writes two pages to the log, the action's and the room's row: the rooms'
  /// indexes leave out when a room last changed, and its status is set only when it changes;
  /// a move as the server saves it writes its own page alone (docs/STORAGE.md "What an action
  /// writes").
  @Test func anActionWritesItsOwnPageAndTheRoomsRowAlone() throws {
    let directory = TemporaryDirectory()
    let (store, id) = try storeWithARoom(in: directory)
    // NB: the log's length in pages after each commit, with no checkpoint to reset it.
    var logged: [Int32] = []
    store.database.setWALHook { logged.append($0) }
    func pagesWritten(_ change: RoomChange) throws -> Int32 {
      let before = logged.last ?? 0
      try store.save(change)
      return try #require(logged.last) - before
    }
    // NB: the first commit tells how long the log already was.
    try store.save(
      RoomChange(
        room: id, ordinal: 0, actions: sampleActions(from: 0, count: 1), status: .playing, at: 9))
    var written: [Int32] = []
    for index in 1..<4 {
      let action = sampleActions(from: index, count: 1)
      written.append(
        try pagesWritten(
          RoomChange(room: id, ordinal: 0, actions: action, status: .playing, at: 10 + Int64(index))
        ))
    }
    #expect(written == [2, 2, 2])
    // NB: a move as the server saves it — at the change's time, the status known to stay —
    // leaves the room's row alone: its own page only.
    var alone = sampleActions(from: 4, count: 1)
    alone[0].at = 15
    #expect(
      try pagesWritten(
        RoomChange(
          room: id, ordinal: 0, actions: alone, status: .playing, statusChanged: false, at: 15))
        == 1)
    #expect(try store.room(id)?.updated == 15)
    // NB: a change of status moves the room in both indexes too.
    let last = sampleActions(from: 5, count: 1)
    #expect(
      try pagesWritten(RoomChange(room: id, ordinal: 0, actions: last, status: .over, at: 20)) > 2)
    let room = try #require(try store.room(id))
    #expect(room.status == .over && room.updated == 20 && room.actions.count == 6)
    #expect(try store.idleRooms(before: 100, limit: 10).isEmpty, "a room over is never idle")
  }

  /// A change whose writer knows the status is the one stored runs no statement for it: the
  /// store takes the writer's word (the server's, which knows what it saved last).
  @Test func aChangeThatKeepsTheStatusLeavesItAlone() throws {
    let directory = TemporaryDirectory()
    let (store, id) = try storeWithARoom(in: directory)
    // NB: a writer that says the status is unchanged while naming another: it is believed.
    try store.save(
      RoomChange(
        room: id, ordinal: 0, actions: sampleActions(from: 0, count: 1), status: .over,
        statusChanged: false, at: 5))
    #expect(try #require(try store.room(id)).status == .playing)
    try store.save(
      RoomChange(
        room: id, ordinal: 0, actions: sampleActions(from: 1, count: 1), status: .over, at: 6))
    let room = try #require(try store.room(id))
    #expect(room.status == .over && room.updated == 6 && room.actions.count == 2)
  }

  @Test func aSecondServerOnTheSameDataIsRefusedAtStart() throws {
    let directory = TemporaryDirectory()
    let first = try SQLiteStore.open(directory: directory.path, exclusive: true)
    #expect(throws: StoreError.locked(path: directory.database)) {
      _ = try SQLiteStore.open(directory: directory.path, exclusive: true)
    }
    // NB: readers (cardtable stats, export) need no lock.
    _ = try SQLiteStore.open(directory: directory.path, readOnly: true)
    withExtendedLifetime(first) {}
  }

  @Test func aDatabaseLockedByAnotherProcessIsRefusedAtStart() throws {
    let directory = TemporaryDirectory()
    _ = try SQLiteStore.open(directory: directory.path)
    let other = try SQLiteDatabase(path: directory.database)
    try other.execute("BEGIN EXCLUSIVE")
    #expect(throws: StoreError.locked(path: directory.database)) {
      _ = try SQLiteStore(path: directory.database, busyTimeout: 50)
    }
    try other.execute("ROLLBACK")
    #expect(StoreError.locked(path: "x").exitCode == 5)
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAsCorrupt() throws {
    let directory = TemporaryDirectory()
    #expect(writeFile(directory.database, String(repeating: "not a database\n", count: 400)))
    #expect {
      _ = try SQLiteStore(path: directory.database)
    } throws: { error in
      guard case .corrupt = error as? StoreError else { return false }
      return (error as? StoreError)?.exitCode == 6
    }
  }

  @Test func anEmptiedDatabaseFileIsRefusedRatherThanStartedAfresh() throws {
    let directory = TemporaryDirectory()
    #expect(writeFile(directory.database, ""))
    #expect {
      _ = try SQLiteStore(path: directory.database)
    } throws: { error in
      guard case .corrupt(_, let reason) = error as? StoreError else { return false }
      return reason.contains("0 bytes") && (error as? StoreError)?.exitCode == 6
    }
  }

  @Test func aDatabaseFromANewerCardTableIsRefused() throws {
    let directory = TemporaryDirectory()
    let database = try SQLiteDatabase(path: directory.database)
    try database.execute("PRAGMA user_version = 99")
    database.close()
    #expect(
      throws: StoreError.newerSchema(path: directory.database, found: 99, known: Migrations.latest)
    ) {
      _ = try SQLiteStore(path: directory.database)
    }
    #expect(StoreError.newerSchema(path: "x", found: 9, known: 2).exitCode == 7)
  }

  @Test func anUnwritableDirectoryIsRefusedAsUnavailable() throws {
    #expect {
      _ = try SQLiteStore.open(directory: "/proc/cardtable-cannot-be-here")
    } throws: { error in
      guard case .unavailable = error as? StoreError else { return false }
      return (error as? StoreError)?.exitCode == 3
    }
  }

  @Test func theDefaultDirectoryFollowsXDG() {
    #expect(
      SQLiteStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"])
        == "/data/cardtable")
    #expect(
      SQLiteStore.defaultDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"])
        == "/home/a/.local/share/cardtable")
    #expect(SQLiteStore.defaultDirectory(environment: [:]) == nil)
  }
}

/// The text of a file (bytes decoded leniently), or nil when it cannot be read.
func readFile(_ path: String) -> String? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count == 0 { break }
    bytes += buffer[0..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

func writeFile(_ path: String, _ text: String) -> Bool {
  guard let file = fopen(path, "wb") else { return false }
  defer { fclose(file) }
  return fputs(text, file) >= 0
}

/// Prepared statements are kept by their SQL, hashed by its length and three of its words
/// (``SQLText``): texts alike in all of those are still two statements, each with its own result.
@Suite struct PreparedStatementTests {
  @Test func textsThatHashAlikeAreStillTwoStatements() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    // NB: the same length, first, middle and last eight bytes; they differ in between.
    let texts = (1...9).map { "SELECT 'abc', \($0) AS value, 'abcdefgh', 'xyz' AS    name" }
    #expect(Set(texts.map { SQLText($0).hashValue }).count == 1)
    for _ in 0..<2 {
      for (index, text) in texts.enumerated() {
        let statement = try database.statement(text)
        #expect(try statement.step())
        #expect(statement.value(1) == .integer(Int64(index + 1)), "\(text)")
      }
    }
  }
}
