import GameWire

#if canImport(Glibc)
  import Glibc
#endif

/// A ``Link`` over a WebSocket (RFC 6455) to a CardTable server's `/ws`, as `cardtable join`
/// uses it: plain `ws://` over TCP, IPv4 or IPv6, through a proxy such as nginx too.
///
/// A connection that drops is opened again by itself, at once and then every second; the
/// messages the screens send while it is down wait and go out first once it is back, after the
/// ``reconnect`` messages (`hello` with the player's token, `open` of the room) that say who
/// and where the terminal is.
public final class WebSocketLink: Link {
  /// Why a server could not be reached.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// A server address: `http://host:port/` (a path before `/ws` is kept, for a server behind
  /// a proxy under a prefix).
  public struct Address: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var path: String

    /// Reads `http://`, `ws://` and bare `host:port` addresses; `https` and `wss` are refused,
    /// since the terminal speaks no TLS (put it on the same machine as the proxy, or use SSH).
    public init(_ text: String) throws(Failure) {
      var rest = Substring(text)
      for scheme in ["http://", "ws://"] where rest.lowercased().hasPrefix(scheme) {
        rest = rest.dropFirst(scheme.count)
      }
      if rest.lowercased().hasPrefix("https://") || rest.lowercased().hasPrefix("wss://") {
        throw Failure(
          description:
            "\(text): the terminal speaks plain http:// and ws:// only; reach a TLS server through a tunnel (ssh -L) or on its own machine."
        )
      }
      let slash = rest.firstIndex(of: "/") ?? rest.endIndex
      let authority = rest[..<slash]
      var prefix = String(rest[slash...])
      if let page = prefix.firstRange(of: "/play/") { prefix = String(prefix[..<page.lowerBound]) }
      while prefix.hasSuffix("/") { prefix.removeLast() }
      var host = String(authority)
      var port = 80
      if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
        host = String(authority[authority.index(after: authority.startIndex)..<close])
        let after = authority[authority.index(after: close)...]
        if after.hasPrefix(":") {
          guard let value = Int(after.dropFirst()) else {
            throw Failure(description: "\(text): the port must be a number.")
          }
          port = value
        }
      } else if let colon = authority.lastIndex(of: ":") {
        host = String(authority[..<colon])
        guard let value = Int(authority[authority.index(after: colon)...]) else {
          throw Failure(description: "\(text): the port must be a number.")
        }
        port = value
      }
      guard !host.isEmpty, (1...65_535).contains(port) else {
        throw Failure(description: "\(text) is not a server address (http://HOST:PORT).")
      }
      self.host = host
      self.port = port
      self.path = prefix
    }

    /// The page address, for the final line and the lobby.
    public var web: String {
      let shown = host.contains(":") ? "[\(host)]" : host
      return "http://\(shown)\(port == 80 ? "" : ":\(port)")\(path)"
    }

    var hostHeader: String {
      let shown = host.contains(":") ? "[\(host)]" : host
      return port == 80 ? shown : "\(shown):\(port)"
    }
  }

  public let address: Address
  /// What to send first on every new connection, the first one included: set by the session
  /// (`hello` with the token, then `open` of its room).
  public var reconnect: () -> [JSON] = { [] }

  private var socket: Int32 = -1
  private var inbox: [UInt8] = []
  private var received: [JSON] = []
  private var waiting: [JSON] = []
  private var handshaken = false
  private var retryAt: Double?
  public private(set) var trouble: String?

  /// Connects to `address`, waiting for the upgrade: a server that cannot be reached at all is
  /// an error here, not a link that keeps trying.
  public init(address: Address) throws(Failure) {
    self.address = address
    try open()
  }

  deinit { close() }

  public var descriptors: [Int32] { socket >= 0 ? [socket] : [] }
  public var deadline: Double? { socket >= 0 ? nil : retryAt }

  public func send(_ message: JSON) {
    guard socket >= 0, handshaken else {
      waiting.append(message)
      return
    }
    if !write(Self.frame(opcode: 0x1, Array(message.text.utf8))) {
      dropped("the connection was lost")
    }
  }

  public func receive() -> [JSON] {
    defer { received.removeAll() }
    return received
  }

  public func service(now: Double) {
    if socket < 0 {
      guard let at = retryAt, now >= at else { return }
      do throws(Failure) {
        try open()
        trouble = nil
        for message in waiting { send(message) }
        waiting.removeAll()
      } catch {
        retryAt = now + 1
        trouble = "reconnecting to \(address.web)…"
      }
      return
    }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
      }
      if count > 0 {
        inbox.append(contentsOf: buffer[0..<count])
        continue
      }
      if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        readFrames()
        dropped("the server closed the connection")
        retryAt = now
        return
      }
      break
    }
    readFrames()
  }

  public func close() {
    if socket >= 0 {
      _ = write(Self.frame(opcode: 0x8, [0x03, 0xE8]))
      Glibc.close(socket)
    }
    socket = -1
    retryAt = nil
  }

  // MARK: Connecting

  private func open() throws(Failure) {
    let descriptor = try Self.connect(address)
    socket = descriptor
    inbox.removeAll()
    handshaken = false
    let key = Self.base64((0..<16).map { _ in UInt8.random(in: 0...255) })
    let request =
      "GET \(address.path)/ws HTTP/1.1\r\nHost: \(address.hostHeader)\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
      + "User-Agent: cardtable-terminal\r\n\r\n"
    guard write(Array(request.utf8)) else {
      Glibc.close(descriptor)
      socket = -1
      throw Failure(description: "\(address.web): the connection was refused while opening.")
    }
    // NB: the upgrade's answer is read blocking, bounded by a receive timeout; frames after
    // it are read without blocking from the loop.
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var response: [UInt8] = []
    let end: [UInt8] = Array("\r\n\r\n".utf8)
    var byte: UInt8 = 0
    while !response.suffix(4).elementsEqual(end) {
      guard recv(descriptor, &byte, 1, 0) == 1, response.count < 16_384 else {
        Glibc.close(descriptor)
        socket = -1
        throw Failure(description: "\(address.web) did not answer the WebSocket upgrade.")
      }
      response.append(byte)
    }
    let head = String(decoding: response, as: UTF8.self)
    guard head.hasPrefix("HTTP/1.1 101") else {
      Glibc.close(descriptor)
      socket = -1
      let status = head.split(separator: "\r\n").first.map(String.init) ?? "no answer"
      throw Failure(description: "\(address.web) refused the WebSocket (\(status)).")
    }
    handshaken = true
    for message in reconnect() {
      _ = write(Self.frame(opcode: 0x1, Array(message.text.utf8)))
    }
  }

  private func dropped(_ reason: String) {
    if socket >= 0 { Glibc.close(socket) }
    socket = -1
    handshaken = false
    trouble = "\(reason); reconnecting…"
    if retryAt == nil { retryAt = Clock.now() }
  }

  private static func connect(_ address: Address) throws(Failure) -> Int32 {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_family = AF_UNSPEC
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(address.host, String(address.port), &hints, &list) == 0, let first = list
    else {
      throw Failure(description: "\(address.web): no such host \(address.host).")
    }
    defer { freeaddrinfo(list) }
    var entry: UnsafeMutablePointer<addrinfo>? = first
    var reason = "no address"
    while let current = entry {
      let info = current.pointee
      let descriptor = Glibc.socket(
        info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
      if descriptor >= 0 {
        if Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen) == 0 {
          var yes: Int32 = 1
          setsockopt(
            descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
          return descriptor
        }
        reason = String(cString: strerror(errno))
        Glibc.close(descriptor)
      }
      entry = info.ai_next
    }
    throw Failure(description: "cannot reach \(address.web): \(reason).")
  }

  // MARK: Frames

  private func write(_ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      sent += count
    }
    return true
  }

  private func readFrames() {
    while let (opcode, payload) = takeFrame() {
      switch opcode {
      case 0x1:
        if let message = payload.withUnsafeBytes({ try? JSONReader.parse($0) }) {
          received.append(message)
        }
      case 0x8:
        dropped("the server closed the connection")
        return
      case 0x9:
        _ = write(Self.frame(opcode: 0xA, payload))
      default:
        break
      }
    }
  }

  private func takeFrame() -> (UInt8, [UInt8])? {
    WebSocketFrames.take(from: &inbox)
  }

  static func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
    WebSocketFrames.client(opcode: opcode, payload)
  }

  static func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    var text = ""
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
      for position in 0..<4 {
        text.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : "=")
      }
      index += 3
    }
    return text
  }
}

