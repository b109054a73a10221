import CWebSockets
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP and WebSocket server: libwebsockets on a libuv loop that this object owns.
///
/// It serves static files from a directory, answers `/api/` requests through its
/// ``Handler``, and carries text messages over WebSocket connections. It knows nothing of
/// games.
///
/// `start()` runs the loop on a thread of its own; every ``Handler`` call happens there.
/// ``send(_:to:)``, ``close(_:)`` and ``stop()`` may be called from any thread: they queue a
/// command under a mutex and wake the loop with `lws_cancel_service`.
///
/// ```swift
/// let server = WebServer(configuration: .init(port: 8080, staticRoot: "web"), handler: app)
/// try server.start()
/// print("listening on port \(server.port)")
/// WebServer.waitForTerminationSignal()
/// server.stop()
/// ```
public final class WebServer: Sendable {
  public let configuration: Configuration
  let handler: any Handler
  let shared = Mutex(Shared())
  /// Entered when the loop thread starts, left when it ends.
  private let loopRunning = DispatchGroup()
  /// The loop while it runs.
  ///
  /// NB: touched only on the loop thread (set and cleared there, read by ``sendNow(_:to:)``
  /// and ``setTimer(after:)``, which must be called there), hence `nonisolated(unsafe)`.
  nonisolated(unsafe) private var running: EventLoop?

  /// What other threads share with the loop thread; only touched under the mutex.
  struct Shared {
    var phase = Phase.idle
    var startResult: Result<Int, StartError>?
    var stopRequested = false
    var commands: [Command] = []
    /// Set while the loop runs; `lws_cancel_service` on it is the one thread-safe lws call.
    var context: OpaquePointer?
    /// Set while the loop runs; `uv_async_send` on it is thread-safe.
    var stopSignal: UnsafeMutablePointer<uv_async_t>?
    var loopThread: pthread_t?
  }

  enum Phase {
    case idle, starting, running, stopped
  }

  /// Work for the loop thread from other threads.
  enum Command {
    /// A text message framed with `LWS_PRE` bytes of headroom.
    case send(ConnectionID, [UInt8])
    case close(ConnectionID)
  }

  /// Makes a server; nothing listens before ``start()``.
  public init(configuration: Configuration = Configuration(), handler: any Handler) {
    self.configuration = configuration
    self.handler = handler
  }

  /// The port the server listens on (the bound one when the configuration asked for 0), or 0
  /// before `start()`.
  public var port: Int {
    shared.withLock { shared in
      if case .success(let port) = shared.startResult { port } else { 0 }
    }
  }

