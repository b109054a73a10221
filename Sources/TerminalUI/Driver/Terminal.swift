#if canImport(Glibc)
  import Glibc
#endif

/// Why the terminal could not be taken over.
public struct TerminalError: Error, Sendable, CustomStringConvertible {
  /// The call that failed.
  public var operation: String
  /// Its `errno`.
  public var code: Int32

  public init(operation: String, code: Int32) {
    self.operation = operation
    self.code = code
  }

  public var description: String {
    "\(operation) failed: \(String(cString: strerror(code)))"
  }
}

/// The terminal the client draws on: raw mode, the alternate screen, the mouse, and frames
/// written as diffs in one `write(2)` each (PLATFORM.md "Terminal facts").
///
/// While entered, a crash (a Swift trap is SIGILL on x86_64, SIGTRAP on arm64) still gives the
/// player their terminal back: a signal handler writes a precomputed reset string and restores
/// the saved settings before the signal takes its course. One terminal is entered at a time.
public final class Terminal {
  /// The descriptor keys are read from; its settings are the ones made raw.
  public let input: Int32
  /// The descriptor frames are written to.
  public let output: Int32
  /// What frames are written for.
  public let capabilities: TerminalCapabilities
  /// The bytes of the frames drawn so far (not those of ``enter()``, ``leave()`` or
  /// ``write(_:)``).
  public private(set) var bytesWritten = 0
  /// How many times ``draw(_:)`` has been called.
  public private(set) var framesDrawn = 0

  private let writer: ScreenWriter
  /// What the terminal shows, as far as is known; nil forces a full paint.
  private var lastFrame: Grid?
  private var saved = termios()
  private var entered = false

  public init(input: Int32 = 0, output: Int32 = 1, capabilities: TerminalCapabilities) {
    self.input = input
    self.output = output
    self.capabilities = capabilities
    writer = ScreenWriter(capabilities: capabilities)
  }

  deinit {
    leave()
  }

  /// Whether both descriptors are terminals: otherwise there is nothing to take over.
  public var isInteractive: Bool {
    isatty(input) == 1 && isatty(output) == 1
  }

  /// The output's size in columns and rows (`TIOCGWINSZ`), or 80 × 24 when it has none.
  public func size() -> (width: Int, height: Int) {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0
    else { return (80, 24) }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// Takes the terminal over: raw mode, the alternate screen, no cursor, mouse reports.
  ///
  /// Raw mode clears `ICANON ECHO ISIG IEXTEN` (so Ctrl-C and Ctrl-Z arrive as keys),
  /// `IXON ICRNL` and `OPOST`, and reads byte by byte (`VMIN` 1, `VTIME` 0). Crash handlers
  /// for SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT and SIGFPE restore the terminal if the
  /// process dies before ``leave()``. The next ``draw(_:)`` paints the whole screen. Calling
  /// it again while entered does nothing.
  ///
  /// - Throws: ``TerminalError`` when the input is not a terminal or its settings cannot be
  ///   changed; the terminal is then as it was.
  public func enter() throws {
    guard !entered else { return }
    guard tcgetattr(input, &saved) == 0 else {
      throw TerminalError(operation: "tcgetattr", code: errno)
    }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { controls in
      controls[Int(VMIN)] = 1
      controls[Int(VTIME)] = 0
    }
    CrashRestore.arm(input: input, output: output, settings: saved)
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
      let code = errno
      CrashRestore.disarm()
      throw TerminalError(operation: "tcsetattr", code: code)
    }
    entered = true
    lastFrame = nil
    writeAll(Self.enterSequence)
  }

  /// Gives the terminal back as it was: mouse off, plain style, cursor shown, the main screen,
  /// the saved settings. Does nothing when not entered, so it may be called on every way out.
  public func leave() {
    guard entered else { return }
    entered = false
    writeAll(Self.leaveSequence)
    _ = tcsetattr(input, TCSAFLUSH, &saved)
    CrashRestore.disarm()
  }

  /// Stops the process as Ctrl-Z would (the terminal given back first), and takes the
  /// terminal over again once the shell resumes it (`fg`); the next draw paints everything.
  public func suspend() {
    let wasEntered = entered
    leave()
    _ = raise(SIGSTOP)
    // NB: the process runs again here, after SIGCONT.
    if wasEntered { try? enter() }
    forgetFrame()
  }

