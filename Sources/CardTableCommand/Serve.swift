import GameServer
import GameWire
import Synchronization
import WebServer

#if canImport(Glibc)
  import Glibc
#endif

/// Connects the WebSocket server to the game server: connections on `/ws` become clients with
/// a room each; `/api/` answers a few JSON endpoints.
final class WebBridge: WebServer.Handler, Transport {
  /// The WebSocket path of the protocol (docs/PROTOCOL.md).
  static let socketPath = "/ws"

  // NB: the web server keeps its handler, so the bridge's reference to it is cleared at
  // shutdown rather than held weakly.
  private let web = Mutex<WebServer?>(nil)
  private let games = Mutex<GameServer?>(nil)

  func attach(web server: WebServer, games gameServer: GameServer) {
    web.withLock { $0 = server }
    games.withLock { $0 = gameServer }
  }

  func detach() {
    web.withLock { $0 = nil }
    games.withLock { $0 = nil }
  }

  private var gameServer: GameServer? { games.withLock { $0 } }

  func send(_ text: String, to client: ClientID) {
    web.withLock { $0 }?.send(text, to: ConnectionID(rawValue: client.rawValue))
  }

  func connected(_ connection: ConnectionID, path: String) {
    guard path == WebBridge.socketPath else {
      web.withLock { $0 }?.close(connection)
      return
    }
    gameServer?.connected(ClientID(connection.rawValue))
  }

  func received(_ text: String, from connection: ConnectionID) {
    gameServer?.received(text, from: ClientID(connection.rawValue))
  }

  func refused(_ connection: ConnectionID, reason: WebServer.Refusal) {
    let limit = web.withLock { $0 }?.configuration.maximumMessageBytes ?? 0
    let mapped: RefusedMessage =
      switch reason {
      case .tooLarge(let bytes): .tooLarge(bytes: bytes, limit: limit)
      case .tooFast: .tooFast
      case .notText: .notText
      }
    gameServer?.refused(ClientID(connection.rawValue), reason: mapped)
  }

  func disconnected(_ connection: ConnectionID) {
    gameServer?.disconnected(ClientID(connection.rawValue))
  }

  func respond(to request: HTTPRequest) -> HTTPResponse? {
    switch (request.method, request.path) {
    case ("GET", "/api/games"):
      let body: JSON = ["games": JSON(GameCatalog.names)]
      return .json(body.text)
    case ("GET", "/api/health"):
      let body: JSON = ["ok": true, "rooms": JSON(gameServer?.roomCount ?? 0)]
      return .json(body.text)
    default:
      return nil
    }
  }
}

/// `cardtable serve`: the web client and its games on one port until SIGINT or SIGTERM.
enum Serve {
  static func run(host: String, port: Int, webRoot: String?) -> Int32 {
    guard let root = webRoot ?? WebRoot.locate() else {
      printError(
        "serve: cannot find the web client; pass --web DIR or set CARDTABLE_WEB (looked in \(WebRoot.candidates().joined(separator: ", ")))."
      )
      return 1
    }
    let bridge = WebBridge()
    let web = WebServer(
      configuration: WebServer.Configuration(host: host, port: port, staticRoot: root),
      handler: bridge)
    let games = GameServer(transport: bridge)
    bridge.attach(web: web, games: games)
    do {
      try web.start()
    } catch {
      printError("serve: \(error)")
      bridge.detach()
      return 1
    }
    let shownHost = host.contains(":") ? "[\(host)]" : host
    // NB: announced only once SIGINT and SIGTERM are watched: a script that signals the server
    // as soon as it reads this line must not find the default action still in place.
    let signal = WebServer.waitForTerminationSignal {
      print("CardTable listening on http://\(shownHost):\(web.port)/")
      fflush(nil)
    }
    print("CardTable stopping (signal \(signal)).")
    games.shutdown()
    web.stop()
    bridge.detach()
    print("CardTable stopped.")
    fflush(nil)
    return 0
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
