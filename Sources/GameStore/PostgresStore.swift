import CardTableCore

/// The ``GameStore`` on a PostgreSQL database that several `cardtable serve` processes share
/// (docs/STORAGE.md, docs/DEPLOY.md "Several instances").
///
/// The same schema versions as ``SQLiteStore`` (``PostgresMigrations``), parameterized
/// statements only, one transaction per change. Each room is run by one process at a time: the
/// one holding its lease, a session-level advisory lock that PostgreSQL releases when that
/// process's connection ends — closed, killed, or cut off. A lost connection loses every lease
/// with it: the store opens a new one for the next call, and ``save(_:)`` refuses the rooms it
/// no longer holds (``StoreError/leaseLost(path:room:)``), so two processes never both save a
/// room's moves.
///
/// Used from one thread at a time (the server's loop thread).
public final class PostgresStore: GameStore {
  /// The database's address with any password left out, for messages.
  public let path: String
  let database: PostgresConnection
  /// The rooms whose lease this process holds, with the connection's generation it was taken on.
  private var leases: [RoomID: Int] = [:]

  /// Connects to the database at `url` (`postgres://user@host:port/name`, or libpq's
  /// `key=value` form) and brings its schema up to date.
  ///
  /// With ``SQLiteStore/Durability/normal`` (as SQLite's default) a commit returns once
  /// PostgreSQL has it, before its log reaches the disk (`synchronous_commit = off`): every
  /// move survives this process being killed, and a crash of the database server or the
  /// machine may lose its last fraction of a second. With `.full`, PostgreSQL's own default,
  /// every commit waits for the disk.
  ///
  /// - Throws: a ``StoreError`` that says what is wrong: ``StoreError/unavailable(path:reason:)``
  ///   when it cannot be reached, ``StoreError/newerSchema(path:found:known:)`` for a database
  ///   a newer CardTable wrote.
  public init(
    url: String, durability: SQLiteStore.Durability = .normal, migrate: Bool = true
  ) throws(StoreError) {
    path = Self.redacted(url)
    do {
      database = try PostgresConnection(
        url: url,
        setup: durability == .full ? [] : ["SET synchronous_commit = off"])
      let found =
        migrate
        ? try PostgresMigrations.migrate(database)
        : try PostgresMigrations.version(of: database)
      guard found <= PostgresMigrations.latest else {
        throw StoreError.newerSchema(path: path, found: found, known: PostgresMigrations.latest)
      }
      guard found == PostgresMigrations.latest else {
        throw StoreError.unavailable(
          path: path,
          reason: "its schema is version \(found); start cardtable serve once to update it")
      }
    } catch let error as PostgresError {
      throw StoreError(error, path: Self.redacted(url))
    } catch let error as StoreError {
      throw error
    } catch {
      throw .failed(path: Self.redacted(url), reason: "\(error)")
    }
  }

  /// Whether `text` names a PostgreSQL database rather than a directory.
  public static func isDatabaseURL(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  /// `url` without its password (`postgres://ann:secret@db/x` is `postgres://ann@db/x`, and a
  /// `password=` parameter is left out).
  static func redacted(_ url: String) -> String {
    let (address, query) = (
      url.prefix { $0 != "?" }, url.drop { $0 != "?" }.dropFirst()
    )
    var kept = String(address)
    if isDatabaseURL(url), let scheme = address.firstRange(of: "://") {
      let rest = address[scheme.upperBound...]
      let authority = rest.prefix { $0 != "/" }
      if let at = authority.lastIndex(of: "@") {
        let user = authority[..<at].prefix { $0 != ":" }
        kept = String(address[..<scheme.upperBound]) + user + String(rest[at...])
      }
    } else {
      kept = url.split(separator: " ").filter { !$0.hasPrefix("password=") }.joined(
        separator: " ")
      return kept
    }
    let parameters = query.split(separator: "&").filter { !$0.hasPrefix("password=") }
    return parameters.isEmpty ? kept : kept + "?" + parameters.joined(separator: "&")
  }

  // MARK: Leases

  public func claim(_ room: RoomID) throws(StoreError) -> Bool {
    if holds(room) { return true }
    return try guarded { () throws(PostgresError) -> Bool in
      try database.reopenIfLost()
      leases = leases.filter { $0.value == database.generation }
      let taken = try database.scalar(
        "SELECT pg_try_advisory_lock($1::int8)", [.integer(Self.leaseKey(room))])
      guard taken == "t" else { return false }
      leases[room] = database.generation
      return true
    }
  }

  public func release(_ room: RoomID) {
    guard let generation = leases.removeValue(forKey: room), generation == database.generation,
      database.isOpen
    else { return }
    _ = try? database.query(
      "SELECT pg_advisory_unlock($1::int8)", [.integer(Self.leaseKey(room))])
  }

  public func holds(_ room: RoomID) -> Bool {
    leases[room] == database.generation && database.isOpen
  }

  /// The advisory lock's key of a room: FNV-1a of its id (64 bits, so that two rooms in play
  /// practically never share one).
  static func leaseKey(_ room: RoomID) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in room.rawValue.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return Int64(bitPattern: hash)
  }

