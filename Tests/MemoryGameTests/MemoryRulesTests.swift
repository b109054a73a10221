import CardTableCore
import CardTableTesting
import GameWire
import MemoryGame
import Testing

/// A fixed Easy board: pairs at (0,1), (2,3), (4,5), (6,7), (8,9), (10,11).
let easyDeck: [PlayingCard] = [
  "A♥", "A♥", "K♠", "K♠", "2♦", "2♦", "3♣", "3♣", "Q♥", "Q♥", "J♠", "J♠",
]
.map { playingCard($0) }

func easyMatch() throws -> Match<MemoryGame> {
  try Match(
    options: MemoryGame.Options(variant: .memory, difficulty: .easy, deck: easyDeck), seed: 1)
}

@Suite struct MemoryRulesTests {
  @Test(arguments: [
    (MemoryGame.Difficulty.easy, 4, 3), (.medium, 6, 4), (.hard, 8, 4),
  ])
  func difficultiesHaveTheOriginalGrids(difficulty: MemoryGame.Difficulty, columns: Int, rows: Int)
    throws
  {
    let state = try MemoryGame.deal(.memory(difficulty), seed: 3)
    #expect(state.columns == columns && state.rows == rows)
    #expect(state.board.count == columns * rows)
    #expect(state.pairCount == columns * rows / 2)
  }

  @Test(arguments: 0..<50)
  func everyCardAppearsExactlyTwice(seed: UInt64) throws {
    for difficulty in MemoryGame.Difficulty.allCases {
      let state = try MemoryGame.deal(.memory(difficulty), seed: seed)
      var counts: [PlayingCard: Int] = [:]
      for position in state.board { counts[position.card, default: 0] += 1 }
      #expect(counts.values.allSatisfy { $0 == 2 })
      #expect(counts.count == difficulty.pairs)
      #expect(state.board.allSatisfy { !$0.faceUp && !$0.removed })
    }
  }

  @Test func sameSeedSameBoardOtherSeedOtherBoard() throws {
    let a = try MemoryGame.deal(.memory(.hard), seed: 11)
    #expect(a == (try MemoryGame.deal(.memory(.hard), seed: 11)))
    #expect(a != (try MemoryGame.deal(.memory(.hard), seed: 12)))
  }

  @Test func cardsMatchOnlyWhenRankAndSuitAreEqual() {
    let aceOfHearts = PlayingCard(.ace, .hearts)
    #expect(MemoryGame.isPair(aceOfHearts, aceOfHearts, variant: .memory))
    #expect(!MemoryGame.isPair(aceOfHearts, PlayingCard(.ace, .spades), variant: .memory))
    #expect(!MemoryGame.isPair(aceOfHearts, PlayingCard(.two, .hearts), variant: .memory))
  }

