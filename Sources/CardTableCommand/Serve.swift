import GameServer
import GameWire
import Synchronization
import WebServer

#if canImport(Glibc)
  import Glibc
#endif

/// Connects the WebSocket server to the game server: connections on `/ws` become clients with
/// a room each; `/api/` answers a few JSON endpoints.
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
    let clock = GameServer.monotonicSeconds

    func send(_ message: UnsafeRawBufferPointer, to client: ClientID) {
      web?.sendNow(message, to: ConnectionID(rawValue: client.rawValue))
    }

    func wake(at time: Double?) {
      web?.setTimer(after: time.map { max(0, $0 - clock()) })
    }
  }

  // NB: the handler must be Sendable for the web server, but its parts are used on the loop
  // thread only (every Handler call), so they need no lock.
  nonisolated(unsafe) private let parts = Parts()

  func attach(web server: WebServer, newSeed: @escaping () -> UInt64) {
    parts.web = server
    parts.games = GameServer(host: parts, newSeed: newSeed)
  }

  func detach() {
    parts.games = nil
  }

  func connected(_ connection: ConnectionID, path: String) {
    guard path == WebBridge.socketPath else {
      parts.web?.close(connection)
      return
    }
    parts.games?.connected(ClientID(connection.rawValue))
  }

  func received(_ text: UnsafeRawBufferPointer, from connection: ConnectionID) {
    parts.games?.received(text, from: ClientID(connection.rawValue), at: parts.clock())
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
    parts.games?.disconnected(ClientID(connection.rawValue))
  }

  func timerFired() {
    parts.games?.wake(at: parts.clock())
  }

  func respond(to request: HTTPRequest) -> HTTPResponse? {
    switch (request.method, request.path) {
    case ("GET", "/api/games"):
      let body: JSON = ["games": JSON(GameCatalog.names)]
      return .json(body.text)
    case ("GET", "/api/health"):
      let body: JSON = ["ok": true, "rooms": JSON(parts.games?.roomCount ?? 0)]
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
    bridge.attach(web: web, newSeed: { UInt64.random(in: .min ... .max) })
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