  // MARK: GameStore

  public func player(_ token: PlayerToken, at now: Int64) throws(StoreError) -> PlayerRecord {
    let hash = PostgresValue.bytes(token.hash)
    return try guarded { () throws(PostgresError) in
      let find = "SELECT id, settings, created FROM players WHERE token_hash = $1"
      var rows = try database.query(find, [hash])
      if rows.isEmpty {
        // NB: another server may see the same new player at the same moment: one row wins.
        try database.query(
          """
          INSERT INTO players (token_hash, created, settings) VALUES ($1, $2, '{}')
          ON CONFLICT (token_hash) DO NOTHING
          """, [hash, .integer(now)])
        rows = try database.query(find, [hash])
      }
      guard !rows.isEmpty else {
        throw PostgresError(
          state: "", message: "the new player was not kept", connectionLost: false)
      }
      let row = rows[0]
      return PlayerRecord(
        key: PlayerKey(rawValue: row.integer(0)), settings: row.text(1), created: row.integer(2))
    }
  }

  public func players() throws(StoreError) -> [PlayerRecord] {
    try guarded { () throws(PostgresError) in
      try database.query(
        """
        SELECT id, settings, created FROM players p
        WHERE EXISTS (SELECT 1 FROM rooms r WHERE r.owner = p.id) ORDER BY created, id
        """
      ).rows.map { values in
        let row = PostgresRow(values: values)
        return PlayerRecord(
          key: PlayerKey(rawValue: row.integer(0)), settings: row.text(1), created: row.integer(2))
      }
    }
  }

  public func saveSettings(_ settings: String, of player: PlayerKey) throws(StoreError) {
    try guarded { () throws(PostgresError) in
      try database.query(
        "UPDATE players SET settings = $2 WHERE id = $1",
        [.integer(player.rawValue), .text(settings)])
    }
  }

  public func createRoom(_ room: NewRoom) throws(StoreError) {
    let table = room.table
    var statements: [Statement] = [
      (
        """
        INSERT INTO rooms (id, owner, game, status, created, updated, current, code, phase,
          public, lobby, watcher_chat)
        VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10, $11)
        """,
        [
          .text(room.id.rawValue), .integer(room.owner.rawValue), .text(room.game),
          .text(room.status.rawValue), .integer(room.created), .int(room.match?.ordinal ?? 0),
          table.map { .text($0.code) } ?? .null, .text(table?.phase.rawValue ?? "playing"),
          .bool(table?.isPublic ?? false), table.map { .text($0.options) } ?? .null,
          .bool(table?.watcherChat ?? true),
        ]
      )
    ]
    if let table { statements += insert(table.seats, in: room.id) }
    if let match = room.match {
      statements.append(insert(match, in: room.id))
      statements += insert(room.actions, in: room.id, ordinal: match.ordinal)
    }
    statements += insert(room.results)
    try guarded { () throws(PostgresError) in try database.pipeline(statements) }
  }

  public func room(_ id: RoomID) throws(StoreError) -> RoomRecord? {
    try guarded { () throws(PostgresError) -> RoomRecord? in try roomRecord(id) }
  }

