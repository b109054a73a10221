import CardTableCore
import CardTableTesting
import ChoiceTable
import GameWire
import MatchingGame
import Testing

/// A Matchismo game dealt from the given cards, in table order.
func game(
  _ cards: String..., mode: Int = 2, scoring: MatchScoring = .init()
) throws -> MatchingGame.State {
  let deck = cards.map { playingCard($0) }
  return try MatchingGame.deal(
    .init(cards: deck.count, mode: mode, scoring: scoring, deck: deck), seed: 7)
}

/// Applies `actions` in order and returns the events of the last one.
@discardableResult
func play(_ actions: MatchingGame.Action..., on state: inout MatchingGame.State) throws
  -> OutcomeList<MatchingGame.Event>
{
  var events: OutcomeList<MatchingGame.Event> = []
  for action in actions { events = try MatchingGame.apply(action, by: .solo, to: &state).events }
  return events
}

@Suite struct ScoringExamplesTests {
  @Test func twoCardRankMatchScoresSixteenMinusOne() throws {
    var state = try game("A♥", "A♠", "K♣")
    try play(.choose(0), on: &state)
    let events = try play(.choose(1), on: &state)
    #expect(state.table.lastScoreChange == 15)
    #expect(state.table.score == -1 + 16 - 1)
    #expect(status(state.table) == "Matched A♥ A♠ for 16 points.")
    #expect(state.table.slots[0].matched && state.table.slots[1].matched)
    #expect(
      events[1]
        == .matched(
          cards: [0, 1], points: 16,
          reason: .init(pairs: [
            .init(first: playingCard("A♥"), second: playingCard("A♠"), kind: .rank)
          ])))
  }

  @Test func twoCardSuitMatchScoresFourMinusOne() throws {
    var state = try game("A♥", "5♥", "K♣")
    try play(.choose(0), .choose(1), on: &state)
    #expect(state.table.lastScoreChange == 3)
    #expect(state.table.score == 2)
    #expect(status(state.table) == "Matched A♥ 5♥ for 4 points.")
  }

  @Test func mismatchCostsThePenaltyAndTheChoice() throws {
    var state = try game("A♥", "K♣", "A♠")
    try play(.choose(0), .choose(1), on: &state)
    #expect(state.table.lastScoreChange == -3)
    #expect(state.table.score == -4)
    #expect(status(state.table) == "A♥ K♣ don’t match! 2 point penalty!")
  }

  @Test func threeCardsOfOneSuitScoreThreePairs() throws {
    var state = try game("A♥", "2♥", "3♥", "K♣", mode: 3)
    try play(.choose(0), .choose(1), .choose(2), on: &state)
    #expect(state.table.lastScoreChange == 12 - 1)
    #expect(state.table.score == -1 - 1 + 11)
    #expect(status(state.table) == "Matched A♥ 2♥ 3♥ for 12 points.")
  }

  @Test func settingsChangeThePoints() throws {
    var state = try game(
      "A♥", "A♠", "K♣", "Q♦", "K♦",
      scoring: MatchScoring(matchBonus: 10, mismatchPenalty: 5, costToChoose: 0))
    try play(.choose(0), .choose(1), on: &state)
    #expect(state.table.score == 40)
    try play(.choose(2), .choose(3), on: &state)
    #expect(state.table.score == 35)
    #expect(status(state.table) == "K♣ Q♦ don’t match! 5 point penalty!")
  }
}

@Suite struct ChoosingTests {
  @Test func unchoosingIsFreeAndKeepsTheStatus() throws {
    var state = try game("A♥", "K♣", "A♠")
    try play(.choose(0), .choose(1), on: &state)
    let before = status(state.table)
    let events = try play(.choose(1), on: &state)
    #expect(events == [.unchosen(index: 1)])
    #expect(state.table.score == -4)
    #expect(state.table.lastScoreChange == -3)
    #expect(status(state.table) == before)
    #expect(!state.table.slots[1].chosen)
    #expect(state.table.flips == 3)
  }

