import CardTableCommand
import GameWire
import Testing

@Suite struct CommandParsingTests {
  @Test(arguments: [
    ([], Command.help), (["help"], .help), (["--help"], .help), (["--version"], .version),
    (["engine"], .engine), (["bench"], .bench(only: [], settings: .init(size: .full))),
    (["bench", "memory", "--quick"], .bench(only: ["memory"], settings: .init(size: .quick))),
    (["bench", "--smoke"], .bench(only: [], settings: .init(size: .smoke))),
    (
      ["bench", "server", "--database", "postgres://u@h:5432/d", "--smoke"],
      .bench(
        only: ["server"], settings: .init(size: .smoke, database: "postgres://u@h:5432/d"))
    ),
  ])
  func argumentsBecomeCommands(arguments: [String], command: Command) throws {
    #expect(try Command.parse(arguments) == command)
  }

  @Test(arguments: [
    (["serve", "--help"], Command.serveUsage), (["serve", "-h"], Command.serveUsage),
    (["bench", "--help"], Command.benchUsage), (["bench", "memory", "-h"], Command.benchUsage),
    (["engine", "--help"], Command.engineUsage), (["engine", "-h"], Command.engineUsage),
  ])
  func eachCommandAnswersHelpWithItsUsage(arguments: [String], text: String) throws {
    #expect(try Command.parse(arguments) == .commandHelp(text))
    #expect(text.hasPrefix("Usage: cardtable \(arguments[0])"))
  }

  @Test func aRoomIdThatBeginsWithADashIsARoomNotAnOption() throws {
    #expect(
      try Command.parse(["export", "-odze9TbkpDcqbRQ", "--data", "d"])
        == .export(room: "-odze9TbkpDcqbRQ", data: "d", output: nil))
    #expect(
      try Command.parse(["export", "--", "--odze9TbkpDcqbR"])
        == .export(room: "--odze9TbkpDcqbR", data: nil, output: nil))
    #expect(throws: UsageError.self) { try Command.parse(["export", "-odze", "x"]) }
  }

  @Test func aPostgreSQLDatabaseIsGivenByItsAddressInsteadOfADataDirectory() throws {
    let url = "postgres://cardtable@db.example.org:5432/cardtable"
    guard case .serve(let options) = try Command.parse(["serve", "--database", url]) else {
      Issue.record("not serve")
      return
    }
    #expect(options.data == url)
    #expect(try Command.parse(["stats", "--database", url]) == .stats(data: url, json: false))
    #expect(throws: UsageError.self) {
      try Command.parse(["serve", "--database", url, "--data", "/tmp/x"])
    }
    #expect(throws: UsageError.self) { try Command.parse(["serve", "--database", "/var/lib/x"]) }
  }

  @Test func groupCommitIsOnUnlessEachMoveIsToBeCommittedAlone() throws {
    guard case .serve(let byDefault) = try Command.parse(["serve"]),
      case .serve(let each) = try Command.parse(["serve", "--commit", "each"]),
      case .serve(let turn) = try Command.parse(["serve", "--commit", "turn"])
    else {
      Issue.record("not serve")
      return
    }
    #expect(byDefault.groupCommit && turn.groupCommit && !each.groupCommit)
  }

  @Test func inMemoryKeepsNothingAndTakesNoDataToKeepItIn() throws {
    guard case .serve(let byDefault) = try Command.parse(["serve"]),
      case .serve(let inMemory) = try Command.parse(["serve", "--in-memory", "--port", "0"])
    else {
      Issue.record("not serve")
      return
    }
    #expect(!byDefault.inMemory && inMemory.inMemory && inMemory.data == nil)
    for given in [["--data", "/tmp/x"], ["--database", "postgres://db/x"]] {
      #expect(throws: UsageError.self) { try Command.parse(["serve", "--in-memory"] + given) }
      #expect(throws: UsageError.self) { try Command.parse(["serve"] + given + ["--in-memory"]) }
    }
  }

  @Test(arguments: [
    ["dance"], ["engine", "extra"], ["engine", "--fast"], ["bench", "--fast"], ["serve", "--port"],
    ["serve", "--commit", "never"], ["bench", "tables", "--game", "poker"],
    ["bench", "tables", "--seats", "5"], ["bench", "tables", "--seats", "0"],
    ["bench", "tables", "--rooms", "0"],
    ["bench", "tables", "--seconds", "-1"], ["bench", "tables", "extra"],
    ["bench", "tables", "--store", "postgres"], ["bench", "server", "--database"],
    ["bench", "server", "--database", "/var/lib/cardtable"],
    ["bench", "store", "--database", "postgres://u@h:5432/d"],
  ])
  func badArgumentsAreRefusedWithAReason(arguments: [String]) {
    #expect(throws: UsageError.self) { try Command.parse(arguments) }
  }

  @Test func benchTablesTakesItsTablesGameAndTime() throws {
    var expected = TablesBenchmark.Options()
    #expect(try Command.parse(["bench", "tables"]) == .benchTables(expected))
    expected.rooms = 2500
    expected.seats = 3
    expected.game = "set"
    expected.seconds = 7.5
    expected.commit = "each"
    expected.batch = 50
    expected.store = "memory"
    let parsed = try Command.parse([
      "bench", "tables", "--rooms", "2500", "--seats=3", "--game", "set", "--seconds", "7.5",
      "--commit", "each", "--batch", "50", "--store", "memory",
    ])
    #expect(parsed == .benchTables(expected))
    // NB: a table of one seat is a player alone.
    expected = TablesBenchmark.Options()
    expected.seats = 1
    expected.game = "memory"
    #expect(
      try Command.parse(["bench", "tables", "--seats", "1", "--game", "memory"])
        == .benchTables(expected))
    #expect(
      try Command.parse(["bench", "tables", "--help"]) == .commandHelp(Command.benchTablesUsage))
  }
}

