/// What the user asked `cardtable` to do, parsed from its arguments.
public enum Command: Equatable, Sendable {
  /// `cardtable engine`: the JSON Lines console on standard input and output.
  case engine
  /// `cardtable bench [NAME...] [--quick]`: runs the benchmarks and prints their figures.
  case bench(only: [String], quick: Bool)
  /// `cardtable serve [--host H] [--port P] [--web DIR]`: the web client and its games.
  case serve(host: String, port: Int, webRoot: String?)
  /// `cardtable help` or `--help`.
  case help
  /// `cardtable serve --help` or `bench --help`: one command's usage.
  case commandHelp(String)
  /// `cardtable --version`.
  case version
}

/// Arguments that do not make a command, with a sentence saying why.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

extension Command {
  /// The tool's version, printed by `--version`.
  public static let versionText = "cardtable 0.1.0"

  /// `serve`'s usage, for `cardtable serve --help`.
  public static let serveUsage = """
    Usage: cardtable serve [--host H] [--port P] [--web DIR]

    Serves the games in the browser until SIGINT or SIGTERM.
      --host H    the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
      --port P    the port (default 8080; 0 picks any free port and prints it)
      --web DIR   the web client's files (found automatically in a checkout or an install)
    """

  /// `bench`'s usage, for `cardtable bench --help`.
  public static var benchUsage: String {
    """
    Usage: cardtable bench [NAME...] [--quick]

    Runs benchmarks and prints their figures (build with -c release for meaningful ones).
      --quick     a shorter run of each
    Benchmarks: \(Benchmark.all.map(\.name).joined(separator: ", "))
    """
  }

  /// The help text.
  public static let usage = """
    CardTable — classic card games: Memory, Concentration, Matchismo, Set and Snap!

    Usage: cardtable <command> [options]

    Commands:
      serve               Serve the games in the browser.
                          --host H (default 127.0.0.1), --port P (default 8080; 0 = any free
                          port), --web DIR (the web client; found automatically in a checkout)
      engine              Read JSON Lines commands on stdin, answer on stdout (docs/ENGINE.md).
      bench [NAME...]     Run benchmarks (build with -c release) and print their figures.
                          --quick runs a shorter version.
      help                Show this text.

    Options:
      --version           Print the version.
    """

  /// Parses the arguments that follow the program name.
  ///
  /// - Throws: ``UsageError`` for an unknown command or option.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help }
    let rest = Array(arguments.dropFirst())
    switch first {
    case "help", "--help", "-h":
      return .help
    case "--version", "version":
      return .version
    case "engine":
      if let extra = rest.first {
        throw UsageError(message: "engine takes no arguments, got \"\(extra)\".")
      }
      return .engine
    case "serve":
      return try parseServe(rest)
    case "bench":
      var only: [String] = []
      var quick = false
      for argument in rest {
        if ["--help", "-h"].contains(argument) { return .commandHelp(benchUsage) }
        if argument == "--quick" {
          quick = true
        } else if argument.hasPrefix("-") {
          throw UsageError(message: "bench: unknown option \"\(argument)\".")
        } else {
          only.append(argument)
        }
      }
      return .bench(only: only, quick: quick)
    default:
      throw UsageError(
        message: "Unknown command \"\(first)\". Run `cardtable help` for the list of commands.")
    }
  }

  private static func parseServe(_ arguments: [String]) throws(UsageError) -> Command {
    var host = "127.0.0.1"
    var port = 8080
    var webRoot: String?
    var remaining = arguments[...]
    while let option = remaining.popFirst() {
      if ["--help", "-h"].contains(option) { return .commandHelp(serveUsage) }
      let (name, inline) = splitOption(option)
      guard ["--host", "--port", "--web"].contains(name) else {
        throw UsageError(message: "serve: unknown option \"\(option)\".")
      }
      guard let value = inline ?? remaining.popFirst(), !value.isEmpty else {
        throw UsageError(message: "serve: \(name) needs a value.")
      }
      switch name {
      case "--host": host = value
      case "--port":
        guard let number = Int(value), (0...65_535).contains(number) else {
          throw UsageError(
            message: "serve: --port must be a number from 0 to 65535, not \"\(value)\".")
        }
        port = number
      default: webRoot = value
      }
    }
    return .serve(host: host, port: port, webRoot: webRoot)
  }

  /// Splits `--name=value` into its parts; `--name` alone has no inline value.
  private static func splitOption(_ option: String) -> (String, String?) {
    guard let equals = option.firstIndex(of: "=") else { return (option, nil) }
    return (String(option[..<equals]), String(option[option.index(after: equals)...]))
  }
}
