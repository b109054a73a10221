#if canImport(Glibc)
  import Glibc
#endif

extension WebServer {
  /// Where the server listens, what it serves, and the limits it enforces per connection.
  public struct Configuration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 address, or a host name (resolved with
    /// `getaddrinfo`).
    public var host: String
    /// The TCP port; 0 takes any free port, reported by ``WebServer/port`` after `start()`.
    public var port: Int
    /// The directory served at `/` (with `index.html` for directories), or `nil` for none.
    public var staticRoot: String?
    /// Addresses of a page application answered with the static root's `index.html`: a path
    /// equal to one of them, or strictly under one that ends in `/` (`/play/` covers `/play/X`,
    /// not `/play/` itself).
    public var pageRoutes: [String]
    /// Exact paths besides `/api/` answered by the handler (`/healthz`, `/metrics`).
    public var endpointPaths: [String]
    /// The largest WebSocket message (and `/api/` request body) accepted, in bytes.
    public var maximumMessageBytes: Int
    /// The rate at which a connection earns permission to send messages.
    public var messagesPerSecond: Double
    /// How many messages a connection may send in a burst after a quiet time.
    public var messageBurst: Int
    /// Each message costs one token of the rate, and one more for every this many bytes.
    public var bytesPerToken: Int
    /// The most bytes queued for one slow client before the server closes it.
    public var maximumOutboxBytes: Int
    /// Seconds without traffic before the server pings a WebSocket client; it hangs up
    /// after half as long again without an answer.
    public var idlePingSeconds: Int
    /// The most connections open at once; nil for as many as the descriptor limit allows
    /// after a reserve for the server's own needs (5 %, at least 32).
    public var maximumConnections: Int?
    /// The most connections one client address may hold open at once; nil for no limit.
    public var maximumConnectionsPerAddress: Int?
    /// The rate at which all the WebSockets of one address together may send messages (each
    /// connection's own rate applies too), and their burst.
    public var addressMessagesPerSecond: Double
    public var addressMessageBurst: Int
    /// The seconds a second the server may spend handling received messages, all addresses
    /// together, before it refuses the addresses that spend the most (``HandlingBudget``);
    /// infinity for no budget.
    public var handlingSecondsPerSecond: Double
    /// The `Host` names (without port) requests may name; nil for any. A server on a loopback
    /// address should list only its own names, so that a page of another site cannot reach
    /// it by a name that resolves to 127.0.0.1 (DNS rebinding).
    public var allowedHosts: [String]?
    /// Origins (`https://example.org`) besides the server's own whose pages may open a
    /// WebSocket; a browser's WebSocket from any other origin is refused. A client that sends
    /// no `Origin` (a program, not a browser page) is not refused.
    public var allowedOrigins: [String]
    /// Headers sent with every static file and page: the Content-Security-Policy, frame
    /// protection and the like.
    public var pageHeaders: [(String, String)]
    /// Where the server's few log lines go (the connection limit reached and lifted).
    public var log: @Sendable (String) -> Void

    public init(
      host: String = "127.0.0.1",
      port: Int = 0,
      staticRoot: String? = nil,
      pageRoutes: [String] = [],
      endpointPaths: [String] = [],
      maximumMessageBytes: Int = 64 * 1024,
      messagesPerSecond: Double = 30,
      messageBurst: Int = 60,
      bytesPerToken: Int = 4096,
      maximumOutboxBytes: Int = 4 * 1024 * 1024,
      idlePingSeconds: Int = 30,
      maximumConnections: Int? = nil,
      maximumConnectionsPerAddress: Int? = nil,
      addressMessagesPerSecond: Double = .infinity,
      addressMessageBurst: Int = 1_000_000,
      handlingSecondsPerSecond: Double = .infinity,
      allowedHosts: [String]? = nil,
      allowedOrigins: [String] = [],
      pageHeaders: [(String, String)] = [],
      log: @escaping @Sendable (String) -> Void = Configuration.logToStandardError
    ) {
      self.host = host
      self.port = port
      self.staticRoot = staticRoot
      self.pageRoutes = pageRoutes
      self.endpointPaths = endpointPaths
      self.maximumMessageBytes = maximumMessageBytes
      self.messagesPerSecond = messagesPerSecond
      self.messageBurst = messageBurst
      self.bytesPerToken = bytesPerToken
      self.maximumOutboxBytes = maximumOutboxBytes
      self.idlePingSeconds = idlePingSeconds
      self.maximumConnections = maximumConnections
      self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
      self.addressMessagesPerSecond = addressMessagesPerSecond
      self.addressMessageBurst = addressMessageBurst
      self.handlingSecondsPerSecond = handlingSecondsPerSecond
      self.allowedHosts = allowedHosts
      self.allowedOrigins = allowedOrigins
      self.pageHeaders = pageHeaders
      self.log = log
    }

    /// What a site others can reach sends with its pages: a Content-Security-Policy that lets
    /// the page load and connect only to its own origin, no framing, no sniffing, no referrer
    /// (a room's link is its key).
    public static let publicPageHeaders: [(String, String)] = [
      (
        "content-security-policy:",
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
          + "form-action 'self'; frame-ancestors 'none'"
      ),
      ("x-frame-options:", "DENY"),
      ("referrer-policy:", "no-referrer"),
      ("cross-origin-opener-policy:", "same-origin"),
    ]

    /// Writes a line to standard error.
    public static let logToStandardError: @Sendable (String) -> Void = { line in
      var text = line + "\n"
      text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
  }

  /// Why the server could not start.
  public enum StartError: Error, Equatable, CustomStringConvertible {
    /// `start()` was called before on this server; a stopped server does not restart.
    case alreadyStarted
    /// The static root is not a readable directory.
    case staticRootNotFound(String)
    /// Binding failed: the port is in use, or the address is not on this machine.
    case cannotListen(host: String, port: Int)
    /// The libuv loop (error code from libuv) or the lws context (-1) could not be created.
    case loopFailed(code: Int32)

    public var description: String {
      switch self {
      case .alreadyStarted: "the web server was already started"
      case .staticRootNotFound(let path): "static root \(path) is not a directory"
      case .cannotListen(let host, let port):
        "cannot listen on \(host):\(port) (port in use or address not available)"
      case .loopFailed(let code): "cannot create the event loop (error \(code))"
      }
    }
  }
}
