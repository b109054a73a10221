import CardTableCore
import GameWire

/// What the game server needs from the program that runs it: a way to send, and one timer.
///
/// The WebSocket bridge implements it on the web server's loop thread; tests implement it
/// with a recorder and call ``GameServer/wake(at:)`` themselves.
public protocol ServerHost: AnyObject {
  /// Sends one JSON text message (UTF-8) to a client; the bytes are valid only during the call.
  func send(_ message: UnsafeRawBufferPointer, to client: ClientID)
  /// Asks to be woken (``GameServer/wake(at:)``) at host time `time`, replacing any earlier
  /// request; nil cancels it.
  func wake(at time: Double?)
}

/// Why the transport refused a client's message before it reached a room.
public enum RefusedMessage: Sendable, Equatable {
  case tooLarge(bytes: Int, limit: Int)
  case tooFast
  case notText
}

/// Runs every client's room: one room per connection, each message handled to the end before
/// the next, all on the caller's one thread.
///
/// The host calls every method from one thread (the web server's loop thread) and tells the
/// time; a message is answered in the same call, with no hop to another thread. The rooms'
/// timers wait in one queue ordered by due time, so the host keeps a single timer for all of
/// them, whatever the number of rooms.
public final class GameServer {
  private let host: any ServerHost
  private let newSeed: () -> UInt64
  private var rooms: [ClientID: RoomCore] = [:]
  private var wakes = WakeQueue()
  /// The wake time each room is queued for, so that a stale queue entry is skipped.
  private var queued: [ClientID: Double] = [:]
  private var armed: Double?

  /// - Parameters:
  ///   - host: where messages go and who keeps the timer.
  ///   - newSeed: where seeds come from when a client gives none.
  public init(
    host: any ServerHost, newSeed: @escaping () -> UInt64 = { UInt64.random(in: .min ... .max) }
  ) {
    self.host = host
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

  /// Hands a room's messages to the host.
  private var deliver: Deliver {
    { [host] client, bytes in host.send(bytes, to: client) }
  }

  /// The number of open rooms.
  public var roomCount: Int { rooms.count }

  /// A client connected: its room opens and greets it.
  public func connected(_ client: ClientID) {
    let room = RoomCore(newSeed: newSeed)
    rooms[client] = room
    room.join(client, deliver: deliver)
  }

  /// A client's text message (UTF-8), received at host time `now`.
  public func received(_ text: UnsafeRawBufferPointer, from client: ClientID, at now: Double) {
    guard let room = rooms[client] else { return }
    room.receive(text, from: client, at: now, deliver: deliver)
    reschedule(client, room)
  }

  /// ``received(_:from:at:)`` for a text.
  public func received(_ text: String, from client: ClientID, at now: Double) {
    var text = text
    text.withUTF8 { received(UnsafeRawBufferPointer($0), from: client, at: now) }
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
    var text = RoomCore.errorText(error)
    text.withUTF8 { host.send(UnsafeRawBufferPointer($0), to: client) }
  }

  /// A client went away: its room and timers end.
  public func disconnected(_ client: ClientID) {
    rooms[client] = nil
    queued[client] = nil
    rearm()
  }

  /// Runs every room whose timers fell due by host time `now`.
  public func wake(at now: Double) {
    armed = nil
    while let next = wakes.first, next.due <= now {
      wakes.removeFirst()
      guard queued[next.client] == next.due, let room = rooms[next.client] else { continue }
      queued[next.client] = nil
      room.wake(at: max(now, next.due), deliver: deliver)
      reschedule(next.client, room, rearming: false)
    }
    rearm()
  }

  /// Ends every room.
  public func shutdown() {
    rooms.removeAll()
    queued.removeAll()
    wakes = WakeQueue()
    rearm()
  }

  private func reschedule(_ client: ClientID, _ room: RoomCore, rearming: Bool = true) {
    let due = room.nextWake
    if queued[client] != due {
      queued[client] = due
      if let due { wakes.insert(WakeQueue.Entry(due: due, client: client)) }
    }
    if rearming { rearm() }
  }

  /// Keeps the host's one timer at the earliest due room, dropping stale entries first.
  private func rearm() {
    while let next = wakes.first, queued[next.client] != next.due { wakes.removeFirst() }
    let due = wakes.first?.due
    guard due != armed else { return }
    armed = due
    host.wake(at: due)
  }
}

/// Rooms waiting for their timers, earliest first: a binary min-heap.
struct WakeQueue {
  struct Entry {
    var due: Double
    var client: ClientID
  }

  private var heap: [Entry] = []

  var first: Entry? { heap.first }
  var count: Int { heap.count }

  /// - Complexity: O(log n).
  mutating func insert(_ entry: Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].due < heap[parent].due else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  /// - Complexity: O(log n).
  mutating func removeFirst() {
    guard let last = heap.popLast() else { return }
    guard !heap.isEmpty else { return }
    heap[0] = last
    var parent = 0
    while true {
      let (left, right) = (2 * parent + 1, 2 * parent + 2)
      var smallest = parent
      if left < heap.count, heap[left].due < heap[smallest].due { smallest = left }
      if right < heap.count, heap[right].due < heap[smallest].due { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
