import CardTableCore
import GameStore
import GameWire

#if canImport(Glibc)
  import Glibc
#endif

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

/// Identifies one client connection, whatever the transport.
public struct ClientID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt64
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }
  public var description: String { "client-\(rawValue)" }
}

/// Why the transport refused a client's message before it reached a room.
public enum RefusedMessage: Sendable, Equatable {
  case tooLarge(bytes: Int, limit: Int)
  case tooFast
  case notText
}

/// Runs every room (docs/PROTOCOL.md): players known by their tokens, rooms with links kept in
/// a ``GameStore``, each message handled to the end before the next, all on the caller's one
/// thread.
///
/// The host calls every method from one thread (the web server's loop thread) and tells the
/// time; a message is answered in the same call. Every accepted action is in the store before
/// its update is sent. Rooms live in memory while a client has them open; their timers wait in
/// one queue ordered by due time, so the host keeps a single timer for all of them.
public final class GameServer {
  /// The protocol's version, in `welcome`.
  public static let protocolVersion = 2
  /// How many rooms `rooms` lists, and how many scores `scores` does.
  static let listedRooms = 50
  static let listedScores = 200

  /// What a server keeps and how long.
  public struct Configuration: Sendable {
    /// Unfinished rooms untouched for this many days are closed as abandoned.
    public var keepDays: Int
    /// How often the server looks for such rooms, in seconds.
    public var sweepInterval: Double
    /// How long a seated player's connection may be gone before the table makes them leave.
    public var gracePeriod: Double
    /// How many rooms and tables one client address may make a minute (and at once, after a
    /// quiet time, twice as many).
    public var roomsPerMinute: Double
    /// Whether other servers share the store (each room run by whichever holds its lease):
    /// `welcome` tells the pages to keep a room's connection on its own address.
    public var shared: Bool
    /// Whether the actions of one turn of the host's loop are saved together, in one
    /// transaction at ``GameServer/endOfTurn()``, and only then told (docs/ARCHITECTURE.md
    /// "Group commit"); else each is saved before its call returns.
    public var groupCommit: Bool

    public init(
      keepDays: Int = 30, sweepInterval: Double = 3_600, gracePeriod: Double = 30,
      roomsPerMinute: Double = 30, shared: Bool = false, groupCommit: Bool = false
    ) {
      self.keepDays = keepDays
      self.sweepInterval = sweepInterval
      self.gracePeriod = gracePeriod
      self.roomsPerMinute = roomsPerMinute
      self.shared = shared
      self.groupCommit = groupCommit
    }
  }

  let host: any ServerHost
  /// The store, through the group commit (which, with ``Configuration/groupCommit`` off, only
  /// ever writes at once).
  let store: GroupCommit
  let configuration: Configuration
  let newSeed: () -> UInt64
  let wallClock: () -> Int64
  let log: (String) -> Void
  var random: RandomSource

  var connections = ClientTable<Connection>()
  var rooms: [RoomID: Room] = [:]
  var wakes = WakeQueue()
  /// The wake time each room is queued for, so that a stale queue entry is skipped.
  var queued: [RoomID: Double] = [:]
  var armed: Double?
  var nextSweep: Double?
  var stopping = false
  var writer = JSONWriter(capacity: 16 * 1024)
  /// The host time of the latest call, for the calls that do not tell it.
  var lastNow = 0.0
  let encoder = WireEncoder()

  /// One client connection: who it plays as, and the room it is in.
  ///
  /// NB: a class: reading one field through the dictionary (`connections[client]?.room`,
  /// several times for every message sent) copied the whole value, retaining every field.
  final class Connection {
    var player: PlayerRecord?
    var token: PlayerToken?
    var room: RoomID?
    /// The client's address, when the transport knows it.
    let address: String?

    init(address: String?) {
      self.address = address
    }
  }

