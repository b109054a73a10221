import GameWire

/// A connection to a game server: the protocol's messages (docs/PROTOCOL.md) both ways.
///
/// The terminal is a client like the browser: whether the server runs in this process over the
/// data directory (`cardtable play`) or across the network (`cardtable join`), the screens see
/// only the messages. Every call comes from the terminal's one thread.
public protocol Link: AnyObject {
  /// Sends one client message.
  func send(_ message: JSON)
  /// The server's messages that arrived since the last call, oldest first.
  func receive() -> [JSON]
  /// The descriptors to wait on for the link to have something to do (a socket), if any.
  var descriptors: [Int32] { get }
  /// When the link must be serviced next without a descriptor being ready (a room's timer),
  /// in seconds on ``Clock/now``.
  var deadline: Double? { get }
  /// Does what is due at `now`: reads what arrived, fires the timers that are due, reconnects.
  func service(now: Double)
  /// What the link says about its connection, for the status line (`reconnecting…`), or nil
  /// while it is well.
  var trouble: String? { get }
  /// Ends the connection.
  func close()
}

/// The process's monotonic clock, in seconds.
public enum Clock {
  private static let start = ContinuousClock.now

  public static func now() -> Double {
    let elapsed = (ContinuousClock.now - start).components
    return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
  }
}
