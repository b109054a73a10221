/// An HTTP request for a dynamic endpoint under `/api/`.
///
/// libwebsockets has already parsed and percent-decoded the path and the query; the body is
/// present for `POST`, `PUT` and `PATCH` requests that send one (at most
/// ``WebServer/Configuration/maximumMessageBytes`` bytes).
public struct HTTPRequest: Sendable, Equatable {
  /// The method in capitals: `GET`, `POST`, `PUT`, `PATCH`, `DELETE`, `HEAD` or `OPTIONS`.
  public var method: String
  /// The decoded path, starting with `/api/`, without the query.
  public var path: String
  /// The decoded query arguments; when a name repeats, the last value wins.
  public var query: [String: String]
  /// The request body as received.
  public var body: [UInt8]

  public init(method: String, path: String, query: [String: String] = [:], body: [UInt8] = []) {
    self.method = method
    self.path = path
    self.query = query
    self.body = body
  }
}

/// The answer to an ``HTTPRequest``: a status, a content type and a body.
///
/// The server adds `Content-Length`, `Cache-Control: no-store` and
/// `X-Content-Type-Options: nosniff`.
public struct HTTPResponse: Sendable, Equatable {
  public var status: Int
  public var contentType: String
  public var body: [UInt8]

  public init(status: Int = 200, contentType: String, body: [UInt8]) {
    self.status = status
    self.contentType = contentType
    self.body = body
  }

  /// A JSON response from already encoded JSON text.
  public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "application/json", body: Array(text.utf8))
  }

  /// A plain text response.
  public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
  }

  /// The JSON error the server sends when no handler answers a path under `/api/`.
  public static let notFoundJSON = HTTPResponse.json(#"{"error":"notFound"}"#, status: 404)
}
