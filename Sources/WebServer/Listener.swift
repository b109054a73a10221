import CWebSockets

#if canImport(Glibc)
  import Glibc
#endif

/// The server's listening socket: ours, not libwebsockets', so that the server decides when
/// to accept, and each accepted socket is handed to lws (`lws_adopt_socket_vhost`).
///
/// It keeps the connections within the descriptors the process may open, less a reserve for
/// its own needs (files it serves, the store, the runtime): at the limit a new connection is
/// accepted and reset at once, and the limit is logged once until the count falls again. If
/// `accept` itself runs out of descriptors it stops watching the socket — never spinning on it
/// — and looks again when a connection closes, or after a moment.
///
/// NB: measured on lws 4.1.6: when lws's own `accept` failed with EMFILE it logged and went
/// back to its level-triggered poll at once, 100 % of a core and ~25 MB/s of log, and the
/// runtime then trapped for want of a descriptor.
final class Listener {
  let descriptor: Int32
  /// The bound port (the one the system chose when asked for 0).
  let port: Int
  /// The most connections (every socket lws serves: WebSockets and HTTP) kept open at once.
  let limit: Int
  private let poll = UnsafeMutablePointer<uv_poll_t>.allocate(capacity: 1)
  private let retry = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
  private let log: @Sendable (String) -> Void
  private var watching = false
  private var closed = false
  /// Sockets lws serves now, counted from adoption to `LWS_CALLBACK_WSI_DESTROY`.
  private(set) var open = 0
  /// Connections refused since the limit was last reached.
  private var refused = 0
  /// Whether the limit (or a failed `accept`) has been logged and not yet lifted.
  private var atLimit = false
  /// Called with each accepted socket; returns lws's connection when lws took it.
  var adopt: (Int32) -> OpaquePointer? = { _ in nil }
  /// The most sockets one client address may hold; nil for no limit.
  let maximumPerAddress: Int?
  /// Sockets served per client address, and each connection's address.
  private var perAddress: [String: Int] = [:]
  private var addresses: [OpaquePointer: String] = [:]
  /// Addresses whose limit has been logged and not yet lifted.
  private var loggedAddresses: Set<String> = []

  /// Binds `host:port` (a numeric address or a host name) and reads the descriptor limit.
  ///
  /// - Parameters:
  ///   - host: where to listen.
  ///   - port: the port, or 0 for any free one.
  ///   - maximumConnections: a lower limit than the descriptors allow, if any.
  ///   - maximumPerAddress: the most connections one client address may hold, if any.
  ///   - log: where the limit's few lines go.
  init?(
    host: String, port: Int, maximumConnections: Int?, maximumPerAddress: Int? = nil,
    log: @escaping @Sendable (String) -> Void
  ) {
    guard let (descriptor, bound) = Listener.bind(host: host, port: port) else { return nil }
    self.descriptor = descriptor
    self.maximumPerAddress = maximumPerAddress
    self.port = bound
    self.log = log
    var limits = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
    // NB: a server may use all the descriptors it is allowed; lws sizes its table from the soft
    // limit when its context is made, which is after this.
    if limits.rlim_cur < limits.rlim_max {
      limits.rlim_cur = limits.rlim_max
      setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
      getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
    }
    let descriptors = Int(clamping: limits.rlim_cur)
    let reserve = min(max(32, descriptors / 20), descriptors / 2)
    limit = min(maximumConnections ?? .max, max(descriptors - reserve, 1))
  }

  deinit {
    poll.deallocate()
    retry.deallocate()
  }

  /// Starts watching the socket on `loop`.
  func start(on loop: UnsafeMutablePointer<uv_loop_t>) {
    uv_poll_init_socket(loop, poll, descriptor)
    poll.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    uv_timer_init(loop, retry)
    retry.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    watch(true)
  }

  /// Stops accepting and closes the socket once libuv has let go of it.
  func close() {
    guard !closed else { return }
    closed = true
    watch(false)
    uv_timer_stop(retry)
    uv_close(UnsafeMutableRawPointer(retry).assumingMemoryBound(to: uv_handle_t.self), nil)
    uv_close(UnsafeMutableRawPointer(poll).assumingMemoryBound(to: uv_handle_t.self)) { handle in
      guard let data = handle?.pointee.data else { return }
      Glibc.close(Unmanaged<Listener>.fromOpaque(data).takeUnretainedValue().descriptor)
    }
  }

  /// The client address of a connection lws serves for us.
  func address(of wsi: OpaquePointer) -> String? { addresses[wsi] }

  /// A socket lws served has closed; returns its address and how many that address still
  /// holds.
  @discardableResult
  func connectionClosed(_ wsi: OpaquePointer) -> (address: String, left: Int)? {
    open -= 1
    var result: (String, Int)?
    if let address = addresses.removeValue(forKey: wsi) {
      let left = (perAddress[address] ?? 1) - 1
      perAddress[address] = left > 0 ? left : nil
      if left < (maximumPerAddress ?? .max) { loggedAddresses.remove(address) }
      result = (address, left)
    }
    let lowWater = limit - max(limit / 20, 1)
    if atLimit && open <= lowWater {
      log("CardTable: \(open) connections open; accepting again (\(refused) refused meanwhile).")
      atLimit = false
      refused = 0
    }
    if !watching && !closed {
      uv_timer_stop(retry)
      watch(true)
    }
    return result
  }

