import CardTableCommand
import GameWire
import Testing

/// `cardtable play` and `cardtable join`: the games' own options come from the catalog, checked
/// against its choices and ranges before anything is dealt.
@Suite struct TerminalCommandTests {
  static func play(_ arguments: [String]) throws -> TerminalOptions {
    guard case .play(let options) = try Command.parse(["play"] + arguments) else {
      Issue.record("not play: \(arguments)")
      return TerminalOptions()
    }
    return options
  }

  @Test func noGameIsTheMenu() throws {
    let options = try Self.play([])
    #expect(options.game == nil && !options.resume)
  }

  @Test func theGamesOptionsAreTheCatalogsInKebabCase() throws {
    let memory = try Self.play(["memory", "--difficulty", "hard", "--seed", "5"])
    #expect(memory.game == "memory")
    #expect(memory.options == ["difficulty": "hard"])
    #expect(memory.seed == "5")
    let matchismo = try Self.play(["matchismo", "--mode=3", "--match-bonus", "6"])
    #expect(matchismo.options == ["mode": 3, "matchBonus": 6])
    let set = try Self.play(["set", "--refill", "--two-player"])
    #expect(set.options == ["refill": true, "twoPlayer": true])
    let snap = try Self.play(["snap", "--computer-speed", "quick", "--host", "--name", "Ann"])
    #expect(snap.options == ["computerSpeed": "quick"] && snap.host && snap.name == "Ann")
    // A choice's label is as good as its value, in any case.
    #expect(
      try Self.play(["memory", "--difficulty", "MEDIUM"]).options == ["difficulty": "medium"])
  }

  @Test func resumeAndDrawingOptions() throws {
    let options = try Self.play(["--resume", "--ascii", "--no-color", "--data", "/tmp/d"])
    #expect(options.resume && options.ascii && options.colour == false && options.data == "/tmp/d")
    #expect(try Self.play(["set", "--color"]).colour == true)
  }

  @Test(arguments: [
    ["chess"], ["memory", "--difficulty", "huge"], ["matchismo", "--mode", "4"],
    ["matchismo", "--match-bonus", "11"], ["memory", "--mode", "3"], ["--difficulty", "hard"],
    ["memory", "--resume"], ["matchismo", "--host"], ["--host"], ["memory", "set"],
    ["memory", "--seed"], ["memory", "--bogus"],
  ])
  func badArgumentsAreRefusedWithAReason(arguments: [String]) {
    #expect(throws: UsageError.self) { try Command.parse(["play"] + arguments) }
  }

  @Test func joinTakesACodeOrALink() throws {
    guard case .join(let byCode) = try Command.parse(["join", "KXQ-4TP", "--name", "Bob"]) else {
      Issue.record("not join")
      return
    }
    #expect(byCode.target == "KXQ-4TP" && byCode.name == "Bob")
    guard
      case .join(let byLink) = try Command.parse([
        "join", "http://example.org:8080/play/abcdefghijklmnop",
      ])
    else {
      Issue.record("not join")
      return
    }
    #expect(byLink.target == "http://example.org:8080/play/abcdefghijklmnop")
    #expect(throws: UsageError.self) { try Command.parse(["join"]) }
    #expect(throws: UsageError.self) { try Command.parse(["join", "A", "B"]) }
    #expect(throws: UsageError.self) { try Command.parse(["join", "A", "--seed", "1"]) }
  }

  @Test(arguments: [("play", Command.playUsage), ("join", Command.joinUsage)])
  func helpIsTheCommandsUsage(command: String, usage: String) throws {
    #expect(try Command.parse([command, "--help"]) == .commandHelp(usage))
    #expect(usage.hasPrefix("Usage: cardtable \(command)"))
  }
}
