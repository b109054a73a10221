import CSQLite
import Glibc

/// A failed SQLite call: its result code (the primary code is `code & 0xff`) and message.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The extended result code, e.g. `SQLITE_BUSY_SNAPSHOT`.
  public var code: Int32
  public var message: String

  public init(code: Int32, message: String) {
    self.code = code
    self.message = message
  }

  /// The primary result code, e.g. `SQLITE_BUSY`.
  public var primary: Int32 { code & 0xff }

  public var description: String { "\(message) (SQLite error \(code))" }
}

/// One SQLite connection, used from one thread at a time. Statements are prepared once and
/// kept by their text; nothing is ever built by pasting values into SQL.
public final class SQLiteDatabase {
  /// Where the database is: a path, or `:memory:`.
  public let path: String
  private var handle: OpaquePointer?
  private var statements: [SQLText: SQLiteStatement] = [:]

  /// SQLite is told, once and before its first connection, not to count the memory it
  /// allocates: nothing here reads the count, and counting took a mutex at every allocation,
  /// some 48 times an action of a Snap! table (callgrind, `bench rooms`).
  private static let memoryNotCounted: Void = { _ = csqlite_config_memstatus(0) }()

  /// Opens (or, with `create`, creates) the database at `path`.
  ///
  /// - Throws: ``SQLiteError`` when the file cannot be opened.
  public init(path: String, create: Bool = true, readOnly: Bool = false) throws(SQLiteError) {
    self.path = path
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    if readOnly {
      flags |= SQLITE_OPEN_READONLY
    } else {
      flags |= SQLITE_OPEN_READWRITE
      if create { flags |= SQLITE_OPEN_CREATE }
    }
    _ = Self.memoryNotCounted
    var opened: OpaquePointer?
    let status = sqlite3_open_v2(path, &opened, flags, nil)
    guard status == SQLITE_OK, let opened else {
      let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(opened)
      throw SQLiteError(code: status, message: message)
    }
    handle = opened
  }

  deinit {
    close()
  }

  /// Finalizes every statement and closes the connection; later calls fail.
  public func close() {
    statements.removeAll()
    if let handle { sqlite3_close_v2(handle) }
    handle = nil
    walHook = nil
  }

  /// Calls `hook` after each commit in WAL mode, with the pages the log then holds, instead of
  /// SQLite's own checkpoint in that commit (see ``WALCheckpointer``).
  func setWALHook(_ hook: @escaping (Int32) -> Void) {
    let box = WALHook(hook)
    walHook = box
    sqlite3_wal_hook(
      handle,
      { context, _, _, pages in
        guard let context else { return SQLITE_OK }
        Unmanaged<WALHook>.fromOpaque(context).takeUnretainedValue().hook(pages)
        return SQLITE_OK
      }, Unmanaged.passUnretained(box).toOpaque())
  }

  /// The hook ``setWALHook(_:)`` set, kept while the connection may call it.
  private final class WALHook {
    let hook: (Int32) -> Void
    init(_ hook: @escaping (Int32) -> Void) { self.hook = hook }
  }

  private var walHook: WALHook?

  /// Copies what the write-ahead log holds into the file, waiting for no one (`PASSIVE`), as
  /// SQLite does in the commit that takes the log past its limit; true when every page was.
  @discardableResult
  func checkpoint() -> Bool {
    var logged: Int32 = 0
    var copied: Int32 = 0
    let status = sqlite3_wal_checkpoint_v2(
      handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logged, &copied)
    return status == SQLITE_OK && logged == copied
  }

  /// How long a call waits for another connection's lock before it fails with `SQLITE_BUSY`.
  public func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }

  /// Runs one or more statements that bind nothing and return no rows we read (DDL, PRAGMAs).
  public func execute(_ sql: String) throws(SQLiteError) {
    var error: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &error)
    defer { sqlite3_free(error) }
    guard status == SQLITE_OK else {
      let message = error.map { String(cString: $0) } ?? lastMessage
      throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message)
    }
  }

  /// The statement for `sql`, prepared on first use and reset for this use.
  public func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let kept = statements[SQLText(sql)] {
      kept.reset()
      return kept
    }
    var prepared: OpaquePointer?
    let status = sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
    guard status == SQLITE_OK, let prepared else {
      throw SQLiteError(code: sqlite3_extended_errcode(handle), message: lastMessage)
    }
    let statement = SQLiteStatement(prepared, database: self)
    statements[SQLText(sql)] = statement
    return statement
  }

  /// Runs `sql` with `values` bound in order, stepping it to its end.
  public func run(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) {
    let statement = try statement(sql)
    try statement.bind(values)
    while try statement.step() {}
  }

  /// The first column of the first row of `sql`, or nil when it returns no row.
  public func scalar(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) -> SQLiteValue? {
    let statement = try statement(sql)
    try statement.bind(values)
    guard try statement.step() else { return nil }
    let value = statement.value(0)
    statement.reset()
    return value
  }

  /// Runs `body` in one transaction (`BEGIN IMMEDIATE`: it takes the write lock at once), and
  /// commits it; rolls it back when `body` or the commit throws.
  public func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try run("BEGIN IMMEDIATE")
    do {
      let value = try body()
      try run("COMMIT")
      return value
    } catch {
      // NB: a failed COMMIT may leave the transaction open (SQLITE_BUSY) or already rolled
      // back (SQLITE_FULL); a ROLLBACK without one fails harmlessly.
      try? run("ROLLBACK")
      throw error
    }
  }

  /// What `PRAGMA quick_check` finds wrong with the file (empty when nothing), stopping after
  /// `seconds` of work: nil when it ran out of time before it finished.
  ///
  /// Damage that keeps the check from running at all is one problem, its message.
  public func quickCheck(within seconds: Double) -> [String]? {
    var deadline = timespec()
    clock_gettime(CLOCK_MONOTONIC, &deadline)
    deadline.tv_sec += Int(seconds)
    deadline.tv_nsec += Int((seconds - seconds.rounded(.down)) * 1e9)
    // NB: SQLite calls the handler every 10,000 virtual-machine steps; non-zero interrupts.
    let interrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
      guard let limit = context?.load(as: timespec.self) else { return 0 }
      var now = timespec()
      clock_gettime(CLOCK_MONOTONIC, &now)
      let nanoseconds = (now.tv_sec - limit.tv_sec) * 1_000_000_000 + (now.tv_nsec - limit.tv_nsec)
      return nanoseconds >= 0 ? 1 : 0
    }
    return withUnsafeMutablePointer(to: &deadline) { limit in
      sqlite3_progress_handler(handle, 10_000, interrupt, limit)
      defer { sqlite3_progress_handler(handle, 0, nil, nil) }
      var problems: [String] = []
      do throws(SQLiteError) {
        let statement = try statement("PRAGMA quick_check(10)")
        while try statement.step() {
          if case .text(let line) = statement.value(0), line != "ok" { problems.append(line) }
        }
      } catch {
        if error.primary == SQLITE_INTERRUPT { return nil }
        problems.append(error.message)
      }
      return problems
    }
  }

  /// The number of rows the last INSERT, UPDATE or DELETE changed.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  var raw: OpaquePointer? { handle }

  var lastMessage: String {
    handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the database is closed"
  }
}

