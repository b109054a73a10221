import Glibc

/// A real PostgreSQL server for the tests, started once per test process with
/// `scripts/pg-scratch.sh` in a temporary directory (a Unix socket only, as an unprivileged
/// user) and stopped when the process exits.
///
/// Each test takes a database of its own (``newDatabase()``), so tests run in parallel.
public final class ScratchPostgres: Sendable {
  /// The server of this test process; its failure to start fails the tests that use it.
  public static let shared = Result { () throws(ScratchFailure) in try ScratchPostgres() }

  /// The directory holding the cluster and its socket.
  public let directory: String
  /// The address of its first database, `cardtable`.
  public let url: String

  /// Why the server could not be started or used.
  public struct ScratchFailure: Error, CustomStringConvertible {
    public var description: String
  }

  private init() throws(ScratchFailure) {
    var template = Array("/tmp/cardtable-pg-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) }
    }
    guard let made else { throw ScratchFailure(description: "mkdtemp failed") }
    directory = made
    let script = Self.repository + "/scripts/pg-scratch.sh"
    // NB: fsync off: a test's cluster is thrown away, and a crash of the machine loses nothing
    // a test needs; the durability it tests is the server's own (docs/STORAGE.md).
    guard let output = Self.run("PG_SCRATCH_FSYNC=off '\(script)' start '\(made)'"),
      output.hasPrefix("postgres")
    else {
      throw ScratchFailure(
        description: "scripts/pg-scratch.sh could not start PostgreSQL in \(made) (see its log)")
    }
    url = output
    scratchDirectory = made
    atexit {
      guard let directory = scratchDirectory else { return }
      _ = system("'\(ScratchPostgres.repository)/scripts/pg-scratch.sh' stop '\(directory)'")
    }
  }

  /// A new, empty database on the server; returns its address.
  public func newDatabase() throws(ScratchFailure) -> String {
    let name = "t_" + String(UInt64.random(in: .min ... .max), radix: 16)
    guard Self.run("psql -X -q -v ON_ERROR_STOP=1 '\(url)' -c 'CREATE DATABASE \(name)'") != nil
    else {
      throw ScratchFailure(description: "could not create database \(name)")
    }
    return url.replacingFirst("/cardtable?", with: "/\(name)?")
  }

  /// Runs SQL on a database with psql; returns its unaligned output, or nil when it failed.
  @discardableResult
  public func psql(_ database: String, _ sql: String) -> String? {
    let quoted = sql.split(separator: "'", omittingEmptySubsequences: false).joined(
      separator: "'\\''")
    return Self.run("psql -X -q -A -t -v ON_ERROR_STOP=1 '\(database)' -c '\(quoted)'")
  }

  /// The checkout these tests were built from.
  static let repository: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
  }()

  /// A shell command's standard output without its last newline, or nil when it failed.
  static func run(_ command: String) -> String? {
    guard let pipe = popen(command, "r") else { return nil }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, pipe)
      if count == 0 { break }
      bytes += buffer[0..<count]
    }
    guard pclose(pipe) == 0 else { return nil }
    while bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// The directory `atexit` stops the server in (a C callback captures nothing).
nonisolated(unsafe) private var scratchDirectory: String?

extension String {
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = firstRange(of: target) else { return self }
    return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
  }
}
