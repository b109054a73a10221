import Testing

@testable import GameStore

/// Every schema version a released CardTable wrote is brought to the latest with its data.
@Suite struct MigrationTests {
  /// Rows as schema version 1 held them: a player, a room, its match and two actions.
  static let versionOneRows = """
    INSERT INTO players (id, token_hash, created, settings) VALUES (7, x'00ff', 5, '{"name":"Ann"}');
    INSERT INTO rooms (id, owner, game, status, created, updated, current)
      VALUES ('AAAAAAAAAAAAAAAA', 7, 'memory', 'playing', 10, 20, 0);
    INSERT INTO matches (room, ordinal, game, options, seed, seed_chosen, later_key, replay, started)
      VALUES ('AAAAAAAAAAAAAAAA', 0, 'memory', '{"options":{}}', -1, 0, x'00000000000000010000000000000002', 0, 10);
    INSERT INTO actions (room, ordinal, idx, time, at, player, automatic, action) VALUES
      ('AAAAAAAAAAAAAAAA', 0, 0, 0.5, 11, 'You', 0, '{"type":"flip","card":0}'),
      ('AAAAAAAAAAAAAAAA', 0, 1, 1.0, 12, 'You', 0, '{"type":"flip","card":1}');
    """

  /// A result as schema version 2 held it: without a player of its own.
  static let versionTwoRows = """
    INSERT INTO results (room, idx, ordinal, game, options, seed, score, moves, ending, winner, won,
      start, end, duration, practice, replay, record)
    VALUES ('AAAAAAAAAAAAAAAA', 0, 0, 'memory', 'difficulty easy', 5, 3, 9, 'finished', NULL, 1,
      10, 20, 9.5, 0, 0, '{}');
    """

  /// A result and a table as schema version 3 held them: per player, and without a chat.
  static let versionThreeRows = """
    INSERT INTO results (room, idx, player, ordinal, game, options, seed, score, moves, ending,
      winner, won, start, end, duration, practice, replay, record)
    VALUES ('AAAAAAAAAAAAAAAA', 0, 7, 0, 'memory', 'difficulty easy', 5, 3, 9, 'finished', NULL, 1,
      10, 20, 9.5, 0, 0, '{}');
    INSERT INTO rooms (id, owner, game, status, created, updated, current, code, phase, public, lobby)
      VALUES ('BBBBBBBBBBBBBBBB', 7, 'snap', 'playing', 10, 20, 0, 'KXQ4TP', 'lobby', 1, '{}');
    INSERT INTO seats (room, seat, player, name, computer) VALUES ('BBBBBBBBBBBBBBBB', 0, 7, 'Ann', 0);
    """

  // NB: from 1: at version 0 the file is empty (0 bytes), which a store refuses as emptied
  // (SQLiteStoreTests.anEmptiedDatabaseFileIsRefusedRatherThanStartedAfresh) rather than fill it afresh.
  @Test(arguments: 1..<Migrations.latest)
  func aDatabaseAtEveryEarlierVersionIsMigratedWithItsData(from version: Int) throws {
    let directory = TemporaryDirectory()
    let old = try SQLiteDatabase(path: directory.database)
    try Migrations.migrate(old, to: version)
    #expect(try Migrations.version(of: old) == version)
    if version >= 1 { try old.execute(Self.versionOneRows) }
    if version == 2 { try old.execute(Self.versionTwoRows) }
    if version >= 3 { try old.execute(Self.versionThreeRows) }
    old.close()

    let store = try SQLiteStore(path: directory.database)
    #expect(try Migrations.version(of: store.database) == Migrations.latest)
    if version >= 1 {
      let id = try #require(RoomID(rawValue: "AAAAAAAAAAAAAAAA"))
      let room = try #require(try store.room(id))
      #expect(room.owner == PlayerKey(rawValue: 7))
      #expect(room.match?.seed == .max)
      #expect(room.match?.laterKey == [1, 2])
      #expect(
        room.actions.map(\.action) == [#"{"type":"flip","card":0}"#, #"{"type":"flip","card":1}"#])
      #expect(try store.openRooms(of: room.owner, limit: 5).map(\.id).contains(id))
      if version >= 2 {
        // NB: a result of version 2 had no player of its own; it becomes the room's owner's.
        let results = try store.results(of: room.owner, game: "memory")
        #expect(results.map(\.score) == [3])
        #expect(try store.results(in: id).map(\.player) == [room.owner])
      } else {
        #expect(try store.results(in: id).isEmpty)
      }
    }
    if version >= 3 {
      // NB: a table from before the chat lets its watchers write, and has said nothing yet.
      let table = try #require(try RoomID(rawValue: "BBBBBBBBBBBBBBBB").flatMap(store.room))
      #expect(table.table?.watcherChat == true && table.table?.seats.map(\.name) == ["Ann"])
      #expect(try store.chat(in: table.id, last: nil).isEmpty)
    }
  }

  @Test func migratingTwiceChangesNothing() throws {
    let directory = TemporaryDirectory()
    _ = try SQLiteStore(path: directory.database)
    let again = try SQLiteStore(path: directory.database)
    #expect(try Migrations.version(of: again.database) == Migrations.latest)
  }
}
