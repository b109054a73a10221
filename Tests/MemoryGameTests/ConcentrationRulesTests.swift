import CardTableCore
import CardTableTesting
import GameWire
import MemoryGame
import Testing

/// All 52 cards, spades A…K, hearts A…K, …: positions i and i + 13 share a rank.
let orderedDeck = PlayingCard.standardDeck

func concentration(seed: UInt64 = 5) throws -> Match<MemoryGame> {
  try Match(options: MemoryGame.Options(variant: .concentration, deck: orderedDeck), seed: seed)
}

@Suite struct ConcentrationRulesTests {
  @Test(arguments: 0..<30)
  func allFiftyTwoCardsAreDealtFaceDownWithSeededTilts(seed: UInt64) throws {
    let state = try MemoryGame.deal(.concentration, seed: seed)
    #expect(state.board.count == 52)
    #expect(Set(state.board.map(\.card)).count == 52)
    #expect(state.board.allSatisfy { !$0.faceUp && !$0.matched })
    #expect(state.tilt.count == 52)
    #expect(state.tilt.allSatisfy { MemoryGame.tiltAngles.contains($0) })
    #expect(state.tilt == (try MemoryGame.deal(.concentration, seed: seed)).tilt)
  }

  @Test func tiltsUseEveryAngleAndDifferBetweenSeeds() throws {
    let a = try MemoryGame.deal(.concentration, seed: 1)
    let b = try MemoryGame.deal(.concentration, seed: 2)
    #expect(Set(a.tilt) == Set(MemoryGame.tiltAngles))
    #expect(a.tilt != b.tilt)
  }

  @Test func cardsMatchWhenRanksAreEqualWhateverTheSuits() {
    #expect(
      MemoryGame.isPair(
        PlayingCard(.seven, .hearts), PlayingCard(.seven, .clubs), variant: .concentration))
    #expect(
      !MemoryGame.isPair(
        PlayingCard(.seven, .hearts), PlayingCard(.six, .hearts), variant: .concentration))
  }

  @Test func aMatchStaysFaceUpForTheRestOfTheGame() throws {
    var match = try concentration()
    try match.perform(.flip(0), by: .solo)
    #expect(
      try match.perform(.flip(13), by: .solo) == [
        .flipped(index: 13, card: orderedDeck[13]), .matched(0, 13),
      ])
    #expect(match.state.board[0].matched && match.state.board[13].matched)
    #expect(match.state.board[0].faceUp && match.state.board[13].faceUp)
    match.advance(by: 60)
    #expect(match.state.board[0].faceUp)
    #expect(match.state.moves == 1)
    #expect(throws: MemoryGame.RuleViolation.cardMatched(0)) {
      try match.perform(.flip(0), by: .solo)
    }
  }

  @Test func theTimerStartsWithTheFirstCardTurned() throws {
    var match = try concentration()
    match.advance(by: 12)
    #expect(match.began == nil, "nothing turned yet: the time has not begun")
    try match.perform(.flip(0), by: .solo)
    #expect(match.began == 12)
    match.advance(by: 3)
    try match.perform(.flip(13), by: .solo)
    #expect(match.began == 12, "only the first card starts it")
    _ = match.abandon()
    #expect(match.results.first?.start == 12)
    #expect(match.results.first?.duration == 3)
    var memory = try Match<MemoryGame>(options: MemoryGame.Options(), seed: 1)
    memory.advance(by: 5)
    try memory.perform(.flip(0), by: .solo)
    #expect(memory.began == nil, "Memory's time runs from the deal, as the original's")
  }

  @Test func noCardCanBeTurnedForASecondAfterAMatch() throws {
    var match = try concentration()
    try match.perform(.flip(0), by: .solo)
    try match.perform(.flip(13), by: .solo)
    #expect(MemoryGame.view(of: match.state, for: .player(.solo)).waiting)
    expectRefused(.flip(1), by: .solo, in: &match, .pairPending)
    #expect(match.advance(by: MemoryGame.matchPause - 0.01) == [])
    expectRefused(.flip(1), by: .solo, in: &match, .pairPending)
    #expect(match.advance(by: 0.01) == [.ready])
    #expect(!MemoryGame.view(of: match.state, for: .player(.solo)).waiting)
    #expect(try match.perform(.flip(1), by: .solo) == [.flipped(index: 1, card: orderedDeck[1])])
    #expect(match.nextDue == nil, "the last pair ends the game at once, with no pause")
  }

  @Test func aMismatchTurnsBothDownAfterTheDelayAndCountsAMove() throws {
    var match = try concentration()
    try match.perform(.flip(0), by: .solo)
    #expect(try match.perform(.flip(1), by: .solo).last == .mismatched(0, 1))
    #expect(match.state.moves == 1)
    #expect(match.state.score == 0)
    let before = match.state
    #expect(throws: MemoryGame.RuleViolation.pairPending) { try match.perform(.flip(2), by: .solo) }
    #expect(match.state == before)
    #expect(match.advance(by: MemoryGame.concentrationMismatchDelay - 0.01) == [])
    #expect(match.advance(by: 0.01) == [.turnedDown(0, 1)])
    #expect(!match.state.board[0].faceUp && !match.state.board[1].faceUp)
  }

  @Test func turningUpAllTwentySixPairsClearsTheTable() throws {
    var match = try concentration()
    var events: OutcomeList<MemoryGame.Event> = []
    for index in 0..<13 {
      for pair in [(index, index + 13), (index + 26, index + 39)] {
        if match.state.resolving != nil { match.advance(by: MemoryGame.matchPause) }
        events = try match.perform(.flip(pair.0), by: .solo)
        events.append(contentsOf: try match.perform(.flip(pair.1), by: .solo))
      }
    }
    #expect(events.last == .finished(score: 0, moves: 26))
    #expect(match.isOver)
    #expect(match.state.pairsFound == 26)
    let view = MemoryGame.view(of: match.state, for: .player(.solo))
    #expect(RuleTexts.title(view) == "Cleared!")
    #expect(RuleTexts.status(view) == "All 26 pairs found in 26 moves.")
  }

  @Test func aGivenDeckMustHoldEveryCardOnce() {
    var deck = orderedDeck
    deck[1] = deck[0]
    #expect(
      throws: MemoryGame.RuleViolation.invalidDeck(
        "Concentration lays out all 52 cards, each once.")
    ) {
      try MemoryGame.deal(.init(variant: .concentration, deck: deck), seed: 0)
    }
  }
}