  @Test func aMismatchLeavesOnlyTheNewCardChosen() throws {
    var state = try game("A♥", "2♣", "K♠", "Q♦", "9♦", mode: 3)
    let events = try play(.choose(3), .choose(0), .choose(1), on: &state)
    #expect(
      events == [
        .chosen(index: 1, card: playingCard("2♣")), .mismatched(cards: [0, 3, 1], penalty: 2),
      ])
    #expect(status(state.table) == "A♥ Q♦ 2♣ don’t match! 2 point penalty!")
    #expect(state.table.slots.map(\.chosen) == [false, true, false, false, false])
  }

  @Test func aPartialThreeCardMatchMarksAllThreeMatched() throws {
    var state = try game("A♥", "A♠", "K♣", "7♦", mode: 3)
    try play(.choose(2), .choose(1), .choose(0), on: &state)
    #expect(status(state.table) == "Matched A♠ K♣ A♥ for 16 points.")
    #expect(state.table.slots.prefix(3).allSatisfy { $0.matched && $0.chosen })
    #expect(
      state.table.found.map { Array($0.cards) } == [["A♥", "A♠", "K♣"].map { playingCard($0) }])
    #expect(state.table.found[0].reason.text == "A♠ A♥ same rank")
  }

  @Test func choosingAMatchedCardIsRefused() throws {
    var state = try game("A♥", "A♠", "K♣", "K♦")
    try play(.choose(0), .choose(1), on: &state)
    let before = state
    #expect(throws: MatchingGame.RuleViolation.cardAlreadyMatched(0)) {
      try play(.choose(0), on: &state)
    }
    #expect(state == before)
  }

  @Test func statusAndHistoryFollowTheRuleBook() throws {
    var state = try game("A♥", "K♣", "A♠", "2♦")
    try play(.choose(0), on: &state)
    #expect(status(state.table) == "A♥")
    try play(.choose(0), on: &state)
    try play(.choose(0), on: &state)
    try play(.choose(1), .choose(2), .choose(2), .choose(0), on: &state)
    #expect(
      texts(state.table.history) == [
        "A♥", "A♥ K♣ don’t match! 2 point penalty!", "K♣ A♠ don’t match! 2 point penalty!",
        "A♥",
      ])
    try play(.choose(2), on: &state)
    #expect(texts(state.table.history).last == "Matched A♥ A♠ for 16 points.")
    #expect(
      state.table.score == state.table.history.map(\.points).reduce(0, +) - state.table.choices)
  }

  @Test func foundMatchesKeepTheOrderFoundAndTableOrderWithin() throws {
    var state = try game("K♣", "2♦", "K♥", "2♠")
    try play(.choose(3), .choose(1), .choose(2), .choose(0), on: &state)
    #expect(
      state.table.found.map { $0.cards.map(\.description) } == [["2♦", "2♠"], ["K♣", "K♥"]])
    #expect(state.table.found.map(\.reason.text) == ["2♠ 2♦ same rank", "K♥ K♣ same rank"])
  }
}

@Suite struct ModeAndDealTests {
  @Test func theModeLocksAtTheFirstChoiceAndDealUnlocksIt() throws {
    var state = try game("A♥", "A♠", "K♣", "K♦")
    #expect(try play(.setMode(3), on: &state) == [.modeSet(3)])
    #expect(state.mode == 3)
    try play(.choose(0), .choose(0), on: &state)
    let before = state
    #expect(throws: MatchingGame.RuleViolation.modeLocked) { try play(.setMode(2), on: &state) }
    #expect(state == before)
    try play(.deal, on: &state)
    #expect(state.mode == 3 && !state.modeLocked)
    try play(.setMode(2), on: &state)
    #expect(state.mode == 2)
  }

  @Test func anInvalidModeIsRefused() throws {
    var state = try game("A♥", "A♠")
    let before = state
    #expect(throws: MatchingGame.RuleViolation.invalidMode(4)) { try play(.setMode(4), on: &state) }
    #expect(state == before)
  }

  @Test func dealStartsAFreshGameFromTheSeedAndRecordsTheAbandonedOne() throws {
    var state = try MatchingGame.deal(.init(), seed: 42)
    #expect(state.table.slots.count == 24 && state.deck.count == 28)
    try play(.choose(0), .hint, on: &state)
    let events = try play(.deal, on: &state)
    var again = try MatchingGame.deal(.init(), seed: 42)
    try play(.choose(5), .deal, on: &again)
    #expect(state.table.slots.map(\.card) == again.table.slots.map(\.card))
    #expect(state.seed == again.seed && state.seed != 42)
    #expect(state.table.score == 0 && state.table.flips == 0 && state.table.history.isEmpty)
    #expect(state.table.found.isEmpty && state.table.hintedIndices.isEmpty)
    guard case .dealt(let seed, let abandoned?) = events.first else {
      Issue.record("no abandoned record")
      return
    }
    #expect(seed == state.seed)
    #expect(abandoned.ending == .abandoned && abandoned.seed == 42 && abandoned.score == -1)
    #expect(abandoned.moves == 1)
    let fresh = try MatchingGame.deal(.init(), seed: state.seed)
    #expect(fresh.table.slots.map(\.card) == state.table.slots.map(\.card))
  }

  @Test func badOptionsAndDecksAreRefused() {
    #expect(throws: MatchingGame.RuleViolation.self) {
      try MatchingGame.deal(.init(cards: 53), seed: 1)
    }
    #expect(throws: MatchingGame.RuleViolation.self) {
      try MatchingGame.deal(.init(cards: 1), seed: 1)
    }
    #expect(throws: MatchingGame.RuleViolation.self) {
      try MatchingGame.deal(.init(scoring: .init(matchBonus: 11)), seed: 1)
    }
    #expect(throws: MatchingGame.RuleViolation.self) {
      try game("A♥", "A♥")
    }
  }
}

