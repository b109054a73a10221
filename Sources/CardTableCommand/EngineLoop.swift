import GameWire

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the engine console over standard input and output until end of input.
public enum EngineLoop {
  /// Reads one command per line and writes one reply per line, flushing after each.
  public static func run(
    console: EngineConsole = EngineConsole(), read: () -> String? = { readLine() },
    write: (String) -> Void = { print($0) }, flush: () -> Void = { fflush(nil) }
  ) {
    while let line = read() {
      if line.allSatisfy(\.isWhitespace) { continue }
      write(console.reply(to: line))
      flush()
    }
  }
}