  /// Draws `grid` as the change from the last frame drawn, in one `write(2)`.
  ///
  /// The whole screen is painted on the first draw, after a change of size, and after
  /// ``suspend()`` or ``forgetFrame()``.
  ///
  /// - Returns: the number of bytes written.
  @discardableResult
  public func draw(_ grid: Grid) -> Int {
    let bytes = writer.frame(from: lastFrame, to: grid)
    let written = writeAll(bytes)
    // NB: after a failed write the screen is unknown: paint it all next time.
    lastFrame = written == bytes.count ? grid : nil
    framesDrawn += 1
    bytesWritten += written
    return written
  }

  /// Forgets what the screen shows, so that the next draw paints it all (after another
  /// program wrote on it, or a SIGCONT).
  public func forgetFrame() {
    lastFrame = nil
  }

  /// Writes `text` as it is: the last line after ``leave()``, for example.
  public func write(_ text: String) {
    writeAll(Array(text.utf8))
  }

  /// The alternate screen, the cursor hidden, button and drag mouse reports in SGR form.
  static let enterSequence: [UInt8] = Array(
    "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h".utf8)
  /// Mouse reports off, SGR 0, the cursor shown, the main screen.
  static let leaveSequence: [UInt8] = Array(
    "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// Writes all of `bytes` to the output, again after a partial write, EINTR or EAGAIN.
  ///
  /// - Returns: how many bytes were written: fewer than `bytes.count` only on an error.
  @discardableResult
  private func writeAll(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      var done = 0
      while done < buffer.count {
        let result = Glibc.write(output, base + done, buffer.count - done)
        if result > 0 {
          done += result
        } else if result < 0, errno == EINTR {
          continue
        } else if result < 0, errno == EAGAIN || errno == EWOULDBLOCK {
          // NB: a non-blocking input shares its open file with the output on a terminal.
          var wait = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
          _ = poll(&wait, 1, 100)
        } else {
          break
        }
      }
      return done
    }
  }
}

/// What the crash handler needs, allocated before it is installed: a signal handler may not
/// allocate, take locks or run Swift code that could.
private struct CrashRestore {
  var armed: Bool
  var input: Int32
  var output: Int32
  var settings: termios
  /// The handlers that were there before, indexed by signal number, put back before the
  /// signal is raised again (Swift's backtracer, for example).
  var previous: UnsafeMutablePointer<sigaction>
  var reset: UnsafeMutablePointer<UInt8>
  var resetCount: Int

  static let signals = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE]
  static let signalLimit = 65

  /// Fills in the state for the terminal on `input` and `output` and installs the handlers.
  static func arm(input: Int32, output: Int32, settings: termios) {
    let state = crashRestore ?? make()
    state.pointee.input = input
    state.pointee.output = output
    state.pointee.settings = settings
    crashRestore = state
    guard !state.pointee.armed else { return }
    var action = sigaction()
    action.__sigaction_handler.sa_handler = crashHandler
    action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
    sigemptyset(&action.sa_mask)
    for signal in signals {
      _ = sigaction(signal, &action, state.pointee.previous + Int(signal))
    }
    state.pointee.armed = true
  }

  /// Puts the previous handlers back.
  static func disarm() {
    guard let state = crashRestore, state.pointee.armed else { return }
    state.pointee.armed = false
    for signal in signals {
      _ = sigaction(signal, state.pointee.previous + Int(signal), nil)
    }
  }

  private static func make() -> UnsafeMutablePointer<CrashRestore> {
    let reset = UnsafeMutablePointer<UInt8>.allocate(capacity: Terminal.leaveSequence.count)
    reset.initialize(from: Terminal.leaveSequence, count: Terminal.leaveSequence.count)
    let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: signalLimit)
    previous.initialize(repeating: sigaction(), count: signalLimit)
    let state = UnsafeMutablePointer<CrashRestore>.allocate(capacity: 1)
    state.initialize(
      to: CrashRestore(
        armed: false, input: 0, output: 1, settings: termios(), previous: previous, reset: reset,
        resetCount: Terminal.leaveSequence.count))
    return state
  }
}

/// NB: set once, before any handler can read it, and never freed: the handler reaches it
/// through this global, as a `@convention(c)` function cannot capture.
nonisolated(unsafe) private var crashRestore: UnsafeMutablePointer<CrashRestore>?

/// Restores the terminal and lets the signal take its course; async-signal-safe calls only.
private func crashHandler(_ signal: Int32) {
  if let state = crashRestore {
    if state.pointee.armed {
      state.pointee.armed = false
      _ = write(state.pointee.output, state.pointee.reset, state.pointee.resetCount)
      _ = tcsetattr(state.pointee.input, TCSANOW, &state.pointee.settings)
    }
    _ = sigaction(signal, state.pointee.previous + Int(signal), nil)
  }
  // NB: the signal is blocked until the handler returns; then the previous action takes it.
  _ = raise(signal)
}
