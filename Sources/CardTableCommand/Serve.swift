import GameServer
import GameStore
import GameWire
import Synchronization
import WebServer

#if canImport(Glibc)
  import Glibc
#endif

/// Connects the WebSocket server to the game server: connections on `/ws` become its clients;
/// `/api/` answers a few JSON endpoints.
///
/// Every call comes on the web server's loop thread, and the game server runs there too: a
/// message is answered in the callback that brought it, with no hop to another thread.
final class WebBridge: WebServer.Handler {
  /// The WebSocket path of the protocol (docs/PROTOCOL.md).
  static let socketPath = "/ws"

  /// The server and the games, touched only on the loop thread.
  private final class Parts: ServerHost {
    weak var web: WebServer?
    var games: GameServer?
    /// The games' store, counted and timed for `/metrics`.
    var store: MeasuredStore?
    /// When the server started, on `clock`.
    var started = 0.0
    let clock = GameServer.monotonicSeconds
    /// How many times faster than `clock` the games' time runs: 1 but in benchmarks, which
    /// play Snap!'s pauses quicker than a person would see them.
    var speed = 1.0

    /// The games' time.
    func now() -> Double { clock() * speed }

    func send(_ message: UnsafeRawBufferPointer, to client: ClientID) {
      web?.sendNow(message, to: ConnectionID(rawValue: client.rawValue))
    }

    func wake(at time: Double?) {
      web?.setTimer(after: time.map { max(0, ($0 - now()) / speed) })
    }
  }

  // NB: the handler must be Sendable for the web server, but its parts are used on the loop
  // thread only (every Handler call), so they need no lock.
  nonisolated(unsafe) private let parts = Parts()

  /// Serves the games of `store` on `server`; their time runs `speed` times faster than the
  /// wall's (only benchmarks ask for more than 1). Every time the games are told runs so: at
  /// 50, the configuration's idle sweep and grace period pass 50 times sooner too.
  func attach(
    web server: WebServer, store: any GameStore, configuration: GameServer.Configuration,
    speed: Double = 1
  ) {
    precondition(speed > 0, "the games' time must run forward")
    parts.web = server
    parts.speed = speed
    let measured = MeasuredStore(store, clock: parts.clock)
    parts.store = measured
    parts.started = parts.clock()
    parts.games = GameServer(
      host: parts, store: measured, configuration: configuration,
      log: { line in printError(line) })
  }

  /// Closes the rooms left untouched too long; on the loop thread, before the first client.
  func closeIdleRooms() -> Int {
    parts.games?.closeIdleRooms(at: parts.now()) ?? 0
  }

  func detach() {
    parts.games?.shutdown()
    parts.games = nil
  }

  func connected(_ connection: ConnectionID, path: String) {
    guard path == WebBridge.socketPath else {
      parts.web?.close(connection)
      return
    }
    parts.games?.connected(
      ClientID(connection.rawValue), at: parts.now(), address: parts.web?.address(of: connection))
  }

  func received(_ text: UnsafeRawBufferPointer, from connection: ConnectionID) {
    parts.games?.received(text, from: ClientID(connection.rawValue), at: parts.now())
  }

  func refused(_ connection: ConnectionID, reason: WebServer.Refusal) {
    let limit = parts.web?.configuration.maximumMessageBytes ?? 0
    let mapped: RefusedMessage =
      switch reason {
      case .tooLarge(let bytes): .tooLarge(bytes: bytes, limit: limit)
      case .tooFast: .tooFast
      case .notText: .notText
      }
    parts.games?.refused(ClientID(connection.rawValue), reason: mapped)
  }

  func disconnected(_ connection: ConnectionID) {
    parts.games?.disconnected(ClientID(connection.rawValue), at: parts.now())
  }

  func timerFired() {
    parts.games?.wake(at: parts.now())
  }

  func turnEnded() {
    parts.games?.endOfTurn()
  }

