import GameStore

/// What the user asked `cardtable` to do, parsed from its arguments.
public enum Command: Equatable, Sendable {
  /// `cardtable engine`: the JSON Lines console on standard input and output.
  case engine
  /// `cardtable bench [NAME...] [--quick | --smoke] [--database URL]`: runs the benchmarks and
  /// prints their figures.
  case bench(only: [String], settings: Benchmark.Settings)
  /// `cardtable bench tables [--rooms N] [--seats N] [--game G] [--seconds S] [--commit C]`:
  /// tables of real WebSocket clients against a server of this build.
  case benchTables(TablesBenchmark.Options)
  /// `cardtable serve [--host H] [--port P] [--web DIR] [--data DIR] [--keep-days N]
  /// [--durability normal|full]`: the web client and its games.
  case serve(ServeOptions)
  /// `cardtable stats [--data DIR] [--json]`: every player's statistics.
  case stats(data: String?, json: Bool)
  /// `cardtable export ID [--data DIR] [--out FILE]`: a room as a save file.
  case export(room: String, data: String?, output: String?)
  /// `cardtable verify FILE`: replays a save file and checks it.
  case verify(file: String)
  /// `cardtable play [GAME] [options]`: a game in this terminal.
  case play(TerminalOptions)
  /// `cardtable join CODE|LINK`: a seat at a network table, in this terminal.
  case join(TerminalOptions)
  /// `cardtable help` or `--help`.
  case help
  /// `cardtable serve --help` and the like: one command's usage.
  case commandHelp(String)
  /// `cardtable --version`.
  case version
}

/// How `cardtable serve` runs.
public struct ServeOptions: Equatable, Sendable {
  public var host = "127.0.0.1"
  public var port = 8080
  /// The web client's files; nil: found next to the executable.
  public var webRoot: String?
  /// Where the data is kept; nil: the user's data directory.
  public var data: String?
  /// Keep nothing: the games live in the server's memory only (``MemoryStore``).
  public var inMemory = false
  /// Unfinished rooms untouched this many days are closed as abandoned.
  public var keepDays = 30
  public var durability = SQLiteStore.Durability.normal
  /// Whether the moves of one turn of the loop are saved in one transaction (group commit),
  /// or each in its own.
  public var groupCommit = true
  /// Seconds a seated player's dropped connection keeps their seat.
  public var graceSeconds = 30.0
  /// The most connections one client address may hold.
  public var connectionsPerAddress = 64
  /// Messages a second one client address may send over all its connections.
  public var messagesPerAddress = 200.0
  /// New rooms and tables a minute one client address may make.
  public var roomsPerMinute = 30.0
  /// Seconds a second the server may spend on received messages before it refuses the
  /// addresses that spend the most; infinity for no budget.
  public var handlingBudget = 0.25
  /// The `Host` names requests may use; nil: the server's own names when it listens on a
  /// loopback address, any otherwise.
  public var allowedHosts: [String]?
  /// Origins besides the server's own whose pages may open a WebSocket.
  public var allowedOrigins: [String] = []

  public init(
    host: String = "127.0.0.1", port: Int = 8080, webRoot: String? = nil, data: String? = nil,
    keepDays: Int = 30, durability: SQLiteStore.Durability = .normal, graceSeconds: Double = 30
  ) {
    self.host = host
    self.port = port
    self.webRoot = webRoot
    self.data = data
    self.keepDays = keepDays
    self.durability = durability
    self.graceSeconds = graceSeconds
  }
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
                           [--data DIR | --database URL | --in-memory]
                           [--keep-days N] [--durability normal|full]

