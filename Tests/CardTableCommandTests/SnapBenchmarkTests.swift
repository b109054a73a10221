import CardTableCommand
import Testing

@Suite struct SnapBenchmarkTests {
  @Test func benchSnapNamesARegisteredBenchmark() throws {
    #expect(
      try Command.parse(["bench", "snap"]) == .bench(only: ["snap"], settings: .init(size: .full)))
    #expect(Benchmark.all.map(\.name).contains("snap"))
  }

  @Test func aComputerRoundPlaysToAWinnerOnTheVirtualClock() {
    let round = ComputerRound.play(seed: 1)
    #expect(round.finished)
    #expect(round.actions > 100)
    #expect(round.clock > 60, "a round takes minutes of virtual time, and no real time")
  }
}