  private func roomRecord(_ id: RoomID) throws(PostgresError) -> RoomRecord? {
    let rows = try database.query(
      """
      SELECT owner, status, created, updated, current, game, code, phase, public, lobby,
        (SELECT count(DISTINCT idx) FROM results WHERE room = $1), watcher_chat
      FROM rooms WHERE id = $1
      """, [.text(id.rawValue)])
    guard !rows.isEmpty else { return nil }
    let row = rows[0]
    let current = row.int(4)
    let phase = TablePhase(rawValue: row.text(7)) ?? .playing
    let table = try (row.isNull(6) ? nil : row.text(6)).map { code throws(PostgresError) in
      TableRecord(
        code: code, phase: phase, isPublic: row.bool(8),
        options: row.isNull(9) ? "{}" : row.text(9), seats: try seats(in: id),
        watcherChat: row.bool(11))
    }
    let match = try self.match(current, in: id)
    guard match != nil || phase == .lobby else { return nil }
    let actions = match == nil ? [] : try actions(of: current, in: id)
    return RoomRecord(
      id: id, owner: PlayerKey(rawValue: row.integer(0)),
      game: row.text(5), status: RoomStatus(rawValue: row.text(1)) ?? .abandoned,
      created: row.integer(2), updated: max(row.integer(3), actions.last?.at ?? row.integer(3)),
      match: match, table: table, actions: actions, resultCount: row.int(10))
  }

  public func save(_ change: RoomChange) throws(StoreError) {
    try save([change])
  }

  public func save(_ changes: [RoomChange]) throws(StoreError) {
    for change in changes where !holds(change.room) {
      throw .leaseLost(path: path, room: change.room.rawValue)
    }
    // NB: one round trip, one transaction for every room of the batch.
    let statements = changes.flatMap(statements(of:))
    try guarded { () throws(PostgresError) in try database.pipeline(statements) }
  }

  /// The statements that save one room's change; the first fails the whole pipeline when there
  /// is no such room.
  private func statements(of change: RoomChange) -> [Statement] {
    let room = PostgresValue.text(change.room.rawValue)
    // NB: the first statement fails the whole change when there is no such room (its text is
    // not a number; it names the count, so that the planner cannot work it out ahead), as
    // SQLite's store refuses it.
    var statements: [Statement] = [
      (
        """
        WITH updated AS (
          UPDATE rooms SET status = $2, updated = $3, current = $4 WHERE id = $1 RETURNING id)
        SELECT CASE WHEN count(*) = 1 THEN 1 ELSE ('no room ' || $1::text || ' ' || count(*))::int END
        FROM updated
        """,
        [room, .text(change.status.rawValue), .integer(change.at), .int(change.ordinal)]
      )
    ]
    if let match = change.newMatch { statements.append(insert(match, in: change.room)) }
    statements += insert(change.actions, in: change.room, ordinal: change.ordinal)
    statements += insert(change.results)
    statements += insert(change.chat, in: change.room)
    statements += insert(change.ratings)
    if let table = change.table {
      statements.append(
        (
          "UPDATE rooms SET phase = $2, public = $3, lobby = $4, watcher_chat = $5 WHERE id = $1",
          [
            room, .text(table.phase.rawValue), .bool(table.isPublic), .text(table.options),
            .bool(table.watcherChat),
          ]
        ))
      statements.append(("DELETE FROM seats WHERE room = $1", [room]))
      statements += insert(table.seats, in: change.room)
    }
    return statements
  }

  /// When the room `r` last changed, as SQL: its row's `updated`, or its current match's last
  /// action when that is later (``RoomRecord/updated``).
  private static let lastChange = """
    greatest(r.updated, coalesce((SELECT a.at FROM actions a WHERE a.room = r.id
      AND a.ordinal = r.current ORDER BY a.idx DESC LIMIT 1), 0))
    """

  public func openRooms(of player: PlayerKey, limit: Int) throws(StoreError) -> [RoomSummary] {
    try guarded { () throws(PostgresError) in
      try database.query(
        """
        SELECT r.id, r.game,
          coalesce(m.options, json_build_object('options', r.lobby::json)::text),
          r.status, r.created, \(Self.lastChange) AS changed,
          (SELECT count(*) FROM actions a WHERE a.room = r.id AND a.ordinal = r.current)
        FROM rooms r LEFT JOIN matches m ON m.room = r.id AND m.ordinal = r.current
        WHERE r.status = 'playing' AND (r.owner = $1
          OR EXISTS (SELECT 1 FROM seats s WHERE s.room = r.id AND s.player = $1))
        ORDER BY changed DESC, r.id LIMIT $2
        """, [.integer(player.rawValue), .int(limit)]
      ).rows.compactMap { values in
        let row = PostgresRow(values: values)
        guard let id = RoomID(rawValue: row.text(0)) else { return nil }
        return RoomSummary(
          id: id, game: row.text(1), options: row.text(2), version: row.int(6),
          status: RoomStatus(rawValue: row.text(3)) ?? .playing, created: row.integer(4),
          updated: row.integer(5))
      }
    }
  }

