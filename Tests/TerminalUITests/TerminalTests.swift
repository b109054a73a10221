import Glibc
import Testing

@testable import TerminalUI

/// The driver on a real pseudo-terminal: raw mode set and restored, the exact sequences of
/// entering and leaving, frames counted; the self-pipe's signals in order.
@Suite(.serialized) struct TerminalDriverTests {
  func openPty() -> (master: Int32, slave: Int32) {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    var unlock: Int32 = 0
    _ = ioctl(master, 0x4004_5431, &unlock)
    var number: UInt32 = 0
    _ = ioctl(master, 0x8004_5430, &number)
    let name = "/dev/pts/\(number)"
    let slave = open(name, O_RDWR | O_NOCTTY)
    return (master, slave)
  }

  func readAll(_ fd: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 100) > 0 else { break }
      let n = read(fd, &buffer, buffer.count)
      guard n > 0 else { break }
      out += buffer[0..<n]
    }
    return out
  }

  @Test func enterDrawLeaveOnAPty() throws {
    let (master, slave) = openPty()
    defer {
      close(master)
      close(slave)
    }
    var ws = winsize(ws_row: 7, ws_col: 33, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(slave, UInt(TIOCSWINSZ), &ws)
    var before = termios()
    _ = tcgetattr(slave, &before)
    let terminal = Terminal(
      input: slave, output: slave,
      capabilities: TerminalCapabilities(colours: .sixteen, unicode: true))
    #expect(terminal.isInteractive)
    #expect(terminal.size() == (33, 7))
    try terminal.enter()
    var raw = termios()
    _ = tcgetattr(slave, &raw)
    #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0)
    let entered = String(decoding: readAll(master), as: UTF8.self)
    #expect(entered == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h")
    var grid = Grid(width: 33, height: 7)
    grid.put("hello", x: 1, y: 1)
    let n = terminal.draw(grid)
    let frame = readAll(master)
    #expect(n == frame.count)
    #expect(frame == ScreenWriter(capabilities: terminal.capabilities).frame(from: nil, to: grid))
    #expect(terminal.draw(grid) == 0)
    grid.put("j", x: 1, y: 1)
    #expect(terminal.draw(grid) > 0)
    _ = readAll(master)
    terminal.forgetFrame()
    #expect(terminal.draw(grid) > 20)
    #expect(terminal.framesDrawn == 4)
    terminal.leave()
    terminal.leave()
    var after = termios()
    _ = tcgetattr(slave, &after)
    #expect(
      after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag
        && after.c_oflag == before.c_oflag)
    let left = String(decoding: readAll(master), as: UTF8.self)
    #expect(
      left.hasSuffix("\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"))
  }

  @Test func enterFailsOffATerminal() {
    var fds: [Int32] = [0, 0]
    _ = pipe(&fds)
    defer {
      close(fds[0])
      close(fds[1])
    }
    let terminal = Terminal(
      input: fds[0], output: fds[1],
      capabilities: TerminalCapabilities(colours: .none, unicode: false))
    #expect(!terminal.isInteractive)
    #expect(terminal.size() == (80, 24))
    #expect(throws: TerminalError.self) { try terminal.enter() }
  }

  @Test func signalsArriveInOrder() throws {
    let pipe = try SignalPipe(signals: [SIGWINCH, SIGUSR1])
    #expect(pipe.take().isEmpty)
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGWINCH)
    sigaddset(&unblock, SIGUSR1)
    var old = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &unblock, &old)
    defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
    raise(SIGWINCH)
    raise(SIGUSR1)
    raise(SIGWINCH)
    var got: [Int32] = []
    for _ in 0..<20 where got.count < 3 {
      var p = pollfd(fd: pipe.descriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&p, 1, 100)
      got += pipe.take()
    }
    #expect(got == [SIGWINCH, SIGUSR1, SIGWINCH])
    #expect(pipe.take().isEmpty)
    pipe.restoreDefaults()
    var action = sigaction()
    sigaction(SIGUSR1, nil, &action)
    #expect(action.__sigaction_handler.sa_handler == nil)
  }
}