@Suite struct HintAndGameOverTests {
  @Test func theHintIsTheFirstMatchInLexicographicOrder() throws {
    var state = try game("K♣", "A♥", "2♠", "A♠")
    #expect(MatchingGame.hint(in: state) == [1, 3])
    #expect(try play(.hint, on: &state) == [.hinted([1, 3])])
    #expect(state.table.hintedIndices == [1, 3])
    try play(.choose(1), on: &state)
    #expect(state.table.hintedIndices == [1, 3])
    try play(.choose(3), on: &state)
    #expect(state.table.hintedIndices.isEmpty)
    var three = try game("K♣", "A♥", "2♠", "7♦", "Q♦", mode: 3)
    #expect(MatchingGame.hint(in: three) == [0, 3, 4])
    try play(.setMode(2), on: &three)
    #expect(MatchingGame.hint(in: three) == [3, 4])
  }

  @Test func theGameIsOverWhenNoMatchIsLeft() throws {
    var state = try game("A♥", "A♠", "K♣", "2♦")
    #expect(!MatchingGame.isOver(state))
    let events = try play(.choose(0), .choose(1), on: &state)
    #expect(MatchingGame.isOver(state))
    guard case .gameOver(let record) = events.last else {
      Issue.record("no gameOver event")
      return
    }
    #expect(record.ending == .finished && record.score == 14 && record.moves == 2)
    let before = state
    #expect(throws: MatchingGame.RuleViolation.gameOver) { try play(.choose(2), on: &state) }
    #expect(state == before)
    #expect(try play(.hint, on: &state) == [.hinted([])])
    #expect(
      !MatchingGame.isOver(
        try {
          var s = state
          try play(.deal, on: &s)
          return s
        }()))
  }

  @Test func aDealtTableWithoutMatchesIsOver() throws {
    #expect(MatchingGame.isOver(try game("A♥", "K♣")))
  }
}

@Suite struct ResultTests {
  @Test func resultsAreTimedOnTheMatchClock() throws {
    let deck = ["A♥", "A♠", "K♣", "2♦"].map { playingCard($0) }
    var match = try Match<MatchingGame>(options: .init(deck: deck), seed: 3)
    match.advance(by: 5)
    try match.perform(.choose(0), by: .solo)
    match.advance(by: 7)
    try match.perform(.choose(1), by: .solo)
    match.advance(by: 8)
    try match.perform(.deal, by: .solo)
    match.advance(by: 10)
    try match.perform(.choose(0), by: .solo)
    match.advance(by: 1)
    try match.perform(.deal, by: .solo)
    let results = match.results
    #expect(results.count == 2)
    #expect(results[0].ending == .finished && results[0].start == 0 && results[0].end == 12)
    #expect(results[0].duration == 12 && results[0].moves == 2 && results[0].score == 14)
    #expect(results[0].game == "matchismo" && results[0].seed == 3)
    #expect(results[1].ending == .abandoned && results[1].start == 20 && results[1].end == 31)
    #expect(results[1].moves == 1)
  }
}

@Suite struct CompleteGameTests {
  @Test(arguments: 0..<500) func hintFollowingAndRandomGamesEndConsistently(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed))
    let mode = seed % 2 == 0 ? 2 : 3
    var match = try Match<MatchingGame>(
      options: .init(cards: 2 + random.nextInt(below: 51), mode: mode), seed: UInt64(seed))
    var steps = 0
    while !match.isOver {
      steps += 1
      let action: MatchingGame.Action
      if seed % 4 < 2 || steps > 300 {
        action = MatchingGame.hintedAction(in: match.state)!
      } else {
        let open = match.state.table.slots.indices.filter { !match.state.table.slots[$0].matched }
        action = .choose(open[random.nextInt(below: open.count)])
      }
      try match.perform(action, by: .solo)
    }
    let table = match.state.table
    #expect(MatchingGame.hint(in: match.state) == nil)
    #expect(table.score == table.history.map(\.points).reduce(0, +) - table.choices)
    let found = Set(table.found.flatMap(\.cards))
    #expect(found.count == table.found.count * mode)
    #expect(table.slots.allSatisfy { $0.matched == found.contains($0.card) })
    if !match.log.isEmpty {
      #expect(match.results.last?.ending == .finished)
      #expect(match.results.last?.score == table.score)
    }
    let replayed = try Match<MatchingGame>.replay(
      options: match.options, seed: match.seed, log: match.log)
    #expect(replayed.state == match.state)
  }
}

/// The status line of RULES §1.3 for a table's last play.
func status(_ table: MatchingGame.Table) -> String { RuleTexts.status(table.lastPlay) }

/// The history's entries in the rule book's words.
func texts(_ history: [MatchingGame.Table.Play]) -> [String] { history.map(RuleTexts.status) }