  public func results(in room: RoomID) throws(StoreError) -> [ResultRecord] {
    try guarded { () throws(PostgresError) in
      // NB: at a table each game has a row per seated player; one of each is enough here.
      try results(
        where: """
          room = $1 AND player = (SELECT min(player) FROM results r WHERE r.room = results.room
            AND r.idx = results.idx) ORDER BY idx
          """, [.text(room.rawValue)])
    }
  }

  public func results(of player: PlayerKey, game: String?) throws(StoreError) -> [ResultRecord] {
    try guarded { () throws(PostgresError) in
      try results(
        where: """
          player = $1 AND ($2::text IS NULL OR game = $2::text) ORDER BY "end", room, idx
          """, [.integer(player.rawValue), game.map(PostgresValue.text) ?? .null])
    }
  }

  public func room(code: String) throws(StoreError) -> RoomID? {
    try guarded { () throws(PostgresError) in
      try database.scalar("SELECT id FROM rooms WHERE code = $1", [.text(code)])
        .flatMap(RoomID.init(rawValue:))
    }
  }

  public func publicTables(limit: Int) throws(StoreError) -> [TableSummary] {
    try guarded { () throws(PostgresError) in
      let ids = try database.query(
        """
        SELECT id FROM rooms WHERE public AND phase = 'lobby' AND status = 'playing'
        ORDER BY created DESC, id LIMIT $1
        """, [.int(limit)]
      ).rows.compactMap { $0[0].flatMap(RoomID.init(rawValue:)) }
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
    try guarded { () throws(PostgresError) in
      let count = try database.scalar(
        "SELECT count(*) FROM matches WHERE room = $1", [.text(room.rawValue)])
      var matches: [(match: MatchRecord, actions: [ActionRecord])] = []
      for ordinal in 0..<(Int(count ?? "0") ?? 0) {
        guard let match = try match(ordinal, in: room) else { continue }
        matches.append((match, try actions(of: ordinal, in: room)))
      }
      return matches
    }
  }

  public func idleRooms(before time: Int64, limit: Int) throws(StoreError) -> [RoomID] {
    try guarded { () throws(PostgresError) in
      // NB: a room whose row changed since is not idle: only the few rooms left unchanged that
      // long look for their last action.
      try database.query(
        """
        SELECT id FROM (SELECT r.id, \(Self.lastChange) AS changed FROM rooms r
          WHERE r.status = 'playing' AND r.updated < $1) AS candidates
        WHERE changed < $1 ORDER BY changed, id LIMIT $2
        """,
        [.integer(time), .int(limit)]
      ).rows.compactMap { $0[0].flatMap(RoomID.init(rawValue:)) }
    }
  }

  public func check() throws(StoreError) {
    try guarded { () throws(PostgresError) in
      _ = try database.scalar("SELECT count(*) FROM rooms WHERE id = ''")
    }
  }

  // MARK: Rows

  @discardableResult
  private func guarded<T>(_ body: () throws(PostgresError) -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      throw StoreError(error, path: path)
    }
  }

  /// A statement and its parameters, for ``PostgresConnection/pipeline(_:)``.
  typealias Statement = (sql: String, values: [PostgresValue])

  private func insert(_ match: MatchRecord, in room: RoomID) -> Statement {
    return (
      """
      INSERT INTO matches (room, ordinal, game, options, seed, seed_chosen, later_key, replay, started)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
      """,
      [
        .text(room.rawValue), .int(match.ordinal), .text(match.game), .text(match.options),
        .unsigned(match.seed), .bool(match.seedChosen), .bytes(match.storedLaterKey),
        .bool(match.replay),
        .integer(match.started),
      ]
    )
  }

  private func insert(_ actions: [ActionRecord], in room: RoomID, ordinal: Int) -> [Statement] {
    actions.map { action in
      (
        """
        INSERT INTO actions (room, ordinal, idx, time, at, player, automatic, action)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        """,
        [
          .text(room.rawValue), .int(ordinal), .int(action.index), .real(action.time),
          .integer(action.at), .text(action.player), .bool(action.automatic), .text(action.action),
        ]
      )
    }
  }

  private func insert(_ seats: [SeatRecord], in room: RoomID) -> [Statement] {
    seats.map { seat in
      (
        "INSERT INTO seats (room, seat, player, name, computer) VALUES ($1, $2, $3, $4, $5)",
        [
          .text(room.rawValue), .int(seat.seat), seat.player.map { .integer($0.rawValue) } ?? .null,
          .text(seat.name), .bool(seat.computer),
        ]
      )
    }
  }

