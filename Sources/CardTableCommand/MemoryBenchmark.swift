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
      let options = MemoryGame.Options.memory(difficulty)
      var actions = 0
      let seconds = Benchmark.seconds {
        for seed in 0..<UInt64(games) {
          actions += PerfectRecallPlayer.play(options, seed: seed)
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
  ///
  /// NB: the player keeps its memory in buffers on the stack and performs each flip in this
  /// function's own body: flips through a nested function that captured the match copied it
  /// (360 bytes) for every action, and the player's arrays were three allocations a game.
  public static func finished(_ options: MemoryGame.Options, seed: UInt64) -> Match<MemoryGame> {
    // NB: room for the 52 cards a board can hold at most, as bytes (a card or a place is below
    // 52): 156 of them fit on the stack, where 156 `Int`s took a heap allocation every game.
    withUnsafeTemporaryAllocation(of: Int8.self, capacity: 3 * 52) { memory in
      // NB: a benchmark of valid options; a refusal here is a bug worth crashing on.
      var match = valid { try Match<MemoryGame>(options: options, seed: seed) }
      let count = match.state.board.count
      // NB: where each card was seen, by deck index (-1: not yet); then each position's card;
      // then the pairs whose places are both known, as two positions each.
      let seenAt = UnsafeMutableBufferPointer(rebasing: memory[0..<52])
      let cards = UnsafeMutableBufferPointer(rebasing: memory[52..<52 + count])
      let known = UnsafeMutableBufferPointer(rebasing: memory[(52 + count)...])
      seenAt.initialize(repeating: -1)
      do {
        // NB: let go before the first flip, which would otherwise copy the board.
        let board = match.state.board
        for index in 0..<count { cards[index] = Int8(board[index].card.deckIndex) }
      }
      var knownCount = 0
      var next = 0
      while !match.isOver {
        if knownCount > 0 {
          knownCount -= 2
          perform(.flip(Int(known[knownCount])), in: &match)
          perform(.flip(Int(known[knownCount + 1])), in: &match)
        } else {
          let first = next
          next += 1
          perform(.flip(first), in: &match)
          let card = Int(cards[first])
          if seenAt[card] >= 0 {
            perform(.flip(Int(seenAt[card])), in: &match)
          } else {
            seenAt[card] = Int8(first)
            let second = next
            next += 1
            perform(.flip(second), in: &match)
            let other = Int(cards[second])
            if other != card {
              if seenAt[other] >= 0 {
                known[knownCount] = seenAt[other]
                known[knownCount + 1] = Int8(second)
                knownCount += 2
              } else {
                seenAt[other] = Int8(second)
              }
            }
          }
        }
        if let due = match.nextDue { match.runTimers(until: due) }
      }
      return match
    }
  }
}