/// A value bound to a statement or read from a row.
public enum SQLiteValue: Equatable, Sendable {
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  case null

  public var integer: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  public var text: String? {
    if case .text(let value) = self { return value }
    return nil
  }

  public var real: Double? {
    switch self {
    case .real(let value): value
    case .integer(let value): Double(value)
    default: nil
    }
  }

  public var blob: [UInt8]? {
    if case .blob(let value) = self { return value }
    return nil
  }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(stringLiteral value: String) { self = .text(value) }

  public static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
  public static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
  /// A 64-bit unsigned number kept in SQLite's signed INTEGER by its bit pattern.
  public static func unsigned(_ value: UInt64) -> SQLiteValue {
    .integer(Int64(bitPattern: value))
  }
}

/// A prepared statement: bind, step through rows, read columns.
public final class SQLiteStatement {
  private let handle: OpaquePointer
  private unowned let database: SQLiteDatabase

  init(_ handle: OpaquePointer, database: SQLiteDatabase) {
    self.handle = handle
    self.database = database
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Binds `values` to the parameters `?1`, `?2`, … in order.
  public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .integer(let number): status = sqlite3_bind_int64(handle, index, number)
      case .real(let number): status = sqlite3_bind_double(handle, index, number)
      case .text(let text):
        status = sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
      case .blob(let bytes):
        status = bytes.withUnsafeBytes { buffer in
          sqlite3_bind_blob(
            handle, index, buffer.baseAddress, Int32(buffer.count), csqlite_transient())
        }
      case .null: status = sqlite3_bind_null(handle, index)
      }
      guard status == SQLITE_OK else {
        throw SQLiteError(code: status, message: database.lastMessage)
      }
    }
  }

  /// Steps to the next row: true when there is one, false when the statement is done.
  public func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE:
      sqlite3_reset(handle)
      return false
    default:
      let error = SQLiteError(
        code: sqlite3_extended_errcode(database.raw), message: database.lastMessage)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Makes the statement ready to run again (its bindings stay until the next `bind`).
  public func reset() {
    sqlite3_reset(handle)
  }

  /// Column `index` of the current row.
  public func value(_ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
    case SQLITE_TEXT: return .text(text(index))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(handle, index))
      guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
  }

  public func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
  public func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }
  public func real(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }
  public func bool(_ index: Int32) -> Bool { sqlite3_column_int64(handle, index) != 0 }
  public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
  public func unsigned(_ index: Int32) -> UInt64 {
    UInt64(bitPattern: sqlite3_column_int64(handle, index))
  }

  public func text(_ index: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }
}

/// A statement's SQL, as the key its prepared statement is kept by.
///
/// NB: hashed by its length and three of its words, not by every byte: hashing a `String` of
/// a hundred bytes cost some 550 instructions a statement, several statements an action. Texts
/// that hash alike are still told apart by `==`.
struct SQLText: Hashable {
  let sql: String

  init(_ sql: String) {
    self.sql = sql
  }

  func hash(into hasher: inout Hasher) {
    var sql = sql
    sql.withUTF8 { utf8 in
      hasher.combine(utf8.count)
      guard utf8.count >= 8, let base = utf8.baseAddress else {
        return hasher.combine(bytes: UnsafeRawBufferPointer(utf8))
      }
      let start = UnsafeRawPointer(base)
      hasher.combine(start.loadUnaligned(as: UInt64.self))
      hasher.combine(start.loadUnaligned(fromByteOffset: utf8.count / 2 - 4, as: UInt64.self))
      hasher.combine(start.loadUnaligned(fromByteOffset: utf8.count - 8, as: UInt64.self))
    }
  }
}
