import GameServer
import GameStore
import GameWire
import SnapGame
import WebServer

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmark {
  /// The web server's CPU per message: game messages (`state` of an easy Memory game, moves
  /// alone and at tables) through the real bridge and rooms, each beside a bare handler on the
  /// same `WebServer` that answers with messages of the same sizes; both measured on the loop
  /// thread alone, the clients running on another thread. With a database, the Snap! table
  /// is measured on PostgreSQL too.
  static let serverMessages = Benchmark(
    name: "server", summary: "server CPU per message: game messages beside bare handlers",
    measure: { settings in
      // NB: as many clients at every size, so that a limit they meet shows in the smoke run too.
      let clients = 100
      let rounds = settings.size.pick(200, quick: 20, smoke: 2)
      do {
        var lines: [String] = []
        for kind in ServerProbe.Kind.allCases {
          let game = try ServerProbe.measure(kind, clients: clients, rounds: rounds)
          let echo = try ServerProbe.measure(
            kind.isTable ? .tableEcho(game.reply, followUp: nil) : .echo(game.reply),
            clients: clients, rounds: rounds)
          let ratio = Benchmark.format(game.microseconds / echo.microseconds, decimals: 2)
          let messages = kind.isTable ? clients / 4 * rounds : clients * rounds
          lines += [
            "server, \(kind.name): \(Benchmark.format(game.microseconds)) µs CPU per message "
              + "(\(clients) clients, \(messages) messages, replies of "
              + "\(game.reply.utf8.count) bytes)",
            "server, \(kind.isTable ? "one in, four of the same size out" : "echo of the same size"): "
              + "\(Benchmark.format(echo.microseconds)) µs CPU per message; \(kind.name) / echo: \(ratio)×",
          ]
        }
        return lines + (try snapTableLines(clients: clients, rounds: rounds, settings.database))
      } catch {
        return ["server: failed: \(error)"]
      }
    })

  /// A Snap! table's turn on SQLite (and on `database`), beside the bare handler that sends its
  /// four updates, and beside one that also sends the four that follow at the activation.
  static func snapTableLines(
    clients: Int, rounds: Int, _ database: String?
  ) throws -> [String] {
    let sqlite = try ServerProbe.measure(.snapTable, clients: clients, rounds: rounds)
    let four = try ServerProbe.measure(
      .tableEcho(sqlite.reply, followUp: nil), clients: clients, rounds: rounds)
    let eight = try ServerProbe.measure(
      .tableEcho(sqlite.reply, followUp: ServerProbe.snapActivation), clients: clients,
      rounds: rounds)
    let postgres = try database.map {
      try ServerProbe.measure(.snapTable, clients: clients, rounds: rounds, database: $0)
    }
    let format = { (value: Double) in Benchmark.format(value) }
    let ratios = { (game: Double) in
      "\(Benchmark.format(game / four.microseconds, decimals: 2))× one in four out, "
        + "\(Benchmark.format(game / eight.microseconds, decimals: 2))× with the four after"
    }
    var lines = [
      "server, a Snap! table's turn at tables of four, on SQLite: \(format(sqlite.microseconds)) µs "
        + "CPU per action (\(clients) clients, \(clients / 4 * rounds) turns; each an update of "
        + "\(sqlite.reply.utf8.count) bytes to every seat, then another when the next player may "
        + "turn); \(ratios(sqlite.microseconds))",
      "server, one in, four of the same size out: \(format(four.microseconds)) µs CPU per message",
      "server, one in, four out, and four more at a timer: \(format(eight.microseconds)) µs CPU per "
        + "message",
    ]
    if let postgres {
      lines.append(
        "server, a Snap! table's turn at tables of four, on PostgreSQL: "
          + "\(format(postgres.microseconds)) µs CPU per action on the loop thread (the database's "
          + "own not counted); \(ratios(postgres.microseconds))")
    }
    return lines
  }
}

/// One measurement of ``Benchmark/serverMessages``.
enum ServerProbe {
  /// How many times faster than the wall's the games' time runs in the measurements: Snap!'s
  /// deal and activation pauses pass quicker, the work of each turn is the same.
  static let speed = 50.0

  /// The wall's seconds from a Snap! turn to the next player's activation, at ``speed``.
  static let snapActivation = SnapGame.activationDelay / speed

