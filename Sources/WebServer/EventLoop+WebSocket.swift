import CWebSockets

#if canImport(Glibc)
  import Glibc
#endif

// The WebSocket half of the loop: connections opened, messages read and limited, frames queued
// and written as the socket takes them, and the handler's commands run on the loop thread.

extension EventLoop {
  // MARK: - WebSocket

  /// The connection whose id is in the per-session storage, if it is still open.
  func connection(_ user: UnsafeMutableRawPointer?) -> Connection? {
    guard let user else { return nil }
    let raw = user.load(as: UInt64.self)
    return raw == 0 ? nil : connections[ConnectionID(rawValue: raw)]
  }

  func opened(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) {
    guard let user else { return }
    let id = ConnectionID(rawValue: nextConnection)
    nextConnection += 1
    user.storeBytes(of: id.rawValue, as: UInt64.self)
    let bucket = TokenBucket(
      rate: configuration.messagesPerSecond, burst: configuration.messageBurst, now: uv_hrtime())
    connections[id] = Connection(id: id, wsi: wsi, bucket: bucket)
    handler.connected(id, path: header(wsi, WSI_TOKEN_GET_URI) ?? "/")
  }

  func received(
    _ connection: Connection, _ input: UnsafeMutableRawPointer?, _ length: Int
  ) {
    let wsi = connection.wsi
    if !connection.inMessage {
      connection.inMessage = true
      connection.isBinary = lws_frame_is_binary(wsi) != 0
      // NB: decided at the first fragment, so that a refused message is counted, not copied.
      let expected = length + Int(lws_remaining_packet_payload(wsi))
      connection.charged = connection.isBinary ? 0 : expected
      connection.refusing = !admits(connection, cost: cost(of: connection.charged))
    }
    connection.messageBytes += length
    if !connection.discarding && !connection.refusing {
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
    if connection.refusing {
      handler.refused(connection.id, reason: .tooFast)
      connection.refusedInARow += 1
      if connection.refusedInARow == Self.refusalsBeforeClosing {
        close(connection, code: Self.policyViolation)
      }
      return
    }
    connection.refusedInARow = 0
    let now = uv_hrtime()
    let address = listener?.address(of: wsi)
    let meter = handlingBudget.meter(now: now)
    if !discarded && !binary && bytes > connection.charged {
      // NB: a message sent in fragments pays for the bytes its first fragment did not announce.
      let owed = cost(of: bytes) - cost(of: connection.charged)
      connection.bucket.charge(owed, now: now)
      if let address { addressBuckets[address]?.charge(owed, now: now) }
    }
    defer {
      if let address {
        handlingBudget.charge(meter, to: address, now: uv_hrtime())
      }
    }
    if discarded {
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

  /// The tokens a message of `bytes` costs: one, and one more per `bytesPerToken` bytes that
  /// will be parsed — parsing work, not only the count of messages, is what the rate limits. A
  /// message refused unread (too large, binary) costs one token.
  func cost(of bytes: Int) -> Double {
    let parsed = bytes > configuration.maximumMessageBytes ? 0 : bytes
    return 1 + Double(parsed / max(configuration.bytesPerToken, 1))
  }

  /// Whether a message of `cost` may be handled now: the connection's rate, its address's,
  /// and the server-wide handling budget allow it (each takes its share when all do).
  func admits(_ connection: Connection, cost: Double) -> Bool {
    let now = uv_hrtime()
    let address = listener?.address(of: connection.wsi)
    if let address, !handlingBudget.allows(address, now: now) { return false }
    return connection.bucket.take(cost, now: now) && addressAllows(address, cost: cost, now: now)
  }

  /// Refusals in a row after which a connection is closed (1008, policy violation): a client
  /// that sends on regardless of `too-fast` is a flood, and reading it only to refuse it kept
  /// the loop busy for seconds after it stopped. A page never comes near: it waits for its
  /// replies.
  static let refusalsBeforeClosing = 64
  static let policyViolation = UInt16(LWS_CLOSE_STATUS_POLICY_VIOLATION.rawValue)

  /// Whether `address`, all its connections together, may send a message of `cost` now
  /// (``WebServer/Configuration/addressMessagesPerSecond``).
  func addressAllows(_ address: String?, cost: Double, now: UInt64) -> Bool {
    guard configuration.addressMessagesPerSecond.isFinite, let address else { return true }
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
    // NB: nothing waits before it (see `enqueue`): written at once from the loop's own frame
    // buffer, not one allocated for the frame; what the socket does not take, lws copies.
    if !writingScratch, writesAtOnce(connection),
      cws_pre() + payload.count <= configuration.maximumOutboxBytes
    {
      writeNow(payload, on: connection)
      return
    }
    var frame = [UInt8]()
    frame.reserveCapacity(cws_pre() + payload.count)
    frame.append(contentsOf: repeatElement(0, count: cws_pre()))
    frame.append(contentsOf: payload)
    enqueue(frame, on: connection)
  }

  /// Adds a framed message to a connection's outbox, or drops a client whose backlog is over
  /// the limit.
  func enqueue(_ frame: [UInt8], on connection: Connection) {
    if connection.outboxBytes + frame.count > configuration.maximumOutboxBytes {
      // NB: the client reads slower than we write; drop it rather than hold its backlog.
      connection.dropOutbox()
      connection.closing = true
      lws_set_timeout(connection.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
      return
    }
    let wasEmpty = !connection.hasOutbox
    // NB: nothing waits before it: written now, which spares the writable round trip (two
    // `epoll_ctl` to ask for POLLOUT and drop it, and a callback) per frame. lws keeps the
    // order and the rest of a short write itself (`lws_issue_raw` buffers it and asks for a
    // writable callback); while it holds such a rest, frames wait in the outbox as before,
    // so lws never holds more than one frame and the outbox limit still counts the backlog.
    if writesAtOnce(connection) {
      write(frame, on: connection)
      return
    }
    connection.push(frame)
    if wasEmpty { lws_callback_on_writable(connection.wsi) }
  }

  /// Whether a frame for `connection` is written now: nothing waits before it, in its outbox
  /// or in lws (see ``enqueue(_:on:)``).
  private func writesAtOnce(_ connection: Connection) -> Bool {
    !connection.hasOutbox && lws_partial_buffered(connection.wsi) == 0
  }

  /// Writes `payload` now through ``EventLoop/scratchFrame``; a failed write closes the
  /// connection.
  private func writeNow(_ payload: UnsafeRawBufferPointer, on connection: Connection) {
    let pre = cws_pre()
    if scratchCapacity < pre + payload.count {
      scratchFrame?.deallocate()
      scratchCapacity = pre + payload.count
      scratchFrame = .allocate(byteCount: scratchCapacity, alignment: 16)
    }
    guard let frame = scratchFrame else { return }
    if let source = payload.baseAddress {
      (frame + pre).copyMemory(from: source, byteCount: payload.count)
    }
    writingScratch = true
    write((frame + pre).assumingMemoryBound(to: UInt8.self), count: payload.count, on: connection)
    writingScratch = false
  }

  /// Writes one framed message now; a failed write closes the connection.
  private func write(_ frame: [UInt8], on connection: Connection) {
    var frame = frame
    frame.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      write(base + cws_pre(), count: buffer.count - cws_pre(), on: connection)
    }
  }

  /// Writes the `count` bytes at `payload`, which has `LWS_PRE` bytes of room before it; a
  /// failed write closes the connection.
  private func write(
    _ payload: UnsafeMutablePointer<UInt8>, count: Int, on connection: Connection
  ) {
    if lws_write(connection.wsi, payload, count, LWS_WRITE_TEXT) < count {
      connection.closing = true
      lws_set_timeout(connection.wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
    }
  }

  /// What one connection holds besides its outbox (libwebsockets, the connection, its room),
  /// as measured with 9,900 idle connections: about 10.5 KiB each.
  static let connectionFootprint = 12 * 1024

  /// Notes `bytes` given back (a closed connection's outbox and footprint); after 8 MiB the
  /// heap's free pages go back to the system.
  ///
  /// NB: measured: after 100 clients that never read had filled their outboxes and left, glibc
  /// kept the freed pages and the server's RSS stayed over 500 MiB; after 9,900 idle clients
  /// left, it stayed at 147 MiB.
  func released(_ bytes: Int) {
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

  /// Sends one queued message; lws allows one `lws_write` per writable callback (a frame
  /// written when nothing waited went out in ``enqueue(_:on:)``).
  func writable(_ connection: Connection) -> Int32 {
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
  func runCommands() {
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
}
