import CardTableTesting
import GameWire
import MatchingGame
import SetGame
import Testing

@testable import CardTableCommand

@Suite struct GameBenchmarkTests {
  @Test func theMatchingBenchmarksAreRegistered() {
    let names = Benchmark.all.map(\.name)
    #expect(names.contains("matchismo") && names.contains("set"))
  }

  /// Every benchmark runs, at a few iterations (its figures are not looked at), so that none
  /// can stop working unseen — `bench server` once did, on a limit it met.
  @Test(arguments: Benchmark.all.map(\.name))
  func everyBenchmarkRunsAtASmokeSize(name: String) throws {
    let benchmark = try #require(Benchmark.all.first { $0.name == name })
    let lines = benchmark.run(.smoke)
    #expect(!lines.isEmpty)
    #expect(!lines.contains { $0.contains(": failed:") }, "\(lines)")
  }

  /// Given a database, `bench server` measures a Snap! table's turn on PostgreSQL too (the
  /// issue's pair names both stores): two tables, two turns each.
  @Test func theServerBenchmarkMeasuresASnapTableOnPostgreSQLWhenGivenOne() throws {
    let database = try ScratchPostgres.shared.get().newDatabase()
    let lines = try Benchmark.snapTableLines(clients: 8, rounds: 2, database)
    let snap = lines.filter { $0.contains("a Snap! table's turn") }
    #expect(snap.count == 2 && snap.last?.contains("on PostgreSQL") == true, "\(lines)")
    #expect(try ScratchPostgres.shared.get().psql(database, "SELECT count(*) FROM rooms") == "2")
  }

  @Test(arguments: 0..<10)
  func theHintFollowingPlayerFinishesEveryGameAndNeverMismatches(seed: UInt64) {
    for mode in MatchingGame.modes {
      let matchismo = HintFollowingPlayer.finished(MatchingGame.Options(mode: mode), seed: seed)
      #expect(matchismo.isOver && matchismo.results.last?.ending == .finished)
      #expect(
        matchismo.state.table.history.allSatisfy { $0.points >= 0 }, "a hint never mismatches")
    }
    for refill in [false, true] {
      let set = HintFollowingPlayer.finished(SetGame.Options(refill: refill), seed: seed)
      #expect(set.isOver && set.state.deck.isEmpty && SetGame.hint(in: set.state) == nil)
      #expect(set.state.table.history.allSatisfy { $0.points >= 0 })
    }
  }

  @Test func theConsoleStreamIsAnsweredLineByLine() {
    let stream = ConsoleStream.record(games: 12)
    #expect(stream.count > 500)
    let replies = EngineLoop.replies(to: stream.joined(separator: "\n")).split(separator: "\n")
    #expect(replies.count == stream.count)
    let refused = replies.filter { $0.hasPrefix(#"{"ok":false"#) }
    // NB: the stream's Snap! player calls now and then, whether or not a match shows or it has
    // cards left; nothing else it sends may be refused.
    let codes = Set(
      refused.compactMap { try? JSON(parsing: String($0))["error"]?["code"]?.stringValue })
    #expect(codes.isSubset(of: ["not-playing", "cards-moving", "no-cards"]), "refused: \(codes)")
  }
}
