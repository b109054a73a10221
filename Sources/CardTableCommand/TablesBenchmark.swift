import CEpoll
import CardTableCore
import GameWire
import TerminalUI

#if canImport(Glibc)
  import Glibc
#endif

/// `cardtable bench tables`: N tables of real WebSocket clients playing a game together
/// against a `cardtable serve` of this build, every client driven from this one thread (epoll
/// and a timer heap), so that thousands of tables are measured with the client well under the
/// server's CPU. It prints actions/s, action → last seat p50/p95/p99, the server's CPU per
/// action (from /proc), its memory, and the client's own CPU; it stops by itself.
public enum TablesBenchmark {
  public struct Options: Equatable, Sendable {
    public var rooms = 250
    public var seats = 4
    public var game = "snap"
    /// Seconds of measured play, after the deal's pause.
    public var seconds = 20.0
    /// `serve --commit`: `turn` (group commit) or `each`.
    public var commit = "turn"
    /// Where the server keeps the games: `sqlite` (a fresh data directory) or `memory`
    /// (`serve --in-memory`: the store off, to measure what it costs).
    public var store = "sqlite"
    /// Tables set up at once.
    public var batch = 100

    public init() {}
  }

  public static let games = ["snap", "memory", "concentration", "set"]

  public static func run(_ options: Options) -> Int32 {
    #if DEBUG
      printError(
        "bench tables: this is a debug build; figures are only meaningful with -c release.")
    #endif
    // NB: a descriptor per client here, and one per client in the server (a process of its
    // own, which inherits the limit).
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    let needed = options.rooms * options.seats + 100
    guard Int(limit.rlim_cur) >= needed else {
      printError(
        "bench tables: \(options.rooms) tables of \(options.seats) need \(needed) open files; the limit is \(limit.rlim_cur)."
      )
      return 1
    }
    let server: ServerProcess
    do {
      server = try ServerProcess(
        extra: ["--commit", options.commit] + (options.store == "memory" ? ["--in-memory"] : []))
    } catch {
      printError("bench tables: \(error)")
      return 1
    }
    var status: Int32 = 0
    do {
      let idle = server.residentMiB
      let load = try TableLoad(port: server.port, options: options)
      let started = TableLoad.now()
      try load.setUp()
      let setUpSeconds = TableLoad.now() - started
      let figures = try load.play(server: server)
      let exit = server.stop()
      for line in report(options, figures, setUp: setUpSeconds, idle: idle, exit: exit) {
        print(line)
      }
      status = exit == 0 ? 0 : 1
    } catch {
      server.stop()
      printError("bench tables: \(error)")
      status = 1
    }
    return status
  }

  static func report(
    _ options: Options, _ figures: TableLoad.Figures, setUp: Double, idle: Double, exit: Int32
  ) -> [String] {
    let f = { (value: Double) in Benchmark.format(value, decimals: 2) }
    let latencies = figures.latencies.sorted()
    func percentile(_ p: Double) -> String {
      guard !latencies.isEmpty else { return "–" }
      let index = min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)
      return f(latencies[max(0, index)] * 1000)
    }
    let perAction = figures.actions > 0 ? figures.serverCPU / Double(figures.actions) * 1e6 : 0
    let share = figures.serverCPU > 0 ? figures.clientCPU / figures.serverCPU : 0
    return [
      "== bench tables: \(Benchmark.format(Double(options.rooms), decimals: 0)) tables of "
        + "\(options.seats) (\(Benchmark.format(Double(options.rooms * options.seats), decimals: 0)) "
        + "clients), \(options.game), --commit \(options.commit), store \(options.store)",
      "set up (\(options.seats > 1 ? "hello, host, join, start" : "hello, new")) in \(f(setUp)) s; "
        + "play \(f(figures.seconds)) s: "
        + "\(Benchmark.format(Double(figures.actions), decimals: 0)) actions, "
        + "\(Benchmark.format(Double(figures.actions) / max(figures.seconds, 1e-9))) actions/s, "
        + "\(figures.refused) refused",
      "action → last seat: p50 \(percentile(0.5)) ms, p95 \(percentile(0.95)) ms, "
        + "p99 \(percentile(0.99)) ms, max \(percentile(1)) ms "
        + "(n \(Benchmark.format(Double(latencies.count), decimals: 0)))",
      "server CPU \(f(figures.serverCPU)) s (\(Benchmark.format(perAction)) µs per action, its "
        + "updates to every seat included); client CPU \(f(figures.clientCPU)) s "
        + "(\(f(share))× the server's)",
      "server RSS \(Benchmark.format(idle)) MiB idle → \(Benchmark.format(figures.residentMiB)) MiB; "
        + "exit status \(exit)",
    ]
  }
}

