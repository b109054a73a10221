import CSQLite
import Glibc

/// Copies a SQLite database's write-ahead log back into the database file on a thread of its
/// own, ahead of the commit that would do it (docs/STORAGE.md "Checkpoints").
///
/// NB: by default SQLite checkpoints inside the commit that takes the log past 1,000 pages: that
/// commit copies the pages into the file and flushes the log and the file to the disk, on the
/// server's loop thread, where every player waits for it. Measured with 1,000 players alone at
/// Memory (`bench tables --seats 1`): a flip's round trip p99 was 7 ms with the store, 0.5 ms
/// without. Here a checkpoint runs on this thread past ``pages`` (`PASSIVE`: it copies what no
/// reader still needs, waits for no one, and the writer goes on meanwhile). The log starts
/// again from its beginning only after a checkpoint that copied every page, so when this one
/// falls behind (it runs at the lowest priority, so that it never takes the loop's core), the
/// commit that takes the log past ``SQLiteStore``'s 1,000 pages checkpoints it as SQLite would,
/// and finds little left to copy or to flush.
final class WALCheckpointer: @unchecked Sendable {
  /// The log's length, in pages, that asks for a checkpoint here.
  static let pages: Int32 = 200

  /// What the thread and the writer share, under ``lock``.
  private struct State {
    var asked = false
    var running = false
    var stopping = false
    var done = 0
  }

  // NB: @unchecked Sendable: `state` is read and written under `lock` only, and `connection`
  // by the thread only (and by `stop` once the thread has ended).
  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  private let changed: UnsafeMutablePointer<pthread_cond_t>
  private let state: UnsafeMutablePointer<State>
  private let connection: OpaquePointer
  private var thread = pthread_t()

  /// Opens a connection of its own to the database at `path` and starts the thread.
  init(path: String) throws(SQLiteError) {
    var opened: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    var status = sqlite3_open_v2(path, &opened, flags, nil)
    // NB: a connection learns that the database is in WAL mode by reading it; until then a
    // checkpoint of it does nothing (and says that the log has -1 pages).
    if status == SQLITE_OK {
      status = sqlite3_exec(opened, "PRAGMA journal_mode = WAL", nil, nil, nil)
    }
    guard status == SQLITE_OK, let opened else {
      let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(opened)
      throw SQLiteError(code: status, message: message)
    }
    connection = opened
    lock = .allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
    changed = .allocate(capacity: 1)
    pthread_cond_init(changed, nil)
    state = .allocate(capacity: 1)
    state.initialize(to: State())
    let body = Unmanaged.passRetained(self).toOpaque()
    let result = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        Unmanaged<WALCheckpointer>.fromOpaque(argument).takeRetainedValue().run()
        return nil
      }, body)
    precondition(result == 0, "pthread_create failed: \(result)")
  }

  deinit {
    pthread_cond_destroy(changed)
    changed.deallocate()
    pthread_mutex_destroy(lock)
    lock.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// How many checkpoints here have copied pages into the file.
  var checkpoints: Int { locked { $0.done } }

  /// Whether a checkpoint is asked for or under way here.
  var busy: Bool { locked { $0.asked || $0.running } }

  /// After a commit that left `pages` pages in the log: asks for a checkpoint past ``pages``.
  func committed(pages: Int32) {
    guard pages >= Self.pages else { return }
    locked { state in
      guard !state.asked else { return }
      state.asked = true
      pthread_cond_signal(changed)
    }
  }

  /// Waits for a checkpoint under way, ends the thread and closes the connection.
  func stop() {
    locked { state in
      state.stopping = true
      pthread_cond_signal(changed)
    }
    pthread_join(thread, nil)
    sqlite3_close_v2(connection)
  }

  private func locked<Result>(_ body: (inout State) -> Result) -> Result {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return body(&state.pointee)
  }

  /// The thread: a checkpoint each time one is asked for, until stopped.
  private func run() {
    // NB: the lowest priority: under a full load this thread waits, and the commits checkpoint
    // as they did before, rather than this one taking the loop's core. (On Linux a nice value
    // belongs to a thread, and `who` 0 is the calling one.)
    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
    while true {
      pthread_mutex_lock(lock)
      while !state.pointee.asked, !state.pointee.stopping { pthread_cond_wait(changed, lock) }
      if state.pointee.stopping {
        pthread_mutex_unlock(lock)
        return
      }
      state.pointee.asked = false
      state.pointee.running = true
      pthread_mutex_unlock(lock)
      // NB: a checkpoint that cannot copy everything (a reader still needs a page) leaves the
      // rest for the next one; nothing is lost either way.
      var logged: Int32 = 0
      var copied: Int32 = 0
      sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, &logged, &copied)
      locked { state in
        state.running = false
        if copied > 0 { state.done += 1 }
      }
    }
  }
}
