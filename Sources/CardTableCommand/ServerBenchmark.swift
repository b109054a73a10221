import GameServer
import GameStore
import GameWire
import WebServer

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmark {
  /// The web server's CPU per message: game messages (`state` of an easy Memory game) through
  /// the real bridge and rooms, then a bare echo handler on the same `WebServer` answering each
  /// message with a reply of the same size; both measured on the loop thread alone, the
  /// clients running on another thread.
  static let serverMessages = Benchmark(
    name: "server", summary: "server CPU per message: game messages beside an echo handler"
  ) { size in
    // NB: as many clients at every size, so that a limit they meet shows in the smoke run too.
    let clients = 100
    let rounds = size.pick(200, quick: 20, smoke: 2)
    do {
      var lines: [String] = []
      for kind in ServerProbe.Kind.allCases {
        let game = try ServerProbe.measure(kind, clients: clients, rounds: rounds)
        let echo = try ServerProbe.measure(
          kind.isTable ? .tableEcho(game.reply) : .echo(game.reply), clients: clients,
          rounds: rounds)
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
      return lines
    } catch {
      return ["server: failed: \(error)"]
    }
  }
}

/// One measurement of ``Benchmark/serverMessages``.
enum ServerProbe {
  /// Answers every message with the same text: the cheapest handler a server can have.
  ///
  /// With `seats`, the connections are tables of that many in the order they came, and every
  /// message is answered to each of its table's connections, as a table's move is.
  private final class Echo: WebServer.Handler {
    nonisolated(unsafe) weak var server: WebServer?
    let reply: [UInt8]
    let seats: Int
    nonisolated(unsafe) private var connections: [ConnectionID] = []

    init(reply: String, seats: Int = 1) {
      self.reply = Array(reply.utf8)
      self.seats = seats
    }

    func connected(_ connection: ConnectionID, path: String) {
      connections.append(connection)
      reply.withUnsafeBytes { server?.sendNow($0, to: connection) }
    }

    func received(_ text: UnsafeRawBufferPointer, from connection: ConnectionID) {
      guard seats > 1, let index = connections.firstIndex(of: connection) else {
        reply.withUnsafeBytes { server?.sendNow($0, to: connection) }
        return
      }
      let first = index / seats * seats
      for seat in connections[first..<min(first + seats, connections.count)] {
        reply.withUnsafeBytes { server?.sendNow($0, to: seat) }
      }
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
    /// A bare handler that answers every message with this text.
    case echo(String)
    /// A bare handler that answers every message with this text to each of its table's four
    /// connections.
    case tableEcho(String)

    static let allCases: [Kind] = [
      .state, .choose(groupCommit: true), .choose(groupCommit: false), .table,
    ]

    var isTable: Bool {
      if case .table = self { true } else { false }
    }

    var name: String {
      switch self {
      case .state: "state messages"
      case .choose(let groupCommit):
        groupCommit ? "choose actions, group commit" : "choose actions, a transaction each"
      case .table: "a Set race's choose at tables of four"
      case .echo, .tableEcho: "echo"
      }
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

  /// Serves `clients` clients `rounds` messages each and returns the loop thread's CPU per
  /// message, and the last reply a client received.
  static func measure(_ kind: Kind, clients: Int, rounds: Int) throws -> (
    microseconds: Double, reply: String
  ) {
    // NB: the benchmark's clients may send as fast as the server answers.
    let configuration = WebServer.Configuration(
      host: "127.0.0.1", port: 0, messagesPerSecond: 1e9, messageBurst: 1_000_000)
    let server: WebServer
    var bridge: WebBridge?
    var storeDirectory: String?
    defer {
      if let storeDirectory { _ = system("rm -rf '\(storeDirectory)'") }
    }
    if case .echo(let echo) = kind {
      let handler = Echo(reply: echo)
      server = WebServer(configuration: configuration, handler: handler)
      handler.server = server
    } else if case .tableEcho(let echo) = kind {
      let handler = Echo(reply: echo, seats: 4)
      server = WebServer(configuration: configuration, handler: handler)
      handler.server = server
    } else {
      let made = WebBridge()
      bridge = made
      server = WebServer(configuration: configuration, handler: made)
      // NB: a real store in a fresh directory, as `cardtable serve` keeps one.
      let directory = try temporaryDirectory()
      storeDirectory = directory
      let store = try SQLiteStore.open(directory: directory)
      // NB: every client is on one address: no cap on the rooms it makes (`too-many-rooms`
      // stopped the 61st client's `new` once tables capped rooms per address).
      made.attach(
        web: server, store: store,
        configuration: GameServer.Configuration(
          roomsPerMinute: 1e9, groupCommit: kind.groupCommit))
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

    let game =
      switch kind {
      case .state: "memory"
      case .choose: "matchismo"
      case .table, .echo, .tableEcho: ""
      }
    if kind.isTable { try seatTables(swarm) }
    if !game.isEmpty {
      for client in 0..<clients { try swarm.send(#"{"cmd":"hello"}"#, from: client) }
      _ = try swarm.receiveOneEach(timeout: 10)

      for client in 0..<clients {
        try swarm.send(#"{"cmd":"new","game":"\#(game)","seed":\#(client)}"#, from: client)
      }
      // NB: `joined`, then the update.
      _ = try swarm.receiveEach(2, timeout: 10)

    }
    var reply = ""
    let before = server.loopCPUSeconds ?? 0
    let tables = kind.isTable || { if case .tableEcho = kind { true } else { false } }()
    for round in 0..<rounds {
      for client in 0..<clients where !tables || client % 4 == round % 4 {
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
      if kind.isTable {
        reply = try tableRound(swarm, actors: round % 4)
      } else {
        reply = try swarm.receiveOneEach(timeout: 10)[0]
      }
    }
    let used = (server.loopCPUSeconds ?? 0) - before
    return (used * 1e6 / Double((tables ? clients / 4 : clients) * rounds), reply)
  }

  /// Waits until every seat of every table has the update of its table's move (receipts and
  /// table messages come besides); returns the first seat's. A refused move fails the run
  /// with its error, so that the figures never count one.
  private static func tableRound(_ swarm: SocketSwarm, actors seat: Int) throws -> String {
    var updated = [String?](repeating: nil, count: swarm.count)
    var waiting = swarm.count
    let deadline = ContinuousClock.now + .seconds(10)
    while waiting > 0 {
      let left = (deadline - ContinuousClock.now).components
      let seconds = Double(left.seconds) + Double(left.attoseconds) * 1e-18
      guard seconds > 0 else {
        let missing = updated.indices.filter { updated[$0] == nil }
        throw SocketSwarm.Failure(description: "no update within 10 s for \(missing.prefix(10))")
      }
      for (client, text) in try swarm.receive(timeout: seconds) {
        if client % 4 == seat, text.hasPrefix(#"{"type":"error""#) {
          throw SocketSwarm.Failure(description: "client \(client)'s move was refused: \(text)")
        }
        guard updated[client] == nil, text.hasPrefix(#"{"type":"update""#) else { continue }
        updated[client] = text
        waiting -= 1
      }
    }
    return updated[0] ?? ""
  }

  /// Seats the swarm's clients at Set races of four, in the order they came: each first one
  /// hosts, the next three join by its code, the host starts; every client then has read all
  /// that setting up sent it.
  private static func seatTables(_ swarm: SocketSwarm) throws {
    let all = Array(0..<swarm.count)
    for client in all { try swarm.send(#"{"cmd":"hello","id":"hello"}"#, from: client) }
    _ = try swarm.replies(to: "hello", from: all, timeout: 10)
    let hosts = all.filter { $0 % 4 == 0 }
    for host in hosts {
      try swarm.send(
        #"{"cmd":"host","game":"set","seed":\#(host),"options":{"refill":true},"id":"host"}"#,
        from: host)
    }
    let hosted = try swarm.replies(to: "host", from: hosts, timeout: 10)
    var joiners: [Int] = []
    for host in hosts {
      guard let text = hosted[host], let code = try JSON(parsing: text)["code"]?.stringValue
      else {
        throw SocketSwarm.Failure(description: "host: no table code in \(hosted[host] ?? "")")
      }
      for seat in host + 1..<min(host + 4, swarm.count) {
        try swarm.send(#"{"cmd":"join","code":"\#(code)","id":"join"}"#, from: seat)
        joiners.append(seat)
      }
    }
    _ = try swarm.replies(to: "join", from: joiners, timeout: 10)
    for host in hosts { try swarm.send(#"{"cmd":"start","id":"start"}"#, from: host) }
    _ = try swarm.replies(to: "start", from: hosts, timeout: 10)
    for client in all { try swarm.send(#"{"cmd":"state","id":"ready"}"#, from: client) }
    _ = try swarm.replies(to: "ready", from: all, timeout: 10)
  }
}