  func respond(to request: HTTPRequest) -> HTTPResponse? {
    switch (request.method, request.path) {
    case ("GET", "/api/games"):
      let body: JSON = ["games": JSON(GameCatalog.names)]
      return .json(body.text)
    case ("GET", "/api/health"):
      let body: JSON = [
        "ok": true, "rooms": JSON(parts.games?.roomCount ?? 0),
        "clients": JSON(parts.games?.clientCount ?? 0),
      ]
      return .json(body.text)
    case ("GET", "/healthz"), ("HEAD", "/healthz"):
      guard let store = parts.store, parts.games != nil else {
        return .text("stopping\n", status: 503)
      }
      guard let problem = store.problem else { return .text("ok\n") }
      return .text("store unavailable: \(problem)\n", status: 503)
    case ("GET", "/metrics"):
      guard let games = parts.games, let store = parts.store else {
        return .text("stopping\n", status: 503)
      }
      let text = Metrics.text(
        games: games, store: store, uptime: parts.clock() - parts.started,
        process: ProcessFigures.now())
      return HTTPResponse(
        contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(text.utf8))
    default:
      return nil
    }
  }
}

/// `cardtable serve`: the web client and its games on one port until SIGINT or SIGTERM.
enum Serve {
  /// The page's own addresses, answered with its `index.html` (docs/PROTOCOL.md "Addresses").
  static let pageRoutes = ["/play/", "/scores", "/players/"]

  static func run(_ options: ServeOptions) -> Int32 {
    guard let root = options.webRoot ?? WebRoot.locate() else {
      printError(
        "serve: cannot find the web client; pass --web DIR or set CARDTABLE_WEB (looked in \(WebRoot.candidates().joined(separator: ", ")))."
      )
      return 1
    }
    let store: any GameStore
    if options.inMemory {
      store = MemoryStore()
      print("CardTable keeps its games in memory only: they are gone when it stops.")
    } else {
      switch DataDirectory.open(options.data, durability: options.durability, exclusive: true) {
      case .success(let opened): store = opened
      case .failure(let failure): return failure.report("serve")
      }
      print("CardTable keeps its games in \(store.path)")
    }
    if let sqlite = store as? SQLiteStore, !sqlite.integrityChecked {
      print(
        "CardTable checked \(store.path) for damage for \(Int(SQLiteStore.checkSeconds)) s and serves it without checking the rest (a large file)."
      )
    }
    let bridge = WebBridge()
    let web = WebServer(
      configuration: WebServer.Configuration(
        host: options.host, port: options.port, staticRoot: root, pageRoutes: pageRoutes,
        endpointPaths: ["/healthz", "/metrics"],
        maximumConnectionsPerAddress: options.connectionsPerAddress,
        addressMessagesPerSecond: options.messagesPerAddress,
        addressMessageBurst: Int(options.messagesPerAddress * 2),
        handlingSecondsPerSecond: options.handlingBudget,
        allowedHosts: options.allowedHosts ?? Self.ownNames(of: options.host),
        allowedOrigins: options.allowedOrigins,
        pageHeaders: WebServer.Configuration.publicPageHeaders),
      handler: bridge)
    bridge.attach(
      web: web, store: store,
      configuration: GameServer.Configuration(
        keepDays: options.keepDays, gracePeriod: options.graceSeconds,
        roomsPerMinute: options.roomsPerMinute, shared: store is PostgresStore,
        groupCommit: options.groupCommit))
    // NB: before the loop thread starts, so this is the game server's only thread yet.
    let closed = bridge.closeIdleRooms()
    if closed > 0 {
      print("CardTable closed \(closed) games untouched for \(options.keepDays) days as abandoned.")
    }
    do {
      try web.start()
    } catch {
      printError("serve: \(error)")
      bridge.detach()
      return 1
    }
    let host = options.host
    let shownHost = host.contains(":") ? "[\(host)]" : host
    // NB: announced only once SIGINT and SIGTERM are watched: a script that signals the server
    // as soon as it reads this line must not find the default action still in place.
    // NB: a `cardtable play` on the same data directory plays through this server rather than
    // open the store a second time (docs/TERMINAL.md).
    let addressFile = (store as? SQLiteStore).flatMap { _ in DataDirectory.path(options.data) }
      .map { $0 + "/" + Play.addressFile }
    let signal = WebServer.waitForTerminationSignal {
      let reachable = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : shownHost
      if let addressFile { Play.writeSmallFile(addressFile, "http://\(reachable):\(web.port)\n") }
      print("CardTable listening on http://\(shownHost):\(web.port)/")
      fflush(nil)
    }
    if let addressFile { unlink(addressFile) }
    print("CardTable stopping (signal \(signal)).")
    // NB: every acknowledged move is in the store already: stopping flushes nothing.
    web.stop()
    bridge.detach()
    print("CardTable stopped.")
    fflush(nil)
    return 0
  }
}

