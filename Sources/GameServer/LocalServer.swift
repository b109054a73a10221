import GameStore
import GameWire

/// A game server in this process for one client, with the host's part done here: what
/// `cardtable play` runs over the data directory when no `cardtable serve` holds it, and what
/// benchmarks and tests drive on a clock of their own. Messages go in as JSON values and come
/// back parsed; the one timer is ``deadline``, fired by ``advance(to:)``.
public final class LocalServer: ServerHost {
  private var server: GameServer?
  private var outbox: [JSON] = []
  /// When the server wants to be woken next, on the caller's clock.
  public private(set) var deadline: Double?
  private let client = ClientID(1)

  /// Connects the one client at `now`.
  public init(
    store: any GameStore, at now: Double, newSeed: (() -> UInt64)? = nil,
    log: @escaping (String) -> Void = { _ in }
  ) {
    let server =
      if let newSeed {
        GameServer(host: self, store: store, newSeed: newSeed, log: log)
      } else {
        GameServer(host: self, store: store, log: log)
      }
    self.server = server
    server.connected(client, at: now)
  }

  /// The client's message, received at `now`.
  public func send(_ message: JSON, at now: Double) {
    Array(message.text.utf8).withUnsafeBytes { server?.received($0, from: client, at: now) }
  }

  /// What the server sent since the last call, oldest first.
  public func receive() -> [JSON] {
    defer { outbox.removeAll() }
    return outbox
  }

  /// On a real clock: wakes the server at `now` when its timer is due (every room's due timer
  /// runs in that one wake).
  public func wakeIfDue(at now: Double) {
    guard let due = deadline, due <= now else { return }
    deadline = nil
    server?.wake(at: now)
  }

  /// On a clock of the caller's own: fires every timer due by `end`, each at its own time, as
  /// a host's timer would have.
  public func advance(to end: Double) {
    while let due = deadline, due <= end {
      deadline = nil
      server?.wake(at: due)
    }
  }

  /// The client leaves and the server stops.
  public func close(at now: Double) {
    server?.disconnected(client, at: now)
    server?.shutdown()
    server = nil
  }

  // MARK: ServerHost

  public func send(_ message: UnsafeRawBufferPointer, to client: ClientID) {
    if let parsed = try? JSONReader.parse(message) { outbox.append(parsed) }
  }

  public func wake(at time: Double?) { deadline = time }
}
