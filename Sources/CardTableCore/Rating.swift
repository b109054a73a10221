/// A player's rating in one game and category (docs/RATINGS.md): an Elo number, and how many
/// rated games it rests on.
public struct Rating: Sendable, Equatable {
  public var value: Double
  public var games: Int

  public init(value: Double = Rating.initial, games: Int = 0) {
    self.value = value
    self.games = games
  }

  /// Where every player starts.
  public static let initial = 1500.0
  /// A rating is provisional while it rests on fewer rated games than this.
  public static let provisionalGames = 10
  /// How far one game moves a provisional rating, and an established one (Elo's K).
  public static let provisionalK = 40.0
  public static let establishedK = 20.0
  /// The rating difference at which the better player is expected to score 10 to 1.
  public static let scale = 400.0

  public var isProvisional: Bool { games < Self.provisionalGames }

  /// The rating as shown: a whole number.
  public var shown: Int { Int(value.rounded()) }

  /// The score `self` is expected to make against `other`: 0 … 1, 0.5 between equals.
  public func expected(against other: Rating) -> Double {
    1 / (1 + Self.tenToThe((other.value - value) / Self.scale))
  }

  /// 10 to the power `x`, in pure Swift so that every platform rates alike: e^(x·ln 10), with
  /// e^y split into 2^n · e^r for |r| ≤ ln 2 / 2 and e^r summed as its series.
  static func tenToThe(_ x: Double) -> Double {
    let y = x * 2.302_585_092_994_045_684
    guard y.isFinite else { return y > 0 ? .infinity : 0 }
    guard y < 709, y > -745 else { return y > 0 ? .infinity : 0 }
    let ln2 = 0.693_147_180_559_945_309_4
    let n = (y / ln2).rounded()
    let r = y - n * ln2
    var term = 1.0
    var sum = 1.0
    for k in 1...24 {
      term *= r / Double(k)
      sum += term
    }
    return sum * Double(sign: .plus, exponent: Int(n), significand: 1)
  }

  /// How one game moves each player's rating, in the order given: every pair of players is
  /// scored as a game of two (1 to the better placing, ½ each for the same), each player's
  /// K shared over their opponents, so that a game of four moves a rating about as far as a
  /// game of two.
  ///
  /// - Parameter players: each player's rating before the game and their placing in it (a
  ///   higher placing is better; equal placings drew).
  /// - Returns: each player's change; empty for fewer than two players.
  public static func changes(_ players: [(rating: Rating, placing: Double)]) -> [Double] {
    guard players.count >= 2 else { return [] }
    let opponents = Double(players.count - 1)
    return players.indices.map { index in
      let me = players[index]
      let k = me.rating.isProvisional ? provisionalK : establishedK
      var surprise = 0.0
      for other in players.indices where other != index {
        let them = players[other]
        let score = me.placing > them.placing ? 1.0 : me.placing == them.placing ? 0.5 : 0.0
        surprise += score - me.rating.expected(against: them.rating)
      }
      return k * surprise / opponents
    }
  }
}
