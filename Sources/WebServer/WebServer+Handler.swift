extension WebServer {
  /// What the application does with connections and dynamic requests.
  ///
  /// The server calls every method on its loop thread, one call at a time, so a handler sees
  /// the events of one connection in order. Calls must return quickly: the loop serves every
  /// other connection meanwhile. A handler answers at once with ``WebServer/sendNow(_:to:)``,
  /// or later from any thread with ``WebServer/send(_:to:)``.
  ///
  /// A handler that keeps a reference to its server should keep it `weak`: the server keeps
  /// its handler.
  public protocol Handler: Sendable {
    /// A WebSocket connection opened on `path` (the request path, without the query).
    func connected(_ connection: ConnectionID, path: String)

    /// A whole text message arrived (fragments already reassembled, valid UTF-8) within the
    /// limits; the bytes are valid only during the call.
    func received(_ text: UnsafeRawBufferPointer, from connection: ConnectionID)

    /// A message was dropped for breaking a limit; the connection stays open.
    ///
    /// The application decides whether to answer with an error message or to close.
    func refused(_ connection: ConnectionID, reason: Refusal)

    /// The connection closed: the client left, vanished, was closed, or the server stopped.
    func disconnected(_ connection: ConnectionID)

    /// Answers a request under `/api/`, or `nil` for a 404 with a JSON body.
    func respond(to request: HTTPRequest) -> HTTPResponse?

    /// The timer set with ``WebServer/setTimer(after:)`` fired.
    func timerFired()

    /// The loop finished a turn: it handled what was ready (messages of many connections, the
    /// timer) and is about to wait for more. What the handler kept back to do together — a
    /// group commit — is done here; messages sent now go out in this turn.
    func turnEnded()
  }

  /// Why a WebSocket message was dropped.
  public enum Refusal: Sendable, Equatable {
    /// The message had this many bytes, more than the configured maximum.
    case tooLarge(Int)
    /// The connection sent more messages than its rate allows.
    case tooFast
    /// The message was binary, or text that is not valid UTF-8.
    case notText
  }
}

extension WebServer.Handler {
  /// By default no endpoint exists: every `/api/` path is a 404.
  public func respond(to request: HTTPRequest) -> HTTPResponse? { nil }

  /// By default no timer is ever set.
  public func timerFired() {}

  /// By default nothing waits for the end of a turn.
  public func turnEnded() {}
}

/// A WebSocket connection, unique for the life of one server.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt64

  public init(rawValue: UInt64) {
    self.rawValue = rawValue
  }

  public var description: String { "connection \(rawValue)" }
}