@Suite struct EngineLoopTests {
  @Test func answersEveryLineAndSkipsBlankOnes() throws {
    let input = [
      #"{"cmd":"new","game":"memory","seed":1}"#, "", " \t", "oops", #"{"cmd":"state"}"#,
    ]
    let output = EngineLoop.replies(to: input.joined(separator: "\n")).split(separator: "\n")
    #expect(output.count == 3)
    #expect(try JSON(parsing: String(output[1]))["ok"] == false)
    #expect(try JSON(parsing: String(output[2]))["ok"] == true)
  }

  @Test func aCarriageReturnBeforeTheNewlineIsNotPartOfTheLine() throws {
    let output = EngineLoop.replies(to: "{\"cmd\":\"games\"}\r\n")
    #expect(try JSON(parsing: String(output.dropLast()))["ok"] == true)
  }

  @Test func aLineOverTheLimitIsRefusedWithoutBeingKept() throws {
    let long = "[" + String(repeating: "1,", count: EngineConsole.maximumLineBytes) + "1]"
    let output = try EngineLoop.replies(to: long + "\n" + #"{"cmd":"games"}"#)
      .split(separator: "\n").map { try JSON(parsing: String($0)) }
    #expect(output.count == 2)
    #expect(output[0]["error"]?["code"] == "too-large")
    #expect(output[1]["ok"] == true, "the console goes on")
  }
}

@Suite struct BenchmarkTests {
  @Test(arguments: 0..<20)
  func thePerfectRecallPlayerFinishesEveryGame(seed: UInt64) {
    let match = PerfectRecallPlayer.finished(.memory(.hard), seed: seed)
    #expect(match.isOver && match.state.board.allSatisfy(\.removed))
    // NB: a player who never forgets turns each card face up at most twice.
    #expect(match.state.flips <= 64)
    #expect(match.results.last?.ending == .finished)
  }

  @Test func everyBenchmarkHasAUniqueName() {
    #expect(Set(Benchmark.all.map(\.name)).count == Benchmark.all.count)
  }
}
