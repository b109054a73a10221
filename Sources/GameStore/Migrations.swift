/// The store's schema, one numbered step at a time; `PRAGMA user_version` says how many steps a
/// database has taken.
///
/// A step is never edited once released: a change to the schema is a new step at the end.
/// Each runs in its own transaction with the version it sets, so a database is always at a
/// whole step.
enum Migrations {
  /// The steps in order: `steps[0]` takes an empty database to version 1.
  static let steps: [String] = [
    // 1: players, rooms, their matches and every accepted action.
    """
    CREATE TABLE players (
      id INTEGER PRIMARY KEY,
      token_hash BLOB NOT NULL UNIQUE,
      created INTEGER NOT NULL,
      settings TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE rooms (
      id TEXT PRIMARY KEY,
      owner INTEGER NOT NULL REFERENCES players(id),
      game TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('playing', 'over', 'abandoned')),
      created INTEGER NOT NULL,
      updated INTEGER NOT NULL,
      current INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE TABLE matches (
      room TEXT NOT NULL REFERENCES rooms(id),
      ordinal INTEGER NOT NULL,
      game TEXT NOT NULL,
      options TEXT NOT NULL,
      seed INTEGER NOT NULL,
      seed_chosen INTEGER NOT NULL,
      later_key BLOB NOT NULL,
      replay INTEGER NOT NULL,
      started INTEGER NOT NULL,
      PRIMARY KEY (room, ordinal)
    ) WITHOUT ROWID;
    CREATE TABLE actions (
      room TEXT NOT NULL,
      ordinal INTEGER NOT NULL,
      idx INTEGER NOT NULL,
      time REAL NOT NULL,
      at INTEGER NOT NULL,
      player TEXT NOT NULL,
      automatic INTEGER NOT NULL,
      action TEXT NOT NULL,
      PRIMARY KEY (room, ordinal, idx),
      FOREIGN KEY (room, ordinal) REFERENCES matches(room, ordinal)
    ) WITHOUT ROWID;
    CREATE INDEX rooms_by_owner ON rooms(owner, status, updated);
    """,
    // 2: the games that ended, for high scores and statistics; idle rooms found fast.
    """
    CREATE TABLE results (
      room TEXT NOT NULL REFERENCES rooms(id),
      idx INTEGER NOT NULL,
      ordinal INTEGER NOT NULL,
      game TEXT NOT NULL,
      options TEXT NOT NULL,
      seed INTEGER NOT NULL,
      score INTEGER NOT NULL,
      moves INTEGER NOT NULL,
      ending TEXT NOT NULL CHECK (ending IN ('finished', 'abandoned')),
      winner TEXT,
      won INTEGER NOT NULL,
      start INTEGER NOT NULL,
      end INTEGER NOT NULL,
      duration REAL NOT NULL,
      practice INTEGER NOT NULL,
      replay INTEGER NOT NULL,
      record TEXT NOT NULL,
      PRIMARY KEY (room, idx)
    ) WITHOUT ROWID;
    CREATE INDEX rooms_by_status ON rooms(status, updated);
    """,
    // 3: tables that several players share — their code, lobby and seats — and results kept
    // per player, so that each seated player's statistics count their own games.
    """
    ALTER TABLE rooms ADD COLUMN code TEXT;
    ALTER TABLE rooms ADD COLUMN phase TEXT NOT NULL DEFAULT 'playing'
      CHECK (phase IN ('lobby', 'playing'));
    ALTER TABLE rooms ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rooms ADD COLUMN lobby TEXT;
    CREATE UNIQUE INDEX rooms_by_code ON rooms(code) WHERE code IS NOT NULL;
    CREATE TABLE seats (
      room TEXT NOT NULL REFERENCES rooms(id),
      seat INTEGER NOT NULL,
      player INTEGER REFERENCES players(id),
      name TEXT NOT NULL,
      computer INTEGER NOT NULL,
      PRIMARY KEY (room, seat)
    ) WITHOUT ROWID;
    CREATE INDEX seats_by_player ON seats(player);
    CREATE TABLE results_by_player (
      room TEXT NOT NULL REFERENCES rooms(id),
      idx INTEGER NOT NULL,
      player INTEGER NOT NULL REFERENCES players(id),
      ordinal INTEGER NOT NULL,
      game TEXT NOT NULL,
      options TEXT NOT NULL,
      seed INTEGER NOT NULL,
      score INTEGER NOT NULL,
      moves INTEGER NOT NULL,
      ending TEXT NOT NULL CHECK (ending IN ('finished', 'abandoned')),
      winner TEXT,
      won INTEGER NOT NULL,
      start INTEGER NOT NULL,
      end INTEGER NOT NULL,
      duration REAL NOT NULL,
      practice INTEGER NOT NULL,
      replay INTEGER NOT NULL,
      record TEXT NOT NULL,
      PRIMARY KEY (room, idx, player)
    ) WITHOUT ROWID;
    INSERT INTO results_by_player (room, idx, player, ordinal, game, options, seed, score, moves,
      ending, winner, won, start, end, duration, practice, replay, record)
    SELECT r.room, r.idx, o.owner, r.ordinal, r.game, r.options, r.seed, r.score, r.moves,
      r.ending, r.winner, r.won, r.start, r.end, r.duration, r.practice, r.replay, r.record
    FROM results r JOIN rooms o ON o.id = r.room;
    DROP TABLE results;
    ALTER TABLE results_by_player RENAME TO results;
    CREATE INDEX results_by_player_end ON results(player, end);
    """,
  ]

  /// The version a database has after every step.
  static var latest: Int { steps.count }

  /// Takes `database` from its version to `target` (by default the latest), one step per
  /// transaction.
  ///
  /// - Throws: ``StoreError/newerSchema(path:found:known:)`` for a database from a newer
  ///   CardTable; the SQLite failure of a step otherwise (the database stays at the step before).
  static func migrate(_ database: SQLiteDatabase, to target: Int = latest) throws(StoreError) {
    let path = database.path
    do {
      let found = try version(of: database)
      guard found <= latest else {
        throw StoreError.newerSchema(path: path, found: found, known: latest)
      }
      for step in found..<max(found, target) {
        try database.transaction { () throws(SQLiteError) in
          try database.execute(steps[step])
          try database.execute("PRAGMA user_version = \(step + 1)")
        }
      }
    } catch let error as SQLiteError {
      throw StoreError(error, path: path)
    } catch let error as StoreError {
      throw error
    } catch {
      throw .failed(path: path, reason: "\(error)")
    }
  }

  /// The schema version of `database` (0 for an empty one).
  static func version(of database: SQLiteDatabase) throws(SQLiteError) -> Int {
    Int(try database.scalar("PRAGMA user_version")?.integer ?? 0)
  }
}
