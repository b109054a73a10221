import CardTableCore
import GameServer
import GameStore
import GameWire

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmark {
  /// The game server's own work per action, without sockets: tables of four, played by the
  /// bots of `bench tables` on a virtual clock, every message and timer handled in this
  /// process as a host's loop would (each call a turn of its own, committed at its end).
  ///
  /// Its figures are the server's calls alone (the bots, and reading what the server sent,
  /// are not counted); under `valgrind --tool=callgrind` the same run gives the server's
  /// instructions per action, which a busy machine cannot disturb (docs/PERFORMANCE.md).
  static let roomsInProcess = Benchmark(
    name: "rooms",
    summary: "the game server in process: tables of four on a virtual clock, µs per action"
  ) { size in
    let tables = size.pick(200, quick: 50, smoke: 2)
    // NB: Snap!'s deal takes some seconds before the first turn.
    let seconds = Double(size.pick(60, quick: 30, smoke: 10))
    var lines: [String] = []
    for (game, store) in [
      ("snap", "memory"), ("snap", "sqlite"), ("set", "memory"), ("memory", "memory"),
    ] {
      do {
        let load = try RoomsLoad(game: game, tables: tables, sqlite: store == "sqlite")
        defer { load.close() }
        try load.setUp()
        let figures = load.play(for: seconds)
        guard figures.actions > 0 else {
          throw RoomsLoad.Failure(description: "no move was accepted in \(seconds) virtual s")
        }
        let perAction = figures.seconds * 1e6 / Double(figures.actions)
        let messageBytes = Double(figures.bytes) / Double(max(figures.messages, 1))
        lines.append(
          "rooms, \(game) at \(tables) tables of 4 (store \(store)): "
            + "\(Benchmark.format(perAction)) µs per action (\(figures.actions) actions, "
            + "\(figures.refused) refused, \(figures.messages) messages of "
            + "\(Benchmark.format(messageBytes, decimals: 0)) bytes, \(Int(seconds)) virtual s)")
      } catch {
        lines.append("rooms, \(game): failed: \(error)")
      }
    }
    return lines
  }
}

/// Tables of four played in process on a virtual clock (``Benchmark/roomsInProcess``): the
/// server's host, and the bots of its seats.
final class RoomsLoad: ServerHost {
  /// A run that could not go on, with why (the benchmarks' own failure).
  typealias Failure = SocketSwarm.Failure

  /// What a run counted: the server's seconds in its calls, the moves it accepted and
  /// refused, and the messages it sent.
  struct Figures {
    var seconds = 0.0
    var actions = 0
    var refused = 0
    var messages = 0
    var bytes = 0
  }

  private struct Seat {
    var bot: TableBot
    var view: JSON?
    /// A move of the bot is on its way (scheduled, or sent and not yet answered).
    var busy = false
    var nextID = 0
    /// The id of the move sent and not yet answered.
    var move: Int?
    var replies: [Int: JSON] = [:]
    var rematchAsked = false
    var version = 0
  }

  private let game: String
  private var server: GameServer?
  private var directory: String?
  private var seats: [Seat]
  /// The messages the server sent during the call being made, by seat.
  private var sent: [(seat: Int, bytes: [UInt8])] = []
  private var deadline: Double?
  /// The bots' moves, each sent when it falls due: by which seat, and what.
  private var moves = DueQueue<(seat: Int, message: JSON)>()
  private var now = 0.0
  private var figures = Figures()
  /// Every message the server sent, and every command it was sent, when asked to keep them
  /// (what `bench json` reads).
  private(set) var kept: (sent: [[UInt8]], received: [[UInt8]])?

  init(game: String, tables: Int, sqlite: Bool, keeping: Bool = false) throws {
    self.game = game
    kept = keeping ? ([], []) : nil
    seats = (0..<(4 * tables)).map { TableBot(game: game, seed: UInt64($0) + 1) }.map {
      Seat(bot: $0)
    }
    let store: any GameStore
    if sqlite {
      let directory = try ServerProbe.temporaryDirectory()
      self.directory = directory
      do {
        store = try SQLiteStore.open(directory: directory)
      } catch {
        throw Failure(description: "cannot open a store in \(directory): \(error)")
      }
    } else {
      store = MemoryStore()
    }
    // NB: seeds, room names and times from the run itself, so that a run is the same
    // instructions every time (what callgrind counts).
    var seeds = SplitMix64(seed: 7)
    var names = SplitMix64(seed: 11)
    server = GameServer(
      host: self, store: store,
      configuration: GameServer.Configuration(roomsPerMinute: 1e9, groupCommit: true),
      newSeed: { seeds.next() },
      wallClock: { [unowned self] in 1_800_000_000_000 + Int64(now * 1000) },
      random: { names.next() })
    for seat in seats.indices { server?.connected(ClientID(UInt64(seat)), at: 0) }
  }

  func close() {
    server?.shutdown()
    server = nil
    if let directory { _ = system("rm -rf '\(directory)'") }
  }

  // MARK: ServerHost

  func send(_ message: UnsafeRawBufferPointer, to client: ClientID) {
    sent.append((Int(client.rawValue), Array(message)))
  }

