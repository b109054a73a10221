import CardTableCore
import GameWire
import Synchronization

/// Where the game server's messages go: a WebSocket server, a test's recorder.
public protocol Transport: Sendable {
  /// Sends one text message; may be called from any thread.
  func send(_ text: String, to client: ClientID)
}

/// Why the transport refused a client's message before it reached a room.
public enum RefusedMessage: Sendable, Equatable {
  case tooLarge(bytes: Int, limit: Int)
  case tooFast
  case notText
}

/// Runs every client's room: one room per connection, each served by its own task that takes
/// the room's inputs in the order they arrived, so no two inputs of a room ever interleave.
///
/// The transport calls ``connected(_:)``, ``received(_:from:)`` and ``disconnected(_:)`` from
/// its own thread; they return at once.
public final class GameServer: Sendable {
  private enum Input: Sendable {
    case joined
    case message(String)
    case wake(generation: Int)
  }

  private let transport: any Transport
  private let clock: @Sendable () -> Double
  private let newSeed: @Sendable () -> UInt64
  private let rooms = Mutex<[ClientID: AsyncStream<Input>.Continuation]>([:])

  /// - Parameters:
  ///   - clock: the host's clock in seconds (monotonic); timers are measured against it.
  ///   - newSeed: where seeds come from when a client gives none.
  public init(
    transport: any Transport, clock: @escaping @Sendable () -> Double = GameServer.monotonicSeconds,
    newSeed: @escaping @Sendable () -> UInt64 = { UInt64.random(in: .min ... .max) }
  ) {
    self.transport = transport
    self.clock = clock
    self.newSeed = newSeed
  }

  /// Seconds on the process's monotonic clock.
  public static let monotonicSeconds: @Sendable () -> Double = {
    let start = ContinuousClock.now
    return { @Sendable in
      let elapsed = (ContinuousClock.now - start).components
      return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }
  }()

  /// The number of open rooms.
  public var roomCount: Int { rooms.withLock { $0.count } }

  /// A client connected: its room opens and greets it.
  public func connected(_ client: ClientID) {
    let (stream, continuation) = AsyncStream<Input>.makeStream()
    rooms.withLock { $0[client] = continuation }
    let transport = self.transport
    let clock = self.clock
    let newSeed = self.newSeed
    Task.detached {
      await GameServer.serve(
        client, inputs: stream, continuation: continuation, transport: transport, clock: clock,
        newSeed: newSeed)
    }
    continuation.yield(.joined)
  }

  /// A client's text message.
  public func received(_ text: String, from client: ClientID) {
    _ = rooms.withLock { $0[client] }?.yield(.message(text))
  }

  /// The transport dropped a message: the client is told why; nothing else happens.
  public func refused(_ client: ClientID, reason: RefusedMessage) {
    let error: WireError
    switch reason {
    case .tooLarge(let bytes, let limit):
      error = WireError(
        code: "too-large", message: "A message of \(bytes) bytes is over the limit of \(limit).")
    case .tooFast:
      error = WireError(code: "too-fast", message: "Too many messages; slow down.")
    case .notText:
      error = WireError(code: "bad-request", message: "Messages must be JSON text frames.")
    }
    transport.send(RoomCore.error(error).text, to: client)
  }

  /// A client went away: its room and timers end.
  public func disconnected(_ client: ClientID) {
    rooms.withLock { $0.removeValue(forKey: client) }?.finish()
  }

  /// Ends every room.
  public func shutdown() {
    let all = rooms.withLock { rooms in
      defer { rooms.removeAll() }
      return Array(rooms.values)
    }
    for continuation in all { continuation.finish() }
  }

  private static func serve(
    _ client: ClientID, inputs: AsyncStream<Input>, continuation: AsyncStream<Input>.Continuation,
    transport: any Transport, clock: @escaping @Sendable () -> Double,
    newSeed: @escaping @Sendable () -> UInt64
  ) async {
    let room = RoomCore(newSeed: newSeed)
    var generation = 0
    var timer: Task<Void, Never>?
    defer { timer?.cancel() }
    for await input in inputs {
      let outgoing: [Outgoing]
      switch input {
      case .joined:
        outgoing = room.join(client)
      case .message(let text):
        outgoing = room.receive(text, from: client, at: clock())
      case .wake(let fired):
        guard fired == generation else { continue }
        outgoing = room.wake(at: clock())
      }
      for message in outgoing { transport.send(message.message.text, to: message.client) }
      // NB: re-arm one timer for the room's next due moment; older timers become stale.
      generation += 1
      timer?.cancel()
      timer = nil
      if let due = room.nextWake {
        let delay = max(0, due - clock())
        let armed = generation
        timer = Task {
          try? await Task.sleep(for: .seconds(delay))
          if !Task.isCancelled { continuation.yield(.wake(generation: armed)) }
        }
      }
    }
  }
}
