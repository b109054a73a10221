import CPostgres
import Glibc

/// A failure PostgreSQL (or libpq) reported: its SQLSTATE when the server sent one, and
/// whether the connection itself was lost.
struct PostgresError: Error, Equatable, CustomStringConvertible {
  /// The five-character SQLSTATE (`23505` a duplicate key…), empty when libpq failed alone.
  var state: String
  var message: String
  /// The connection is gone: nothing more can be done on it until it is opened again.
  var connectionLost: Bool

  var description: String { state.isEmpty ? message : "\(message) (SQLSTATE \(state))" }

  /// The class of `state`: `08` connection exception, `53` insufficient resources…
  var stateClass: Substring { state.prefix(2) }
}

/// Rows a statement returned, every value as PostgreSQL's text form (nil for NULL).
struct PostgresRows {
  var rows: [[String?]]

  var isEmpty: Bool { rows.isEmpty }
  var count: Int { rows.count }
  subscript(row: Int) -> PostgresRow { PostgresRow(values: rows[row]) }
}

/// One row's values in their text form.
struct PostgresRow {
  var values: [String?]

  func isNull(_ column: Int) -> Bool { values[column] == nil }
  func text(_ column: Int) -> String { values[column] ?? "" }
  func integer(_ column: Int) -> Int64 { Int64(values[column] ?? "") ?? 0 }
  func int(_ column: Int) -> Int { Int(values[column] ?? "") ?? 0 }
  /// A 64-bit unsigned number kept in a BIGINT by its bit pattern (as in SQLite).
  func unsigned(_ column: Int) -> UInt64 { UInt64(bitPattern: integer(column)) }
  func real(_ column: Int) -> Double { Double(values[column] ?? "") ?? 0 }
  func bool(_ column: Int) -> Bool { values[column] == "t" }
  /// A BYTEA in PostgreSQL's hex output form (`\x0123…`).
  func bytes(_ column: Int) -> [UInt8] {
    let hex = Array((values[column] ?? "").utf8.dropFirst(2))
    var bytes: [UInt8] = []
    bytes.reserveCapacity(hex.count / 2)
    var index = 0
    while index + 1 < hex.count {
      guard let high = Self.nibble(hex[index]), let low = Self.nibble(hex[index + 1]) else { break }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// A statement's parameter in PostgreSQL's text input form (nil for NULL).
struct PostgresValue {
  var text: String?

  static let null = PostgresValue(text: nil)
  static func text(_ value: String) -> PostgresValue { PostgresValue(text: value) }
  static func integer(_ value: Int64) -> PostgresValue { PostgresValue(text: String(value)) }
  static func int(_ value: Int) -> PostgresValue { PostgresValue(text: String(value)) }
  /// A 64-bit unsigned number by its bit pattern, for a BIGINT.
  static func unsigned(_ value: UInt64) -> PostgresValue {
    PostgresValue(text: String(Int64(bitPattern: value)))
  }
  static func real(_ value: Double) -> PostgresValue {
    // NB: Swift's description is the shortest text that reads back as the same double.
    PostgresValue(text: value.isFinite ? "\(value)" : "0")
  }
  static func bool(_ value: Bool) -> PostgresValue { PostgresValue(text: value ? "t" : "f") }
  /// A BYTEA, in the hex input form.
  static func bytes(_ value: [UInt8]) -> PostgresValue {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = Array(#"\x"#.utf8)
    for byte in value {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return PostgresValue(text: String(decoding: text, as: UTF8.self))
  }
}

/// One libpq connection: parameterized statements only, each value sent apart from the SQL
/// text, never spliced into it, and each statement prepared once per connection.
///
/// Used from one thread at a time. When the connection is lost, the next statement opens it
/// again, and ``generation`` counts up: what the old session held (advisory locks, a
/// transaction) is gone with it.
final class PostgresConnection {
  let url: String
  private var connection: OpaquePointer?
  /// How many times the connection has been opened (1 after the first).
  private(set) var generation = 0
  /// The statements prepared on this connection, by their text: each is parsed and planned
  /// once per connection, then only run.
  private var prepared: [String: String] = [:]

  /// Statements run on every new connection (session settings).
  let setup: [String]

  /// Connects to `url` (a `postgres://` URI or a `key=value` string, as libpq takes) and runs
  /// `setup` on it, and again on every connection opened after one was lost.
  init(url: String, setup: [String] = []) throws(PostgresError) {
    self.url = url
    self.setup = setup
    try open()
  }

  deinit {
    if let connection { PQfinish(connection) }
  }

  private func open() throws(PostgresError) {
    if let connection { PQfinish(connection) }
    connection = PQconnectdb(url)
    guard let connection, PQstatus(connection) == CONNECTION_OK else {
      let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
      throw PostgresError(
        state: "", message: Self.trimmed(message), connectionLost: true)
    }
    // NB: notices ("relation already exists, skipping") would go to stderr otherwise.
    PQsetNoticeProcessor(connection, { _, _ in }, nil)
    generation += 1
    prepared = [:]
    for statement in setup { try execute(statement) }
  }

  /// Whether the connection is open and was not lost.
  var isOpen: Bool { connection.map { PQstatus($0) == CONNECTION_OK } ?? false }

  /// Opens the connection again when it was lost.
  func reopenIfLost() throws(PostgresError) {
    if !isOpen { try open() }
  }

  /// Runs one statement with its parameters (`$1`, `$2`, … in the text) and returns its rows.
  @discardableResult
  func query(_ sql: String, _ values: [PostgresValue] = []) throws(PostgresError)
    -> PostgresRows
  {
    try reopenIfLost()
    let name = try statement(sql, parameters: values.count)
    let copies: [UnsafeMutablePointer<CChar>?] = values.map { value in
      value.text.map { strdup($0) } ?? nil
    }
    defer { for copy in copies { free(copy) } }
    let result = copies.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
        PQexecPrepared(connection, name, Int32(values.count), pointers.baseAddress, nil, nil, 0)
      }
    }
    defer { PQclear(result) }
    return try rows(of: result)
  }

  /// The name of `sql` prepared on this connection, preparing it the first time.
  private func statement(_ sql: String, parameters: Int) throws(PostgresError) -> String {
    if let name = prepared[sql] { return name }
    let name = "s\(prepared.count)"
    let result = PQprepare(connection, name, sql, Int32(parameters), nil)
    defer { PQclear(result) }
    _ = try rows(of: result)
    prepared[sql] = name
    return name
  }

  /// Runs `statements` in one round trip and one implicit transaction (libpq's pipeline
  /// mode): all of them, or — when one fails — none, and the first failure is thrown.
  @discardableResult
  func pipeline(_ statements: [(sql: String, values: [PostgresValue])]) throws(PostgresError)
    -> [PostgresRows]
  {
    try reopenIfLost()
    let names = try statements.map { statement throws(PostgresError) in
      try self.statement(statement.sql, parameters: statement.values.count)
    }
    guard PQenterPipelineMode(connection) == 1 else {
      throw PostgresError(
        state: "", message: Self.trimmed(String(cString: PQerrorMessage(connection))),
        connectionLost: !isOpen)
    }
    defer { PQexitPipelineMode(connection) }
    var failure: PostgresError?
    for (statement, name) in zip(statements, names) {
      let copies: [UnsafeMutablePointer<CChar>?] = statement.values.map { value in
        value.text.map { strdup($0) } ?? nil
      }
      defer { for copy in copies { free(copy) } }
      let sent = copies.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
          PQsendQueryPrepared(
            connection, name, Int32(statement.values.count), pointers.baseAddress, nil, nil, 0)
        }
      }
      guard sent == 1 else {
        failure = PostgresError(
          state: "", message: Self.trimmed(String(cString: PQerrorMessage(connection))),
          connectionLost: !isOpen)
        break
      }
    }
    guard PQpipelineSync(connection) == 1 else {
      throw failure
        ?? PostgresError(
          state: "", message: Self.trimmed(String(cString: PQerrorMessage(connection))),
          connectionLost: !isOpen)
    }
    // NB: each statement's result is followed by a null; the sync point ends the pipeline.
    var answers: [PostgresRows] = []
    while true {
      guard let result = PQgetResult(connection) else {
        if !isOpen {
          throw failure
            ?? PostgresError(state: "", message: "the connection was lost", connectionLost: true)
        }
        continue
      }
      defer { PQclear(result) }
      let status = PQresultStatus(result)
      if status == PGRES_PIPELINE_SYNC { break }
      if status == PGRES_PIPELINE_ABORTED { continue }
      do {
        answers.append(try rows(of: result))
      } catch {
        if failure == nil { failure = error }
      }
    }
    if let failure { throw failure }
    return answers
  }

  /// Runs SQL text with no parameters, possibly several statements (a migration step).
  func execute(_ sql: String) throws(PostgresError) {
    try reopenIfLost()
    let result = PQexec(connection, sql)
    defer { PQclear(result) }
    _ = try rows(of: result)
  }

  /// The first column of the first row, if any.
  func scalar(_ sql: String, _ values: [PostgresValue] = []) throws(PostgresError) -> String? {
    let rows = try query(sql, values)
    return rows.isEmpty ? nil : rows.rows[0][0]
  }

  /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
  func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
    try query("BEGIN")
    let value: T
    do {
      value = try body()
      try query("COMMIT")
    } catch {
      if isOpen { _ = try? query("ROLLBACK") }
      throw error
    }
    return value
  }

