import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

extension WebServer {
  /// Blocks the calling thread until the process receives SIGINT or SIGTERM, and returns the
  /// signal's number.
  ///
  /// The signals' default action (ending the process at once) is replaced for the rest of the
  /// process's life, so the caller can `stop()` the server and exit cleanly. SIGPIPE is
  /// ignored too: a write to a client that vanished fails instead of killing the process.
  @discardableResult
  public static func waitForTerminationSignal() -> Int32 {
    waitForTerminationSignal(ready: {})
  }

  /// ``waitForTerminationSignal()``, calling `ready` once the signals are being watched — the
  /// moment to announce that the server is up, so that a signal sent on that news is not lost.
  @discardableResult
  public static func waitForTerminationSignal(ready: () -> Void) -> Int32 {
    let received = Mutex<Int32>(0)
    let arrived = DispatchSemaphore(value: 0)
    let queue = DispatchQueue(label: "WebServer.signals")
    signal(SIGPIPE, SIG_IGN)
    let registered = DispatchGroup()
    let sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        received.withLock { $0 = number }
        arrived.signal()
      }
      registered.enter()
      source.setRegistrationHandler { registered.leave() }
      source.resume()
      return source
    }
    // NB: `resume` installs the watch asynchronously; a signal that comes earlier is lost.
    registered.wait()
    ready()
    arrived.wait()
    for source in sources { source.cancel() }
    return received.withLock { $0 }
  }
}