/// RFC 6455 frames as a client writes and reads them: what `cardtable join` and the
/// benchmarks' socket swarm share.
public enum WebSocketFrames {
  /// A masked client frame of `opcode` (1 text, 8 close, 10 pong).
  public static func client(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
    var frame: [UInt8] = [0x80 | opcode]
    switch payload.count {
    case ..<126: frame.append(0x80 | UInt8(payload.count))
    case ..<65_536:
      frame.append(0x80 | 126)
      frame.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
    default:
      frame.append(0x80 | 127)
      for shift in stride(from: 56, through: 0, by: -8) {
        frame.append(UInt8((payload.count >> shift) & 0xFF))
      }
    }
    let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
    frame.append(contentsOf: mask)
    for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index & 3]) }
    return frame
  }

  /// The next whole server frame at the start of `inbox` (its opcode and payload), removed
  /// from it; nil while it has not all arrived.
  public static func take(from inbox: inout [UInt8]) -> (opcode: UInt8, payload: [UInt8])? {
    guard let frame = inbox.withUnsafeBytes({ next(in: $0) }) else { return nil }
    let payload = Array(inbox[frame.payload])
    inbox.removeFirst(frame.length)
    return (frame.opcode, payload)
  }

  /// The next whole server frame at the start of `bytes`, read where it lies: its opcode,
  /// where its payload is, and its length with its header; nil while it has not all arrived.
  public static func next(
    in bytes: UnsafeRawBufferPointer
  ) -> (opcode: UInt8, payload: Range<Int>, length: Int)? {
    guard bytes.count >= 2 else { return nil }
    let opcode = bytes[0] & 0x0F
    var length = Int(bytes[1] & 0x7F)
    var header = 2
    if length == 126 {
      guard bytes.count >= 4 else { return nil }
      length = Int(bytes[2]) << 8 | Int(bytes[3])
      header = 4
    } else if length == 127 {
      guard bytes.count >= 10 else { return nil }
      length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
      header = 10
    }
    guard length >= 0, bytes.count - header >= length else { return nil }
    return (opcode, header..<(header + length), header + length)
  }
}