  func wake(at time: Double?) { deadline = time }

  // MARK: Playing

  /// Every seat says hello and takes a name; each table's first seat hosts, the others join
  /// by its code, and the host starts.
  func setUp() throws {
    let all = Array(seats.indices)
    let hosts = stride(from: 0, to: seats.count, by: 4).map { $0 }
    try ask(all) { _ in ["cmd": "hello"] }
    try ask(all) { seat in
      ["cmd": "settings", "settings": ["name": .string("Seat \(seat % 4 + 1)")]]
    }
    let options: JSON = game == "memory" ? ["difficulty": "easy"] : [:]
    let hosted = try ask(hosts) { _ in
      ["cmd": "host", "game": .string(self.game), "options": options]
    }
    try ask(all.filter { $0 % 4 != 0 }) { seat in
      ["cmd": "join", "code": hosted[seat - seat % 4]?["code"] ?? .null]
    }
    try ask(hosts) { _ in ["cmd": "start"] }
    figures = Figures()
  }

  /// Plays `seconds` of the virtual clock: each bot's move when it falls due, the server's
  /// timers when theirs do.
  func play(for seconds: Double) -> Figures {
    let end = now + seconds
    for seat in seats.indices { decide(seat) }
    while true {
      let move = moves.first
      if let due = deadline, due <= end, due <= move?.due ?? .infinity {
        now = max(now, due)
        deadline = nil
        call { $0.wake(at: now) }
      } else if let move, move.due <= end {
        moves.removeFirst()
        now = max(now, move.due)
        // NB: the reply comes within the call: the move's id is noted before it is sent.
        seats[move.item.seat].move = seats[move.item.seat].nextID + 1
        send(move.item.message, from: move.item.seat)
      } else {
        break
      }
    }
    return figures
  }

  /// Sends every seat of `asking` its message and returns each one's reply.
  @discardableResult
  private func ask(_ asking: [Int], _ message: (Int) -> JSON) throws -> [Int: JSON] {
    var replies: [Int: JSON] = [:]
    for seat in asking {
      let id = send(message(seat), from: seat)
      guard let reply = seats[seat].replies.removeValue(forKey: id) else {
        throw Failure(description: "no reply to \(message(seat).text)")
      }
      if reply["type"] == "error" {
        throw Failure(description: "\(message(seat).text) refused: \(reply.text)")
      }
      replies[seat] = reply
    }
    return replies
  }

  @discardableResult
  private func send(_ message: JSON, from seat: Int) -> Int {
    seats[seat].nextID += 1
    let id = seats[seat].nextID
    let text = Array(message.setting("id", to: JSON(id)).text.utf8)
    kept?.received.append(text)
    call { server in
      text.withUnsafeBytes { server.received($0, from: ClientID(UInt64(seat)), at: now) }
    }
    return id
  }

  /// One turn of the host's loop: the call, the commit at its end; then what the server sent
  /// is read, outside the time counted.
  private func call(_ body: (GameServer) -> Void) {
    guard let server else { return }
    let start = RoomsLoad.clock()
    serve(body, on: server)
    figures.seconds += RoomsLoad.clock() - start
    let letters = sent
    sent.removeAll(keepingCapacity: true)
    for (seat, bytes) in letters {
      figures.messages += 1
      figures.bytes += bytes.count
      kept?.sent.append(bytes)
      guard let message = try? bytes.withUnsafeBytes({ try JSON(parsing: $0) }) else {
        continue
      }
      received(message, at: seat)
    }
  }

  /// The server's part of a turn, and nothing else: what callgrind counts as the server's
  /// instructions (scripts/callgrind_rooms.sh).
  @inline(never)
  private func serve(_ body: (GameServer) -> Void, on server: GameServer) {
    body(server)
    server.endOfTurn()
  }

  private func received(_ message: JSON, at seat: Int) {
    if let id = message["reply"]?.intValue {
      if id == seats[seat].move {
        seats[seat].move = nil
        seats[seat].busy = false
        if message["type"] == "error" { figures.refused += 1 } else { figures.actions += 1 }
      } else {
        seats[seat].replies[id] = message
      }
    }
    switch message["type"]?.stringValue {
    case "update":
      let version = message["version"]?.intValue ?? 0
      if version < seats[seat].version {
        seats[seat].bot.newDeal()
        seats[seat].rematchAsked = false
      }
      seats[seat].version = version
      seats[seat].view = message["view"]
    case "table":
      if let you = message["seats"]?.arrayValue?.first(where: { $0["you"] == true }) {
        seats[seat].bot.me = you["name"]?.stringValue ?? ""
      }
      if message["phase"] == "over", !seats[seat].rematchAsked {
        seats[seat].rematchAsked = true
        send(["cmd": "rematch"], from: seat)
      }
    default:
      break
    }
    decide(seat)
  }

  /// Schedules the seat's next move from its view, unless one is on its way.
  private func decide(_ seat: Int) {
    guard !seats[seat].busy, let view = seats[seat].view,
      let move = seats[seat].bot.next(view)
    else { return }
    seats[seat].busy = true
    moves.insert(DueQueue.Entry(due: now + move.delay, item: (seat, move.message)))
  }

  private static func clock() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }
}
