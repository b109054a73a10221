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
  var context: OpaquePointer?
  /// Where lws keeps the context's pointer, and clears it once the context is wholly destroyed
  /// (`pcontext`).
  let contextSlot = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: 1)
  let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
  let stopSignal = UnsafeMutablePointer<uv_async_t>.allocate(capacity: 1)
  let protocols = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
  let protocolName = strdup("cardtable-webserver")
  let host: UnsafeMutablePointer<CChar>?
  let idlePolicy = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
  /// The application's one timer (``WebServer/setTimer(after:)``).
  let appTimer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
  /// Ticks while the server stops, until every WebSocket has closed.
  let drainTimer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
  /// The ends of each turn of the loop (``WebServer/Handler/turnEnded()``): after the I/O
  /// callbacks (check) and before the loop waits again (prepare), so that what the timers and
  /// lws's own idle work did is not left waiting either.
  let afterPoll = UnsafeMutablePointer<uv_check_t>.allocate(capacity: 1)
  let beforePoll = UnsafeMutablePointer<uv_prepare_t>.allocate(capacity: 1)
  var loopOpen = false
  var listener: Listener?
  var vhost: OpaquePointer?
  /// When the server began to stop (`uv_now`, milliseconds), or nil while it runs.
  var stoppingSince: UInt64?

  var nextConnection: UInt64 = 1
  var connections: [ConnectionID: Connection] = [:]
  /// Response bodies waiting for `LWS_CALLBACK_HTTP_WRITEABLE`, by connection.
  var responseBodies: [OpaquePointer: [UInt8]] = [:]
  /// Requests under `/api/` waiting for their body, by connection.
  var pendingRequests: [OpaquePointer: PendingRequest] = [:]
  /// Outbox bytes given back since the heap was last trimmed.
  var releasedSinceTrim = 0
  /// Where a frame written at once is put together (``sendNow(_:to:)``), kept from one frame to
  /// the next, and how many bytes it holds.
  var scratchFrame: UnsafeMutableRawPointer?
  var scratchCapacity = 0
  /// Whether a frame is being written from ``scratchFrame``: a frame sent meanwhile (from a
  /// callback lws made while writing) is put together on its own.
  var writingScratch = false
  /// Static files compressed once, while they stay the same.
  var compressedFiles = StaticFiles.CompressedFiles()
  /// The static root's version and its pages that name it.
  var build = StaticFiles.Build()
  /// The message rate of each client address, shared by its connections.
  var addressBuckets: [String: TokenBucket] = [:]
  /// The server-wide budget of message handling.
  lazy var handlingBudget = HandlingBudget(
    secondsPerSecond: configuration.handlingSecondsPerSecond)

  struct PendingRequest {
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
    scratchFrame?.deallocate()
    contextSlot.deallocate()
    protocols.deallocate()
    idlePolicy.deallocate()
    appTimer.deallocate()
    drainTimer.deallocate()
    afterPoll.deallocate()
    beforePoll.deallocate()
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
    uv_check_init(loop, afterPoll)
    afterPoll.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    uv_check_start(afterPoll) { handle in
      guard let data = handle?.pointee.data else { return }
      Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().handler.turnEnded()
    }
    // NB: neither handle keeps the loop alive: it runs while lws has sockets and timers.
    uv_unref(UnsafeMutableRawPointer(afterPoll).assumingMemoryBound(to: uv_handle_t.self))
    uv_prepare_init(loop, beforePoll)
    beforePoll.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    uv_prepare_start(beforePoll) { handle in
      guard let data = handle?.pointee.data else { return }
      Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().handler.turnEnded()
    }
    uv_unref(UnsafeMutableRawPointer(beforePoll).assumingMemoryBound(to: uv_handle_t.self))

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
    contextSlot.initialize(to: nil)
    info.pcontext = contextSlot
    var foreignLoops: [UnsafeMutableRawPointer?] = [UnsafeMutableRawPointer(loop)]
    context = foreignLoops.withUnsafeMutableBufferPointer { loops in
      info.foreign_loops = loops.baseAddress
      return lws_create_context(&info)
    }
    contextSlot.pointee = context
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
  func close(_ connection: Connection, code: UInt16) {
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
    // NB: the handler hears now, on this thread, of the connections still open: the rest runs
    // on another (below), where no handler code runs; lws's closing callbacks then find no
    // connection.
    let remaining = connections.values.sorted { $0.id.rawValue < $1.id.rawValue }
    connections.removeAll()
    for connection in remaining { handler.disconnected(connection.id) }
    // NB: lws 4.1.6 closes its cancel pipe twice: as the context is destroyed, and again as the
    // loop finishes its handles (docs/WEBSERVER.md "Pitfalls"). Both on a descriptor table of
    // the teardown's own, the second cannot close a descriptor another thread opened between.
    if !PrivateDescriptorTable.run(tearDown) { tearDown() }
  }

  /// Destroys the context, closes the loop's handles and finishes the loop.
  private func tearDown() {
    listener?.close()
    if let context {
      lws_context_destroy(context)
      self.context = nil
    }
    guard loopOpen else { return }
    uv_close(UnsafeMutableRawPointer(stopSignal).assumingMemoryBound(to: uv_handle_t.self), nil)
    uv_close(UnsafeMutableRawPointer(appTimer).assumingMemoryBound(to: uv_handle_t.self), nil)
    uv_close(UnsafeMutableRawPointer(drainTimer).assumingMemoryBound(to: uv_handle_t.self), nil)
    uv_close(UnsafeMutableRawPointer(afterPoll).assumingMemoryBound(to: uv_handle_t.self), nil)
    uv_close(UnsafeMutableRawPointer(beforePoll).assumingMemoryBound(to: uv_handle_t.self), nil)
    finishLoop()
    loopOpen = false
  }

  /// Runs the loop until every handle has closed, then closes the loop.
  private func finishLoop() {
    uv_run(loop, UV_RUN_DEFAULT)
    // NB: on a loop of ours lws finishes destroying its context only when asked again once
    // the loop has closed the connections' handles: that call closes its own timers, whose
    // callbacks free the context and clear `contextSlot`. Without it, every server stopped
    // left some 270 KB and the /dev/urandom descriptor behind (valgrind, `bench server`).
    for _ in 0..<2 {
      guard let context = contextSlot.pointee else { break }
      lws_context_destroy(context)
      uv_run(loop, UV_RUN_DEFAULT)
    }
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