/// The clients of ``TablesBenchmark``: a seat per connection, each table's seats in a row.
final class TableLoad {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  struct Figures {
    var seconds = 0.0
    var actions = 0
    var refused = 0
    /// Action → last seat, in seconds.
    var latencies: [Double] = []
    var serverCPU = 0.0
    var clientCPU = 0.0
    var residentMiB = 0.0
  }

  private struct Seat {
    var descriptor: Int32
    var inbox: [UInt8] = []
    var table: Int
    var bot: TableBot
    var nextID = 0
    /// Requests not answered yet: when each was sent, and whether it is a move.
    var pending: [Int: (sent: Double, move: Bool)] = [:]
    /// Replies to the setting up, by id.
    var replies: [Int: JSON] = [:]
    var view: JSON?
    var version = -1
    /// Deals seen (a rematch starts the versions again).
    var deal = 0
    /// A move is on its way or waits on the timer: nothing more until it is answered.
    var busy = false
    var timer = 0
    var rematchAsked = false
  }

  private struct TableState {
    /// When each move was sent, by deal and version after it, and when each seat had it.
    var sent: [Int: Double] = [:]
    var arrivals: [Int: (count: Int, last: Double)] = [:]
  }

  private var seats: [Seat] = []
  private var tables: [TableState]
  private let options: TablesBenchmark.Options
  private let poller: Int32
  /// A seat's move waiting for its time, and the seat's timer number then (a later one
  /// replaces it).
  private struct Timed {
    var seat: Int
    var timer: Int
    var move: JSON
  }

  private var heap = DueQueue<Timed>()
  private var playing = false
  private var figures = Figures()
  /// Where each socket's bytes are received, and the events of a wait: kept from wait to
  /// wait (at 10,000 clients the client's CPU must stay well under the server's).
  private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
  private var events = [epoll_event](repeating: epoll_event(), count: 512)

  init(port: Int, options: TablesBenchmark.Options) throws {
    self.options = options
    tables = Array(repeating: TableState(), count: options.rooms)
    poller = epoll_create1(0)
    guard poller >= 0 else { throw Failure(description: "epoll_create1: errno \(errno)") }
    for table in 0..<options.rooms {
      for place in 0..<options.seats {
        let descriptor = try WebSocketClient.open(port: port)
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u32 = UInt32(seats.count)
        epoll_ctl(poller, EPOLL_CTL_ADD, descriptor, &event)
        seats.append(
          Seat(
            descriptor: descriptor, table: table,
            bot: TableBot(game: options.game, seed: UInt64(table * 8 + place + 1))))
      }
    }
  }

