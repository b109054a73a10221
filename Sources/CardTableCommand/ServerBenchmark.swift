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
        let echo = try ServerProbe.measure(.echo(game.reply), clients: clients, rounds: rounds)
        let ratio = Benchmark.format(game.microseconds / echo.microseconds, decimals: 2)
        lines += [
          "server, \(kind.name): \(Benchmark.format(game.microseconds)) µs CPU per message "
            + "(\(clients) clients, \(clients * rounds) messages, replies of "
            + "\(game.reply.utf8.count) bytes)",
          "server, echo of the same size: \(Benchmark.format(echo.microseconds)) µs CPU per "
            + "message; \(kind.name) / echo: \(ratio)×",
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
  private final class Echo: WebServer.Handler {
    nonisolated(unsafe) weak var server: WebServer?
    let reply: [UInt8]

    init(reply: String) { self.reply = Array(reply.utf8) }

    func connected(_ connection: ConnectionID, path: String) {
      reply.withUnsafeBytes { server?.sendNow($0, to: connection) }
    }

    func received(_ text: UnsafeRawBufferPointer, from connection: ConnectionID) {
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
    /// A bare handler that answers every message with this text.
    case echo(String)

    static let allCases: [Kind] = [.state, .choose(groupCommit: true), .choose(groupCommit: false)]

    var name: String {
      switch self {
      case .state: "state messages"
      case .choose(let groupCommit):
        groupCommit ? "choose actions, group commit" : "choose actions, a transaction each"
      case .echo: "echo"
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
    var storeDirectory: String?
    defer {
      if let storeDirectory { _ = system("rm -rf '\(storeDirectory)'") }
    }
    if case .echo(let echo) = kind {
      let handler = Echo(reply: echo)
      server = WebServer(configuration: configuration, handler: handler)
      handler.server = server
    } else {
      let bridge = WebBridge()
      server = WebServer(configuration: configuration, handler: bridge)
      // NB: a real store in a fresh directory, as `cardtable serve` keeps one.
      let directory = try temporaryDirectory()
      storeDirectory = directory
      let store = try SQLiteStore.open(directory: directory)
      // NB: every client is on one address: no cap on the rooms it makes (`too-many-rooms`
      // stopped the 61st client's `new` once tables capped rooms per address).
      bridge.attach(
        web: server, store: store,
        configuration: GameServer.Configuration(
          roomsPerMinute: 1e9, groupCommit: kind.groupCommit))
    }
    try server.start()
    defer { server.stop() }
    let swarm = try SocketSwarm(port: server.port, count: clients)
    _ = try swarm.receiveOneEach(timeout: 10)

    let game =
      switch kind {
      case .state: "memory"
      case .choose: "matchismo"
      case .echo: ""
      }
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
    for round in 0..<rounds {
      for client in 0..<clients {
        let message =
          switch kind {
          case .choose:
            #"{"cmd":"act","action":{"type":"choose","card":\#((round * 7 + client) % 24)}}"#
          default: #"{"cmd":"state"}"#
          }
        try swarm.send(message, from: client)
      }
      reply = try swarm.receiveOneEach(timeout: 10)[0]
    }
    let used = (server.loopCPUSeconds ?? 0) - before
    return (used * 1e6 / Double(clients * rounds), reply)
  }
}