  /// The rooms each client address may still make now: tokens that come back at
  /// ``Configuration/roomsPerMinute``.
  var roomAllowance: [String: (tokens: Double, at: Double)] = [:]
  /// When each client address (or a connection without one) tried a table code that named no
  /// table, in the last minute: per address, so that reconnecting does not start afresh.
  var wrongCodes: [String: [Double]] = [:]
  /// When each player last made transfer codes (host time), for ``transfersPerHour``.
  var transfersMade: [PlayerKey: [Double]] = [:]
  /// What waits for the group commit: the rooms staged, the messages that tell of them, the
  /// requests they answer.
  var batch = Batch()
  /// Whether the call being handled stages its rooms' changes (a move, with group commit on).
  var staging = false
  /// The request being handled, until its answer is sent or waits in the ``batch``.
  var answering: (client: ClientID, reply: JSON?)?
  /// When each client address tried a transfer code that named none, in the last minute.
  var wrongTransfers: [String: [Double]] = [:]

  /// - Parameters:
  ///   - host: where messages go and who keeps the timer.
  ///   - store: where rooms and records are kept.
  ///   - configuration: what the server keeps and how long.
  ///   - newSeed: where seeds come from when a client gives none.
  ///   - wallClock: milliseconds since 1970, for the records.
  ///   - random: where room ids, tokens and the later deals' secrets come from (by default the
  ///     system's secure source).
  ///   - log: where the server says what went wrong (a store that fails).
  public init(
    host: any ServerHost, store: any GameStore, configuration: Configuration = Configuration(),
    newSeed: @escaping () -> UInt64 = { UInt64.random(in: .min ... .max) },
    wallClock: @escaping () -> Int64 = GameServer.millisecondsSince1970,
    random: @escaping () -> UInt64 = { UInt64.random(in: .min ... .max) },
    log: @escaping (String) -> Void = { _ in }
  ) {
    self.host = host
    self.store = GroupCommit(store)
    self.configuration = configuration
    self.newSeed = newSeed
    self.wallClock = wallClock
    self.random = RandomSource(next: random)
    self.log = log
    self.store.settled = { [unowned self] failures in settle(failures) }
  }

  /// Seconds on the process's monotonic clock.
  public static let monotonicSeconds: @Sendable () -> Double = {
    let start = ContinuousClock.now
    return { @Sendable in
      let elapsed = (ContinuousClock.now - start).components
      return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }
  }()

  /// Milliseconds since 1970 on the system's clock.
  public static let millisecondsSince1970: @Sendable () -> Int64 = {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
  }

  /// The number of rooms in memory (open in some client).
  public var roomCount: Int { rooms.count }

  /// The number of connected clients.
  public var clientCount: Int { connections.count }

  /// The rooms in memory that are tables several share.
  public var tableCount: Int { rooms.values.count { $0.table != nil } }

  /// What the server has done since it started (`/metrics`, docs/DEPLOY.md).
  public struct Counters: Sendable, Equatable {
    /// Connections opened.
    public var connections = 0
    /// Messages read from clients.
    public var messages = 0
    /// Players' actions accepted (and saved).
    public var actions = 0
    /// Timers that moved a game on (and were saved).
    public var timers = 0
    /// Group commits made: each one transaction for every change staged in a turn of the loop.
    public var groupCommits = 0
    /// Messages refused, by error code.
    public var refusals: [String: Int] = [:]
  }

  public internal(set) var counters = Counters()

  // MARK: The host's calls

  /// A client connected: it is greeted with the protocol version and the game list.
  public func connected(_ client: ClientID, at now: Double, address: String? = nil) {
    lastNow = now
    connections[client] = Connection(address: address)
    counters.connections += 1
    send(Welcome(shared: configuration.shared ? true : nil), to: client)
    sweepIfDue(at: now)
    rearm()
  }

