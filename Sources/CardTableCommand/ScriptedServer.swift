import GameServer
import GameStore
import GameWire
import TerminalUI

#if canImport(Glibc)
  import Glibc
#endif

/// A game server in this process on a store in a temporary directory (removed with it), its
/// clock moved by the caller, its messages taken into a terminal ``Session``: what the terminal
/// benchmark and the renderer tests draw. Seeds it picks are 5.
public final class ScriptedServer {
  private let server: LocalServer
  private let directory: String
  public private(set) var session = Session()
  private var now = 0.0

  public init() throws {
    var template = Array("/tmp/cardtable-scripted-XXXXXX".utf8CString)
    directory =
      template.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) }
      } ?? "/tmp"
    server = LocalServer(store: try SQLiteStore.open(directory: directory), at: 0, newSeed: { 5 })
    send(["cmd": "hello"])
  }

  deinit {
    server.close(at: now)
    for suffix in ["", "-wal", "-shm"] { unlink(directory + "/" + SQLiteStore.fileName + suffix) }
    unlink(directory + "/cardtable.lock")
    rmdir(directory)
  }

  public func send(_ message: JSON) {
    server.send(message, at: now)
    take()
  }

  /// Moves the clock on by `seconds`, firing the timers that fall due.
  public func advance(_ seconds: Double) {
    now += seconds
    server.advance(to: now)
    take()
  }

  /// The room's player's action.
  public func act(_ action: JSON) {
    send(["cmd": "act", "action": action])
  }

  private func take() {
    for message in server.receive() { session.take(message, now: now) }
  }
}