  private func insert(_ lines: [ChatRecord], in room: RoomID) -> [Statement] {
    lines.map { line in
      (
        """
        INSERT INTO chat (room, idx, at, player, name, seat, kind, text)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        """,
        [
          .text(room.rawValue), .int(line.index), .integer(line.at),
          .integer(line.player.rawValue), .text(line.name), line.seat.map { .int($0) } ?? .null,
          .text(line.kind.rawValue), .text(line.text),
        ]
      )
    }
  }

  private func insert(_ ratings: [RatingRecord]) -> [Statement] {
    ratings.map { rating in
      (
        """
        INSERT INTO ratings (room, idx, player, game, category, was, change, at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        """,
        [
          .text(rating.room.rawValue), .int(rating.index), .integer(rating.player.rawValue),
          .text(rating.game), .text(rating.category), .real(rating.was), .real(rating.change),
          .integer(rating.at),
        ]
      )
    }
  }

  public func ratings(of player: PlayerKey) throws(StoreError) -> [RatingSummary] {
    try guarded { () throws(PostgresError) in
      try database.query(
        """
        SELECT game, category, sum(change), count(*), max(at) FROM ratings WHERE player = $1
        GROUP BY game, category ORDER BY max(at) DESC, game, category
        """, [.integer(player.rawValue)]
      ).rows.map { values in
        let row = PostgresRow(values: values)
        return RatingSummary(
          game: row.text(0), category: row.text(1),
          rating: Rating(value: Rating.initial + row.real(2), games: row.int(3)),
          last: row.integer(4))
      }
    }
  }

  public func publicID(of player: PlayerKey, new: String) throws(StoreError) -> String {
    try guarded { () throws(PostgresError) in
      try database.scalar(
        """
        WITH kept AS (
          UPDATE players SET public_id = coalesce(public_id, $2) WHERE id = $1 RETURNING public_id)
        SELECT public_id FROM kept
        """, [.integer(player.rawValue), .text(new)]) ?? new
    }
  }

  public func player(publicID: String) throws(StoreError) -> PlayerRecord? {
    try guarded { () throws(PostgresError) -> PlayerRecord? in
      let rows = try database.query(
        "SELECT id, settings, created FROM players WHERE public_id = $1", [.text(publicID)])
      guard !rows.isEmpty else { return nil }
      let row = rows[0]
      return PlayerRecord(
        key: PlayerKey(rawValue: row.integer(0)), settings: row.text(1), created: row.integer(2))
    }
  }

  public func keepTransfer(_ transfer: TransferRecord, now: Int64) throws(StoreError) {
    try guarded { () throws(PostgresError) in
      try database.pipeline([
        (
          "DELETE FROM transfers WHERE player = $1 OR expires <= $2",
          [.integer(transfer.player.rawValue), .integer(now)]
        ),
        (
          "INSERT INTO transfers (code_hash, player, sealed, expires) VALUES ($1, $2, $3, $4)",
          [
            .bytes(transfer.code), .integer(transfer.player.rawValue), .bytes(transfer.sealed),
            .integer(transfer.expires),
          ]
        ),
      ])
    }
  }

  public func takeTransfer(_ code: [UInt8], now: Int64) throws(StoreError) -> [UInt8]? {
    try guarded { () throws(PostgresError) -> [UInt8]? in
      let rows = try database.query(
        "DELETE FROM transfers WHERE code_hash = $1 AND expires > $2 RETURNING sealed",
        [.bytes(code), .integer(now)])
      return rows.isEmpty ? nil : rows[0].bytes(0)
    }
  }

  public func chat(in room: RoomID, last limit: Int?) throws(StoreError) -> [ChatRecord] {
    try guarded { () throws(PostgresError) in
      try database.query(
        """
        SELECT idx, at, player, name, seat, kind, text FROM chat WHERE room = $1
        ORDER BY idx DESC LIMIT $2
        """, [.text(room.rawValue), limit.map { .int($0) } ?? .null]
      ).rows.reversed().map { values in
        let row = PostgresRow(values: values)
        return ChatRecord(
          index: row.int(0), at: row.integer(1), player: PlayerKey(rawValue: row.integer(2)),
          name: row.text(3), seat: row.isNull(4) ? nil : row.int(4), text: row.text(6),
          kind: ChatRecord.Kind(rawValue: row.text(5)) ?? .text)
      }
    }
  }

