import CardTableCore
import SetGame

extension Benchmark {
  /// The first set (what the game's hint and game-over check ask) on random tables of 12, 15
  /// and 21 cards, every set of the whole deck, then complete Set games played through
  /// `Match` by a player who follows the hint.
  static let setGames = Benchmark(
    name: "set", summary: "the set finder and complete Set games with a hint-following player"
  ) { size in
    var lines: [String] = []
    for cards in [12, 15, 21] {
      let tables = (0..<UInt64(256)).map { Array(SetGame.shuffledDeck(seed: $0).prefix(cards)) }
      let rounds = size.pick(20_000, quick: 200, smoke: 3)
      var found = 0
      let seconds = Benchmark.seconds {
        for _ in 0..<rounds {
          for table in tables where SetFinder.firstSet(in: table) != nil { found += 1 }
        }
      }
      let searches = Double(rounds * tables.count)
      lines.append(
        "set finder, first set on \(cards) cards: "
          + "\(Benchmark.format(seconds * 1e9 / searches)) ns/table (\(Int(searches)) tables, "
          + "\(Benchmark.format(100 * Double(found) / searches)) % with a set)")
    }
    let deckRounds = size.pick(20_000, quick: 200, smoke: 3)
    var deckSets = 0
    let deckSeconds = Benchmark.seconds {
      for _ in 0..<deckRounds { deckSets = SetFinder.sets(in: SetCard.fullDeck).count }
    }
    lines.append(
      "set finder, all 81 cards: \(Benchmark.format(deckSeconds * 1e6 / Double(deckRounds))) µs "
        + "(\(deckSets) sets)")
    for refill in [false, true] {
      let games = size.pick(2_000, quick: 100, smoke: 2)
      var actions = 0
      let seconds = Benchmark.seconds {
        for seed in 0..<UInt64(games) {
          actions += HintFollowingPlayer.play(SetGame.Options(refill: refill), seed: seed)
        }
      }
      lines.append(
        "set games, refill \(refill ? "on" : "off"): "
          + "\(Benchmark.format(Double(games) / seconds)) games/s, "
          + "\(Benchmark.format(seconds * 1e9 / Double(actions))) ns/action "
          + "(\(games) games, \(actions) actions)")
    }
    return lines
  }
}
