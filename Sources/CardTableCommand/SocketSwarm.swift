import TerminalUI

#if canImport(Glibc)
  import Glibc
#endif

/// Many WebSocket clients on loopback, all driven from one thread with `poll(2)`: the
/// benchmarks' load, on the same machine as the server but never on its thread.
final class SocketSwarm {
  /// Why the swarm could not go on.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private struct Client {
    var descriptor: Int32
    /// Bytes received and not yet read as frames.
    var inbox: [UInt8] = []
  }

  private var clients: [Client] = []
  /// The server's pings the clients have answered (RFC 6455 §5.5.2): a client that does not
  /// answer is hung up, however much it sends (docs/PROTOCOL.md "Order and limits").
  private(set) var pingsAnswered = 0

  /// Opens `count` WebSocket connections to `path` on `127.0.0.1:port`.
  init(port: Int, count: Int, path: String = "/ws") throws {
    clients = try (0..<count).map { _ in
      Client(descriptor: try WebSocketClient.open(port: port, path: path))
    }
  }

  deinit {
    for client in clients { close(client.descriptor) }
  }

  var count: Int { clients.count }

  /// Sends a text message from client `index`.
  func send(_ text: String, from index: Int) throws {
    try WebSocketClient.send(text, to: clients[index].descriptor)
  }

  /// Waits up to `timeout` seconds for messages, and returns those that arrived whole, with
  /// the index of the client that received each.
  func receive(timeout: Double) throws -> [(client: Int, text: String)] {
    var polls = clients.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    let ready = poll(&polls, nfds_t(polls.count), Int32(timeout * 1000))
    guard ready >= 0 else { throw Failure(description: "poll: errno \(errno)") }
    var messages: [(client: Int, text: String)] = []
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    for (index, entry) in polls.enumerated() where entry.revents != 0 {
      let received = buffer.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, 0) }
      guard received > 0 else { throw Failure(description: "client \(index): connection closed") }
      clients[index].inbox.append(contentsOf: buffer[0..<received])
      while let text = try takeFrame(index) { messages.append((index, text)) }
    }
    return messages
  }

  /// Waits until every client has received at least one message, and returns the last each
  /// received.
  func receiveOneEach(timeout: Double) throws -> [String] {
    try receiveEach(1, timeout: timeout)
  }

  /// Waits until every client has received at least `count` messages, and returns the last
  /// each received.
  func receiveEach(_ count: Int, timeout: Double) throws -> [String] {
    var last = [String](repeating: "", count: clients.count)
    var received = [Int](repeating: 0, count: clients.count)
    var waiting = clients.count
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while waiting > 0 {
      // NB: a read may bring part of a frame and no whole message; only the deadline ends it.
      let left = deadline - ContinuousClock.now
      let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18
      guard seconds > 0 else {
        let missing = received.indices.filter { received[$0] < count }
        throw Failure(
          description: "no message within \(timeout) s for clients \(missing.prefix(10))")
      }
      let messages = try receive(timeout: seconds)
      for (client, text) in messages {
        received[client] += 1
        if received[client] == count { waiting -= 1 }
        last[client] = text
      }
    }
    return last
  }

  /// Waits until each of `waiting` has received the reply to its request `id` (a message
  /// with `"reply":"id"`), and returns those replies by client; what came before them is read
  /// and dropped.
  func replies(to id: String, from waiting: [Int], timeout: Double) throws -> [Int: String] {
    let marker = #""reply":"\#(id)""#
    var found: [Int: String] = [:]
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    while found.count < Set(waiting).count {
      let left = deadline - ContinuousClock.now
      let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18
      guard seconds > 0 else {
        let missing = waiting.filter { found[$0] == nil }
        throw Failure(
          description: "no reply to \(id) within \(timeout) s for clients \(missing.prefix(10))")
      }
      for (client, text) in try receive(timeout: seconds)
      where waiting.contains(client) && text.contains(marker) {
        found[client] = text
      }
    }
    return found
  }

  // MARK: Frames

  /// The next whole server frame's text, or nil when it has not all arrived.
  private func takeFrame(_ index: Int) throws -> String? {
    guard let (opcode, payload) = WebSocketFrames.take(from: &clients[index].inbox) else {
      return nil
    }
    switch opcode {
    case 0x1: return String(decoding: payload, as: UTF8.self)
    case 0x8: throw Failure(description: "client \(index): the server closed the connection")
    case 0x9:
      try WebSocketClient.pong(payload, to: clients[index].descriptor)
      pingsAnswered += 1
      return try takeFrame(index)
    default: return try takeFrame(index)
    }
  }
}

/// A WebSocket client connection on loopback, opened and written blocking.
enum WebSocketClient {
  static func open(port: Int, path: String = "/ws") throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw SocketSwarm.Failure(description: "socket: errno \(errno)") }
    var yes: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw SocketSwarm.Failure(description: "connect: errno \(errno)")
    }
    let request =
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      + "Sec-WebSocket-Version: 13\r\n\r\n"
    try write(Array(request.utf8), to: descriptor)
    var response: [UInt8] = []
    var byte: UInt8 = 0
    while !response.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
      guard recv(descriptor, &byte, 1, 0) == 1 else {
        close(descriptor)
        throw SocketSwarm.Failure(description: "the handshake was cut short")
      }
      response.append(byte)
    }
    guard String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
      close(descriptor)
      throw SocketSwarm.Failure(description: "the upgrade was refused")
    }
    return descriptor
  }

  static func send(_ text: String, to descriptor: Int32) throws {
    try write(WebSocketFrames.client(opcode: 0x1, Array(text.utf8)), to: descriptor)
  }

  /// Answers the server's ping whose payload is `payload`.
  static func pong<Payload: Collection<UInt8>>(_ payload: Payload, to descriptor: Int32) throws {
    try write(WebSocketFrames.client(opcode: 0xA, Array(payload)), to: descriptor)
  }

  private static func write(_ bytes: [UInt8], to descriptor: Int32) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw SocketSwarm.Failure(description: "send: errno \(errno)") }
      sent += count
    }
  }
}