  private func seats(in room: RoomID) throws(PostgresError) -> [SeatRecord] {
    try database.query(
      "SELECT seat, player, name, computer FROM seats WHERE room = $1 ORDER BY seat",
      [.text(room.rawValue)]
    ).rows.map { values in
      let row = PostgresRow(values: values)
      return SeatRecord(
        seat: row.int(0), player: row.isNull(1) ? nil : PlayerKey(rawValue: row.integer(1)),
        name: row.text(2), computer: row.bool(3))
    }
  }

  private func insert(_ results: [ResultRecord]) -> [Statement] {
    results.map { result in
      (
        """
        INSERT INTO results (room, idx, player, ordinal, game, options, seed, score, moves, ending,
          winner, won, start, "end", duration, practice, replay, record)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
        """,
        [
          .text(result.room.rawValue), .int(result.index), .integer(result.player.rawValue),
          .int(result.ordinal), .text(result.game), .text(result.options), .unsigned(result.seed),
          .int(result.score), .int(result.moves), .text(result.ending.rawValue),
          result.winner.map(PostgresValue.text) ?? .null, .bool(result.won),
          .integer(result.start), .integer(result.end), .real(result.duration),
          .bool(result.practice), .bool(result.replay), .text(result.record),
        ]
      )
    }
  }

  private func match(_ ordinal: Int, in room: RoomID) throws(PostgresError) -> MatchRecord? {
    let rows = try database.query(
      """
      SELECT game, options, seed, seed_chosen, later_key, replay, started FROM matches
      WHERE room = $1 AND ordinal = $2
      """, [.text(room.rawValue), .int(ordinal)])
    guard !rows.isEmpty else { return nil }
    let row = rows[0]
    return MatchRecord(
      ordinal: ordinal, game: row.text(0), options: row.text(1), seed: row.unsigned(2),
      seedChosen: row.bool(3), laterKey: MatchRecord.laterKey(stored: row.bytes(4)),
      replay: row.bool(5), started: row.integer(6))
  }

  private func actions(of ordinal: Int, in room: RoomID) throws(PostgresError) -> [ActionRecord] {
    try database.query(
      """
      SELECT idx, time, at, player, automatic, action FROM actions
      WHERE room = $1 AND ordinal = $2 ORDER BY idx
      """, [.text(room.rawValue), .int(ordinal)]
    ).rows.map { values in
      let row = PostgresRow(values: values)
      return ActionRecord(
        index: row.int(0), time: row.real(1), at: row.integer(2), player: row.text(3),
        automatic: row.bool(4), action: row.text(5))
    }
  }

  private func results(where condition: String, _ values: [PostgresValue]) throws(PostgresError)
    -> [ResultRecord]
  {
    try database.query(
      """
      SELECT room, idx, ordinal, game, options, seed, score, moves, ending, winner, won, start,
        "end", duration, practice, replay, record, player
      FROM results WHERE \(condition)
      """, values
    ).rows.compactMap { values in
      let row = PostgresRow(values: values)
      guard let room = RoomID(rawValue: row.text(0)) else { return nil }
      return ResultRecord(
        room: room, player: PlayerKey(rawValue: row.integer(17)), ordinal: row.int(2),
        index: row.int(1), game: row.text(3), options: row.text(4), seed: row.unsigned(5),
        score: row.int(6), moves: row.int(7),
        ending: GameEnding(rawValue: row.text(8)) ?? .abandoned,
        winner: row.isNull(9) ? nil : row.text(9), won: row.bool(10), start: row.integer(11),
        end: row.integer(12), duration: row.real(13), practice: row.bool(14),
        replay: row.bool(15), record: row.text(16))
    }
  }
}

extension StoreError {
  /// The error a PostgreSQL failure at `path` means.
  init(_ error: PostgresError, path: String) {
    if error.connectionLost && error.state.isEmpty {
      self = .unavailable(path: path, reason: error.message)
      return
    }
    switch error.stateClass {
    case "08", "57": self = .unavailable(path: path, reason: error.message)
    case "28", "3D":
      // NB: authorization, an unknown database.
      self = .unavailable(path: path, reason: error.message)
    case "42" where error.state == "42501":
      self = .unavailable(path: path, reason: error.message)
    case "53":
      self = error.state == "53100" ? .full(path: path) : .failed(path: path, reason: error.message)
    case "XX": self = .corrupt(path: path, reason: error.message)
    default: self = .failed(path: path, reason: error.message)
    }
  }
}
