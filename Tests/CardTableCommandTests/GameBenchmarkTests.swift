import CardTableCommand
import MatchingGame
import SetGame
import Testing

@Suite struct GameBenchmarkTests {
  @Test func theMatchingBenchmarksAreRegistered() {
    let names = Benchmark.all.map(\.name)
    #expect(names.contains("matchismo") && names.contains("set"))
  }

  @Test func theHintFollowingPlayerFinishesGames() {
    #expect(HintFollowingPlayer.play(MatchingGame.Options(mode: 3), seed: 1) > 0)
    #expect(HintFollowingPlayer.play(SetGame.Options(refill: true), seed: 1) > 0)
  }
}
