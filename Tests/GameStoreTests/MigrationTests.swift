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

  @Test(arguments: 0..<Migrations.latest)
  func aDatabaseAtEveryEarlierVersionIsMigratedWithItsData(from version: Int) throws {
    let directory = TemporaryDirectory()
    let old = try SQLiteDatabase(path: directory.database)
    try Migrations.migrate(old, to: version)
    #expect(try Migrations.version(of: old) == version)
    if version >= 1 { try old.execute(Self.versionOneRows) }
    old.close()

    let store = try SQLiteStore(path: directory.database)
    #expect(try Migrations.version(of: store.database) == Migrations.latest)
    if version >= 1 {
      let id = try #require(RoomID(rawValue: "AAAAAAAAAAAAAAAA"))
      let room = try #require(try store.room(id))
      #expect(room.owner == PlayerKey(rawValue: 7))
      #expect(room.match.seed == .max)
      #expect(room.match.laterKey == [1, 2])
      #expect(
        room.actions.map(\.action) == [#"{"type":"flip","card":0}"#, #"{"type":"flip","card":1}"#])
      #expect(try store.results(in: id).isEmpty)
      #expect(try store.openRooms(of: room.owner, limit: 5).map(\.id) == [id])
    }
  }

  @Test func migratingTwiceChangesNothing() throws {
    let directory = TemporaryDirectory()
    _ = try SQLiteStore(path: directory.database)
    let again = try SQLiteStore(path: directory.database)
    #expect(try Migrations.version(of: again.database) == Migrations.latest)
  }
}