  /// Answers every message with the same text: the cheapest handler a server can have.
  ///
  /// With `seats`, the connections are tables of that many in the order they came, and every
  /// message is answered to each of its table's connections, as a table's move is; with
  /// `followUp`, that many seconds later it is sent to each of them again, as a Snap! turn's
  /// activation is.
  private final class Echo: WebServer.Handler {
    nonisolated(unsafe) weak var server: WebServer?
    let reply: [UInt8]
    let seats: Int
    let followUp: Double?
    nonisolated(unsafe) private var connections: [ConnectionID] = []
    /// The tables answered again at the timer (by their first connection's index), in the
    /// order they are due, and the first not answered yet.
    nonisolated(unsafe) private var due: [(time: Double, first: Int)] = []
    nonisolated(unsafe) private var next = 0
    private let clock = GameServer.monotonicSeconds

    init(reply: String, seats: Int = 1, followUp: Double? = nil) {
      self.reply = Array(reply.utf8)
      self.seats = seats
      self.followUp = followUp
    }

    func connected(_ connection: ConnectionID, path: String) {
      connections.append(connection)
      send(to: connection)
    }

    func received(_ text: UnsafeRawBufferPointer, from connection: ConnectionID) {
      guard seats > 1, let index = connections.firstIndex(of: connection) else {
        send(to: connection)
        return
      }
      let first = index / seats * seats
      sendToTable(first)
      guard let followUp else { return }
      due.append((clock() + followUp, first))
      if due.count - next == 1 { server?.setTimer(after: followUp) }
    }

    func timerFired() {
      let now = clock()
      while next < due.count, due[next].time <= now {
        sendToTable(due[next].first)
        next += 1
      }
      if next == due.count {
        due.removeAll(keepingCapacity: true)
        next = 0
      } else {
        server?.setTimer(after: max(0, due[next].time - now))
      }
    }

    private func sendToTable(_ first: Int) {
      for seat in connections[first..<min(first + seats, connections.count)] { send(to: seat) }
    }

    private func send(to connection: ConnectionID) {
      reply.withUnsafeBytes { server?.sendNow($0, to: connection) }
    }

    func refused(_ connection: ConnectionID, reason: WebServer.Refusal) {}
    func disconnected(_ connection: ConnectionID) {}
  }

  /// What the clients send.
  enum Kind: CaseIterable {
    /// `state` of an easy Memory game: the same view again, written once per version.
    case state
    /// Matchismo `choose` actions, each answered with a new view (a few refused): those of a
    /// turn of the loop saved in one transaction (group commit), or each in its own.
    case choose(groupCommit: Bool)
    /// Set races at tables of four: each message one seat's `choose`, answered with an update
    /// to each of the four (its own view each).
    case table
    /// Snap! at tables of four: each message the `turn` of the seat whose turn it is, answered
    /// with an update to each of the four, and another to each when the next player may turn.
    case snapTable
    /// A bare handler that answers every message with this text.
    case echo(String)
    /// A bare handler that answers every message with this text to each of its table's four
    /// connections, and again after `followUp` seconds if given.
    case tableEcho(String, followUp: Double?)

    /// What the first figures of the benchmark measure; the Snap! table comes after them.
    static let allCases: [Kind] = [
      .state, .choose(groupCommit: true), .choose(groupCommit: false), .table,
    ]

    var isTable: Bool {
      switch self {
      case .table, .snapTable, .tableEcho: true
      case .state, .choose, .echo: false
      }
    }

    var name: String {
      switch self {
      case .state: "state messages"
      case .choose(let groupCommit):
        groupCommit ? "choose actions, group commit" : "choose actions, a transaction each"
      case .table: "a Set race's choose at tables of four"
      case .snapTable: "a Snap! table's turn at tables of four"
      case .echo, .tableEcho: "echo"
      }
    }

    /// Snap!, whose pauses the measurement runs quicker (``ServerProbe/speed``); the other
    /// games run on the wall's time, as their figures always have.
    var isSnap: Bool {
      if case .snapTable = self { true } else { false }
    }

    var groupCommit: Bool {
      if case .choose(let groupCommit) = self { groupCommit } else { true }
    }
  }

  /// A new empty directory under /tmp for a benchmark's store.
  static func temporaryDirectory() throws -> String {
    var template = Array("/tmp/cardtable-bench-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) }
    }
    guard let made else {
      throw SocketSwarm.Failure(description: "cannot make a directory under /tmp")
    }
    return made
  }

