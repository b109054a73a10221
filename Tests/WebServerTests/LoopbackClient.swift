import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A failure of the test-side client.
struct ClientError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A TCP connection to 127.0.0.1 with a receive timeout, for tests only.
final class LoopbackSocket {
  let descriptor: Int32
  private var isOpen = true

  init(port: Int, timeout: Double = 5) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw ClientError("socket: \(errno)") }
    var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      Glibc.close(descriptor)
      throw ClientError("connect: \(errno)")
    }
  }

  deinit { close() }

  func write(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw ClientError("send: \(errno)") }
      sent += count
    }
  }

  /// Up to `limit` bytes; empty at the end of the stream.
  func read(limit: Int = 65536) throws -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: limit)
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, limit, 0) }
    guard count >= 0 else { throw ClientError("recv: errno \(errno)") }
    return Array(buffer[0..<count])
  }

  func close() {
    guard isOpen else { return }
    isOpen = false
    Glibc.close(descriptor)
  }
}

/// An HTTP response as received.
struct FetchedResponse {
  var status: Int
  /// Header names in lower case.
  var headers: [String: String]
  var body: [UInt8]
  var text: String { String(decoding: body, as: UTF8.self) }
}

/// Sends one HTTP/1.1 request with `Connection: close` and reads the response to the end.
func fetch(
  port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:],
  body: [UInt8] = []
) throws -> FetchedResponse {
  let socket = try LoopbackSocket(port: port)
  var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
  for (name, value) in headers { request += "\(name): \(value)\r\n" }
  if !body.isEmpty { request += "Content-Length: \(body.count)\r\n" }
  try socket.write(Array((request + "\r\n").utf8) + body)
  var data: [UInt8] = []
  while true {
    let chunk = try socket.read()
    if chunk.isEmpty { break }
    data += chunk
  }
  guard let end = data.firstRange(of: Array("\r\n\r\n".utf8)) else {
    throw ClientError("no header end in \(String(decoding: data, as: UTF8.self))")
  }
  let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
  var lines = head.components(separatedBy: "\r\n")
  let statusLine = lines.removeFirst().split(separator: " ")
  guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
    throw ClientError("bad status line in \(head)")
  }
  var fields: [String: String] = [:]
  for line in lines {
    guard let colon = line.firstIndex(of: ":") else { continue }
    fields[line[..<colon].lowercased()] =
      line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
  }
  return FetchedResponse(status: status, headers: fields, body: Array(data[end.upperBound...]))
}

/// A minimal WebSocket client (RFC 6455 handshake and framing), for tests only.
final class WebSocketClient {
  enum Opcode: UInt8 {
    case continuation = 0
    case text = 1
    case binary = 2
    case close = 8
    case ping = 9
    case pong = 10
  }

  let socket: LoopbackSocket
  private var buffer: [UInt8] = []

  init(port: Int, path: String = "/ws") throws {
    socket = try LoopbackSocket(port: port)
    let key = Data((0..<16).map { UInt8($0 * 7 + 1) }).base64EncodedString()
    let request =
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"
    try socket.write(Array(request.utf8))
    while buffer.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
      let chunk = try socket.read()
      if chunk.isEmpty { throw ClientError("closed during handshake") }
      buffer += chunk
    }
    guard let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) else {
      throw ClientError("no end of the handshake")
    }
    let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
    guard head.hasPrefix("HTTP/1.1 101") else { throw ClientError("handshake: \(head)") }
    buffer.removeSubrange(..<end.upperBound)
  }

  /// Sends one masked frame.
  func sendFrame(_ opcode: Opcode, _ payload: [UInt8], final: Bool = true) throws {
    var frame: [UInt8] = [(final ? 0x80 : 0) | opcode.rawValue]
    switch payload.count {
    case ..<126: frame.append(0x80 | UInt8(payload.count))
    case ..<65536:
      frame.append(0x80 | 126)
      frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    default:
      frame.append(0x80 | 127)
      frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
    }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try socket.write(frame)
  }

  func send(_ text: String) throws {
    try sendFrame(.text, Array(text.utf8))
  }

  /// The next whole data message (reassembled), answering pings on the way.
  func receive() throws -> (opcode: Opcode, payload: [UInt8]) {
    var message: [UInt8] = []
    var messageOpcode: Opcode?
    while true {
      let (final, opcode, payload) = try readFrame()
      switch opcode {
      case .ping: try sendFrame(.pong, payload)
      case .pong: continue
      case .close: return (.close, payload)
      case .continuation, .text, .binary:
        if opcode != .continuation { messageOpcode = opcode }
        message += payload
        if final { return (messageOpcode ?? .binary, message) }
      }
    }
  }

  /// The next frame as it came, a ping included (not answered).
  func receiveFrame() throws -> (opcode: Opcode, payload: [UInt8]) {
    let (_, opcode, payload) = try readFrame()
    return (opcode, payload)
  }

  /// The next text message.
  func receiveText() throws -> String {
    let (opcode, payload) = try receive()
    guard opcode == .text else { throw ClientError("expected text, got \(opcode)") }
    return String(decoding: payload, as: UTF8.self)
  }

  /// True when the server closes the connection (close frame or end of stream) in time.
  func waitForClose() -> Bool {
    while true {
      guard let (_, opcode, _) = try? readFrame() else { return true }
      if opcode == .close { return true }
    }
  }

  private func readFrame() throws -> (Bool, Opcode, [UInt8]) {
    try fill(2)
    let final = buffer[0] & 0x80 != 0
    guard let opcode = Opcode(rawValue: buffer[0] & 0x0f) else {
      throw ClientError("bad opcode \(buffer[0])")
    }
    var length = Int(buffer[1] & 0x7f)
    var offset = 2
    if length == 126 {
      try fill(4)
      length = Int(buffer[2]) << 8 | Int(buffer[3])
      offset = 4
    } else if length == 127 {
      try fill(10)
      length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
      offset = 10
    }
    try fill(offset + length)
    let payload = Array(buffer[offset..<(offset + length)])
    buffer.removeSubrange(..<(offset + length))
    return (final, opcode, payload)
  }

  private func fill(_ count: Int) throws {
    while buffer.count < count {
      let chunk = try socket.read()
      if chunk.isEmpty { throw ClientError("connection closed") }
      buffer += chunk
    }
  }
}