    Serves the games in the browser until SIGINT or SIGTERM, keeping every game in a SQLite
    database so that nothing is lost when the page reloads or the server restarts.
      --host H        the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
      --port P        the port (default 8080; 0 picks any free port and prints it)
      --web DIR       the web client's files (found automatically in a checkout or an install)
      --data DIR      where the games are kept (default $XDG_DATA_HOME/cardtable, else
                      ~/.local/share/cardtable)
      --database URL  keep them in PostgreSQL instead (postgres://user@host:port/name), which
                      several servers may share, each room run by one (docs/DEPLOY.md)
      --in-memory     keep the games in the server's memory only: nothing is written, and
                      every game is gone when it stops (a demo, a classroom, or measuring
                      what keeping them costs)
      --keep-days N   close unfinished games untouched for N days as abandoned (default 30)
      --durability D  normal: every move survives the server being killed (default);
                      full: also a power cut, at the cost of a disk flush per move
      --grace-seconds S  how long a player at a shared table whose connection drops keeps
                      their seat before they leave the game (default 30)
      --commit C      turn: the moves of one turn of the server's loop are saved in one
                      transaction before any is answered (default); each: one per move

    Limits for a server others can reach (docs/PROTOCOL.md "Order and limits"):
      --connections-per-address N   connections one address may hold (default 64)
      --messages-per-address R      messages a second over all of an address's connections
                                    (default 200; each connection may send 30)
      --rooms-per-minute R          new games and tables a minute per address (default 30)
      --handling-budget S           seconds a second the server may spend on messages, all
                                    addresses together, before it refuses those that spend
                                    the most (default 0.25; none for no budget)
      --allowed-hosts A,B           Host names requests may use (default: on a loopback
                                    address its own names, else any; list them behind a proxy)
      --allowed-origins O,P         origins besides the server's own whose pages may connect
    """

  /// `stats`'s usage.
  public static let statsUsage = """
    Usage: cardtable stats [--data DIR | --database URL] [--json]

    Prints every player's statistics per game and setting: played, won, best score, best time,
    current and best streak (practice games and replays do not count).
      --data DIR   where the games are kept (as for serve)
      --json       one JSON object instead of a table
    """

  /// `export`'s usage.
  public static let exportUsage = """
    Usage: cardtable export ROOM [--data DIR | --database URL] [--out FILE]

    Writes the room ROOM (the id at the end of its /play/ link) as a save file
    (docs/SAVEFILE.md) to FILE, or to standard output.
      --data DIR   where the games are kept (as for serve)
      --out FILE   the file to write
    """

  /// `verify`'s usage.
  public static let verifyUsage = """
    Usage: cardtable verify FILE

    Replays a save file through the rules and says whether every move was legal and every
    recorded result is right. Exits 0 when it is, 1 with the first bad move when it is not.
    """

  /// `engine`'s usage, for `cardtable engine --help`.
  public static let engineUsage = """
    Usage: cardtable engine

    Reads JSON Lines commands on standard input and answers each line with one JSON line on
    standard output, until the input ends (docs/ENGINE.md). For example:
      printf '%s\\n' '{"cmd":"games"}' '{"cmd":"new","game":"memory","seed":7}' | cardtable engine
    Commands: new, act, advance, state, view, restart, results, games and help ({"cmd":"help"}
    lists them with the games). A line that is not a command is answered
    {"ok":false,"error":{...}} and the console goes on.
    """

  /// `bench`'s usage, for `cardtable bench --help`.
  public static var benchUsage: String {
    """
    Usage: cardtable bench [NAME...] [--quick | --smoke] [--database URL]

    Runs benchmarks and prints their figures (build with -c release for meaningful ones).
      --quick          a shorter run of each
      --smoke          a few iterations of each: only shows that it runs (the tests use it)
      --database URL   server: measure the Snap! table on this PostgreSQL database too,
                       beside SQLite (postgres://user@host:port/name); it keeps the rooms it
                       makes, so give it a database of its own (scripts/pg-scratch.sh)
    Benchmarks: \(Benchmark.all.map(\.name).joined(separator: ", "))

    \(benchTablesUsage)
    """
  }

  /// `bench tables`' usage.
  public static let benchTablesUsage = """
    Usage: cardtable bench tables [--rooms N] [--seats N] [--game G] [--seconds S]
                                  [--commit turn|each] [--store sqlite|memory] [--batch N]

    Starts a `cardtable serve` of this build and plays N tables (default 250) of N seats
    (default 4) of real WebSocket clients, driven from one thread, like quick players: G is
    snap (default), memory, concentration or set. A table of one seat is a game alone (Snap!
    against three computer players), begun with `new` and begun anew when it is over. After the
    deal's pause it measures S seconds of play (default 20) and prints actions/s, action → last
    seat p50/p95/p99, the server's CPU per action, its memory and the client's CPU; then stops
    the server. --store memory runs the server with --in-memory: the same play with the store
    off.
    """

  /// The help text.
  public static let usage = """
    CardTable — classic card games: Memory, Concentration, Matchismo, Set and Snap!

    Usage: cardtable <command> [options]

    Commands:
      serve               Serve the games in the browser, keeping every game.
                          --host H (default 127.0.0.1), --port P (default 8080; 0 = any free
                          port), --web DIR, --data DIR, --keep-days N, --durability normal|full
      play [GAME]         Play in this terminal: a menu, or memory, concentration, matchismo,
                          set, snap (--resume continues; --host opens a table; see --help).
      join CODE|LINK      Take a seat at a table in this terminal.
      stats               Print the players' statistics (--json for JSON).
      export ROOM         Write a room as a save file (--out FILE).
      verify FILE         Replay a save file and check every move and result.
      engine              Read JSON Lines commands on stdin, answer on stdout (docs/ENGINE.md).
      bench [NAME...]     Run benchmarks (build with -c release) and print their figures.
                          --quick runs a shorter version, --smoke a few iterations.
      help                Show this text; `cardtable COMMAND --help` shows one command's.

    Options:
      --version           Print the version.

    Exit status: 0 done; 1 failed (verify: a bad move); 2 bad arguments; 3 the data cannot be
    used; 4 the disk is full; 5 the data is locked by another process; 6 the database is
    damaged; 7 it was written by a newer CardTable.
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
      let options = try Options(rest, of: "engine", usage: engineUsage, values: [], flags: [])
      if let help = options.help { return help }
      if let extra = options.positional.first {
        throw UsageError(message: "engine takes no arguments, got \"\(extra)\".")
      }
      return .engine
    case "serve":
      return try parseServe(rest)
    case "play":
      return try parseTerminal(rest, join: false)
    case "join":
      return try parseTerminal(rest, join: true)
    case "stats":
      let options = try Options(
        rest, of: "stats", usage: statsUsage, values: ["--data", "--database"], flags: ["--json"])
      if let help = options.help { return help }
      try options.noPositional()
      return .stats(
        data: options.values["--database"] ?? options.values["--data"],
        json: options.flags.contains("--json"))
    case "export":
      var options = try Options(
        rest, of: "export", usage: exportUsage, values: ["--data", "--database", "--out"],
        flags: [])
      if let help = options.help { return help }
      guard let room = options.positional.first else {
        throw UsageError(message: "export needs a room id (the end of its /play/ link).")
      }
      options.positional.removeFirst()
      try options.noPositional()
      return .export(
        room: room, data: options.values["--database"] ?? options.values["--data"],
        output: options.values["--out"])
    case "verify":
      var options = try Options(rest, of: "verify", usage: verifyUsage, values: [], flags: [])
      if let help = options.help { return help }
      guard let file = options.positional.first else {
        throw UsageError(message: "verify needs a save file.")
      }
      options.positional.removeFirst()
      try options.noPositional()
      return .verify(file: file)
    case "bench" where rest.first == "tables":
      return try parseBenchTables(Array(rest.dropFirst()))
    case "bench":
      var only: [String] = []
      var settings = Benchmark.Settings(size: .full)
      var arguments = rest[...]
      while let argument = arguments.popFirst() {
        if ["--help", "-h"].contains(argument) { return .commandHelp(benchUsage) }
        if argument == "--quick" {
          settings.size = .quick
        } else if argument == "--smoke" {
          settings.size = .smoke
        } else if argument == "--database" {
          guard let value = arguments.popFirst(), PostgresStore.isDatabaseURL(value) else {
            throw UsageError(
              message:
                "bench: --database takes a PostgreSQL address, postgres://user@host:port/name.")
          }
          settings.database = value
        } else if argument.hasPrefix("-") {
          throw UsageError(message: "bench: unknown option \"\(argument)\".")
        } else {
          only.append(argument)
        }
      }
      // NB: only `server` measures on a database; one given to the others alone would be
      // ignored without a word.
      if settings.database != nil, !only.isEmpty, !only.contains("server") {
        throw UsageError(message: "bench: --database is read by the server benchmark only.")
      }
      return .bench(only: only, settings: settings)
    default:
      throw UsageError(
        message: "Unknown command \"\(first)\". Run `cardtable help` for the list of commands.")
    }
  }