extension Serve {
  /// The names a server listening on `host` answers to when none are given: on a loopback
  /// address only the loopback names (so that no other site's name can reach it); on any other
  /// address any name (nil), since it cannot know the names it is reached by.
  static func ownNames(of host: String) -> [String]? {
    let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"]
    guard loopback.contains(host.lowercased()) || host.hasPrefix("127.") else { return nil }
    return ["localhost", "127.0.0.1", "[::1]", host.contains(":") ? "[\(host)]" : host]
  }
}

/// The data directory of the commands that keep data.
enum DataDirectory {
  /// A store that could not be opened, and why.
  struct Failure: Error {
    var error: StoreError?
    var message: String

    /// Prints the reason and returns the exit status it calls for.
    func report(_ command: String) -> Int32 {
      printError("\(command): \(message)")
      return error?.exitCode ?? 3
    }
  }

  /// The directory `given`, or the user's data directory.
  static func path(_ given: String?) -> String? {
    given ?? SQLiteStore.defaultDirectory(environment: environment())
  }

  /// The store `given` names: a PostgreSQL database's `postgres://` address, or a data
  /// directory (by default the user's) holding the SQLite file.
  static func open(
    _ given: String?, durability: SQLiteStore.Durability = .normal, exclusive: Bool = false,
    readOnly: Bool = false
  ) -> Result<any GameStore, Failure> {
    if let url = given, PostgresStore.isDatabaseURL(url) {
      do {
        return .success(try PostgresStore(url: url, durability: durability, migrate: !readOnly))
      } catch {
        return .failure(Failure(error: error, message: error.description))
      }
    }
    guard let directory = path(given) else {
      return .failure(
        Failure(message: "no data directory: set HOME or XDG_DATA_HOME, or pass --data DIR."))
    }
    if readOnly, access(directory + "/" + SQLiteStore.fileName, F_OK) != 0 {
      return .failure(
        Failure(
          error: .unavailable(path: directory, reason: "no games have been kept there yet"),
          message: "no games are kept in \(directory) yet."))
    }
    do {
      return .success(
        try SQLiteStore.open(
          directory: directory, durability: durability, exclusive: exclusive, readOnly: readOnly))
    } catch {
      return .failure(Failure(error: error, message: error.description))
    }
  }

  private static func environment() -> [String: String] {
    var values: [String: String] = [:]
    for name in ["HOME", "XDG_DATA_HOME"] {
      if let value = getenv(name) { values[name] = String(cString: value) }
    }
    return values
  }
}

/// Finds the web client's files: `CARDTABLE_WEB`, then next to the executable.
enum WebRoot {
  /// Places to look, best first: the environment, an installed `share/cardtable/web`, the
  /// source tree of a `swift build` (`.build/<triple>/<config>/cardtable`), the working folder.
  static func candidates() -> [String] {
    var places: [String] = []
    if let variable = getenv("CARDTABLE_WEB") { places.append(String(cString: variable)) }
    if let executable = executablePath() {
      let folder = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        .joined(separator: "/")
      places.append(folder + "/../share/cardtable/web")
      places.append(folder + "/../../../web")
      places.append(folder + "/../../web")
    }
    places.append("web")
    return places
  }

  static func locate() -> String? {
    candidates().first { access($0 + "/index.html", R_OK) == 0 }
  }

  private static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
