import GameServer
import GameStore
import GameWire
import TerminalUI

#if canImport(Glibc)
  import Glibc
#endif

/// How `cardtable play` and `cardtable join` run: what to start, where the games are kept,
/// how to draw.
public struct TerminalOptions: Equatable, Sendable {
  /// `play`: the game's wire name, or nil for the menu.
  public var game: String?
  /// The game's options, by catalog name, as `new` takes them.
  public var options: [String: JSON] = [:]
  public var seed: String?
  public var resume = false
  /// `play … --host`: a table of the game, hosted here, for others to join.
  public var host = false
  /// `join`: a table code or a room's link.
  public var target: String?
  /// A server to use instead of this machine's data directory.
  public var server: String?
  public var name: String?
  public var data: String?
  /// `--claim CODE`: first take the player a transfer code from another device names.
  public var claim: String?
  /// `--color` (true) or `--no-color` (false); nil follows the environment.
  public var colour: Bool?
  public var ascii = false

  public init() {}
}

extension Command {
  /// `play`'s usage.
  public static let playUsage = """
    Usage: cardtable play [GAME] [options]
           cardtable play --resume

    Plays in this terminal (80×24 or larger; keys and mouse). Without GAME, a menu of the
    games and of your unfinished ones. Every move is kept as in the browser: quit with q and
    `cardtable play --resume` brings the game back; finished games count in `cardtable stats`.
    GAME is memory, concentration, matchismo, set or snap (you against Ray, Lucy and Steve).

      --difficulty easy|medium|hard   Memory's table (default easy)
      --mode 2|3                      Matchismo: cards to match (default 2)
      --cards N                       Matchismo: cards on the table (default 24)
      --match-bonus N, --mismatch-penalty N, --cost-to-choose N   Matchismo's and Set's scoring
      --refill, --two-player          Set: refill to 12; two players on one screen
      --computer-speed S              Snap!: relaxed, original, quick or sharp
      --opponent L                    Memory, Concentration: play against Ray, forgetful, good
                                      or perfect (in the menu: o)
      --computer-level L              Memory, Concentration: the computer players of a --host
                                      table (forgetful, good or perfect)
      --seed N                        deal from this seed (practice: no high score)
      --resume                        continue your latest unfinished game
      --host                          open a table of GAME for friends (code shown), like the
                                      browser's Play together
      --data DIR                      where the games are kept (as for serve); when a
                                      `cardtable serve` holds it, the terminal plays through it
      --server URL                    play on that server instead (http://host:port)
      --name NAME                     your name at tables
      --claim CODE                    play as the player a browser's transfer code names
                                      (its home screen's "Show a code for another device")
      --color, --no-color, --ascii    colour on or off (default: the terminal's, NO_COLOR);
                                      ASCII cards and lines (default when the locale is not UTF-8)

    Keys: arrows, Home, End move; Enter or Space turns or chooses; Esc clears; ? help; q quits.
    """

  /// `join`'s usage.
  public static let joinUsage = """
    Usage: cardtable join CODE|LINK [--server URL] [--name NAME] [--data DIR]

    Takes a seat at a table hosted in a browser or with `cardtable play GAME --host`: CODE is
    the table's code (KXQ-4TP), LINK its /play/ address. Waits in the lobby until the host
    starts; a dropped connection is made again by itself within the table's grace period.
      --server URL   the server (default: the LINK's, else the one serving --data, else
                     http://127.0.0.1:8080)
      --name NAME    your name at the table (default your login name)
      --data DIR     where your player's token is kept (as for serve)
      --claim CODE   play as the player a browser's transfer code names
      --color, --no-color, --ascii   as for play
    """

