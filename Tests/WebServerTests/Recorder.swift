import Foundation
import Synchronization
import WebServer

/// A test handler: records every event, echoes messages that start with `echo:`, and
/// answers `/api/echo` with its query and body as JSON.
final class Recorder: WebServer.Handler {
  enum Event: Equatable {
    case connected(ConnectionID, String)
    case received(ConnectionID, String)
    case refused(ConnectionID, WebServer.Refusal)
    case disconnected(ConnectionID)
  }

  private struct State {
    var events: [Event] = []
    weak var server: WebServer?
  }

  private let state = Mutex(State())

  /// Makes a recorder and its server.
  static func serving(_ configuration: WebServer.Configuration = .init()) throws -> (
    WebServer, Recorder
  ) {
    let recorder = Recorder()
    let server = WebServer(configuration: configuration, handler: recorder)
    recorder.state.withLock { $0.server = server }
    try server.start()
    return (server, recorder)
  }

  var events: [Event] { state.withLock { $0.events } }

  /// Waits up to `timeout` seconds for the events to satisfy `condition`.
  @discardableResult
  func wait(timeout: Double = 5, until condition: ([Event]) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition(events) { return true }
      usleep(2_000)
    }
    return condition(events)
  }

  /// The connection opened most recently, once one has that is not one of `known` (a
  /// second client's, whose opening the server may record after the client is connected).
  func latestConnection(timeout: Double = 5, besides known: [ConnectionID] = [])
    -> ConnectionID?
  {
    var found: ConnectionID?
    wait(timeout: timeout) { events in
      found =
        events.reversed().lazy.compactMap {
          if case .connected(let id, _) = $0, !known.contains(id) { id } else { nil }
        }.first
      return found != nil
    }
    return found
  }

  func connected(_ connection: ConnectionID, path: String) {
    record(.connected(connection, path))
  }

  func received(_ bytes: UnsafeRawBufferPointer, from connection: ConnectionID) {
    let text = String(decoding: bytes, as: UTF8.self)
    let server = record(.received(connection, text))
    if text.hasPrefix("echo:") {
      server?.send(text, to: connection)
    }
  }

  func refused(_ connection: ConnectionID, reason: WebServer.Refusal) {
    let server = record(.refused(connection, reason))
    server?.send("refused: \(reason)", to: connection)
  }

  func disconnected(_ connection: ConnectionID) {
    record(.disconnected(connection))
  }

  func respond(to request: HTTPRequest) -> HTTPResponse? {
    guard request.path == "/api/echo" else { return nil }
    let reply: [String: String] = [
      "method": request.method,
      "name": request.query["name"] ?? "",
      "body": String(decoding: request.body, as: UTF8.self),
    ]
    let json = (try? JSONEncoder().encode(reply)) ?? Data()
    return HTTPResponse(contentType: "application/json", body: Array(json))
  }

  @discardableResult
  private func record(_ event: Event) -> WebServer? {
    state.withLock { state in
      state.events.append(event)
      return state.server
    }
  }
}
