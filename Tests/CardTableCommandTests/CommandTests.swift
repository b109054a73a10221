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
    var input = [
      #"{"cmd":"new","game":"memory","seed":1}"#, "", "oops", #"{"cmd":"state"}"#,
    ][...]
    var output: [String] = []
    EngineLoop.run(read: { input.popFirst() }, write: { output.append($0) }, flush: {})
    #expect(output.count == 3)
    #expect(try JSON(parsing: output[1])["ok"] == false)
    #expect(try JSON(parsing: output[2])["ok"] == true)
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