  private static func parseBenchTables(_ arguments: [String]) throws(UsageError) -> Command {
    let options = try Options(
      arguments, of: "bench tables", usage: benchTablesUsage,
      values: ["--rooms", "--seats", "--game", "--seconds", "--commit", "--store", "--batch"],
      flags: [])
    if let help = options.help { return help }
    try options.noPositional()
    var tables = TablesBenchmark.Options()
    func count(_ name: String, _ value: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int
    {
      guard let number = Int(value), range.contains(number) else {
        throw UsageError(
          message:
            "bench tables: \(name) must be a number from \(range.lowerBound) to \(range.upperBound), not \"\(value)\"."
        )
      }
      return number
    }
    for (name, value) in options.values {
      switch name {
      case "--rooms": tables.rooms = try count(name, value, 1...100_000)
      case "--seats": tables.seats = try count(name, value, 1...4)
      case "--store":
        guard ["sqlite", "memory"].contains(value) else {
          throw UsageError(
            message: "bench tables: --store must be sqlite or memory, not \"\(value)\".")
        }
        tables.store = value
      case "--batch": tables.batch = try count(name, value, 1...10_000)
      case "--game":
        guard TablesBenchmark.games.contains(value) else {
          throw UsageError(
            message:
              "bench tables: --game must be one of \(TablesBenchmark.games.joined(separator: ", ")), not \"\(value)\"."
          )
        }
        tables.game = value
      case "--seconds":
        guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
          throw UsageError(
            message:
              "bench tables: --seconds must be a number of seconds above 0, not \"\(value)\".")
        }
        tables.seconds = seconds
      default:
        guard ["turn", "each"].contains(value) else {
          throw UsageError(
            message: "bench tables: --commit must be turn or each, not \"\(value)\".")
        }
        tables.commit = value
      }
    }
    return .benchTables(tables)
  }

