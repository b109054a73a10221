import Glibc
import Testing

@testable import CardTableCore

@Suite struct RatingTests {
  @Test func equalPlayersMoveByHalfOfK() {
    let changes = Rating.changes([(Rating(), 1), (Rating(), 0)])
    #expect(changes == [20, -20], "provisional: K 40, expected ½")
    let established = Rating(value: 1500, games: Rating.provisionalGames)
    #expect(Rating.changes([(established, 0), (established, 1)]) == [-10, 10])
    #expect(Rating.changes([(Rating(), 0.5), (Rating(), 0.5)]) == [0, 0], "a draw")
  }

  @Test func theExpectedScoreFollowsTheDifference() {
    let strong = Rating(value: 1900)
    let weak = Rating(value: 1500)
    #expect(abs(strong.expected(against: weak) - 10.0 / 11.0) < 1e-12, "400 points: 10 to 1")
    #expect(abs(strong.expected(against: weak) + weak.expected(against: strong) - 1) < 1e-12)
    // NB: the favourite winning gains little; losing costs much.
    let won = Rating.changes([(strong, 1), (weak, 0)])
    let lost = Rating.changes([(strong, 0), (weak, 1)])
    #expect(won[0] > 0 && won[0] < 4 && lost[0] < -36)
    #expect(abs(won[0] + won[1]) < 1e-9, "same K: what one gains the other loses")
  }

  @Test func aGameOfFourMovesARatingAboutAsFarAsAGameOfTwo() {
    let four = Rating.changes([(Rating(), 3), (Rating(), 2), (Rating(), 2), (Rating(), 0)])
    #expect(four[0] == 20 && four[3] == -20, "the winner beat all three; the last lost to all")
    #expect(four[1] == 0 && four[2] == 0, "won one, drew one, lost one")
    #expect(abs(four.reduce(0, +)) < 1e-9)
    #expect(Rating.changes([(Rating(), 1)]).isEmpty, "alone: unrated")
  }

  @Test func provisionalUntilTenGamesAndShownWhole() {
    #expect(Rating(value: 1512.5, games: 9).isProvisional)
    #expect(!Rating(value: 1512.5, games: 10).isProvisional)
    #expect(Rating(value: 1512.49).shown == 1512)
  }

  @Test func tenToThePowerMatchesLibm() {
    for step in -48...48 {
      let x = Double(step) / 16
      let expected = pow(10, x)
      #expect(abs(Rating.tenToThe(x) - expected) <= 1e-14 * expected, "10^\(x)")
    }
    #expect(Rating.tenToThe(0) == 1)
    #expect(Rating.tenToThe(400) == .infinity && Rating.tenToThe(-400) == 0)
  }
}
