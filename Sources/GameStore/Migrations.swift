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
    // 4: a table's chat, kept with its room, and whether its watchers may write in it; the
    // ratings each rated game moved; the id a player's page is found by; the transfer codes
    // waiting to be used (so that any server sharing the database takes them).
    """
    ALTER TABLE rooms ADD COLUMN watcher_chat INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE players ADD COLUMN public_id TEXT;
    CREATE UNIQUE INDEX players_by_public_id ON players(public_id) WHERE public_id IS NOT NULL;
    CREATE TABLE ratings (
      room TEXT NOT NULL REFERENCES rooms(id),
      idx INTEGER NOT NULL,
      player INTEGER NOT NULL REFERENCES players(id),
      game TEXT NOT NULL,
      category TEXT NOT NULL,
      was REAL NOT NULL,
      change REAL NOT NULL,
      at INTEGER NOT NULL,
      PRIMARY KEY (room, idx, player)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_by_player ON ratings(player, game, category);
    CREATE TABLE transfers (
      code_hash BLOB PRIMARY KEY,
      player INTEGER NOT NULL UNIQUE REFERENCES players(id),
      sealed BLOB NOT NULL,
      expires INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE chat (
      room TEXT NOT NULL REFERENCES rooms(id),
      idx INTEGER NOT NULL,
      at INTEGER NOT NULL,
      player INTEGER NOT NULL REFERENCES players(id),
      name TEXT NOT NULL,
      seat INTEGER,
      kind TEXT NOT NULL CHECK (kind IN ('text', 'reaction')),
      text TEXT NOT NULL,
      PRIMARY KEY (room, idx)
    ) WITHOUT ROWID;
    """,
    // 5: the rooms' indexes leave out when each was last changed, so that saving an action
    // rewrites the room's row alone, not an entry of each index too (docs/STORAGE.md "What an
    // action writes").
    """
    DROP INDEX rooms_by_owner;
    CREATE INDEX rooms_by_owner ON rooms(owner, status);
    DROP INDEX rooms_by_status;
    CREATE INDEX rooms_by_status ON rooms(status);
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

/// The same schema, step for step, in PostgreSQL's dialect (``PostgresStore``): the versions
/// mean the same on both backends, and the table `cardtable_schema` holds the one a database has.
///
/// Several servers may start on one database at once: each step runs under a transaction-level
/// advisory lock, re-reading the version inside it, so that a step is taken once.
enum PostgresMigrations {
  static let steps: [String] = [
    // 1: players, rooms, their matches and every accepted action.
    """
    CREATE TABLE players (
      id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
      token_hash BYTEA NOT NULL UNIQUE,
      created BIGINT NOT NULL,
      settings TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE rooms (
      id TEXT PRIMARY KEY,
      owner BIGINT NOT NULL REFERENCES players(id),
      game TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('playing', 'over', 'abandoned')),
      created BIGINT NOT NULL,
      updated BIGINT NOT NULL,
      current INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE matches (
      room TEXT NOT NULL REFERENCES rooms(id),
      ordinal INTEGER NOT NULL,
      game TEXT NOT NULL,
      options TEXT NOT NULL,
      seed BIGINT NOT NULL,
      seed_chosen BOOLEAN NOT NULL,
      later_key BYTEA NOT NULL,
      replay BOOLEAN NOT NULL,
      started BIGINT NOT NULL,
      PRIMARY KEY (room, ordinal)
    );
    CREATE TABLE actions (
      room TEXT NOT NULL,
      ordinal INTEGER NOT NULL,
      idx INTEGER NOT NULL,
      time DOUBLE PRECISION NOT NULL,
      at BIGINT NOT NULL,
      player TEXT NOT NULL,
      automatic BOOLEAN NOT NULL,
      action TEXT NOT NULL,
      PRIMARY KEY (room, ordinal, idx),
      FOREIGN KEY (room, ordinal) REFERENCES matches(room, ordinal)
    );
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
      seed BIGINT NOT NULL,
      score INTEGER NOT NULL,
      moves INTEGER NOT NULL,
      ending TEXT NOT NULL CHECK (ending IN ('finished', 'abandoned')),
      winner TEXT,
      won BOOLEAN NOT NULL,
      start BIGINT NOT NULL,
      "end" BIGINT NOT NULL,
      duration DOUBLE PRECISION NOT NULL,
      practice BOOLEAN NOT NULL,
      replay BOOLEAN NOT NULL,
      record TEXT NOT NULL,
      PRIMARY KEY (room, idx)
    );
    CREATE INDEX rooms_by_status ON rooms(status, updated);
    """,
    // 3: tables that several players share — their code, lobby and seats — and results kept
    // per player.
    """
    ALTER TABLE rooms ADD COLUMN code TEXT;
    ALTER TABLE rooms ADD COLUMN phase TEXT NOT NULL DEFAULT 'playing'
      CHECK (phase IN ('lobby', 'playing'));
    ALTER TABLE rooms ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE;
    ALTER TABLE rooms ADD COLUMN lobby TEXT;
    CREATE UNIQUE INDEX rooms_by_code ON rooms(code) WHERE code IS NOT NULL;
    CREATE TABLE seats (
      room TEXT NOT NULL REFERENCES rooms(id),
      seat INTEGER NOT NULL,
      player BIGINT REFERENCES players(id),
      name TEXT NOT NULL,
      computer BOOLEAN NOT NULL,
      PRIMARY KEY (room, seat)
    );
    CREATE INDEX seats_by_player ON seats(player);
    ALTER TABLE results ADD COLUMN player BIGINT REFERENCES players(id);
    UPDATE results SET player = rooms.owner FROM rooms WHERE rooms.id = results.room;
    ALTER TABLE results ALTER COLUMN player SET NOT NULL;
    ALTER TABLE results DROP CONSTRAINT results_pkey;
    ALTER TABLE results ADD PRIMARY KEY (room, idx, player);
    CREATE INDEX results_by_player_end ON results(player, "end");
    """,
    // 4: a table's chat, kept with its room, and whether its watchers may write in it; the
    // ratings each rated game moved; the id a player's page is found by; the transfer codes
    // waiting to be used (so that any server sharing the database takes them).
    """
    ALTER TABLE rooms ADD COLUMN watcher_chat BOOLEAN NOT NULL DEFAULT TRUE;
    ALTER TABLE players ADD COLUMN public_id TEXT;
    CREATE UNIQUE INDEX players_by_public_id ON players(public_id) WHERE public_id IS NOT NULL;
    CREATE TABLE ratings (
      room TEXT NOT NULL REFERENCES rooms(id),
      idx INTEGER NOT NULL,
      player BIGINT NOT NULL REFERENCES players(id),
      game TEXT NOT NULL,
      category TEXT NOT NULL,
      was DOUBLE PRECISION NOT NULL,
      change DOUBLE PRECISION NOT NULL,
      at BIGINT NOT NULL,
      PRIMARY KEY (room, idx, player)
    );
    CREATE INDEX ratings_by_player ON ratings(player, game, category);
    CREATE TABLE transfers (
      code_hash BYTEA PRIMARY KEY,
      player BIGINT NOT NULL UNIQUE REFERENCES players(id),
      sealed BYTEA NOT NULL,
      expires BIGINT NOT NULL
    );
    CREATE TABLE chat (
      room TEXT NOT NULL REFERENCES rooms(id),
      idx INTEGER NOT NULL,
      at BIGINT NOT NULL,
      player BIGINT NOT NULL REFERENCES players(id),
      name TEXT NOT NULL,
      seat INTEGER,
      kind TEXT NOT NULL CHECK (kind IN ('text', 'reaction')),
      text TEXT NOT NULL,
      PRIMARY KEY (room, idx)
    );
    """,
    // 5: as SQLite's step 5; an update that changes no indexed column then stays on its page
    // (a heap-only tuple), with no index entry to write.
    """
    DROP INDEX rooms_by_owner;
    CREATE INDEX rooms_by_owner ON rooms(owner, status);
    DROP INDEX rooms_by_status;
    CREATE INDEX rooms_by_status ON rooms(status);
    """,
  ]

  /// The advisory lock (two 32-bit keys) that migrations take; ``PostgresStore``'s room leases
  /// use the one-key form, so the two never meet.
  static let lockKeys: (Int32, Int32) = (0x4341_5244, 0)

  static var latest: Int { steps.count }

  /// Takes the database to `target` (by default the latest), one step per transaction, and
  /// returns the version it is at (higher than ``latest`` for a newer CardTable's database).
  static func migrate(_ database: PostgresConnection, to target: Int = latest) throws(PostgresError)
    -> Int
  {
    while true {
      let (reached, stepped) = try database.transaction {
        () throws(PostgresError) -> (Int, Bool) in
        try database.query(
          "SELECT pg_advisory_xact_lock($1::int4, $2::int4)",
          [.int(Int(lockKeys.0)), .int(Int(lockKeys.1))])
        try database.execute(
          "CREATE TABLE IF NOT EXISTS cardtable_schema (version INTEGER NOT NULL)")
        let now = try version(of: database)
        guard now < min(target, latest) else { return (now, false) }
        try database.execute(steps[now])
        try database.query("DELETE FROM cardtable_schema")
        try database.query("INSERT INTO cardtable_schema (version) VALUES ($1)", [.int(now + 1)])
        return (now + 1, true)
      }
      if !stepped { return reached }
    }
  }

  /// The schema version of the database (0 for an empty one).
  static func version(of database: PostgresConnection) throws(PostgresError) -> Int {
    Int(try database.scalar("SELECT max(version) FROM cardtable_schema") ?? "0") ?? 0
  }
}