  private static func parseServe(_ arguments: [String]) throws(UsageError) -> Command {
    let options = try Options(
      arguments, of: "serve", usage: serveUsage,
      values: [
        "--host", "--port", "--web", "--data", "--database", "--keep-days", "--durability",
        "--grace-seconds", "--commit",
        "--connections-per-address", "--messages-per-address", "--rooms-per-minute",
        "--handling-budget", "--allowed-hosts", "--allowed-origins",
      ], flags: ["--in-memory"])
    if let help = options.help { return help }
    try options.noPositional()
    var serve = ServeOptions()
    serve.inMemory = options.flags.contains("--in-memory")
    for (name, value) in options.values {
      switch name {
      case "--host": serve.host = value
      case "--port":
        guard let number = Int(value), (0...65_535).contains(number) else {
          throw UsageError(
            message: "serve: --port must be a number from 0 to 65535, not \"\(value)\".")
        }
        serve.port = number
      case "--web": serve.webRoot = value
      case "--data", "--database":
        guard serve.data == nil else {
          throw UsageError(message: "serve: give either --data DIR or --database URL, not both.")
        }
        guard !serve.inMemory else {
          throw UsageError(
            message: "serve: --in-memory keeps the games nowhere else; give it without \(name).")
        }
        guard name == "--data" || PostgresStore.isDatabaseURL(value) else {
          throw UsageError(
            message:
              "serve: --database takes a PostgreSQL address, postgres://user@host:port/name, not \"\(value)\"."
          )
        }
        serve.data = value
      case "--keep-days":
        guard let days = Int(value), (1...36_500).contains(days) else {
          throw UsageError(
            message:
              "serve: --keep-days must be a number of days from 1 to 36500, not \"\(value)\".")
        }
        serve.keepDays = days
      case "--grace-seconds":
        guard let seconds = Double(value), seconds >= 1, seconds <= 3_600 else {
          throw UsageError(
            message: "serve: --grace-seconds must be from 1 to 3600, not \"\(value)\".")
        }
        serve.graceSeconds = seconds
      case "--commit":
        guard value == "turn" || value == "each" else {
          throw UsageError(message: "serve: --commit must be turn or each, not \"\(value)\".")
        }
        serve.groupCommit = value == "turn"
      case "--connections-per-address":
        guard let count = Int(value), count >= 1 else {
          throw UsageError(message: "serve: \(name) must be a whole number of at least 1.")
        }
        serve.connectionsPerAddress = count
      case "--messages-per-address", "--rooms-per-minute":
        guard let rate = Double(value), rate > 0, rate.isFinite else {
          throw UsageError(message: "serve: \(name) must be a number above 0, not \"\(value)\".")
        }
        if name == "--rooms-per-minute" {
          serve.roomsPerMinute = rate
        } else {
          serve.messagesPerAddress = rate
        }
      case "--handling-budget":
        if value == "none" {
          serve.handlingBudget = .infinity
        } else {
          guard let seconds = Double(value), seconds >= 0.05, seconds <= 1 else {
            throw UsageError(
              message:
                "serve: --handling-budget must be seconds a second from 0.05 to 1, or none, not \"\(value)\"."
            )
          }
          serve.handlingBudget = seconds
        }
      case "--allowed-hosts":
        serve.allowedHosts = value.split(separator: ",").map { String($0).lowercased() }
      case "--allowed-origins":
        serve.allowedOrigins = value.split(separator: ",").map(String.init)
      default:
        guard let durability = SQLiteStore.Durability(rawValue: value) else {
          throw UsageError(
            message: "serve: --durability must be normal or full, not \"\(value)\".")
        }
        serve.durability = durability
      }
    }
    return .serve(serve)
  }

