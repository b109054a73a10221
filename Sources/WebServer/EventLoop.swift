import CWebSockets

#if canImport(Glibc)
  import Glibc
#endif

/// Everything that lives on the loop thread: the libuv loop, the lws context, the open
/// connections and the HTTP responses in flight.
///
/// Only the loop thread touches it. The lws callback reaches it through the context's user
/// pointer; it outlives the context because ``close()`` destroys the context first.
final class EventLoop {
  let server: WebServer
  let handler: any WebServer.Handler
  let configuration: WebServer.Configuration
  let staticRoot: String?
  private(set) var context: OpaquePointer?
  let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
  let stopSignal = UnsafeMutablePointer<uv_async_t>.allocate(capacity: 1)
  private let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
  private let protocolName = strdup("cardtable-webserver")
  private let host: UnsafeMutablePointer<CChar>?
  private let idlePolicy = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
  /// The application's one timer (``WebServer/setTimer(after:)``).
  let appTimer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
  /// Ticks while the server stops, until every WebSocket has closed.
  private let drainTimer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
  private var loopOpen = false
  private var listener: Listener?
  private var vhost: OpaquePointer?
  /// When the server began to stop (`uv_now`, milliseconds), or nil while it runs.
  private var stoppingSince: UInt64?

  private var nextConnection: UInt64 = 1
  private var connections: [ConnectionID: Connection] = [:]
  /// Response bodies waiting for `LWS_CALLBACK_HTTP_WRITEABLE`, by connection.
  private var responseBodies: [OpaquePointer: [UInt8]] = [:]
  /// Requests under `/api/` waiting for their body, by connection.
  private var pendingRequests: [OpaquePointer: PendingRequest] = [:]
  /// Outbox bytes given back since the heap was last trimmed.
  private var releasedSinceTrim = 0
  /// Static files compressed once, while they stay the same.
  private var compressedFiles = StaticFiles.CompressedFiles()
  /// The message rate of each client address, shared by its connections.
  private var addressBuckets: [String: TokenBucket] = [:]

  private struct PendingRequest {
    var request: HTTPRequest
    var tooLarge = false
  }

  init(server: WebServer, staticRoot: String?) {
    self.server = server
    self.handler = server.handler
    self.configuration = server.configuration
    self.staticRoot = staticRoot
    self.host = strdup(server.configuration.host)
  }

  deinit {
    protocols.deallocate()
    idlePolicy.deallocate()
    appTimer.deallocate()
    drainTimer.deallocate()
    loop.deallocate()
    stopSignal.deallocate()
    free(protocolName)
    free(host)
  }

  // MARK: - Life cycle

