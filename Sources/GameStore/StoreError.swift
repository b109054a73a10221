import CSQLite

/// Why the store could not do what it was asked, in words for the person running the server,
/// with the exit code `cardtable` ends with when it happens at start (docs/STORAGE.md).
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The data directory or file cannot be created, opened or written (permissions, a path
  /// that is a file…).
  case unavailable(path: String, reason: String)
  /// The disk (or the database's size limit) is full.
  case full(path: String)
  /// Another process holds the database's lock.
  case locked(path: String)
  /// The file is not a CardTable database, or is damaged.
  case corrupt(path: String, reason: String)
  /// The file was written by a newer CardTable, whose schema this one does not know.
  case newerSchema(path: String, found: Int, known: Int)
  /// Another process runs the room now: this one lost its lease (``GameStore/holds(_:)``).
  case leaseLost(path: String, room: String)
  /// Something else failed; the message says what.
  case failed(path: String, reason: String)

  public var description: String {
    switch self {
    case .unavailable(let path, let reason):
      "Cannot use the data at \(path): \(reason)"
    case .full(let path):
      "The disk holding \(path) is full: free some space, then start again."
    case .locked(let path):
      "The database \(path) is locked by another process (another cardtable serve?)."
    case .corrupt(let path, let reason):
      "\(path) is damaged or is not a CardTable database: \(reason). Stop here and restore it from a backup (docs/DEPLOY.md, \"Backups\"); or move it away to start afresh with no games."
    case .newerSchema(let path, let found, let known):
      "\(path) was written by a newer CardTable (schema \(found); this one knows up to \(known))."
    case .leaseLost(let path, let room):
      "Room \(room) is run by another server on \(path) now; this one let it go."
    case .failed(let path, let reason):
      "The store at \(path) failed: \(reason)"
    }
  }

  /// The process's exit status for this failure at start.
  public var exitCode: Int32 {
    switch self {
    case .unavailable: 3
    case .full: 4
    case .locked: 5
    case .corrupt: 6
    case .newerSchema: 7
    case .leaseLost, .failed: 1
    }
  }

  /// The error an SQLite failure at `path` means.
  public init(_ error: SQLiteError, path: String) {
    switch error.primary {
    case SQLITE_FULL: self = .full(path: path)
    case SQLITE_BUSY, SQLITE_LOCKED: self = .locked(path: path)
    case SQLITE_CORRUPT, SQLITE_NOTADB: self = .corrupt(path: path, reason: error.message)
    case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH:
      self = .unavailable(path: path, reason: error.message)
    case SQLITE_IOERR:
      // NB: SQLITE_IOERR_SHORT_READ and friends come from a damaged or truncated file too, but
      // a write error is most often the disk.
      self = .failed(path: path, reason: error.message)
    default: self = .failed(path: path, reason: error.message)
    }
  }
}