  /// The CPU time the loop thread has used, in seconds: every handler call and every byte
  /// sent, the server's own cost apart from other threads'; nil when the loop does not run.
  public var loopCPUSeconds: Double? {
    shared.withLock { shared -> Double? in
      guard let thread = shared.loopThread else { return nil }
      var clock = clockid_t()
      var time = timespec()
      guard pthread_getcpuclockid(thread, &clock) == 0, clock_gettime(clock, &time) == 0 else {
        return nil
      }
      return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
  }

  /// Binds, starts the loop thread, and returns once the server is listening.
  ///
  /// - Throws: ``StartError/cannotListen(host:port:)`` when the port is taken,
  ///   ``StartError/staticRootNotFound(_:)`` for a missing static root, and
  ///   ``StartError/alreadyStarted`` on a second call.
  public func start() throws(StartError) {
    let claimed = shared.withLock { shared in
      guard shared.phase == .idle else { return false }
      shared.phase = .starting
      return true
    }
    guard claimed else { throw .alreadyStarted }
    var root: String?
    if let path = configuration.staticRoot {
      root = StaticFiles.resolveRoot(path)
      if root == nil {
        shared.withLock { $0.phase = .stopped }
        throw .staticRootNotFound(path)
      }
    }
    processSetup()
    let started = DispatchSemaphore(value: 0)
    loopRunning.enter()
    LoopThread.spawn { [self, root] in
      runLoop(staticRoot: root, started: started)
      loopRunning.leave()
    }
    started.wait()
    let result = shared.withLock { $0.startResult }
    if case .failure(let error) = result { throw error }
  }

  /// Stops the server: closes every connection, ends the loop, and returns after the loop
  /// thread has ended. Safe from any thread and more than once.
  ///
  /// Called from a ``Handler`` method (on the loop thread), it only asks the loop to stop
  /// and returns at once.
  public func stop() {
    let (mustWait, onLoopThread) = shared.withLock { shared in
      let onLoopThread = shared.loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
      switch shared.phase {
      case .idle:
        shared.phase = .stopped
        return (false, onLoopThread)
      case .starting:
        shared.stopRequested = true
        return (true, onLoopThread)
      case .running:
        if !shared.stopRequested, let signal = shared.stopSignal {
          uv_async_send(signal)
        }
        shared.stopRequested = true
        return (true, onLoopThread)
      case .stopped:
        return (false, onLoopThread)
      }
    }
    if mustWait && !onLoopThread {
      loopRunning.wait()
    }
  }

  /// Queues a text message for a connection; messages to one connection keep their order.
  ///
  /// Safe from any thread. A message for a connection that has closed is dropped.
  public func send(_ text: String, to connection: ConnectionID) {
    // NB: reserved exactly: a frame grown by appending can hold twice its bytes, and the
    // outbox limit counts bytes.
    var frame = [UInt8]()
    frame.reserveCapacity(cws_pre() + text.utf8.count)
    frame.append(contentsOf: repeatElement(0, count: cws_pre()))
    frame.append(contentsOf: text.utf8)
    enqueue(.send(connection, frame))
  }

  /// Queues a text message for a connection at once, with no hop: for the loop thread only,
  /// that is from a ``Handler`` call or the timer. Messages to one connection keep their order.
  public func sendNow(_ text: UnsafeRawBufferPointer, to connection: ConnectionID) {
    running?.sendNow(text, to: connection)
  }

  /// The client address (`127.0.0.1`, `2001:db8::1`) of an open connection, for the loop
  /// thread only.
  public func address(of connection: ConnectionID) -> String? {
    running?.address(of: connection)
  }

  /// Sets the one timer of the application, replacing any earlier setting: ``Handler/timerFired()``
  /// is called on the loop thread after `seconds`; nil stops it. For the loop thread only.
  public func setTimer(after seconds: Double?) {
    running?.setTimer(after: seconds)
  }

  /// Closes a connection after the messages already queued for it are sent.
  ///
  /// Safe from any thread; the handler then hears ``Handler/disconnected(_:)``.
  public func close(_ connection: ConnectionID) {
    enqueue(.close(connection))
  }

  private func enqueue(_ command: Command) {
    shared.withLock { shared in
      guard let context = shared.context, !shared.stopRequested else { return }
      shared.commands.append(command)
      // NB: the loop drains the whole queue per wakeup, so only the first command after a
      // drain needs to wake it.
      if shared.commands.count == 1 {
        lws_cancel_service(context)
      }
    }
  }

  /// Takes every queued command; called on the loop thread.
  func takeCommands() -> [Command] {
    shared.withLock { shared in
      let commands = shared.commands
      shared.commands.removeAll(keepingCapacity: true)
      return commands
    }
  }

  /// The body of the loop thread: open, publish, run, then close everything down.
  private func runLoop(staticRoot: String?, started: DispatchSemaphore) {
    let loop = EventLoop(server: self, staticRoot: staticRoot)
    switch loop.open() {
    case .failure(let error):
      loop.close()
      shared.withLock { shared in
        shared.phase = .stopped
        shared.startResult = .failure(error)
      }
      started.signal()
      return
    case .success(let port):
      let handles = LoopHandles(context: loop.context, stopSignal: loop.stopSignal)
      let stopEarly = shared.withLock { shared in
        shared.phase = .running
        shared.startResult = .success(port)
        shared.context = handles.context
        shared.stopSignal = handles.stopSignal
        shared.loopThread = pthread_self()
        return shared.stopRequested
      }
      running = loop
      started.signal()
      if !stopEarly {
        loop.run()
      }
      running = nil
    }
    shared.withLock { shared in
      shared.phase = .stopped
      shared.stopRequested = true
      shared.context = nil
      shared.stopSignal = nil
      shared.loopThread = nil
      shared.commands.removeAll()
    }
    loop.close()
  }
}

/// The two loop objects other threads may touch.
///
/// NB: only through `lws_cancel_service` and `uv_async_send`, the thread-safe calls, and only
/// under the mutex while the loop runs, hence `@unchecked Sendable`.
private struct LoopHandles: @unchecked Sendable {
  let context: OpaquePointer?
  let stopSignal: UnsafeMutablePointer<uv_async_t>
}

/// Once per process: quiet lws's notices, and let a write to a vanished peer fail with an
/// error instead of killing the process.
private let processSetupOnce: Bool = {
  lws_set_log_level(cws_log_errors_and_warnings(), nil)
  signal(SIGPIPE, SIG_IGN)
  return true
}()

private func processSetup() {
  _ = processSetupOnce
}

/// A detached POSIX thread running one closure.
enum LoopThread {
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  static func spawn(_ run: @escaping @Sendable () -> Void) {
    let body = Unmanaged.passRetained(Body(run)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
        body.run()
        return nil
      }, body)
    precondition(result == 0, "pthread_create failed: \(result)")
    pthread_detach(thread)
  }
}