  static func parseTerminal(_ arguments: [String], join: Bool) throws(UsageError) -> Command {
    let command = join ? "join" : "play"
    var result = TerminalOptions()
    var remaining = arguments[...]
    var positional: [String] = []
    var gameOptions: [(flag: String, value: String?)] = []
    while let argument = remaining.popFirst() {
      let (name, inline) = splitOption(argument)
      switch name {
      case "--help", "-h":
        return .commandHelp(join ? joinUsage : playUsage)
      case "--resume" where !join: result.resume = true
      case "--host" where !join: result.host = true
      case "--color", "--colour": result.colour = true
      case "--no-color", "--no-colour": result.colour = false
      case "--ascii": result.ascii = true
      case "--seed" where !join, "--server", "--name", "--data", "--claim":
        guard let value = inline ?? remaining.popFirst(), !value.isEmpty else {
          throw UsageError(message: "\(command): \(name) needs a value.")
        }
        switch name {
        case "--seed": result.seed = value
        case "--claim": result.claim = value
        case "--server": result.server = value
        case "--name": result.name = value
        default: result.data = value
        }
      default:
        if argument.hasPrefix("--") && !join {
          // NB: the game's own options, named by the catalog; read once the game is known.
          let option = GameCatalog.entries.lazy.flatMap(\.options).first {
            kebab($0.name) == name.dropFirst(2)
          }
          guard let option else {
            throw UsageError(message: "\(command): unknown option \"\(argument)\".")
          }
          let isFlag =
            option.choices.allSatisfy { $0.value.boolValue != nil } && !option.choices.isEmpty
          let value = isFlag ? inline : (inline ?? remaining.popFirst())
          if !isFlag && value == nil {
            throw UsageError(message: "\(command): \(name) needs a value.")
          }
          gameOptions.append((name, value))
        } else if argument.hasPrefix("-") && argument.count > 1 {
          throw UsageError(message: "\(command): unknown option \"\(argument)\".")
        } else {
          positional.append(argument)
        }
      }
    }
    if join {
      guard let target = positional.first else {
        throw UsageError(message: "join needs a table's code or link (cardtable join KXQ-4TP).")
      }
      guard positional.count == 1 else {
        throw UsageError(message: "join: unexpected argument \"\(positional[1])\".")
      }
      result.target = target
      return .join(result)
    }
    if let game = positional.first {
      guard let info = GameCatalog.info(game.lowercased()) else {
        throw UsageError(
          message:
            "play: no game \"\(game)\"; choose one of \(GameCatalog.names.joined(separator: ", "))."
        )
      }
      result.game = info.name
      guard positional.count == 1 else {
        throw UsageError(message: "play: unexpected argument \"\(positional[1])\".")
      }
    }
    if result.resume && result.game != nil {
      throw UsageError(message: "play: --resume continues your latest game; name no game with it.")
    }
    if result.host, let game = result.game, GameCatalog.info(game)?.seats.upperBound ?? 1 < 2 {
      throw UsageError(message: "play: \(game) is a game for one; --host needs a table game.")
    }
    if result.host && result.game == nil {
      throw UsageError(message: "play: --host needs a game (cardtable play snap --host).")
    }
    for (flag, value) in gameOptions {
      guard let game = result.game, let info = GameCatalog.info(game) else {
        throw UsageError(message: "play: \(flag) is a game's option; name the game first.")
      }
      guard let option = info.options.first(where: { kebab($0.name) == flag.dropFirst(2) }) else {
        throw UsageError(message: "play: \(info.title) has no option \(flag).")
      }
      result.options[option.name] = try optionValue(option, value, flag: flag)
    }
    return .play(result)
  }

  /// `matchBonus` as a command-line option: `match-bonus`.
  static func kebab(_ name: String) -> String {
    var text = ""
    for character in name {
      if character.isUppercase {
        text += "-" + character.lowercased()
      } else {
        text.append(character)
      }
    }
    return text
  }

  private static func optionValue(_ option: GameInfo.Option, _ given: String?, flag: String)
    throws(UsageError) -> JSON
  {
    guard let given else { return true }
    if !option.choices.isEmpty {
      let match = option.choices.first { choice in
        let text: String =
          switch choice.value {
          case .string(let value): value
          case .number(let value): value
          case .bool(let value): String(value)
          default: ""
          }
        return text.lowercased() == given.lowercased()
          || choice.label.lowercased() == given.lowercased()
      }
      guard let match else {
        let values = option.choices.map { choice -> String in
          if case .string(let value) = choice.value { return value }
          if case .number(let value) = choice.value { return value }
          return choice.label
        }
        throw UsageError(
          message: "play: \(flag) takes \(values.joined(separator: ", ")), not \"\(given)\".")
      }
      return match.value
    }
    guard let number = Int(given), option.range.map({ $0.contains(number) }) ?? true else {
      let range = option.range.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""
      throw UsageError(message: "play: \(flag) takes a whole number\(range), not \"\(given)\".")
    }
    return JSON(integerLiteral: number)
  }
}

/// `cardtable play` and `cardtable join`: the terminal client, on a server in this process
/// over the data directory, on the `cardtable serve` that holds it, or on a server elsewhere.
enum Play {
  /// The file a running `cardtable serve` leaves in its data directory: its address, so that
  /// the terminal plays through it rather than open the directory a second time.
  static let addressFile = "server.address"
  /// The terminal player's token, kept in the data directory (mode 600).
  static let tokenFile = "terminal.token"