  @Test func aMatchCountsAPairAndRemovesTheCardsAfterOneSecond() throws {
    var match = try easyMatch()
    #expect(try match.perform(.flip(0), by: .solo) == [.flipped(index: 0, card: easyDeck[0])])
    #expect(
      try match.perform(.flip(1), by: .solo) == [
        .flipped(index: 1, card: easyDeck[1]), .matched(0, 1),
      ])
    #expect(match.state.pairsFound == 1)
    #expect(match.state.score == 0)
    #expect(match.advance(by: 0.99) == [])
    #expect(!match.state.board[0].removed)
    #expect(match.advance(by: 0.01) == [.removed(0, 1)])
    #expect(match.state.board[0].removed && match.state.board[1].removed)
    #expect(match.clock == 1.0)
  }

  @Test func aMismatchScoresOneAndTurnsTheCardsDownAfterTwoSeconds() throws {
    var match = try easyMatch()
    try match.perform(.flip(0), by: .solo)
    #expect(
      try match.perform(.flip(2), by: .solo) == [
        .flipped(index: 2, card: easyDeck[2]), .mismatched(0, 2),
      ])
    #expect(match.state.score == 1)
    #expect(match.advance(by: 1.99) == [])
    #expect(match.state.board[0].faceUp && match.state.board[2].faceUp)
    #expect(match.advance(by: 0.01) == [.turnedDown(0, 2)])
    #expect(!match.state.board[0].faceUp && !match.state.board[2].faceUp)
    #expect(match.state.pairsFound == 0)
  }

  @Test func aThirdCardIsIgnoredWhileAPairIsPending() throws {
    var match = try easyMatch()
    try match.perform(.flip(0), by: .solo)
    try match.perform(.flip(2), by: .solo)
    let before = match.state
    #expect(throws: MemoryGame.RuleViolation.pairPending) { try match.perform(.flip(4), by: .solo) }
    #expect(match.state == before)
    match.advance(by: 2)
    #expect(try match.perform(.flip(4), by: .solo) == [.flipped(index: 4, card: easyDeck[4])])
  }

  @Test func tappingTheSelectedCardAgainIsIgnored() throws {
    var match = try easyMatch()
    try match.perform(.flip(5), by: .solo)
    let before = match.state
    #expect(throws: MemoryGame.RuleViolation.cardAlreadyFaceUp(5)) {
      try match.perform(.flip(5), by: .solo)
    }
    #expect(match.state == before)
  }

  @Test func everyRefusalNamesAStableReasonAndLeavesTheStateUnchanged() throws {
    var match = try easyMatch()
    try match.perform(.flip(0), by: .solo)
    try match.perform(.flip(1), by: .solo)
    match.advance(by: 1)
    let refusals: [(MemoryGame.Action, PlayerID, MemoryGame.RuleViolation, String)] = [
      (.flip(12), .solo, .noSuchCard(12), "no-such-card"),
      (.flip(-1), .solo, .noSuchCard(-1), "no-such-card"),
      (.flip(0), .solo, .cardRemoved(0), "card-removed"),
      (.resolve, .referee, .nothingToResolve, "nothing-to-resolve"),
      (.resolve, .solo, .onlyTheTimerResolves, "not-allowed"),
    ]
    for (action, player, violation, code) in refusals {
      let before = (match.state, match.version, match.log)
      #expect(throws: violation) { try match.perform(action, by: player) }
      #expect(violation.code == code)
      #expect(!violation.message.isEmpty)
      #expect(match.state == before.0 && match.version == before.1 && match.log == before.2)
    }
  }

  @Test func findingEveryPairWinsWithTheMistakeCountAsScore() throws {
    var match = try easyMatch()
    try match.perform(.flip(0), by: .solo)
    try match.perform(.flip(2), by: .solo)
    match.advance(by: 2)
    for pair in stride(from: 0, to: 12, by: 2) {
      try match.perform(.flip(pair), by: .solo)
      try match.perform(.flip(pair + 1), by: .solo)
      #expect(!match.isOver)
      let events = match.advance(by: 1)
      if pair == 10 {
        #expect(events == [.removed(10, 11), .finished(score: 1, moves: 7)])
      }
    }
    #expect(match.isOver)
    let view = MemoryGame.view(of: match.state, for: .player(.solo))
    #expect(RuleTexts.title(view) == "Great!")
    #expect(RuleTexts.status(view) == "You won with score: 1!")
    #expect(throws: MemoryGame.RuleViolation.gameOver) { try match.perform(.flip(0), by: .solo) }
  }

  @Test func invalidDecksAreRefused() {
    let short = Array(easyDeck.prefix(10))
    #expect(throws: MemoryGame.RuleViolation.self) {
      try MemoryGame.deal(.init(variant: .memory, difficulty: .easy, deck: short), seed: 0)
    }
    var odd = easyDeck
    odd[0] = PlayingCard(.nine, .clubs)
    #expect(
      throws: MemoryGame.RuleViolation.invalidDeck(
        "Every card must appear exactly twice; 9♣ appears once.")
    ) {
      try MemoryGame.deal(.init(variant: .memory, difficulty: .easy, deck: odd), seed: 0)
    }
  }

  @Test func aCardFourTimesIsRefusedSinceEveryCardAppearsExactlyTwice() {
    var quads = easyDeck
    quads[2] = easyDeck[0]
    quads[3] = easyDeck[0]
    #expect(
      throws: MemoryGame.RuleViolation.invalidDeck(
        "Every card must appear exactly twice; A♥ appears 4 times.")
    ) {
      try MemoryGame.deal(.init(variant: .memory, difficulty: .easy, deck: quads), seed: 0)
    }
  }

  @Test func aPlayerNeverSeesAFaceDownCard() throws {
    var match = try easyMatch()
    try match.perform(.flip(3), by: .solo)
    let view = MemoryGame.view(of: match.state, for: .player(.solo))
    #expect(view.board.enumerated().allSatisfy { ($0.offset == 3) == ($0.element.card != nil) })
    let referee = MemoryGame.view(of: match.state, for: .referee)
    #expect(referee.board.allSatisfy { $0.card != nil })
  }
}

@Suite struct MemoryRecordTests {
  @Test func aFinishedGameIsRecordedWithItsScoreMovesAndTimes() throws {
    var match = try easyMatch()
    try match.perform(.flip(0), by: .solo)
    try match.perform(.flip(2), by: .solo)
    match.advance(by: 2)
    #expect(match.results.isEmpty)
    for pair in stride(from: 0, to: 12, by: 2) {
      try match.perform(.flip(pair), by: .solo)
      try match.perform(.flip(pair + 1), by: .solo)
      match.advance(by: 1)
    }
    let result = try #require(match.results.first)
    #expect(match.results.count == 1)
    #expect(result.game == "memory")
    #expect(result.options == "difficulty easy")
    #expect(result.seed == 1)
    #expect(result.score == 1)
    #expect(result.moves == 7)
    #expect(result.ending == .finished)
    #expect(result.start == 0)
    #expect(result.end == 8, "the last pair left the board at 8 s")
    #expect(result.duration == 8)
  }

  @Test func aClearedConcentrationTableIsRecorded() throws {
    var match = try concentration()
    for index in 0..<13 {
      for offset in [0, 13, 26, 39] {
        if match.state.resolving != nil { match.advance(by: MemoryGame.matchPause) }
        try match.perform(.flip(index + offset), by: .solo)
      }
    }
    #expect(match.results.map(\.game) == ["concentration"])
    #expect(match.results.first?.moves == 26)
    #expect(match.results.first?.options == "52 cards")
  }
}