  /// A client's text message (UTF-8), received at host time `now`.
  public func received(_ text: UnsafeRawBufferPointer, from client: ClientID, at now: Double) {
    guard connections[client] != nil, !stopping else { return }
    lastNow = now
    counters.messages += 1
    let actions = counters.actions
    var reply: JSON?
    do throws(WireError) {
      let request: JSON
      do {
        request = try JSON(parsing: text)
      } catch {
        throw .invalidJSON(error)
      }
      guard request.keys != nil else {
        throw .badRequest("A message must be a JSON object such as {\"cmd\":\"state\"}.")
      }
      reply = request["id"]
      try handle(request, from: client, at: now, reply: reply)
    } catch {
      counters.refusals[error.code, default: 0] += 1
      send(ErrorMessage(error: error, reply: reply), to: client)
    }
    handled(client, reply: reply, actions: actions)
    sweepIfDue(at: now)
    rearm()
  }

  /// ``received(_:from:at:)`` for a text.
  public func received(_ text: String, from client: ClientID, at now: Double) {
    var text = text
    text.withUTF8 { received(UnsafeRawBufferPointer($0), from: client, at: now) }
  }

  /// The transport dropped a message: the client is told why; nothing else happens.
  public func refused(_ client: ClientID, reason: RefusedMessage) {
    // NB: the refusal is about the message, not the room: it must not wait for, or be dropped
    // with, the room's commit.
    store.commit()
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
    counters.refusals[error.code, default: 0] += 1
    send(ErrorMessage(error: error), to: client)
  }

  /// A client went away at host time `now` (by default the latest call's): it leaves its room,
  /// which is put away when nobody is left in it; at a table its seat waits for it a while.
  public func disconnected(_ client: ClientID, at now: Double? = nil) {
    if let now { lastNow = now }
    store.commit()
    leaveRoom(client)
    connections[client] = nil
    rearm()
  }

  /// Runs every room whose timers fell due by host time `now`, saving and pushing what they did.
  public func wake(at now: Double) {
    lastNow = now
    armed = nil
    while let next = wakes.first, next.due <= now {
      wakes.removeFirst()
      guard queued[next.room] == next.due, let room = rooms[next.room] else { continue }
      queued[next.room] = nil
      staging = configuration.groupCommit
      run(room, at: max(now, next.due))
      staging = false
      expireSeats(of: room, at: max(now, next.due))
      reschedule(room)
    }
    sweepIfDue(at: now)
    rearm()
  }

  /// Stops taking messages and puts every room away (each is already in the store).
  public func shutdown() {
    store.commit()
    stopping = true
    for id in rooms.keys { store.release(id) }
    rooms.removeAll()
    queued.removeAll()
    wakes = WakeQueue()
    nextSweep = nil
    rearm()
  }

  /// The host's loop ended a turn: the changes staged since the last are saved in one
  /// transaction, then what they did is told — or, when the store refuses them, each is undone
  /// and every request they answer is refused (`storage-unavailable`). With
  /// ``Configuration/groupCommit`` off nothing ever waits for it.
  public func endOfTurn() {
    store.commit()
  }

  /// Closes as abandoned the unfinished rooms nobody has changed for ``Configuration/keepDays``
  /// days (and records their games so); returns how many it closed.
  @discardableResult
  public func closeIdleRooms(at now: Double) -> Int {
    let wall = wallClock()
    let before = wall - Int64(configuration.keepDays) * 86_400_000
    var closed = 0
    let idle: [RoomID]
    do {
      idle = try store.idleRooms(before: before, limit: 1_000)
    } catch {
      log("cardtable: could not look for idle rooms: \(error)")
      return 0
    }
    for id in idle where rooms[id] == nil {
      // NB: a room another server runs is not idle there; it is left alone.
      guard (try? store.claim(id)) == true else { continue }
      defer { store.release(id) }
      do {
        guard let room = try load(id, at: now, countdown: 0) else { continue }
        // NB: a table nobody started is simply closed; an abandoned game records itself.
        try room.abandon(in: store, at: now, wall: wall)
        closed += 1
      } catch {
        log("cardtable: could not close idle room \(id): \(error)")
      }
    }
    return closed
  }
}
