import CardTableCore
import MemoryGame
import Testing

/// Plays a whole game with random taps (some refused) and a random clock.
func playRandomly(_ options: MemoryGame.Options, seed: UInt64) throws -> (Match<MemoryGame>, Int) {
  var match = try Match<MemoryGame>(options: options, seed: seed)
  var random = SplitMix64(seed: seed &+ 1000)
  var mismatches = 0
  var steps = 0
  while !match.isOver {
    steps += 1
    precondition(steps < 100_000, "a random game must end")
    if random.nextInt(below: 4) == 0 {
      match.advance(by: random.nextUnit() * 2.5)
      continue
    }
    let index = random.nextInt(below: match.state.board.count)
    if let events = try? match.perform(.flip(index), by: .solo) {
      mismatches += events.filter { if case .mismatched = $0 { true } else { false } }.count
    }
  }
  return (match, mismatches)
}

@Suite struct RandomGamesTests {
  @Test(arguments: 0..<500)
  func randomMemoryGamesEndWithAllPairsAndScoreEqualToMismatches(seed: UInt64) throws {
    let difficulty = MemoryGame.Difficulty.allCases[Int(seed % 3)]
    let (match, mismatches) = try playRandomly(.memory(difficulty), seed: seed)
    #expect(match.state.pairsFound == difficulty.pairs)
    #expect(match.state.score == mismatches)
    #expect(match.state.board.allSatisfy { $0.removed })
    #expect(match.state.moves == difficulty.pairs + mismatches)
    let replayed = try Match<MemoryGame>.replay(options: match.options, seed: seed, log: match.log)
    #expect(replayed.state == match.state)
  }

  @Test(arguments: 0..<100)
  func randomConcentrationGamesClearTheTable(seed: UInt64) throws {
    let (match, mismatches) = try playRandomly(.concentration, seed: seed)
    #expect(match.state.pairsFound == 26)
    #expect(match.state.board.allSatisfy { $0.matched && $0.faceUp })
    #expect(match.state.moves == 26 + mismatches)
  }
}