  private func watch(_ on: Bool) {
    guard on != watching, !closed || !on else { return }
    watching = on
    if on {
      uv_poll_start(poll, Int32(UV_READABLE.rawValue)) { handle, _, _ in
        guard let data = handle?.pointee.data else { return }
        Unmanaged<Listener>.fromOpaque(data).takeUnretainedValue().acceptWaiting()
      }
    } else {
      uv_poll_stop(poll)
    }
  }

  /// Accepts the connections waiting, a few at a time so that the loop stays fair.
  private func acceptWaiting() {
    for _ in 0..<64 {
      var storage = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let socket = withUnsafeMutablePointer(to: &storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          accept(descriptor, $0, &length)
        }
      }
      if socket < 0 {
        switch errno {
        case EAGAIN, EWOULDBLOCK: return
        case EINTR, ECONNABORTED, EPROTO: continue
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          // NB: the reserve ran out all the same: the connection waits in the backlog.
          if !atLimit {
            log(
              "CardTable: out of descriptors with \(open) connections open (errno \(errno)); "
                + "new connections wait until some close.")
            atLimit = true
          }
          watch(false)
          uv_timer_start(
            retry,
            { timer in
              guard let data = timer?.pointee.data else { return }
              Unmanaged<Listener>.fromOpaque(data).takeUnretainedValue().watch(true)
            }, 200, 0)
          return
        default:
          log("CardTable: accept failed (errno \(errno)).")
          return
        }
      }
      guard open < limit else {
        refuse(socket)
        continue
      }
      let address = Self.limitGroup(of: Self.numericHost(&storage, length))
      if let most = maximumPerAddress, perAddress[address, default: 0] >= most {
        reset(socket)
        if loggedAddresses.insert(address).inserted {
          log(
            "CardTable: \(address) holds \(most) connections, the most one address may; "
              + "refusing more from it.")
        }
        continue
      }
      _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
      _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
      var yes: Int32 = 1
      setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
      if let wsi = adopt(socket) {
        open += 1
        addresses[wsi] = address
        perAddress[address, default: 0] += 1
      }
    }
  }

  /// What the per-address limits count a client address as: an IPv4 address itself, an IPv6
  /// address by its /64 (`2001:db8:1:2::/64`) — one host or home is given a whole /64, so
  /// counting single IPv6 addresses would give it 2^64 allowances.
  static func limitGroup(of address: String) -> String {
    guard address.contains(":") else { return address }
    var bytes = in6_addr()
    guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
    withUnsafeMutableBytes(of: &bytes) { raw in
      for index in 8..<16 { raw[index] = 0 }
    }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    guard inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count)) != nil else { return address }
    let prefix = String(
      decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return prefix + "/64"
  }

  /// The client's address as text: `127.0.0.1`, `2001:db8::1` (an IPv4 address mapped into
  /// IPv6 reads as IPv4).
  private static func numericHost(_ storage: inout sockaddr_storage, _ length: socklen_t)
    -> String
  {
    var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    let status = withUnsafePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getnameinfo($0, length, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST)
      }
    }
    guard status == 0 else { return "?" }
    let text = String(
      decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.hasPrefix("::ffff:") && text.contains(".") ? String(text.dropFirst(7)) : text
  }

  /// Resets a connection at once, so that its client knows without waiting.
  private func reset(_ socket: Int32) {
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    Glibc.close(socket)
  }

  /// Resets a connection over the limit at once, so that its client knows without waiting.
  private func refuse(_ socket: Int32) {
    reset(socket)
    refused += 1
    if !atLimit {
      log("CardTable: \(open) connections open, the limit; refusing new ones.")
      atLimit = true
    }
  }

  /// A listening socket on `host:port`, non-blocking, and the port it is bound to.
  private static func bind(host: String, port: Int) -> (Int32, Int)? {
    var hints = addrinfo()
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
      return nil
    }
    defer { freeaddrinfo(first) }
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      entry = address.pointee.ai_next
      let socket = Glibc.socket(
        address.pointee.ai_family,
        Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
      guard socket >= 0 else { continue }
      var yes: Int32 = 1
      setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
      guard Glibc.bind(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
        listen(socket, SOMAXCONN) == 0
      else {
        Glibc.close(socket)
        continue
      }
      var bound = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let named = withUnsafeMutablePointer(to: &bound) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
      }
      guard named == 0 else {
        Glibc.close(socket)
        continue
      }
      let boundPort = withUnsafePointer(to: &bound) { pointer -> Int in
        pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
          Int(UInt16(bigEndian: $0.pointee.sin_port))
        }
      }
      return (socket, boundPort)
    }
    return nil
  }
}