  /// A command's arguments: options that take a value, flags, and the rest in order.
  private struct Options {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positional: [String] = []
    var help: Command?
    let command: String

    init(
      _ arguments: [String], of command: String, usage: String, values names: Set<String>,
      flags flagNames: Set<String>
    ) throws(UsageError) {
      self.command = command
      var remaining = arguments[...]
      while let argument = remaining.popFirst() {
        if ["--help", "-h"].contains(argument) {
          help = .commandHelp(usage)
          return
        }
        if argument == "--" {
          positional.append(contentsOf: remaining)
          return
        }
        // NB: a room id may begin with `-` (base64url), and no option looks like one.
        guard argument.hasPrefix("-"), argument != "-", RoomID(rawValue: argument) == nil else {
          positional.append(argument)
          continue
        }
        let (name, inline) = Command.splitOption(argument)
        if flagNames.contains(name), inline == nil {
          flags.insert(name)
          continue
        }
        guard names.contains(name) else {
          throw UsageError(message: "\(command): unknown option \"\(argument)\".")
        }
        guard let value = inline ?? remaining.popFirst(), !value.isEmpty else {
          throw UsageError(message: "\(command): \(name) needs a value.")
        }
        values[name] = value
      }
    }

    func noPositional() throws(UsageError) {
      if let extra = positional.first {
        throw UsageError(message: "\(command): unexpected argument \"\(extra)\".")
      }
    }
  }

  /// Splits `--name=value` into its parts; `--name` alone has no inline value.
  static func splitOption(_ option: String) -> (String, String?) {
    guard let equals = option.firstIndex(of: "=") else { return (option, nil) }
    return (String(option[..<equals]), String(option[option.index(after: equals)...]))
  }
}