  deinit {
    for seat in seats { close(seat.descriptor) }
    close(poller)
  }

  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }

  private static func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
  }

  // MARK: Setting up

  /// Every seat says hello and takes a name; each table's first seat hosts, the others join by
  /// its code, the host starts: `batch` tables at a time.
  func setUp() throws {
    let seatsOf = { (table: Int) in
      (table * self.options.seats)..<((table + 1) * self.options.seats)
    }
    for first in stride(from: 0, to: options.rooms, by: options.batch) {
      let batch = Array(first..<min(first + options.batch, options.rooms))
      let all = batch.flatMap { Array(seatsOf($0)) }
      try ask(all) { seat in ["cmd": "hello"] }
      try ask(all) { seat in
        ["cmd": "settings", "settings": ["name": .string("Seat \(seat % self.options.seats + 1)")]]
      }
      // NB: a table of one is a game alone: `new`, no table to host, join or start.
      guard self.options.seats > 1 else {
        try ask(all) { _ in self.newGame }
        continue
      }
      let hosts = batch.map { seatsOf($0).lowerBound }
      let hosted = try ask(hosts) { _ in
        ["cmd": "host", "game": .string(self.options.game), "options": self.gameOptions]
      }
      try ask(all.filter { !hosts.contains($0) }) { seat in
        let host = seat - seat % self.options.seats
        return ["cmd": "join", "code": hosted[host]?["code"] ?? .null]
      }
    }
  }

  /// The options of every table's game: Memory's and Concentration's easiest grid.
  private var gameOptions: JSON {
    ["memory", "concentration"].contains(options.game) ? ["difficulty": "easy"] : [:]
  }

  /// A game alone, in a new room (a table of one seat).
  private var newGame: JSON {
    ["cmd": "new", "game": .string(options.game), "options": gameOptions]
  }

  /// Sends each of `seats` its message and waits for every reply; returns them by seat.
  @discardableResult
  private func ask(_ asking: [Int], _ message: (Int) -> JSON) throws -> [Int: JSON] {
    var ids: [Int: Int] = [:]
    for seat in asking { ids[seat] = try send(message(seat), from: seat, move: false) }
    let deadline = Self.now() + 60
    while asking.contains(where: { seats[$0].replies[ids[$0] ?? -1] == nil }) {
      guard Self.now() < deadline else {
        throw Failure(description: "no reply within 60 s to \(message(asking[0]).text)")
      }
      try turn(until: deadline)
    }
    var replies: [Int: JSON] = [:]
    for seat in asking {
      let reply = seats[seat].replies.removeValue(forKey: ids[seat] ?? -1) ?? .null
      if reply["type"] == "error" {
        throw Failure(description: "\(message(seat).text) was refused: \(reply.text)")
      }
      replies[seat] = reply
    }
    return replies
  }

  // MARK: Playing

  /// Starts every table, waits out the deal's pause, then lets everyone play for the
  /// benchmark's seconds; the figures of that time.
  func play(server: ServerProcess) throws -> Figures {
    playing = true
    // NB: a game alone has begun with its `new`.
    let hosts =
      options.seats > 1 ? stride(from: 0, to: seats.count, by: options.seats).map { $0 } : []
    for first in stride(from: 0, to: hosts.count, by: options.batch) {
      try ask(Array(hosts[first..<min(first + options.batch, hosts.count)])) { _ in
        ["cmd": "start"]
      }
    }
    for seat in seats.indices { decide(seat) }
    // NB: Snap! deals for 5.2 s on the server's clock before anyone may turn a card.
    let warmUp = options.game == "snap" ? 5.5 : 1.0
    try run(for: warmUp)
    for table in tables.indices { tables[table].sent = [:] }
    figures = Figures()
    let cpu = (server.cpuSeconds, Self.cpuSeconds())
    let start = Self.now()
    try run(for: options.seconds)
    figures.seconds = Self.now() - start
    figures.serverCPU = server.cpuSeconds - cpu.0
    figures.clientCPU = Self.cpuSeconds() - cpu.1
    figures.residentMiB = server.residentMiB
    playing = false
    return figures
  }

  private func run(for seconds: Double) throws {
    let end = Self.now() + seconds
    while Self.now() < end { try turn(until: end) }
  }

  /// One wait for sockets or the next timer, and what came.
  private func turn(until deadline: Double) throws {
    var now = Self.now()
    let next = min(deadline, heap.first?.due ?? deadline)
    let ready = epoll_wait(
      poller, &events, Int32(events.count), Int32(max(0, (next - now) * 1000).rounded(.up)))
    guard ready >= 0 || errno == EINTR else {
      throw Failure(description: "epoll_wait: errno \(errno)")
    }
    for event in events.prefix(max(0, Int(ready))) {
      let seat = Int(event.data.u32)
      let descriptor = seats[seat].descriptor
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { throw Failure(description: "seat \(seat): the server closed") }
      now = Self.now()
      // NB: the frames are read where they arrived; only a frame cut short waits in the inbox,
      // and the bytes that finish it are read with it.
      if seats[seat].inbox.isEmpty {
        try buffer.withUnsafeBytes { arrived in
          let rest = try frames(in: UnsafeRawBufferPointer(rebasing: arrived[0..<count]), seat, now)
          seats[seat].inbox = Array(rest)
        }
      } else {
        var waiting = seats[seat].inbox
        waiting += buffer[0..<count]
        seats[seat].inbox = try waiting.withUnsafeBytes { Array(try frames(in: $0, seat, now)) }
      }
    }
    now = Self.now()
    while let due = heap.first, due.due <= now {
      heap.removeFirst()
      guard seats[due.item.seat].timer == due.item.timer, playing else { continue }
      _ = try send(due.item.move, from: due.item.seat, move: true)
    }
  }

  /// Hands `seat` each whole frame at the start of `bytes`; returns what is left, a frame cut
  /// short.
  private func frames(
    in bytes: UnsafeRawBufferPointer, _ seat: Int, _ now: Double
  ) throws -> UnsafeRawBufferPointer {
    var bytes = bytes
    while let frame = WebSocketFrames.next(in: bytes) {
      let payload = UnsafeRawBufferPointer(rebasing: bytes[frame.payload])
      bytes = UnsafeRawBufferPointer(rebasing: bytes[frame.length...])
      guard frame.opcode == 0x1 else {
        if frame.opcode == 0x8 { throw Failure(description: "seat \(seat): the server closed") }
        // NB: a client that does not answer the server's pings is hung up after 45 s, however
        // much it sends: runs of more than some 40 s failed so.
        if frame.opcode == 0x9 { try WebSocketClient.pong(payload, to: seats[seat].descriptor) }
        continue
      }
      try received(payload, at: seat, now: now)
    }
    return bytes
  }

  private func received(_ payload: UnsafeRawBufferPointer, at index: Int, now: Double) throws {
    let message = try JSON(parsing: payload)
    var answered: (sent: Double, move: Bool)?
    if let id = message["reply"]?.intValue,
      let request = seats[index].pending.removeValue(forKey: id)
    {
      answered = request
      if !request.move { seats[index].replies[id] = message }
    }
    switch message["type"]?.stringValue {
    case "update":
      let version = message["version"]?.intValue ?? 0
      if version < seats[index].version {
        seats[index].deal += 1
        seats[index].bot.newDeal()
        seats[index].rematchAsked = false
      }
      seats[index].version = version
      seats[index].view = message["view"]
      // NB: a player alone who has finished starts a new game, as a table asks for a rematch.
      if options.seats == 1, message["view"]?["over"] == true, playing,
        !seats[index].rematchAsked
      {
        seats[index].rematchAsked = true
        _ = try send(newGame, from: index, move: false)
      }
      let key = seats[index].deal * 1_000_000 + version
      let table = seats[index].table
      if let answered, answered.move {
        tables[table].sent[key] = answered.sent
        figures.actions += 1
      }
      var arrival = tables[table].arrivals[key] ?? (0, 0)
      arrival = (arrival.count + 1, now)
      if arrival.count == options.seats {
        tables[table].arrivals[key] = nil
        if let sent = tables[table].sent.removeValue(forKey: key) {
          figures.latencies.append(now - sent)
        }
      } else {
        tables[table].arrivals[key] = arrival
      }
    case "table":
      if let you = message["seats"]?.arrayValue?.first(where: { $0["you"] == true }) {
        seats[index].bot.me = you["name"]?.stringValue ?? ""
      }
      if message["phase"] == "over", playing, !seats[index].rematchAsked {
        seats[index].rematchAsked = true
        _ = try send(["cmd": "rematch"], from: index, move: false)
      }
    case "error":
      if answered?.move == true { figures.refused += 1 }
    default:
      break
    }
    if answered?.move == true { seats[index].busy = false }
    if playing { decide(index) }
  }

  /// Schedules the seat's next move from its view, unless one is on its way.
  private func decide(_ index: Int) {
    guard !seats[index].busy, let view = seats[index].view,
      let move = seats[index].bot.next(view)
    else { return }
    seats[index].busy = true
    seats[index].timer += 1
    heap.insert(
      DueQueue.Entry(
        due: Self.now() + move.delay,
        item: Timed(seat: index, timer: seats[index].timer, move: move.message)))
  }

  @discardableResult
  private func send(_ message: JSON, from index: Int, move: Bool) throws -> Int {
    seats[index].nextID += 1
    let id = seats[index].nextID
    seats[index].pending[id] = (Self.now(), move)
    let text = message.setting("id", to: JSON(id)).text
    try WebSocketClient.send(text, to: seats[index].descriptor)
    return id
  }
}
