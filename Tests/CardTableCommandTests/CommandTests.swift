import CardTableCommand
import GameWire
import Testing

@Suite struct CommandParsingTests {
  @Test(arguments: [
    ([], Command.help), (["help"], .help), (["--help"], .help), (["--version"], .version),
    (["engine"], .engine), (["bench"], .bench(only: [], quick: false)),
    (["bench", "memory", "--quick"], .bench(only: ["memory"], quick: true)),
  ])
  func argumentsBecomeCommands(arguments: [String], command: Command) throws {
    #expect(try Command.parse(arguments) == command)
  }

  @Test(arguments: [["dance"], ["engine", "extra"], ["bench", "--fast"]])
  func badArgumentsAreRefusedWithAReason(arguments: [String]) {
    #expect(throws: UsageError.self) { try Command.parse(arguments) }
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
    let actions = PerfectRecallPlayer.play(.memory(.hard), seed: seed)
    // NB: 16 pairs need at least 32 flips and 16 removals.
    #expect(actions >= 48)
  }

  @Test func everyBenchmarkHasAUniqueName() {
    #expect(Set(Benchmark.all.map(\.name)).count == Benchmark.all.count)
  }
}
