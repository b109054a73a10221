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

    public init(
      keepDays: Int = 30, sweepInterval: Double = 3_600, gracePeriod: Double = 30,
      roomsPerMinute: Double = 30, shared: Bool = false
    ) {
      self.keepDays = keepDays
      self.sweepInterval = sweepInterval
      self.gracePeriod = gracePeriod
      self.roomsPerMinute = roomsPerMinute
      self.shared = shared
    }
  }

  let host: any ServerHost
  let store: any GameStore
  let configuration: Configuration
  let newSeed: () -> UInt64
  let wallClock: () -> Int64
  let log: (String) -> Void
  var random: RandomSource

  var connections: [ClientID: Connection] = [:]
  var rooms: [RoomID: Room] = [:]
  private var wakes = WakeQueue()
  /// The wake time each room is queued for, so that a stale queue entry is skipped.
  var queued: [RoomID: Double] = [:]
  var armed: Double?
  var nextSweep: Double?
  private var stopping = false
  private var writer = JSONWriter(capacity: 16 * 1024)
  /// The host time of the latest call, for the calls that do not tell it.
  var lastNow = 0.0
  private let encoder = WireEncoder()

  /// One client connection: who it plays as, and the room it is in.
  struct Connection {
    var player: PlayerRecord?
    var token: PlayerToken?
    var room: RoomID?
    /// The client's address, when the transport knows it.
    var address: String?
  }

  /// The rooms each client address may still make now: tokens that come back at
  /// ``Configuration/roomsPerMinute``.
  var roomAllowance: [String: (tokens: Double, at: Double)] = [:]
  /// When each client address (or a connection without one) tried a table code that named no
  /// table, in the last minute: per address, so that reconnecting does not start afresh.
  var wrongCodes: [String: [Double]] = [:]

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
    self.store = store
    self.configuration = configuration
    self.newSeed = newSeed
    self.wallClock = wallClock
    self.random = RandomSource(next: random)
    self.log = log
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
    /// Messages refused, by error code.
    public var refusals: [String: Int] = [:]
  }

  public private(set) var counters = Counters()

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
      run(room, at: max(now, next.due))
      expireSeats(of: room, at: max(now, next.due))
      reschedule(room)
    }
    sweepIfDue(at: now)
    rearm()
  }

  /// Stops taking messages and puts every room away (each is already in the store).
  public func shutdown() {
    stopping = true
    for id in rooms.keys { store.release(id) }
    rooms.removeAll()
    queued.removeAll()
    wakes = WakeQueue()
    nextSweep = nil
    rearm()
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

  // MARK: Messages

  func handle(_ request: JSON, from client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    let name = try request.requiredString("cmd", in: "A message")
    switch name {
    case "hello":
      let token = request["token"]?.stringValue.flatMap(PlayerToken.init(rawValue:))
      let player = try identify(client, token: token)
      sendHello(client, player, reply: reply)
    case "new":
      try newRoom(request, for: client, at: now, reply: reply)
    case "open":
      guard let text = request["room"]?.stringValue else {
        throw .badRequest("open needs \"room\", the room's id from its link.")
      }
      guard let id = RoomID(rawValue: text) else { throw .noSuchRoom }
      try open(id, for: client, at: now, reply: reply)
    case "leave":
      try leaveSeat(client, at: now)
      leaveRoom(client)
      send(Left(reply: reply), to: client)
    case "host":
      try host(request, for: client, at: now, reply: reply)
    case "join":
      try join(request, for: client, at: now, reply: reply)
    case "tables":
      try listTables(for: client, reply: reply)
    case "rooms":
      try listRooms(for: client, reply: reply)
    case "scores":
      try scores(request, for: client, reply: reply)
    case "stats":
      try statistics(for: client, reply: reply)
    case "settings":
      try settings(request, for: client, reply: reply)
    default:
      try inRoom(name, request, from: client, at: now, reply: reply)
    }
  }

  /// The commands that act on the client's room.
  func inRoom(
    _ name: String, _ request: JSON, from client: ClientID, at now: Double, reply: JSON?
  ) throws(WireError) {
    let known = [
      "act", "restart", "results", "state", "view-at", "abandon", "seat", "unseat", "start",
    ]
    guard known.contains(name) || GameCatalog.commandNames.contains(name) else {
      throw .unknownCommand(name)
    }
    guard let id = connections[client]?.room, let room = rooms[id] else { throw .noGame }
    run(room, at: now)
    let key = connections[client]?.player?.key
    switch name {
    case "seat", "unseat", "start":
      try lobbyCommand(name, request, room, from: client, at: now, reply: reply)
      return
    default:
      break
    }
    guard let session = room.session else {
      if name == "state", let table = room.table {
        send(tableMessage(room, table, for: client, reply: reply), to: client)
        return
      }
      throw WireError(code: "not-started", message: "The table has not started yet.")
    }
    switch name {
    case "state":
      send(update(room, events: .empty, for: client, reply: reply), to: client)
      return
    case "results":
      let results: [JSON]
      do {
        results = try store.results(in: room.id).map { (try? JSON(parsing: $0.record)) ?? .null }
      } catch {
        log("cardtable: could not read the results of room \(room.id): \(error)")
        throw .storageUnavailable
      }
      send(Answer(cmd: "results", members: [("results", results)], reply: reply), to: client)
      return
    case "history":
      // NB: reads the log and changes nothing, so watchers and closed rooms answer it too.
      guard let answer = try session.command(name, request) else {
        throw .unknownCommand(name)
      }
      send(Answer(cmd: name, members: members(of: answer), reply: reply), to: client)
      return
    case "view-at":
      let version = try request.requiredInt("version", in: "view-at")
      let view = try session.view(at: version, for: room.viewer(of: key))
      send(
        Answer(cmd: "view-at", members: [("version", version), ("view", view)], reply: reply),
        to: client)
      return
    default:
      break
    }
    guard room.status != .abandoned else { throw .roomClosed }
    guard let seat = room.name(of: key) else { throw .watching }
    switch name {
    case "abandon":
      guard room.table == nil else {
        throw WireError(
          code: "not-alone", message: "A table is left with {\"cmd\":\"leave\"}, not abandoned.")
      }
      do {
        try room.abandon(in: store, at: now, wall: wallClock())
      } catch {
        throw storeFailed(room, error, doing: "abandon room")
      }
      send(Answer(cmd: "abandon", members: [("room", room.id.rawValue)], reply: reply), to: client)
      for other in room.clients { send(Closed(room: room.id.rawValue), to: other) }
      return
    case "restart":
      guard room.table == nil else {
        throw WireError(code: "not-alone", message: "A table's game cannot be dealt again.")
      }
      do {
        try room.restart(in: store, at: now, wall: wallClock())
      } catch {
        guard !store.holds(room.id) else { throw error }
        throw storeFailed(room, .leaseLost(path: "", room: room.id.rawValue), doing: "restart")
      }
      broadcast(room, events: .empty, reply: (client, reply))
      reschedule(room)
      return
    default:
      break
    }
    if room.isResuming(at: now), let resumesAt = room.resumesAt {
      throw .resuming(in: resumesAt - now)
    }
    let before = session.version
    if name == "act" {
      guard let action = request["action"], action.keys != nil else {
        throw .badRequest("act needs \"action\", an object such as {\"type\":\"flip\",\"card\":0}.")
      }
      if let named = action["player"]?.stringValue, PlayerID(named) != seat {
        throw WireError(
          code: "not-your-seat", message: "You play as \(seat) and cannot act for \(named).")
      }
      let events: EventBatch
      do {
        events = try session.perform(action, as: seat)
      } catch {
        refused(room, player: seat, code: error.code)
        throw error
      }
      try save(room, at: now)
      counters.actions += 1
      broadcast(room, events: events, reply: (client, reply))
      receipt(room, after: before, events: events)
    } else {
      guard let answer = try session.command(name, request) else {
        throw .unknownCommand(name)
      }
      try save(room, at: now)
      send(Answer(cmd: name, members: members(of: answer), reply: reply), to: client)
      if session.version != before { broadcast(room, events: .empty, reply: nil) }
    }
    reschedule(room)
  }

  /// A game command's answer without its `ok`, as the members of an `answer` message.
  func members(of answer: JSON) -> [(String, any Encodable)] {
    (answer.keys ?? []).filter { $0 != "ok" }.map { ($0, answer[$0] ?? .null) }
  }

  // MARK: Players

  /// The player of `client`: the one it said it was, or a new one with a new token (sent to it
  /// first with `hello`).
  @discardableResult
  func player(of client: ClientID) throws(WireError) -> PlayerRecord {
    if let player = connections[client]?.player { return player }
    let player = try identify(client, token: nil)
    sendHello(client, player, reply: nil)
    return player
  }

  func identify(_ client: ClientID, token given: PlayerToken?) throws(WireError)
    -> PlayerRecord
  {
    let token = given ?? PlayerToken.random(using: &random)
    let player: PlayerRecord
    do {
      player = try store.player(token, at: wallClock())
    } catch {
      log("cardtable: could not read a player: \(error)")
      throw .storageUnavailable
    }
    connections[client]?.player = player
    connections[client]?.token = token
    return player
  }

  func sendHello(_ client: ClientID, _ player: PlayerRecord, reply: JSON?) {
    guard let token = connections[client]?.token else { return }
    let settings = (try? JSON(parsing: player.settings)) ?? [:]
    send(Hello(token: token.rawValue, settings: settings, reply: reply), to: client)
  }

  // MARK: Rooms

  func newRoom(_ request: JSON, for client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    let owner = try player(of: client)
    // NB: `today: true` is the server's own date (UTC), so that everyone gets the same deal.
    let asked =
      request["today"] == true
      ? request.setting("today", to: .string(TodaysDeal.date(atMilliseconds: wallClock())))
      : request
    let new = try NewGame(asked, newSeed: newSeed)
    try mayMakeRoom(client, at: now)
    let later =
      new.seedChosen
      ? LaterSeeds(seed: new.seed) : LaterSeeds(key: (random.next(), random.next()))
    let session = try GameCatalog.start(new, later: later)
    let id = RoomID.random(using: &random)
    let wall = wallClock()
    let room = Room(
      id: id, owner: owner.key, game: session.game, session: session, table: nil,
      seedChosen: new.seedChosen, now: now, wall: wall)
    let actions = session.loggedActions(from: 0).enumerated().map { index, action in
      ActionRecord(
        index: index, time: action.time, at: wall, player: action.player.rawValue,
        automatic: action.automatic, action: action.action.text)
    }
    let results = session.loggedResults(from: 0, for: .solo).enumerated().map {
      index, result in
      ResultRecord(
        room: id, player: owner.key, ordinal: 0, index: index, game: result.game,
        options: result.options, seed: result.seed, score: result.score, moves: result.moves,
        ending: result.ending, winner: result.winner?.rawValue, won: result.won, start: wall,
        end: wall, duration: 0, practice: room.practice, replay: false, record: result.json.text)
    }
    let match = MatchRecord(
      ordinal: 0, game: session.game, options: session.deal.text, seed: session.seed,
      seedChosen: new.seedChosen, laterKey: [later.key.0, later.key.1], replay: false,
      started: wall)
    do {
      guard try store.claim(id) else { throw StoreError.leaseLost(path: "", room: id.rawValue) }
      try store.createRoom(
        NewRoom(
          id: id, owner: owner.key, match: match, actions: actions, results: results,
          status: room.status, created: wall))
    } catch {
      store.release(id)
      log("cardtable: could not create a room: \(error)")
      throw .storageUnavailable
    }
    enter(client, room, countdown: 0, reply: reply)
  }

  func open(_ id: RoomID, for client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    try player(of: client)
    if let room = rooms[id] {
      run(room, at: now)
      try seatOrWatch(client, at: room, now: now)
      enter(client, room, countdown: room.countdown(at: now), reply: reply)
      tellTable(room, arrived: client)
      return
    }
    let room: Room
    do {
      // NB: the lease first, then the room as the store has it: whoever ran it before has
      // saved everything it acknowledged.
      guard try store.claim(id) else { throw WireError.roomElsewhere }
      let countdown = try countdown(for: id)
      guard let loaded = try load(id, at: now, countdown: countdown) else {
        throw WireError.noSuchRoom
      }
      room = loaded
    } catch let error as WireError {
      store.release(id)
      throw error
    } catch {
      store.release(id)
      log("cardtable: could not open room \(id): \(error)")
      throw .storageUnavailable
    }
    rooms[id] = room
    try seatOrWatch(client, at: room, now: now)
    enter(client, room, countdown: room.countdown(at: now), reply: reply)
    tellTable(room, arrived: client)
  }

  /// Once `client` is in a table's room, the others learn of the new seat or watcher, with the
  /// newcomer counted as connected.
  private func tellTable(_ room: Room, arrived client: ClientID) {
    guard room.table != nil, room.clients.contains(client) else { return }
    broadcastTable(room, except: client)
  }

  /// Before `client` enters `room`: a seat at a table in its lobby, or a place among the
  /// watchers while there is one.
  private func seatOrWatch(_ client: ClientID, at room: Room, now: Double) throws(WireError) {
    if try takeSeat(client, at: room) {
      do {
        try room.persist(in: store, at: now, wall: wallClock(), tableChanged: true)
      } catch {
        throw storeFailed(room, error, doing: "seat a player at")
      }
      return
    }
    let key = connections[client]?.player?.key
    guard room.name(of: key) == nil else { return }
    let watchers = room.clients.filter { room.name(of: connections[$0]?.player?.key) == nil }
    if watchers.count >= Table.watcherLimit {
      if rooms[room.id] === room, room.clients.isEmpty {
        rooms[room.id] = nil
        store.release(room.id)
      }
      throw WireError(
        code: "room-full", message: "This game has as many watchers as it takes; try later.")
    }
  }

  /// The pause a room of this game takes when woken from the store: a real-time game's players
  /// need a moment before it runs again.
  func countdown(for id: RoomID) throws(WireError) -> Double {
    let record: RoomRecord?
    do {
      record = try store.room(id)
    } catch {
      log("cardtable: could not read room \(id): \(error)")
      throw .storageUnavailable
    }
    guard let record else { throw .noSuchRoom }
    guard record.status == .playing, record.match != nil else { return 0 }
    return GameCatalog.resumeCountdown(of: record.game)
  }

  /// Takes one of the rooms the client's address may make now, or refuses `too-many-rooms`.
  func mayMakeRoom(_ client: ClientID, at now: Double) throws(WireError) {
    guard let address = connections[client]?.address else { return }
    let burst = max(1, configuration.roomsPerMinute * 2)
    var allowance = roomAllowance[address] ?? (burst, now)
    allowance.tokens = min(
      burst, allowance.tokens + max(0, now - allowance.at) * configuration.roomsPerMinute / 60)
    allowance.at = now
    guard allowance.tokens >= 1 else {
      roomAllowance[address] = allowance
      throw WireError(
        code: "too-many-rooms",
        message: "Too many new games from your address; wait a minute and try again.")
    }
    allowance.tokens -= 1
    // NB: a full allowance is the default; only addresses that used some are kept.
    roomAllowance[address] = allowance.tokens >= burst ? nil : allowance
  }

  /// Wakes a room from the store: replays its current match through the rules.
  func load(_ id: RoomID, at now: Double, countdown: Double) throws -> Room? {
    guard let record = try store.room(id) else { return nil }
    let table = try record.table.map { stored throws(StoreError) in
      guard let table = Table(stored, game: record.game) else {
        throw StoreError.corrupt(path: "room \(id)", reason: "its table code is not a code")
      }
      return table
    }
    var session: (any GameSession)?
    if let match = record.match {
      let log = record.actions.map { action in
        LoggedAction(
          time: action.time, player: PlayerID(action.player), automatic: action.automatic,
          action: (try? JSON(parsing: action.action)) ?? .null)
      }
      let deal = (try? JSON(parsing: match.options)) ?? [:]
      session = try GameCatalog.restore(
        game: match.game, deal: deal, seed: match.seed, later: match.laterSeeds, log: log)
    }
    return Room(
      restoring: record, session: session, table: table, now: now, countdown: countdown)
  }

  /// Moves `client` into `room`: `joined`, then the table (at a table), then the room's
  /// update (once its game is dealt). The reply goes with the last of them.
  func enter(_ client: ClientID, _ room: Room, countdown: Double, reply: JSON?) {
    if connections[client]?.room != room.id { leaveRoom(client) }
    room.grace = configuration.gracePeriod
    rooms[room.id] = room
    connections[client]?.room = room.id
    room.add(client)
    let key = connections[client]?.player?.key
    let role = room.name(of: key) != nil ? "player" : "watcher"
    send(
      Joined(
        room: room.id.rawValue, game: room.game, role: role, status: room.status.rawValue,
        countdown: countdown), to: client)
    if let table = room.table {
      if let seat = table.seat(of: key), table.seats[seat].absentSince != nil {
        room.table?.seats[seat].absentSince = nil
        tellSeat(room, seat, connected: true, except: client)
        broadcastTable(room, except: client)
      }
      if let table = room.table {
        send(
          tableMessage(room, table, for: client, reply: room.session == nil ? reply : nil),
          to: client)
      }
    }
    if room.session != nil {
      send(update(room, events: .empty, for: client, reply: reply), to: client)
    }
    reschedule(room)
  }

  func leaveRoom(_ client: ClientID) {
    guard let id = connections[client]?.room else { return }
    connections[client]?.room = nil
    guard let room = rooms[id] else { return }
    room.remove(client)
    seatMayBeAbsent(room, player: connections[client]?.player?.key)
    if room.clients.isEmpty {
      // NB: everything it did is in the store; its clock stops until it is opened again (here
      // or, sharing a database, by whichever server takes its lease next).
      rooms[id] = nil
      queued[id] = nil
      store.release(id)
    }
  }

  /// Runs a room's due timers, saves what they did and pushes it to its clients; a store that
  /// fails leaves the timers to run again a moment later.
  func run(_ room: Room, at now: Double) {
    let before = room.session?.version ?? 0
    let events = room.catchUp(to: now)
    guard events.count > 0 else { return }
    do {
      try room.persist(in: store, at: now, wall: wallClock())
    } catch {
      _ = storeFailed(room, error, doing: "save room")
      return
    }
    counters.timers += 1
    broadcast(room, events: events, reply: nil)
    receipt(room, after: before, events: events)
  }

  /// Saves a participant's change, or refuses it (the room is back as the store has it).
  func save(_ room: Room, at now: Double) throws(WireError) {
    do {
      try room.persist(in: store, at: now, wall: wallClock())
    } catch {
      throw storeFailed(room, error, doing: "save room")
    }
  }

  /// Says why a room's change could not be saved, and what the client is told: when another
  /// server has taken the room's lease, the room leaves this one — its clients are told
  /// `room-elsewhere` and connect again by its address — else `storage-unavailable`.
  func storeFailed(_ room: Room, _ error: StoreError, doing what: String) -> WireError {
    log("cardtable: could not \(what) \(room.id): \(error)")
    guard !store.holds(room.id) else { return .storageUnavailable }
    if rooms[room.id] === room {
      rooms[room.id] = nil
      queued[room.id] = nil
    }
    for client in room.clients {
      room.remove(client)
      connections[client]?.room = nil
      send(ErrorMessage(error: .roomElsewhere), to: client)
    }
    return .roomElsewhere
  }

  // MARK: The player's records

  func listRooms(for client: ClientID, reply: JSON?) throws(WireError) {
    let owner = try player(of: client)
    let rooms: [RoomSummary]
    do {
      rooms = try store.openRooms(of: owner.key, limit: Self.listedRooms)
    } catch {
      log("cardtable: could not list rooms: \(error)")
      throw .storageUnavailable
    }
    let list: [JSON] = rooms.map { room in
      let deal = (try? JSON(parsing: room.options)) ?? [:]
      return [
        "room": .string(room.id.rawValue), "game": .string(room.game),
        "options": deal["options"] ?? [:], "version": JSON(room.version),
        "created": JSON(room.created), "updated": JSON(room.updated),
      ]
    }
    send(Answer(cmd: "rooms", members: [("rooms", list)], reply: reply), to: client)
  }

  func scores(_ request: JSON, for client: ClientID, reply: JSON?) throws(WireError) {
    let owner = try player(of: client)
    let game = request["game"]?.stringValue
    if let game, !GameCatalog.names.contains(game) { throw .unknownGame(game) }
    let sortName = request["sort"]?.stringValue ?? ScoreSort.date.rawValue
    guard let sort = ScoreSort(rawValue: sortName) else {
      throw .badRequest(
        "scores: \"sort\" must be one of \(ScoreSort.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(sortName)\"."
      )
    }
    let results = try records(of: owner, game: game)
    let order = { (result: ResultRecord) in
      GameCatalog.describe(game: result.game, options: result.options)?.order ?? .none
    }
    let entries = HighScores.list(results, sort: sort, order: order, limit: Self.listedScores)
    let better: JSON =
      switch game.flatMap({ GameCatalog.scoreOrder(of: $0) }) {
      case .higherIsBetter?: "higher"
      case .lowerIsBetter?: "lower"
      default: .null
      }
    let list: [JSON] = entries.map { entry in
      let result = entry.result
      return [
        "game": .string(result.game), "options": .string(result.options),
        "score": JSON(result.score), "moves": JSON(result.moves), "start": JSON(result.start),
        "end": JSON(result.end), "duration": JSON(result.duration),
        "room": .string(result.room.rawValue), "marks": JSON(entry.marks.map(\.rawValue)),
      ]
    }
    send(
      Answer(
        cmd: "scores",
        members: [
          ("game", game.map(JSON.string) ?? .null), ("sort", sort.rawValue), ("better", better),
          ("scores", list),
        ], reply: reply), to: client)
  }

  func statistics(for client: ClientID, reply: JSON?) throws(WireError) {
    let owner = try player(of: client)
    let table = HighScores.statistics(try records(of: owner, game: nil)) { result in
      GameCatalog.describe(game: result.game, options: result.options)
        ?? (result.options, .none)
    }
    let list: [JSON] = table.map { row in
      [
        "game": .string(row.game), "options": .string(row.options), "played": JSON(row.played),
        "won": JSON(row.won), "bestScore": row.bestScore.map { JSON($0) } ?? .null,
        "bestTime": row.bestTime.map { JSON($0) } ?? .null, "streak": JSON(row.streak),
        "bestStreak": JSON(row.bestStreak),
      ]
    }
    send(Answer(cmd: "stats", members: [("stats", list)], reply: reply), to: client)
  }

  func records(of owner: PlayerRecord, game: String?) throws(WireError) -> [ResultRecord] {
    do {
      return try store.results(of: owner.key, game: game)
    } catch {
      log("cardtable: could not read results: \(error)")
      throw .storageUnavailable
    }
  }

  func settings(_ request: JSON, for client: ClientID, reply: JSON?) throws(WireError) {
    var owner = try player(of: client)
    var settings = (try? JSON(parsing: owner.settings)) ?? [:]
    if let given = request["settings"], given != .null {
      settings = try PlayerSettings.merge(given, into: settings)
      do {
        try store.saveSettings(settings.text, of: owner.key)
      } catch {
        log("cardtable: could not save settings: \(error)")
        throw .storageUnavailable
      }
      owner.settings = settings.text
      connections[client]?.player = owner
    }
    send(Answer(cmd: "settings", members: [("settings", settings)], reply: reply), to: client)
  }

  // MARK: Sending

  func broadcast(_ room: Room, events: EventBatch, reply: (ClientID, JSON?)?) {
    guard room.session != nil else { return }
    for client in room.clients {
      send(
        update(room, events: events, for: client, reply: reply?.0 == client ? reply?.1 : nil),
        to: client)
    }
  }

  /// The update `client` gets: its own view and its own events.
  private func update(_ room: Room, events: EventBatch, for client: ClientID, reply: JSON?)
    -> Update
  {
    let viewer = room.viewer(of: connections[client]?.player?.key)
    // NB: only called for a room whose game is dealt.
    guard let session = room.session else { preconditionFailure("an update of a lobby") }
    return Update(
      game: session.game, seed: room.seedChosen || session.isFinished ? session.seed : nil,
      version: session.version, events: events.shown(to: viewer),
      view: session.view(for: viewer), reply: reply)
  }

  func send(_ message: some Encodable, to client: ClientID) {
    writer.removeAll()
    do {
      try encoder.encode(message, into: &writer)
    } catch {
      // NB: no message of the protocol throws when encoded; say so rather than stay silent.
      writer.removeAll()
      writer.raw(
        #"{"type":"error","error":{"code":"internal","message":"The message could not be written."}}"#
      )
    }
    writer.bytes.withUnsafeBytes { host.send($0, to: client) }
  }

  // MARK: Timers

  func reschedule(_ room: Room) {
    guard rooms[room.id] === room else { return }
    let due = room.nextWake
    if queued[room.id] != due {
      queued[room.id] = due
      if let due { wakes.insert(WakeQueue.Entry(due: due, room: room.id)) }
    }
  }

  private func sweepIfDue(at now: Double) {
    guard !stopping else { return }
    guard let due = nextSweep else {
      nextSweep = now + configuration.sweepInterval
      return
    }
    guard now >= due else { return }
    nextSweep = now + configuration.sweepInterval
    closeIdleRooms(at: now)
    // NB: an allowance refills within two minutes; older ones are full again.
    roomAllowance = roomAllowance.filter { now - $0.value.at < 120 }
  }

  /// Keeps the host's one timer at the earliest due room (or the next sweep), dropping stale
  /// entries first.
  private func rearm() {
    while let next = wakes.first, queued[next.room] != next.due { wakes.removeFirst() }
    let due = [wakes.first?.due, nextSweep].compactMap { $0 }.min()
    guard due != armed else { return }
    armed = due
    host.wake(at: due)
  }
}

/// A random number generator made of a function, so that tests can give their own.
struct RandomSource: RandomNumberGenerator {
  let nextValue: () -> UInt64

  init(next: @escaping () -> UInt64) { nextValue = next }

  mutating func next() -> UInt64 { nextValue() }
}

/// Rooms waiting for their timers, earliest first: a binary min-heap.
struct WakeQueue {
  struct Entry {
    var due: Double
    var room: RoomID
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
