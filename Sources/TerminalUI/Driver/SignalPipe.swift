#if canImport(Glibc)
  import Glibc
#endif

/// Signals turned into bytes on a pipe, so that a `poll(2)` loop sees them beside the keys.
///
/// The handler only writes the signal's number to the pipe (the self-pipe trick): nothing else
/// is safe in a signal handler. Handlers are installed with `SA_RESTART`, so a read or write
/// that a signal interrupts goes on. A signal belongs to one pipe at a time: the last one made
/// for it.
public final class SignalPipe {
  /// The signals this pipe watches.
  public let signals: [Int32]
  /// The read end, non-blocking: readable when a signal has arrived.
  public var descriptor: Int32 { readEnd }

  private let readEnd: Int32
  private let writeEnd: Int32
  private var installed: Bool

  /// Opens the pipe and installs a handler for each of `signals` (such as SIGWINCH, SIGTSTP,
  /// SIGCONT, SIGTERM, SIGHUP, SIGINT).
  ///
  /// - Throws: ``TerminalError`` when the pipe or a handler cannot be made.
  public init(signals: [Int32]) throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw TerminalError(operation: "pipe", code: errno) }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
    self.signals = signals
    installed = true
    var action = sigaction()
    action.__sigaction_handler.sa_handler = signalPipeHandler
    action.sa_flags = SA_RESTART
    sigemptyset(&action.sa_mask)
    for signal in signals {
      guard signal > 0, signal < signalPipeLimit else {
        restoreDefaults()
        throw TerminalError(operation: "sigaction(\(signal))", code: EINVAL)
      }
      signalPipeWriteEnds[Int(signal)] = writeEnd
      guard sigaction(signal, &action, nil) == 0 else {
        let code = errno
        restoreDefaults()
        throw TerminalError(operation: "sigaction(\(signal))", code: code)
      }
    }
  }

  deinit {
    restoreDefaults()
    close(readEnd)
    close(writeEnd)
  }

  /// The signals received since the last call, in the order they came.
  public func take() -> [Int32] {
    var received: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = read(readEnd, &buffer, buffer.count)
      if count > 0 {
        received.append(contentsOf: buffer[0..<count].map { Int32($0) })
      } else if count < 0, errno == EINTR {
        continue
      } else {
        break
      }
    }
    return received
  }

  /// Puts the default action back for the pipe's signals (before the process ends by one).
  public func restoreDefaults() {
    guard installed else { return }
    installed = false
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    for signal in signals where signal > 0 && signal < signalPipeLimit {
      guard signalPipeWriteEnds[Int(signal)] == writeEnd else { continue }
      _ = sigaction(signal, &action, nil)
      signalPipeWriteEnds[Int(signal)] = -1
    }
  }
}

/// One more than the highest signal number a pipe can watch (Linux's real-time signals end
/// at 64).
private let signalPipeLimit: Int32 = 65

/// The write end of the pipe each signal belongs to, or -1: allocated before any handler is
/// installed, as the handler may not allocate.
nonisolated(unsafe) private let signalPipeWriteEnds: UnsafeMutablePointer<Int32> = {
  let ends = UnsafeMutablePointer<Int32>.allocate(capacity: Int(signalPipeLimit))
  ends.initialize(repeating: -1, count: Int(signalPipeLimit))
  return ends
}()

/// Writes the signal's number to its pipe; keeps `errno` as it was, which the interrupted code
/// may be about to read.
private func signalPipeHandler(_ signal: Int32) {
  let savedError = errno
  let end = signalPipeWriteEnds[Int(signal)]
  if end >= 0 {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(end, &byte, 1)
  }
  errno = savedError
}