  /// Serves `clients` clients `rounds` messages each (at tables, one seat of each table a
  /// round) and returns the loop thread's CPU per message, and the last reply a client
  /// received. The games are kept in a fresh SQLite file, or in the PostgreSQL `database`.
  static func measure(
    _ kind: Kind, clients: Int, rounds: Int, database: String? = nil
  ) throws -> (microseconds: Double, reply: String) {
    // NB: the benchmark's clients may send as fast as the server answers.
    let configuration = WebServer.Configuration(
      host: "127.0.0.1", port: 0, messagesPerSecond: 1e9, messageBurst: 1_000_000)
    let server: WebServer
    var bridge: WebBridge?
    var storeDirectory: String?
    defer {
      if let storeDirectory { _ = system("rm -rf '\(storeDirectory)'") }
    }
    switch kind {
    case .echo(let echo):
      let handler = Echo(reply: echo)
      server = WebServer(configuration: configuration, handler: handler)
      handler.server = server
    case .tableEcho(let echo, let followUp):
      let handler = Echo(reply: echo, seats: 4, followUp: followUp)
      server = WebServer(configuration: configuration, handler: handler)
      handler.server = server
    case .state, .choose, .table, .snapTable:
      let made = WebBridge()
      bridge = made
      server = WebServer(configuration: configuration, handler: made)
      let store: any GameStore
      if let database {
        store = try PostgresStore(url: database)
      } else {
        // NB: a real store in a fresh directory, as `cardtable serve` keeps one.
        let directory = try temporaryDirectory()
        storeDirectory = directory
        store = try SQLiteStore.open(directory: directory)
      }
      // NB: every client is on one address: no cap on the rooms it makes (`too-many-rooms`
      // stopped the 61st client's `new` once tables capped rooms per address).
      made.attach(
        web: server, store: store,
        configuration: GameServer.Configuration(
          roomsPerMinute: 1e9, groupCommit: kind.groupCommit),
        speed: kind.isSnap ? speed : 1)
    }
    try server.start()
    defer {
      server.stop()
      // NB: the bridge's game server and its parts hold each other until detached: each
      // measurement left its store open and some 300 KB behind (valgrind).
      bridge?.detach()
    }
    let swarm = try SocketSwarm(port: server.port, count: clients)
    _ = try swarm.receiveOneEach(timeout: 10)

    switch kind {
    case .table:
      try seatTables(swarm, game: "set", options: #"{"refill":true}"#)
    case .snapTable:
      try seatTables(swarm, game: "snap", options: "{}")
    case .state, .choose:
      let game = if case .state = kind { "memory" } else { "matchismo" }
      for client in 0..<clients { try swarm.send(#"{"cmd":"hello"}"#, from: client) }
      _ = try swarm.receiveOneEach(timeout: 10)
      for client in 0..<clients {
        try swarm.send(#"{"cmd":"new","game":"\#(game)","seed":\#(client)}"#, from: client)
      }
      // NB: `joined`, then the update.
      _ = try swarm.receiveEach(2, timeout: 10)
    case .echo, .tableEcho:
      break
    }
    // NB: Snap! deals before anyone may turn a card: the first players are known after it.
    let snap = kind.isSnap ? try SnapTables(swarm) : nil
    var reply = ""
    let before = server.loopCPUSeconds ?? 0
    for round in 0..<rounds {
      if let snap {
        reply = try snap.playRound()
        continue
      }
      for client in 0..<clients where !kind.isTable || client % 4 == round % 4 {
        let message =
          switch kind {
          case .choose:
            #"{"cmd":"act","action":{"type":"choose","card":\#((round * 7 + client) % 24)}}"#
          case .table:
            #"{"cmd":"act","action":{"type":"choose","card":\#((round * 5 + client / 4) % 12)}}"#
          default: #"{"cmd":"state"}"#
          }
        try swarm.send(message, from: client)
      }
      switch kind {
      case .table: reply = try tableRound(swarm, actors: round % 4)
      case .tableEcho(_, let followUp):
        reply = try swarm.receiveEach(followUp == nil ? 1 : 2, timeout: 10)[0]
      default: reply = try swarm.receiveOneEach(timeout: 10)[0]
      }
    }
    let used = (server.loopCPUSeconds ?? 0) - before
    return (used * 1e6 / Double((kind.isTable ? clients / 4 : clients) * rounds), reply)
  }
}