  static func run(_ options: TerminalOptions, join: Bool) -> Int32 {
    let capabilities = TerminalCapabilities.detect(
      environment: TerminalCapabilities.processEnvironment(),
      localeIsUTF8: TerminalCapabilities.localeIsUTF8(), colour: options.colour,
      ascii: options.ascii)
    let terminal = Terminal(capabilities: capabilities)
    guard terminal.isInteractive else {
      printError(
        "\(join ? "join" : "play"): standard input and output must be a terminal (for scripts, use `cardtable engine`)."
      )
      return 2
    }
    let directory = DataDirectory.path(options.data)
    let link: any Link
    var web: String?
    var serverText = options.server
    var start: TerminalApp.Start = .menu
    if join, let target = options.target {
      if let range = target.firstRange(of: "/play/") {
        serverText = serverText ?? String(target[..<range.lowerBound])
        start = .open(room: String(target[range.upperBound...]).trimmingSlashes)
      } else {
        start = .join(code: target)
      }
    } else if options.resume {
      start = .resume
    } else if let game = options.game {
      let members = options.options.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
      start =
        options.host
        ? .host(game: game, options: .object(members))
        : .new(game: game, options: .object(members), seed: options.seed.map(Self.seed))
    }
    if join && serverText == nil {
      serverText = directory.flatMap(runningServer) ?? "http://127.0.0.1:8080"
    }
    if let serverText {
      do throws(WebSocketLink.Failure) {
        let address = try WebSocketLink.Address(serverText)
        link = try WebSocketLink(address: address)
        web = address.web
      } catch {
        printError("\(join ? "join" : "play"): \(error)")
        return 1
      }
    } else {
      switch DataDirectory.open(options.data, exclusive: true) {
      case .success(let store):
        link = LocalLink(store: store)
      case .failure(let failure):
        guard case .locked = failure.error, let address = directory.flatMap(runningServer) else {
          if case .locked = failure.error {
            printError(
              "play: another CardTable holds \(directory ?? "the data directory") (a `cardtable play` in another window?); finish it there, or pass --data DIR."
            )
            return failure.error?.exitCode ?? 5
          }
          return failure.report("play")
        }
        do throws(WebSocketLink.Failure) {
          let parsed = try WebSocketLink.Address(address)
          link = try WebSocketLink(address: parsed)
          web = parsed.web
        } catch {
          printError("play: the server holding \(directory ?? "") cannot be reached: \(error)")
          return 1
        }
      }
    }
    let token = directory.flatMap(readToken)
    let name =
      options.name ?? (join || options.host ? getenv("USER").map { String(cString: $0) } : nil)
    let app = TerminalApp(
      terminal: terminal, link: link, glyphs: Glyphs(unicode: capabilities.unicode), start: start,
      token: token, name: name, web: web, claim: options.claim,
      saveToken: { token in if let directory { writeToken(token, in: directory) } })
    let outcome = app.run()
    link.close()
    if !outcome.line.isEmpty { print(outcome.line) }
    fflush(nil)
    return outcome.status
  }

  static func seed(_ text: String) -> JSON {
    UInt64(text) != nil ? .number(text) : .string(text)
  }

  /// The address a `cardtable serve` holding `directory` left, if it still runs.
  static func runningServer(_ directory: String) -> String? {
    guard let text = readSmallFile(directory + "/" + addressFile) else { return nil }
    let address = text.split(separator: "\n").first.map(String.init) ?? ""
    return address.isEmpty ? nil : address
  }

  static func readToken(_ directory: String) -> String? {
    guard let text = readSmallFile(directory + "/" + tokenFile) else { return nil }
    let token = text.trimmingCharacters
    return token.count == 22 ? token : nil
  }

  static func writeToken(_ token: String, in directory: String) {
    guard readToken(directory) != token else { return }
    _ = mkdir(directory, 0o700)
    writeSmallFile(directory + "/" + tokenFile, token + "\n", mode: 0o600)
  }

  static func readSmallFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(descriptor, &buffer, buffer.count)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count], as: UTF8.self)
  }

  /// Writes `text` to a temporary file and renames it over `path`, so a reader never sees half.
  static func writeSmallFile(_ path: String, _ text: String, mode: mode_t = 0o644) {
    let temporary = path + ".\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard descriptor >= 0 else { return }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    if written == bytes.count { rename(temporary, path) } else { unlink(temporary) }
  }
}

extension String {
  fileprivate var trimmingCharacters: String {
    String(self.filter { !$0.isWhitespace })
  }

  fileprivate var trimmingSlashes: String {
    String(self.split(separator: "/").first ?? "")
  }
}

/// A ``Link`` to a game server in this process, over the data directory's store: what
/// `cardtable play` uses when no `cardtable serve` holds the directory. The server runs on the
/// terminal's own thread, between keys; its one timer is the link's deadline.
final class LocalLink: Link {
  private let server: LocalServer

  init(store: any GameStore) {
    server = LocalServer(store: store, at: Clock.now(), log: { line in FileLogLine.write(line) })
  }

  var descriptors: [Int32] { [] }
  var deadline: Double? { server.deadline }
  var trouble: String? { nil }

  func send(_ message: JSON) { server.send(message, at: Clock.now()) }
  func receive() -> [JSON] { server.receive() }
  func service(now: Double) { server.wakeIfDue(at: now) }
  func close() { server.close(at: Clock.now()) }
}

/// Where the in-process server's complaints go while the terminal shows a game: standard error
/// would draw over the screen, so they wait in `CARDTABLE_LOG` when it is set.
enum FileLogLine {
  static func write(_ line: String) {
    guard let path = getenv("CARDTABLE_LOG").map({ String(cString: $0) }) else { return }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
  }
}