  private func rows(of result: OpaquePointer?) throws(PostgresError) -> PostgresRows {
    guard let result else {
      throw PostgresError(
        state: "", message: Self.trimmed(String(cString: PQerrorMessage(connection))),
        connectionLost: !isOpen)
    }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
      return PostgresRows(rows: [])
    case PGRES_TUPLES_OK:
      let (count, columns) = (PQntuples(result), PQnfields(result))
      var rows: [[String?]] = []
      rows.reserveCapacity(Int(count))
      for row in 0..<count {
        var values: [String?] = []
        values.reserveCapacity(Int(columns))
        for column in 0..<columns {
          values.append(
            PQgetisnull(result, row, column) == 1
              ? nil : String(cString: PQgetvalue(result, row, column)))
        }
        rows.append(values)
      }
      return PostgresRows(rows: rows)
    default:
      let field = { (code: UInt8) -> String in
        PQresultErrorField(result, Int32(code)).map { String(cString: $0) } ?? ""
      }
      let message = field(UInt8(ascii: "M"))
      throw PostgresError(
        state: field(UInt8(ascii: "C")),
        message: message.isEmpty
          ? Self.trimmed(String(cString: PQresultErrorMessage(result))) : message,
        connectionLost: !isOpen)
    }
  }

  private static func trimmed(_ message: String) -> String {
    var text = Substring(message)
    while text.last?.isWhitespace == true { text.removeLast() }
    return String(text)
  }
}
