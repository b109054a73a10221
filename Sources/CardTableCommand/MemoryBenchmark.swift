import CardTableCore
import MemoryGame

extension Benchmark {
  /// Complete Memory games on every difficulty, played by a perfect-recall player through
  /// `Match` (the engine with its timers), as a host would run them.
  static let memoryGames = Benchmark(
    name: "memory", summary: "complete Memory games with a perfect-recall player"
  ) { size in
    var lines: [String] = []
    for difficulty in MemoryGame.Difficulty.allCases {
      let games = size.pick(5_000, quick: 200, smoke: 3)
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
    finished(options, seed: seed).version
  }

  /// A whole game played to its end.
  public static func finished(_ options: MemoryGame.Options, seed: UInt64) -> Match<MemoryGame> {
    // NB: a benchmark of valid options; a refusal here is a bug worth crashing on.
    var match = valid { try Match<MemoryGame>(options: options, seed: seed) }
    let board = match.state.board.map(\.card)
    // NB: where each card was seen, by deck index; -1 when not (yet) seen.
    var seenAt = [Int](repeating: -1, count: 52)
    var knownPairs: [(Int, Int)] = []
    var next = 0
    func flip(_ index: Int) {
      perform(.flip(index), in: &match)
    }
    /// Turns the next unseen card and remembers it; returns its index.
    func flipUnseen() -> Int {
      let index = next
      next += 1
      flip(index)
      return index
    }
    while !match.isOver {
      if let (a, b) = knownPairs.popLast() {
        flip(a)
        flip(b)
      } else {
        let first = flipUnseen()
        let card = board[first].deckIndex
        if seenAt[card] >= 0 {
          flip(seenAt[card])
        } else {
          seenAt[card] = first
          let second = flipUnseen()
          let other = board[second].deckIndex
          if other != card {
            if seenAt[other] >= 0 {
              knownPairs.append((seenAt[other], second))
            } else {
              seenAt[other] = second
            }
          }
        }
      }
      if let due = match.nextDue { match.advance(to: due) }
    }
    return match
  }
}
