import CardTableCore
import MemoryGame

extension Benchmark {
  /// Complete Memory games on every difficulty, played by a perfect-recall player through
  /// `Match` (the engine with its timers), as a host would run them.
  static let memoryGames = Benchmark(
    name: "memory", summary: "complete Memory games with a perfect-recall player"
  ) { quick in
    var lines: [String] = []
    for difficulty in MemoryGame.Difficulty.allCases {
      let games = quick ? 200 : 5_000
      var actions = 0
      let seconds = Benchmark.seconds {
        for seed in 0..<UInt64(games) {
          actions += PerfectRecallPlayer.play(.memory(difficulty), seed: seed)
        }
      }
      lines.append(
        "memory \(difficulty.rawValue): \(Benchmark.format(Double(games) / seconds)) games/s, "
          + "\(Benchmark.format(seconds * 1e9 / Double(actions))) ns/action "
          + "(\(games) games, \(actions) actions)")
    }
    return lines
  }
}

/// A Memory player who never forgets a card it has seen.
public enum PerfectRecallPlayer {
  /// Plays a whole game and returns the number of actions performed (flips and timer runs).
  @discardableResult
  public static func play(_ options: MemoryGame.Options, seed: UInt64) -> Int {
    // NB: a benchmark of valid options; a refusal here is a bug worth crashing on.
    var match = try! Match<MemoryGame>(options: options, seed: seed)
    var known: [PlayingCard: [Int]] = [:]
    var unseen = Array(match.state.board.indices)
    unseen.reverse()
    func flip(_ index: Int) -> PlayingCard {
      _ = try! match.perform(.flip(index), by: .solo)
      let card = match.state.board[index].card
      if let slot = unseen.lastIndex(of: index) { unseen.remove(at: slot) }
      known[card, default: []].append(index)
      return card
    }
    func pairKnown() -> [Int]? {
      known.values.first { indices in
        indices.count >= 2
          && indices.allSatisfy { !match.state.board[$0].removed && !match.state.board[$0].matched }
      }
    }
    while !match.isOver {
      if let pair = pairKnown() {
        _ = flip(pair[0])
        _ = flip(pair[1])
      } else {
        let first = flip(unseen.last!)
        if let partner = known[first]!.first(where: { !match.state.board[$0].faceUp }) {
          _ = flip(partner)
        } else if let next = unseen.last {
          _ = flip(next)
        }
      }
      if let due = match.nextDue { match.advance(to: due) }
    }
    return match.version
  }
}