  /// Binds, creates the loop, the context and a vhost that serves the sockets our listener
  /// accepts; returns the bound port.
  func open() -> Result<Int, WebServer.StartError> {
    guard
      let listener = Listener(
        host: configuration.host, port: configuration.port,
        maximumConnections: configuration.maximumConnections,
        maximumPerAddress: configuration.maximumConnectionsPerAddress, log: configuration.log)
    else {
      return .failure(.cannotListen(host: configuration.host, port: configuration.port))
    }
    self.listener = listener
    let status = uv_loop_init(loop)
    guard status == 0 else { return .failure(.loopFailed(code: status)) }
    loopOpen = true
    stopSignal.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    uv_async_init(loop, stopSignal) { handle in
      guard let data = handle?.pointee.data else { return }
      Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().beginStopping()
    }
    uv_timer_init(loop, appTimer)
    appTimer.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    uv_timer_init(loop, drainTimer)
    drainTimer.pointee.data = Unmanaged.passUnretained(self).toOpaque()

    protocols.initialize(repeating: lws_protocols(), count: 2)
    protocols[0].name = UnsafePointer(protocolName)
    protocols[0].callback = webServerCallback
    protocols[0].per_session_data_size = MemoryLayout<UInt64>.size
    let idle = UInt16(clamping: max(configuration.idlePingSeconds, 1))
    idlePolicy.initialize(to: lws_retry_bo_t())
    idlePolicy.pointee.secs_since_valid_ping = idle
    idlePolicy.pointee.secs_since_valid_hangup = idle + max(idle / 2, 1)

    var info = lws_context_creation_info()
    // NB: lws never listens: the vhost serves the sockets the listener hands it.
    info.port = CONTEXT_PORT_NO_LISTEN
    info.protocols = UnsafePointer(protocols)
    info.options = cws_option_libuv() | cws_option_explicit_vhosts()
    info.gid = -1
    info.uid = -1
    info.retry_and_idle_policy = UnsafePointer(idlePolicy)
    info.user = Unmanaged.passUnretained(self).toOpaque()
    var foreignLoops: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(loop)]
    context = foreignLoops.withUnsafeMutableBufferPointer { loops in
      info.foreign_loops = loops.baseAddress
      return lws_create_context(&info)
    }
    info.foreign_loops = nil
    guard let context else { return .failure(.loopFailed(code: -1)) }
    info.port = CONTEXT_PORT_NO_LISTEN_SERVER
    guard let vhost = lws_create_vhost(context, &info) else {
      return .failure(.loopFailed(code: -1))
    }
    self.vhost = vhost
    let marker = Unmanaged.passUnretained(self).toOpaque()
    listener.adopt = { socket in
      // NB: when adoption fails lws has closed the socket already.
      guard let wsi = lws_adopt_socket_vhost(vhost, socket) else { return nil }
      lws_set_opaque_user_data(wsi, marker)
      return wsi
    }
    listener.start(on: loop)
    return .success(listener.port)
  }

  /// Stops accepting and closes every WebSocket with 1001 ("going away") once its outbox is
  /// sent; the loop ends when they have all closed, or after half a second (a client that does
  /// not answer the close is not waited for).
  func beginStopping() {
    guard stoppingSince == nil else { return }
    stoppingSince = uv_now(loop)
    listener?.close()
    for connection in connections.values {
      close(connection, code: UInt16(LWS_CLOSE_STATUS_GOINGAWAY.rawValue))
    }
    uv_timer_start(
      drainTimer,
      { timer in
        guard let data = timer?.pointee.data else { return }
        let loop = Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue()
        let waited = uv_now(loop.loop) - (loop.stoppingSince ?? 0)
        if loop.connections.isEmpty || waited > 500 { uv_stop(loop.loop) }
      }, 10, 20)
  }

  /// Closes `connection` with `code` once its outbox is sent.
  ///
  /// NB: measured on lws 4.1.6: only a close started from `LWS_CALLBACK_TIMER` sends the close
  /// frame; returning -1 from the writeable callback marks the socket unusable and the client
  /// sees an abnormal close (1006).
  private func close(_ connection: Connection, code: UInt16) {
    guard connection.closeCode == nil else { return }
    connection.closing = true
    connection.closeCode = code
    // NB: the timer is set from the writeable callback, inside lws's service, where lws sees
    // it; set from outside (the stop signal), it never fired.
    lws_callback_on_writable(connection.wsi)
  }

  /// Runs the loop until the stop signal fires.
  func run() {
    uv_run(loop, UV_RUN_DEFAULT)
  }

  /// Destroys the context (closing every connection), then lets the loop close every handle
  /// and closes the loop.
  func close() {
    listener?.close()
    if let context {
      lws_context_destroy(context)
      self.context = nil
    }
    guard loopOpen else { return }
    uv_close(UnsafeMutableRawPointer(stopSignal).assumingMemoryBound(to: uv_handle_t.self), nil)
    uv_close(UnsafeMutableRawPointer(appTimer).assumingMemoryBound(to: uv_handle_t.self), nil)
    uv_close(UnsafeMutableRawPointer(drainTimer).assumingMemoryBound(to: uv_handle_t.self), nil)
    uv_run(loop, UV_RUN_DEFAULT)
    if uv_loop_close(loop) != 0 {
      // NB: a handle left open (by a failed context creation) keeps the loop busy; close
      // whatever remains and finish the loop.
      uv_walk(
        loop,
        { handle, _ in
          if let handle, uv_is_closing(handle) == 0 { uv_close(handle, nil) }
        }, nil)
      uv_run(loop, UV_RUN_DEFAULT)
      uv_loop_close(loop)
    }
    loopOpen = false
  }

  // MARK: - Callback dispatch

  /// Handles one lws callback for protocol 0; everything else goes to lws's default handler.
  func handle(
    _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
  ) -> Int32 {
    switch reason {
    case LWS_CALLBACK_ESTABLISHED:
      opened(wsi, user)
      return 0
    case LWS_CALLBACK_RECEIVE:
      if let connection = connection(user) {
        received(connection, input, length)
      }
      return 0
    case LWS_CALLBACK_SERVER_WRITEABLE:
      guard let connection = connection(user) else { return 0 }
      return writable(connection)
    case LWS_CALLBACK_CLOSED:
      if let connection = connection(user) {
        user?.storeBytes(of: 0, as: UInt64.self)
        connections[connection.id] = nil
        released(connection.peakOutboxBytes + Self.connectionFootprint)
        handler.disconnected(connection.id)
      }
      return 0
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
      runCommands()
      return 0
    case LWS_CALLBACK_TIMER:
      guard let connection = connection(user), let code = connection.closeCode else { return 0 }
      lws_close_reason(wsi, lws_close_status(UInt32(code)), nil, 0)
      return -1
    case LWS_CALLBACK_WSI_DESTROY:
      // NB: once per socket lws served, after it closed the descriptor.
      if lws_get_opaque_user_data(wsi) == Unmanaged.passUnretained(self).toOpaque() {
        lws_set_opaque_user_data(wsi, nil)
        if let (address, left) = listener?.connectionClosed(wsi), left == 0 {
          addressBuckets[address] = nil
        }
      }
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
      // NB: a nonzero answer refuses the upgrade; lws hangs up without a WebSocket.
      return hostAllowed(wsi) && originAllowed(wsi) ? 0 : 1
    case LWS_CALLBACK_HTTP:
      let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
      guard hostAllowed(wsi) else {
        return respond(wsi, .text("unknown host\n", status: 421))
      }
      return httpRequest(wsi, path: path)
    case LWS_CALLBACK_HTTP_BODY:
      if var pending = pendingRequests[wsi], let input {
        pending.request.body.append(
          contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        pending.tooLarge =
          pending.tooLarge
          || pending.request.body.count > configuration.maximumMessageBytes
        if pending.tooLarge { pending.request.body = [] }
        pendingRequests[wsi] = pending
      }
      return 0
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
      guard let pending = pendingRequests.removeValue(forKey: wsi) else { return 0 }
      if pending.tooLarge {
        return respond(wsi, .json(#"{"error":"tooLarge"}"#, status: 413))
      }
      return respond(wsi, handler.respond(to: pending.request) ?? .notFoundJSON)
    case LWS_CALLBACK_HTTP_WRITEABLE:
      if let body = responseBodies.removeValue(forKey: wsi) {
        return writeBody(wsi, body)
      }
    case LWS_CALLBACK_CLOSED_HTTP:
      responseBodies[wsi] = nil
      pendingRequests[wsi] = nil
    default:
      break
    }
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  }

  // MARK: - WebSocket

  /// The connection whose id is in the per-session storage, if it is still open.
  private func connection(_ user: UnsafeMutableRawPointer?) -> Connection? {
    guard let user else { return nil }
    let raw = user.load(as: UInt64.self)
    return raw == 0 ? nil : connections[ConnectionID(rawValue: raw)]
  }

  private func opened(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) {
    guard let user else { return }
    let id = ConnectionID(rawValue: nextConnection)
    nextConnection += 1
    user.storeBytes(of: id.rawValue, as: UInt64.self)
    let bucket = TokenBucket(
      rate: configuration.messagesPerSecond, burst: configuration.messageBurst, now: uv_hrtime())
    connections[id] = Connection(id: id, wsi: wsi, bucket: bucket)
    handler.connected(id, path: header(wsi, WSI_TOKEN_GET_URI) ?? "/")
  }

  private func received(
    _ connection: Connection, _ input: UnsafeMutableRawPointer?, _ length: Int
  ) {
    let wsi = connection.wsi
    if !connection.inMessage {
      connection.inMessage = true
      connection.isBinary = lws_frame_is_binary(wsi) != 0
    }
    connection.messageBytes += length
    if !connection.discarding {
      if connection.messageBytes > configuration.maximumMessageBytes {
        connection.discarding = true
        connection.message = []
      } else if let input, length > 0 {
        connection.message.append(
          contentsOf: UnsafeRawBufferPointer(start: input, count: length))
      }
    }
    guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else {
      return
    }
    let bytes = connection.messageBytes
    let discarded = connection.discarding
    let binary = connection.isBinary
    defer { connection.resetMessage() }

    // NB: a message costs a token, and one more per `bytesPerToken` bytes that will be parsed:
    // parsing work, not only the count of messages, is what the rate limits. A message that
    // is refused unread (too large, binary) costs one token.
    let parsed = discarded || binary ? 0 : bytes
    let cost = 1 + Double(parsed / max(configuration.bytesPerToken, 1))
    let now = uv_hrtime()
    if !connection.bucket.take(cost, now: now) || !addressAllows(connection, cost: cost, now: now) {
      handler.refused(connection.id, reason: .tooFast)
    } else if discarded {
      handler.refused(connection.id, reason: .tooLarge(bytes))
    } else if binary {
      handler.refused(connection.id, reason: .notText)
    } else {
      connection.message.withUnsafeBytes { payload in
        if UTF8Validation.isValid(payload) {
          handler.received(payload, from: connection.id)
        } else {
          handler.refused(connection.id, reason: .notText)
        }
      }
    }
  }

  /// Whether the connection's address, all its connections together, may send a message of
  /// `cost` now (``WebServer/Configuration/addressMessagesPerSecond``).
  private func addressAllows(_ connection: Connection, cost: Double, now: UInt64) -> Bool {
    guard configuration.addressMessagesPerSecond.isFinite,
      let address = listener?.address(of: connection.wsi)
    else { return true }
    var bucket =
      addressBuckets[address]
      ?? TokenBucket(
        rate: configuration.addressMessagesPerSecond, burst: configuration.addressMessageBurst,
        now: now)
    let allowed = bucket.take(cost, now: now)
    addressBuckets[address] = bucket
    return allowed
  }

  /// The client address of an open connection.
  func address(of id: ConnectionID) -> String? {
    connections[id].flatMap { listener?.address(of: $0.wsi) }
  }

  /// Queues a message for a connection now: the loop thread's own send, with no hop.
  func sendNow(_ payload: UnsafeRawBufferPointer, to id: ConnectionID) {
    guard let connection = connections[id], !connection.closing else { return }
    var frame = [UInt8]()
    frame.reserveCapacity(cws_pre() + payload.count)
    frame.append(contentsOf: repeatElement(0, count: cws_pre()))
    frame.append(contentsOf: payload)
    enqueue(frame, on: connection)
  }

  /// Adds a framed message to a connection's outbox, or drops a client whose backlog is over
  /// the limit.
  private func enqueue(_ frame: [UInt8], on connection: Connection) {
    if connection.outboxBytes + frame.count > configuration.maximumOutboxBytes {
      // NB: the client reads slower than we write; drop it rather than hold its backlog.
      connection.dropOutbox()
      connection.closing = true
      lws_set_timeout(connection.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
      return
    }
    let wasEmpty = !connection.hasOutbox
    connection.push(frame)
    if wasEmpty { lws_callback_on_writable(connection.wsi) }
  }

  /// What one connection holds besides its outbox (libwebsockets, the connection, its room),
  /// as measured with 9,900 idle connections: about 10.5 KiB each.
  private static let connectionFootprint = 12 * 1024

  /// Notes `bytes` given back (a closed connection's outbox and footprint); after 8 MiB the
  /// heap's free pages go back to the system.
  ///
  /// NB: measured: after 100 clients that never read had filled their outboxes and left, glibc
  /// kept the freed pages and the server's RSS stayed over 500 MiB; after 9,900 idle clients
  /// left, it stayed at 147 MiB.
  private func released(_ bytes: Int) {
    releasedSinceTrim += bytes
    if releasedSinceTrim >= 8 * 1024 * 1024 {
      releasedSinceTrim = 0
      _ = cws_malloc_trim()
    }
  }

  /// Sets the application's timer to fire after `seconds`, or stops it.
  func setTimer(after seconds: Double?) {
    guard let seconds else {
      uv_timer_stop(appTimer)
      return
    }
    // NB: libuv counts whole milliseconds from the loop's cached time; rounding up keeps the
    // timer from firing before the moment asked for.
    let milliseconds = UInt64(max(0, (seconds * 1000).rounded(.up)))
    uv_timer_start(
      appTimer,
      { timer in
        guard let data = timer?.pointee.data else { return }
        Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().handler.timerFired()
      }, milliseconds, 0)
  }

  /// Sends one queued message; lws allows one `lws_write` per writable callback.
  private func writable(_ connection: Connection) -> Int32 {
    if var frame = connection.popOutbox() {
      let length = frame.count - cws_pre()
      let written = frame.withUnsafeMutableBufferPointer { buffer -> Int32 in
        guard let base = buffer.baseAddress else { return -1 }
        return lws_write(connection.wsi, base + cws_pre(), length, LWS_WRITE_TEXT)
      }
      if written < length { return -1 }
      if connection.hasOutbox {
        lws_callback_on_writable(connection.wsi)
        return 0
      }
    }
    if connection.closing {
      // NB: see ``close(_:code:)``: the close frame goes out from the timer callback.
      if connection.closeCode == nil {
        connection.closeCode = UInt16(LWS_CLOSE_STATUS_NORMAL.rawValue)
      }
      lws_set_timer_usecs(connection.wsi, 1)
    }
    return 0
  }

  /// Moves commands from other threads into the connections' outboxes.
  private func runCommands() {
    for command in server.takeCommands() {
      switch command {
      case .send(let id, let frame):
        guard let connection = connections[id], !connection.closing else { continue }
        enqueue(frame, on: connection)
      case .close(let id):
        guard let connection = connections[id], !connection.closing else { continue }
        close(connection, code: UInt16(LWS_CLOSE_STATUS_NORMAL.rawValue))
      }
    }
  }

  // MARK: - Host and origin

  /// Whether the request's `Host` names the server (``WebServer/Configuration/allowedHosts``).
  private func hostAllowed(_ wsi: OpaquePointer) -> Bool {
    guard let allowed = configuration.allowedHosts else { return true }
    guard let host = header(wsi, WSI_TOKEN_HOST) else { return false }
    return allowed.contains(Self.hostName(host).lowercased())
  }

  /// Whether a browser page may open this WebSocket: it comes from the server's own origin (or
  /// one allowed), or sends no `Origin` at all (a program rather than a page).
  private func originAllowed(_ wsi: OpaquePointer) -> Bool {
    guard let origin = header(wsi, WSI_TOKEN_ORIGIN)?.lowercased() else { return true }
    if configuration.allowedOrigins.contains(where: { $0.lowercased() == origin }) { return true }
    guard let host = header(wsi, WSI_TOKEN_HOST)?.lowercased(),
      let separator = origin.firstRange(of: "://")
    else { return false }
    return origin[separator.upperBound...] == host
  }

  /// A `Host` header's name without its port: `example.org`, `127.0.0.1`, `[::1]`.
  static func hostName(_ host: String) -> String {
    if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
      return String(host[...end])
    }
    return String(host.prefix { $0 != ":" })
  }

  // MARK: - HTTP

  private func httpRequest(_ wsi: OpaquePointer, path: String) -> Int32 {
    let method = method(wsi)
    if path == "/api" || path.hasPrefix("/api/") || configuration.endpointPaths.contains(path) {
      let request = HTTPRequest(method: method, path: path, query: query(wsi))
      let hasBody = ["POST", "PUT", "PATCH"].contains(method)
      if hasBody && lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0 {
        pendingRequests[wsi] = PendingRequest(request: request)
        return 0
      }
      return respond(wsi, handler.respond(to: request) ?? .notFoundJSON)
    }
    guard method == "GET" || method == "HEAD" else {
      return respond(wsi, .text("method not allowed\n", status: 405))
    }
    guard let staticRoot,
      let file = StaticFiles.resolve(path, in: staticRoot)
        ?? (isPageRoute(path) ? StaticFiles.resolve("/index.html", in: staticRoot) : nil)
    else {
      return respond(wsi, .text("not found\n", status: 404))
    }
    return serve(wsi, file, method: method)
  }

  /// Whether `path` is one of the page application's own addresses (``WebServer/Configuration/pageRoutes``).
  private func isPageRoute(_ path: String) -> Bool {
    configuration.pageRoutes.contains { route in
      route.hasSuffix("/") ? path.hasPrefix(route) && path.count > route.count : path == route
    }
  }

  /// Serves a file: gzip-compressed from memory when it compresses and the client accepts
  /// gzip, else through `lws_serve_http_file`; or a 304 when the client's copy is current.
  ///
  /// The two encodings are two representations with ETags of their own, and a compressible
  /// file's responses say `Vary: Accept-Encoding`, so that no cache hands one for the other.
  private func serve(_ wsi: OpaquePointer, _ file: StaticFiles.File, method: String) -> Int32 {
    let compressible = StaticFiles.isCompressible(file.path)
    let gzipped =
      compressible && acceptsGzip(header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING))
      ? compressedFiles.gzipped(file) : nil
    let etag = gzipped == nil ? file.etag : file.gzipETag
    var headers = [
      ("etag:", etag),
      ("cache-control:", StaticFiles.cacheControl(for: file.path)),
      ("x-content-type-options:", "nosniff"),
    ]
    headers += configuration.pageHeaders
    if compressible { headers.append(("vary:", "Accept-Encoding")) }
    if let matched = header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH),
      matched.split(separator: ",").contains(where: {
        let tag = $0.trimmed(" ")
        return tag == etag || tag == "*"
      })
    {
      return writeHeaders(wsi, status: 304, contentType: nil, length: nil, headers: headers)
    }
    if let gzipped {
      headers.append(("content-encoding:", "gzip"))
      let result = writeHeaders(
        wsi, status: 200, contentType: StaticFiles.contentType(for: file.path),
        length: gzipped.count, headers: headers)
      if result == 0 {
        responseBodies[wsi] = method == "HEAD" ? [] : gzipped
        lws_callback_on_writable(wsi)
      }
      return result
    }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let result = buffer.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let start = buffer.baseAddress else { return -1 }
      var cursor: UnsafeMutablePointer<UInt8>? = start
      for (name, value) in headers {
        let failed = lws_add_http_header_by_name(
          wsi, name, value, Int32(value.utf8.count), &cursor, start + buffer.count)
        if failed != 0 { return -1 }
      }
      guard let end = cursor else { return -1 }
      return lws_serve_http_file(
        wsi, file.path, StaticFiles.contentType(for: file.path),
        UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), Int32(end - start))
    }
    if result < 0 { return -1 }
    if result > 0 && lws_http_transaction_completed(wsi) != 0 { return -1 }
    return 0
  }

  /// Writes a response's headers now and its body when the connection is writable.
  private func respond(_ wsi: OpaquePointer, _ response: HTTPResponse) -> Int32 {
    let result = writeHeaders(
      wsi, status: response.status, contentType: response.contentType,
      length: response.body.count,
      headers: [("cache-control:", "no-store"), ("x-content-type-options:", "nosniff")]
        + configuration.pageHeaders)
    if result == 0 {
      responseBodies[wsi] = response.body
      lws_callback_on_writable(wsi)
    }
    return result
  }

  /// Writes a status line and headers; with no `length` the response has no body and the
  /// transaction ends here.
  private func writeHeaders(
    _ wsi: OpaquePointer, status: Int, contentType: String?, length: Int?,
    headers: [(String, String)]
  ) -> Int32 {
    var buffer = [UInt8](repeating: 0, count: cws_pre() + 2048)
    let failed = buffer.withUnsafeMutableBufferPointer { buffer -> Bool in
      guard let base = buffer.baseAddress else { return true }
      let start = base + cws_pre()
      let end = base + buffer.count
      var cursor: UnsafeMutablePointer<UInt8>? = start
      if let contentType, let length {
        if lws_add_http_common_headers(
          wsi, UInt32(status), contentType, lws_filepos_t(length), &cursor, end) != 0
        {
          return true
        }
      } else if lws_add_http_header_status(wsi, UInt32(status), &cursor, end) != 0 {
        return true
      }
      for (name, value) in headers {
        if lws_add_http_header_by_name(wsi, name, value, Int32(value.utf8.count), &cursor, end)
          != 0
        {
          return true
        }
      }
      return lws_finalize_write_http_header(wsi, start, &cursor, end) != 0
    }
    if failed { return -1 }
    if length == nil && lws_http_transaction_completed(wsi) != 0 { return -1 }
    return 0
  }

  private func writeBody(_ wsi: OpaquePointer, _ body: [UInt8]) -> Int32 {
    if !body.isEmpty {
      var frame = [UInt8](repeating: 0, count: cws_pre())
      frame.append(contentsOf: body)
      let written = frame.withUnsafeMutableBufferPointer { buffer -> Int32 in
        guard let base = buffer.baseAddress else { return -1 }
        return lws_write(wsi, base + cws_pre(), body.count, LWS_WRITE_HTTP_FINAL)
      }
      if written < body.count { return -1 }
    }
    return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
  }

  private func method(_ wsi: OpaquePointer) -> String {
    let methods: [(lws_token_indexes, String)] = [
      (WSI_TOKEN_GET_URI, "GET"), (WSI_TOKEN_POST_URI, "POST"), (WSI_TOKEN_PUT_URI, "PUT"),
      (WSI_TOKEN_PATCH_URI, "PATCH"), (WSI_TOKEN_DELETE_URI, "DELETE"),
      (WSI_TOKEN_HEAD_URI, "HEAD"), (WSI_TOKEN_OPTIONS_URI, "OPTIONS"),
    ]
    return methods.first { lws_hdr_total_length(wsi, $0.0) > 0 }?.1 ?? "GET"
  }

  /// The decoded `name=value` arguments of the query string.
  private func query(_ wsi: OpaquePointer) -> [String: String] {
    let total = Int(lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS))
    guard total > 0 else { return [:] }
    var arguments: [String: String] = [:]
    var buffer = [CChar](repeating: 0, count: total + 1)
    var index: Int32 = 0
    while true {
      let count = lws_hdr_copy_fragment(
        wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, index)
      if count < 0 { break }
      index += 1
      let fragment = String(
        decoding: buffer[0..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard !fragment.isEmpty else { continue }
      if let equals = fragment.firstIndex(of: "=") {
        arguments[String(fragment[..<equals])] = String(fragment[fragment.index(after: equals)...])
      } else {
        arguments[fragment] = ""
      }
    }
    return arguments
  }

  /// Whether an `Accept-Encoding` value accepts gzip (`gzip`, `gzip;q=0.5`, not `gzip;q=0`).
  private func acceptsGzip(_ value: String?) -> Bool {
    guard let value else { return false }
    return value.lowercased().split(separator: ",").contains { coding in
      let parts = coding.split(separator: ";").map { $0.trimmed(" ") }
      guard parts.first == "gzip" || parts.first == "*" else { return false }
      let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap {
        Double($0.dropFirst(2))
      }
      return (quality ?? 1) > 0
    }
  }

  /// A request header's whole value, or `nil` when absent.
  private func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
    let total = Int(lws_hdr_total_length(wsi, token))
    guard total > 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: total + 1)
    guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// The lws callback for protocol 0: finds the ``EventLoop`` through the context's user pointer.
private func webServerCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  guard let wsi, let context = lws_get_context(wsi), let loop = lws_context_user(context) else {
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  }
  return Unmanaged<EventLoop>.fromOpaque(loop).takeUnretainedValue()
    .handle(wsi, reason, user, input, length)
}

extension StringProtocol {
  /// The text without `character` at either end.
  func trimmed(_ character: Character) -> String {
    String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
  }
}
