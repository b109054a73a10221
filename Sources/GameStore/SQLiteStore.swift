import CSQLite
import CardTableCore
import Glibc

/// The ``GameStore`` on one SQLite file: WAL journal, prepared statements only, a busy timeout,
/// numbered migrations (docs/STORAGE.md).
///
/// Used from one thread at a time (the server's loop thread). Commits are durable against a
/// killed process (`synchronous=NORMAL` in WAL mode); with ``Durability/full`` every commit
/// also survives a power cut, at the cost of a disk flush each.
public final class SQLiteStore: GameStore {
  /// How hard each commit holds on to the disk.
  public enum Durability: String, Sendable, CaseIterable {
    /// Survives the process being killed; the last commits may be lost in a power cut.
    case normal
    /// Every commit is flushed to the disk before it returns.
    case full
  }

  /// The database's file name in a data directory.
  public static let fileName = "cardtable.sqlite3"

  public let path: String
  let database: SQLiteDatabase
  /// The lock file's descriptor while this store holds the data directory, or -1.
  private var lock: Int32 = -1

  /// Opens (creating it when missing) the database at `path` and brings its schema up to date.
  ///
  /// - Parameters:
  ///   - path: a file path, or `:memory:` for a database that lives only in this process.
  ///   - durability: how hard each commit holds on to the disk.
  ///   - busyTimeout: how long a statement waits for another process's lock, in milliseconds.
  ///   - readOnly: open an existing database only to read it (`cardtable stats`, `export`).
  /// - Throws: a ``StoreError`` that says what is wrong with the file.
  public init(
    path: String, durability: Durability = .normal, busyTimeout: Int32 = 2_000,
    readOnly: Bool = false
  ) throws(StoreError) {
    self.path = path
    var info = stat()
    if path != ":memory:", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      info.st_size == 0
    {
      // NB: SQLite takes an empty file for a new database; every game it held would be gone.
      throw .corrupt(path: path, reason: "it is empty (0 bytes), so every game it kept is gone")
    }
    do {
      database = try SQLiteDatabase(path: path, create: !readOnly, readOnly: readOnly)
      database.setBusyTimeout(milliseconds: busyTimeout)
      if !readOnly {
        // NB: journal_mode answers with a row; in WAL mode readers never wait for the writer.
        _ = try database.scalar("PRAGMA journal_mode = WAL")
        try database.execute(
          "PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL"); PRAGMA foreign_keys = ON"
        )
      }
    } catch {
      throw StoreError(error, path: path)
    }
    if readOnly {
      let found: Int
      do {
        found = try Migrations.version(of: database)
      } catch {
        throw StoreError(error, path: path)
      }
      guard found == Migrations.latest else {
        if found > Migrations.latest {
          throw .newerSchema(path: path, found: found, known: Migrations.latest)
        }
        throw .unavailable(
          path: path,
          reason: "its schema is version \(found); start cardtable serve once to update it")
      }
    } else {
      if path != ":memory:" {
        let problems = database.quickCheck(within: Self.checkSeconds)
        if let first = problems?.first { throw .corrupt(path: path, reason: first) }
        integrityChecked = problems != nil
      }
      try Migrations.migrate(database)
      try takeWriteLock()
      if path != ":memory:" {
        // NB: the log is copied back into the file on a thread of its own, ahead of the commit
        // that does it when the thread falls behind, as SQLite's own hook did past 1,000 pages.
        do {
          let checkpointer = try WALCheckpointer(path: path)
          database.setWALHook { [unowned database] pages in
            if pages >= Self.checkpointPages, !checkpointer.busy { database.checkpoint() }
            checkpointer.committed(pages: pages)
          }
          self.checkpointer = checkpointer
        } catch {
          throw StoreError(error, path: path)
        }
      }
    }
  }

  /// The log's length, in pages, past which a commit checkpoints it: SQLite's default.
  static let checkpointPages: Int32 = 1000

  /// What copies the write-ahead log back into the file (nil for `:memory:` and read only).
  private var checkpointer: WALCheckpointer?

  /// How many checkpoints on their own thread have copied pages of the log into the file.
  var checkpoints: Int { checkpointer?.checkpoints ?? 0 }

  /// How long the integrity check at start may take, in seconds: a larger file is checked that
  /// far and then served (``integrityChecked`` is false).
  public static let checkSeconds = 2.0

  /// Whether `PRAGMA quick_check` went through the whole file at start (false when it ran out
  /// of ``checkSeconds``, or when only reading).
  public private(set) var integrityChecked = true

  /// NB: a database another process holds locked reads fine in WAL mode; taking the write lock
  /// once says at start, not at the first move, that it cannot be written.
  private func takeWriteLock() throws(StoreError) {
    do {
      try database.transaction { () throws(SQLiteError) in }
    } catch {
      throw StoreError(error, path: path)
    }
  }

  /// Opens the store in a data directory, creating the directory (mode 0700) when missing.
  ///
  /// An `exclusive` store holds the directory's lock file (`cardtable.lock`) for as long as it
  /// is open, so that a second server on the same data is refused at start
  /// (``StoreError/locked(path:)``).
  public static func open(
    directory: String, durability: Durability = .normal, exclusive: Bool = false,
    readOnly: Bool = false
  ) throws(StoreError) -> SQLiteStore {
    try makeDirectory(directory)
    var lock: Int32 = -1
    if exclusive {
      let lockPath = directory + "/cardtable.lock"
      lock = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      guard lock >= 0 else {
        throw .unavailable(path: lockPath, reason: String(cString: strerror(errno)))
      }
      guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
        Glibc.close(lock)
        throw .locked(path: directory + "/" + fileName)
      }
    }
    do {
      let store = try SQLiteStore(
        path: directory + "/" + fileName, durability: durability, readOnly: readOnly)
      store.lock = lock
      return store
    } catch {
      if lock >= 0 { Glibc.close(lock) }
      throw error
    }
  }

  deinit {
    // NB: the checkpointer's connection closes first, so that closing the writer's, the last,
    // copies what is left of the log into the file and removes it.
    checkpointer?.stop()
    database.close()
    if lock >= 0 { Glibc.close(lock) }
  }

  /// The data directory CardTable uses when none is given: `$XDG_DATA_HOME/cardtable`, else
  /// `~/.local/share/cardtable`.
  public static func defaultDirectory(environment: [String: String]) -> String? {
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/cardtable" }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.local/share/cardtable"
  }

  /// Creates `path` and its missing parents (mode 0700).
  static func makeDirectory(_ path: String) throws(StoreError) {
    var built = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      built += "/" + part
      if mkdir(built, 0o700) != 0 && errno != EEXIST {
        throw .unavailable(path: built, reason: String(cString: strerror(errno)))
      }
    }
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
      throw .unavailable(path: path, reason: "it is not a directory")
    }
  }

  // MARK: GameStore

  public func player(_ token: PlayerToken, at now: Int64) throws(StoreError) -> PlayerRecord {
    let hash = SQLiteValue.blob(token.hash)
    return try guarded { () throws(SQLiteError) in
      let find = try database.statement(
        "SELECT id, settings, created FROM players WHERE token_hash = ?1")
      try find.bind([hash])
      if try find.step() {
        let record = PlayerRecord(
          key: PlayerKey(rawValue: find.integer(0)), settings: find.text(1),
          created: find.integer(2))
        find.reset()
        return record
      }
      try database.run(
        "INSERT INTO players (token_hash, created, settings) VALUES (?1, ?2, '{}')", hash,
        .integer(now))
      let id = try database.scalar("SELECT id FROM players WHERE token_hash = ?1", hash)
      return PlayerRecord(key: PlayerKey(rawValue: id?.integer ?? 0), settings: "{}", created: now)
    }
  }

  public func players() throws(StoreError) -> [PlayerRecord] {
    try guarded { () throws(SQLiteError) in
      let rows = try database.statement(
        """
        SELECT id, settings, created FROM players p
        WHERE EXISTS (SELECT 1 FROM rooms r WHERE r.owner = p.id) ORDER BY created, id
        """)
      try rows.bind([])
      var players: [PlayerRecord] = []
      while try rows.step() {
        players.append(
          PlayerRecord(
            key: PlayerKey(rawValue: rows.integer(0)), settings: rows.text(1),
            created: rows.integer(2)))
      }
      return players
    }
  }

  public func saveSettings(_ settings: String, of player: PlayerKey) throws(StoreError) {
    try guarded { () throws(SQLiteError) in
      try database.run(
        "UPDATE players SET settings = ?2 WHERE id = ?1", .integer(player.rawValue),
        .text(settings))
    }
  }

  public func createRoom(_ room: NewRoom) throws(StoreError) {
    try guarded { () throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        let table = room.table
        try database.run(
          """
          INSERT INTO rooms (id, owner, game, status, created, updated, current, code, phase,
            public, lobby, watcher_chat)
          VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
          """, .text(room.id.rawValue), .integer(room.owner.rawValue), .text(room.game),
          .text(room.status.rawValue), .integer(room.created), .int(room.match?.ordinal ?? 0),
          table.map { .text($0.code) } ?? .null, .text(table?.phase.rawValue ?? "playing"),
          .bool(table?.isPublic ?? false), table.map { .text($0.options) } ?? .null,
          .bool(table?.watcherChat ?? true))
        if let table { try insert(table.seats, in: room.id) }
        if let match = room.match {
          try insert(match, in: room.id)
          try insert(room.actions, in: room.id, ordinal: match.ordinal)
        }
        try insert(room.results)
      }
    }
  }

  public func room(_ id: RoomID) throws(StoreError) -> RoomRecord? {
    try guarded { () throws(SQLiteError) -> RoomRecord? in try roomRecord(id) }
  }

  private func roomRecord(_ id: RoomID) throws(SQLiteError) -> RoomRecord? {
    let find = try database.statement(
      """
      SELECT owner, status, created, updated, current, game, code, phase, public, lobby,
        watcher_chat
      FROM rooms WHERE id = ?1
      """)
    try find.bind([.text(id.rawValue)])
    guard try find.step() else { return nil }
    let owner = PlayerKey(rawValue: find.integer(0))
    let status = RoomStatus(rawValue: find.text(1)) ?? .abandoned
    let (created, rowUpdated, current) = (find.integer(2), find.integer(3), find.int(4))
    let game = find.text(5)
    let code = find.isNull(6) ? nil : find.text(6)
    let phase = TablePhase(rawValue: find.text(7)) ?? .playing
    let isPublic = find.bool(8)
    let lobby = find.isNull(9) ? "{}" : find.text(9)
    let watcherChat = find.bool(10)
    find.reset()
    let table = try code.map { code throws(SQLiteError) in
      TableRecord(
        code: code, phase: phase, isPublic: isPublic, options: lobby, seats: try seats(in: id),
        watcherChat: watcherChat)
    }
    let match = try self.match(current, in: id)
    guard match != nil || phase == .lobby else { return nil }
    let actions = match == nil ? [] : try self.actions(of: current, in: id)
    // NB: a move alone leaves the row's `updated` as it was (``isMoveAlone(_:)``).
    let updated = max(rowUpdated, actions.last?.at ?? rowUpdated)
    let results = try database.scalar(
      "SELECT count(DISTINCT idx) FROM results WHERE room = ?1", .text(id.rawValue))
    return RoomRecord(
      id: id, owner: owner, game: game, status: status, created: created, updated: updated,
      match: match, table: table, actions: actions, resultCount: Int(results?.integer ?? 0))
  }

  public func save(_ change: RoomChange) throws(StoreError) {
    try save([change])
  }

  public func save(_ changes: [RoomChange]) throws(StoreError) {
    try guarded { () throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        for change in changes { try write(change) }
      }
    }
  }

  /// One room's change, inside the caller's transaction.
  private func write(_ change: RoomChange) throws(SQLiteError) {
    if let match = change.newMatch { try insert(match, in: change.room) }
    try insert(change.actions, in: change.room, ordinal: change.ordinal)
    try insert(change.results)
    try insert(change.chat, in: change.room)
    try insert(change.ratings)
    // NB: the status is set apart, and only when it changes: a column named in an UPDATE's
    // SET has its indexes' entries rewritten even when its value stays, and an action's save
    // is then the room's row and its action alone (docs/STORAGE.md "What an action writes").
    // NB: a move alone leaves the room's row as it is: the room last changed with its last
    // action then, which a read takes as its `updated` when it is later. A move writes one
    // page of the log, not two (docs/STORAGE.md "What an action writes").
    if !Self.isMoveAlone(change) {
      try database.run(
        "UPDATE rooms SET updated = ?2, current = ?3 WHERE id = ?1",
        .text(change.room.rawValue), .integer(change.at), .int(change.ordinal))
      guard database.changes == 1 else {
        throw SQLiteError(code: SQLITE_NOTFOUND, message: "no room \(change.room)")
      }
    }
    // NB: and not at all when the writer knows it is the same: the statement alone costs a
    // seventh of a one-action transaction (`bench store`).
    if change.statusChanged {
      try database.run(
        "UPDATE rooms SET status = ?2 WHERE id = ?1 AND status <> ?2",
        .text(change.room.rawValue), .text(change.status.rawValue))
    }
    if let table = change.table {
      try database.run(
        "UPDATE rooms SET phase = ?2, public = ?3, lobby = ?4, watcher_chat = ?5 WHERE id = ?1",
        .text(change.room.rawValue), .text(table.phase.rawValue), .bool(table.isPublic),
        .text(table.options), .bool(table.watcherChat))
      try database.run("DELETE FROM seats WHERE room = ?1", .text(change.room.rawValue))
      try insert(table.seats, in: change.room)
    }
  }

  /// Whether `change` is actions of the room's current match alone, the last one at the
  /// change's own time, with the status as it was: nothing of the room's row changes but when
  /// it last changed, which its last action tells (``Self/lastChange``).
  private static func isMoveAlone(_ change: RoomChange) -> Bool {
    change.newMatch == nil && change.table == nil && !change.statusChanged
      && change.results.isEmpty && change.chat.isEmpty && change.ratings.isEmpty
      && change.actions.last?.at == change.at
  }

  /// When the room `r` last changed, as SQL: its row's `updated`, or its current match's last
  /// action when that is later (a move alone leaves the row as it is, ``isMoveAlone(_:)``).
  private static let lastChange = """
    max(r.updated, coalesce((SELECT a.at FROM actions a WHERE a.room = r.id
      AND a.ordinal = r.current ORDER BY a.idx DESC LIMIT 1), 0))
    """

  public func openRooms(of player: PlayerKey, limit: Int) throws(StoreError) -> [RoomSummary] {
    try guarded { () throws(SQLiteError) in
      let rows = try database.statement(
        """
        SELECT r.id, r.game, coalesce(m.options, json_object('options', json(r.lobby))),
          r.status, r.created, \(Self.lastChange) AS changed,
          (SELECT count(*) FROM actions a WHERE a.room = r.id AND a.ordinal = r.current)
        FROM rooms r LEFT JOIN matches m ON m.room = r.id AND m.ordinal = r.current
        WHERE r.status = 'playing' AND (r.owner = ?1
          OR EXISTS (SELECT 1 FROM seats s WHERE s.room = r.id AND s.player = ?1))
        ORDER BY changed DESC, r.id LIMIT ?2
        """)
      try rows.bind([.integer(player.rawValue), .int(limit)])
      var rooms: [RoomSummary] = []
      while try rows.step() {
        guard let id = RoomID(rawValue: rows.text(0)) else { continue }
        rooms.append(
          RoomSummary(
            id: id, game: rows.text(1), options: rows.text(2), version: rows.int(6),
            status: RoomStatus(rawValue: rows.text(3)) ?? .playing, created: rows.integer(4),
            updated: rows.integer(5)))
      }
      return rooms
    }
  }

  public func results(in room: RoomID) throws(StoreError) -> [ResultRecord] {
    try guarded { () throws(SQLiteError) in
      // NB: at a table each game has a row per seated player; one of each is enough here.
      try results(
        where: """
          room = ?1 AND player = (SELECT min(player) FROM results r WHERE r.room = results.room
            AND r.idx = results.idx) ORDER BY idx
          """, [.text(room.rawValue)])
    }
  }

  public func results(of player: PlayerKey, game: String?) throws(StoreError) -> [ResultRecord] {
    try guarded { () throws(SQLiteError) in
      try results(
        where: "player = ?1 AND (?2 IS NULL OR game = ?2) ORDER BY end, room, idx",
        [.integer(player.rawValue), game.map(SQLiteValue.text) ?? .null])
    }
  }

  public func room(code: String) throws(StoreError) -> RoomID? {
    try guarded { () throws(SQLiteError) in
      try database.scalar("SELECT id FROM rooms WHERE code = ?1", .text(code))?.text
        .flatMap(RoomID.init(rawValue:))
    }
  }

  public func publicTables(limit: Int) throws(StoreError) -> [TableSummary] {
    try guarded { () throws(SQLiteError) in
      let rows = try database.statement(
        """
        SELECT id FROM rooms WHERE public = 1 AND phase = 'lobby' AND status = 'playing'
        ORDER BY created DESC, id LIMIT ?1
        """)
      try rows.bind([.int(limit)])
      var ids: [RoomID] = []
      while try rows.step() {
        if let id = RoomID(rawValue: rows.text(0)) { ids.append(id) }
      }
      var tables: [TableSummary] = []
      for id in ids {
        guard let room = try roomRecord(id), let table = room.table else { continue }
        tables.append(TableSummary(room: id, game: room.game, table: table, created: room.created))
      }
      return tables
    }
  }

  public func matches(in room: RoomID) throws(StoreError)
    -> [(match: MatchRecord, actions: [ActionRecord])]
  {
    try guarded { () throws(SQLiteError) in
      let count = try database.scalar(
        "SELECT count(*) FROM matches WHERE room = ?1", .text(room.rawValue))
      var matches: [(match: MatchRecord, actions: [ActionRecord])] = []
      for ordinal in 0..<Int(count?.integer ?? 0) {
        guard let match = try match(ordinal, in: room) else { continue }
        matches.append((match, try actions(of: ordinal, in: room)))
      }
      return matches
    }
  }

  public func idleRooms(before time: Int64, limit: Int) throws(StoreError) -> [RoomID] {
    try guarded { () throws(SQLiteError) in
      // NB: a room whose row changed since is not idle, whatever its actions say: only the
      // few rooms left unchanged that long look for their last action.
      let rows = try database.statement(
        """
        SELECT id FROM (SELECT r.id, \(Self.lastChange) AS changed FROM rooms r
          WHERE r.status = 'playing' AND r.updated < ?1)
        WHERE changed < ?1 ORDER BY changed, id LIMIT ?2
        """)
      try rows.bind([.integer(time), .int(limit)])
      var rooms: [RoomID] = []
      while try rows.step() {
        if let id = RoomID(rawValue: rows.text(0)) { rooms.append(id) }
      }
      return rooms
    }
  }

  // MARK: Rows

  public func check() throws(StoreError) {
    try guarded { () throws(SQLiteError) in
      _ = try database.scalar("SELECT count(*) FROM rooms WHERE id = ''")
    }
  }

  private func guarded<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      throw StoreError(error, path: path)
    }
  }

  private func insert(_ match: MatchRecord, in room: RoomID) throws(SQLiteError) {
    try database.run(
      """
      INSERT INTO matches (room, ordinal, game, options, seed, seed_chosen, later_key, replay, started)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
      """, .text(room.rawValue), .int(match.ordinal), .text(match.game), .text(match.options),
      .unsigned(match.seed), .bool(match.seedChosen), .blob(match.storedLaterKey),
      .bool(match.replay),
      .integer(match.started))
  }

  private func insert(_ actions: [ActionRecord], in room: RoomID, ordinal: Int) throws(SQLiteError)
  {
    for action in actions {
      try database.run(
        """
        INSERT INTO actions (room, ordinal, idx, time, at, player, automatic, action)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        """, .text(room.rawValue), .int(ordinal), .int(action.index), .real(action.time),
        .integer(action.at), .text(action.player), .bool(action.automatic), .text(action.action))
    }
  }

  private func insert(_ seats: [SeatRecord], in room: RoomID) throws(SQLiteError) {
    for seat in seats {
      try database.run(
        "INSERT INTO seats (room, seat, player, name, computer) VALUES (?1, ?2, ?3, ?4, ?5)",
        .text(room.rawValue), .int(seat.seat), seat.player.map { .integer($0.rawValue) } ?? .null,
        .text(seat.name), .bool(seat.computer))
    }
  }

  private func insert(_ lines: [ChatRecord], in room: RoomID) throws(SQLiteError) {
    for line in lines {
      try database.run(
        """
        INSERT INTO chat (room, idx, at, player, name, seat, kind, text)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        """, .text(room.rawValue), .int(line.index), .integer(line.at),
        .integer(line.player.rawValue), .text(line.name), line.seat.map { .int($0) } ?? .null,
        .text(line.kind.rawValue), .text(line.text))
    }
  }

  private func insert(_ ratings: [RatingRecord]) throws(SQLiteError) {
    for rating in ratings {
      try database.run(
        """
        INSERT INTO ratings (room, idx, player, game, category, was, change, at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        """, .text(rating.room.rawValue), .int(rating.index), .integer(rating.player.rawValue),
        .text(rating.game), .text(rating.category), .real(rating.was), .real(rating.change),
        .integer(rating.at))
    }
  }

  public func ratings(of player: PlayerKey) throws(StoreError) -> [RatingSummary] {
    try guarded { () throws(SQLiteError) in
      let rows = try database.statement(
        """
        SELECT game, category, sum(change), count(*), max(at) FROM ratings WHERE player = ?1
        GROUP BY game, category ORDER BY max(at) DESC, game, category
        """)
      try rows.bind([.integer(player.rawValue)])
      var ratings: [RatingSummary] = []
      while try rows.step() {
        ratings.append(
          RatingSummary(
            game: rows.text(0), category: rows.text(1),
            rating: Rating(value: Rating.initial + rows.real(2), games: rows.int(3)),
            last: rows.integer(4)))
      }
      return ratings
    }
  }

  public func publicID(of player: PlayerKey, new: String) throws(StoreError) -> String {
    try guarded { () throws(SQLiteError) in
      try database.run(
        "UPDATE players SET public_id = ?2 WHERE id = ?1 AND public_id IS NULL",
        .integer(player.rawValue), .text(new))
      return try database.scalar(
        "SELECT public_id FROM players WHERE id = ?1", .integer(player.rawValue))?.text ?? new
    }
  }

  public func player(publicID: String) throws(StoreError) -> PlayerRecord? {
    try guarded { () throws(SQLiteError) -> PlayerRecord? in
      let find = try database.statement(
        "SELECT id, settings, created FROM players WHERE public_id = ?1")
      try find.bind([.text(publicID)])
      guard try find.step() else { return nil }
      let record = PlayerRecord(
        key: PlayerKey(rawValue: find.integer(0)), settings: find.text(1),
        created: find.integer(2))
      find.reset()
      return record
    }
  }

  public func keepTransfer(_ transfer: TransferRecord, now: Int64) throws(StoreError) {
    try guarded { () throws(SQLiteError) in
      try database.transaction { () throws(SQLiteError) in
        try database.run(
          "DELETE FROM transfers WHERE player = ?1 OR expires <= ?2",
          .integer(transfer.player.rawValue), .integer(now))
        try database.run(
          "INSERT INTO transfers (code_hash, player, sealed, expires) VALUES (?1, ?2, ?3, ?4)",
          .blob(transfer.code), .integer(transfer.player.rawValue), .blob(transfer.sealed),
          .integer(transfer.expires))
      }
    }
  }

  public func takeTransfer(_ code: [UInt8], now: Int64) throws(StoreError) -> [UInt8]? {
    try guarded { () throws(SQLiteError) -> [UInt8]? in
      // NB: DELETE … RETURNING: of two servers taking one code at once, one gets it.
      try database.scalar(
        "DELETE FROM transfers WHERE code_hash = ?1 AND expires > ?2 RETURNING sealed",
        .blob(code), .integer(now))?.blob
    }
  }

  public func chat(in room: RoomID, last limit: Int?) throws(StoreError) -> [ChatRecord] {
    try guarded { () throws(SQLiteError) in
      let rows = try database.statement(
        """
        SELECT idx, at, player, name, seat, kind, text FROM chat WHERE room = ?1
        ORDER BY idx DESC LIMIT ?2
        """)
      try rows.bind([.text(room.rawValue), .int(limit ?? -1)])
      var lines: [ChatRecord] = []
      while try rows.step() {
        lines.append(
          ChatRecord(
            index: rows.int(0), at: rows.integer(1), player: PlayerKey(rawValue: rows.integer(2)),
            name: rows.text(3), seat: rows.isNull(4) ? nil : rows.int(4), text: rows.text(6),
            kind: ChatRecord.Kind(rawValue: rows.text(5)) ?? .text))
      }
      return lines.reversed()
    }
  }

  private func seats(in room: RoomID) throws(SQLiteError) -> [SeatRecord] {
    let rows = try database.statement(
      "SELECT seat, player, name, computer FROM seats WHERE room = ?1 ORDER BY seat")
    try rows.bind([.text(room.rawValue)])
    var seats: [SeatRecord] = []
    while try rows.step() {
      seats.append(
        SeatRecord(
          seat: rows.int(0), player: rows.isNull(1) ? nil : PlayerKey(rawValue: rows.integer(1)),
          name: rows.text(2), computer: rows.bool(3)))
    }
    return seats
  }

  private func insert(_ results: [ResultRecord]) throws(SQLiteError) {
    for result in results {
      try database.run(
        """
        INSERT INTO results (room, idx, player, ordinal, game, options, seed, score, moves, ending,
          winner, won, start, end, duration, practice, replay, record)
        VALUES (?1, ?2, ?18, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
        """, .text(result.room.rawValue), .int(result.index), .int(result.ordinal),
        .text(result.game), .text(result.options), .unsigned(result.seed), .int(result.score),
        .int(result.moves), .text(result.ending.rawValue),
        result.winner.map(SQLiteValue.text) ?? .null,
        .bool(result.won), .integer(result.start), .integer(result.end), .real(result.duration),
        .bool(result.practice), .bool(result.replay), .text(result.record),
        .integer(result.player.rawValue))
    }
  }

  private func match(_ ordinal: Int, in room: RoomID) throws(SQLiteError) -> MatchRecord? {
    let find = try database.statement(
      """
      SELECT game, options, seed, seed_chosen, later_key, replay, started FROM matches
      WHERE room = ?1 AND ordinal = ?2
      """)
    try find.bind([.text(room.rawValue), .int(ordinal)])
    guard try find.step() else { return nil }
    let match = MatchRecord(
      ordinal: ordinal, game: find.text(0), options: find.text(1), seed: find.unsigned(2),
      seedChosen: find.bool(3), laterKey: MatchRecord.laterKey(stored: find.value(4).blob ?? []),
      replay: find.bool(5), started: find.integer(6))
    find.reset()
    return match
  }

  private func actions(of ordinal: Int, in room: RoomID) throws(SQLiteError) -> [ActionRecord] {
    let rows = try database.statement(
      """
      SELECT idx, time, at, player, automatic, action FROM actions
      WHERE room = ?1 AND ordinal = ?2 ORDER BY idx
      """)
    try rows.bind([.text(room.rawValue), .int(ordinal)])
    var actions: [ActionRecord] = []
    while try rows.step() {
      actions.append(
        ActionRecord(
          index: rows.int(0), time: rows.real(1), at: rows.integer(2), player: rows.text(3),
          automatic: rows.bool(4), action: rows.text(5)))
    }
    return actions
  }

  private func results(where condition: String, _ values: [SQLiteValue]) throws(SQLiteError)
    -> [ResultRecord]
  {
    let rows = try database.statement(
      """
      SELECT room, idx, ordinal, game, options, seed, score, moves, ending, winner, won, start, end,
        duration, practice, replay, record, player
      FROM results WHERE \(condition)
      """)
    try rows.bind(values)
    var results: [ResultRecord] = []
    while try rows.step() {
      guard let room = RoomID(rawValue: rows.text(0)) else { continue }
      results.append(
        ResultRecord(
          room: room, player: PlayerKey(rawValue: rows.integer(17)), ordinal: rows.int(2),
          index: rows.int(1), game: rows.text(3),
          options: rows.text(4), seed: rows.unsigned(5), score: rows.int(6), moves: rows.int(7),
          ending: GameEnding(rawValue: rows.text(8)) ?? .abandoned,
          winner: rows.isNull(9) ? nil : rows.text(9), won: rows.bool(10),
          start: rows.integer(11), end: rows.integer(12), duration: rows.real(13),
          practice: rows.bool(14), replay: rows.bool(15), record: rows.text(16)))
    }
    return results
  }
}
