import CardTableCore
import GameStore
import Testing

@testable import CardTableCommand

@Suite struct StatsTableTests {
  private var row: Statistics {
    var row = Statistics(game: "memory", options: "difficulty easy, players 2", order: .none)
    (row.played, row.won, row.bestTime, row.streak, row.bestStreak) = (3, 2, 41, 1, 2)
    return row
  }

  @Test func withoutRatingsOnlyTheStatisticsArePrinted() {
    let text = Stats.table([row])
    #expect(text.split(separator: "\n").count == 2)
    #expect(!text.contains("Rating"))
  }

  @Test func ratingsFollowInTheirOwnTableMarkedWhenProvisional() {
    let ratings = [
      RatingSummary(
        game: "snap", category: "players 3", rating: Rating(value: 1531.6, games: 4), last: 9),
      RatingSummary(
        game: "memory", category: "difficulty easy, players 2",
        rating: Rating(value: 1488.2, games: 12), last: 5),
    ]
    let lines = Stats.table([row], ratings: ratings).split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 6)
    #expect(lines[2].isEmpty)
    #expect(lines[3] == "Game    Rated as                    Rating  Games")
    #expect(lines[4] == "snap    players 3                    1532?      4")
    #expect(lines[5] == "memory  difficulty easy, players 2    1488     12")
  }
}
