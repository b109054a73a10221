import CardTableCore
import CardTableTesting
import ChoiceTable
import GameWire
import SetGame
import Testing

/// Set cards from their texts.
func cards(_ texts: String...) -> [SetCard] { texts.map { setCard($0) } }

/// `count` cards of the deck, in deck order, that form no set among themselves or with any two
/// of `given` (greedy): with a given set, a table whose only set is that one.
func capSet(_ count: Int, skipping given: [SetCard] = []) -> [SetCard] {
  var picked = given
  for card in SetCard.fullDeck where !given.contains(card) && picked.count < given.count + count {
    if !picked.contains(where: { picked.contains(SetGame.third($0, card)) }) {
      picked.append(card)
    }
  }
  return Array(picked.dropFirst(given.count))
}

func dealt(
  _ deck: [SetCard], refill: Bool = false, twoPlayer: Bool = false
) throws -> SetGame.State {
  try SetGame.deal(.init(refill: refill, twoPlayer: twoPlayer, deck: deck), seed: 9)
}

@discardableResult
func play(_ actions: SetGame.Action..., by player: PlayerID = .solo, on state: inout SetGame.State)
  throws -> OutcomeList<SetGame.Event>
{
  var events: OutcomeList<SetGame.Event> = []
  for action in actions { events = try SetGame.apply(action, by: player, to: &state).events }
  return events
}

/// A set and a card that spoils it: `oval:red:solid:1`, `oval:green:solid:1`,
/// `oval:purple:solid:1` form a set.
let aSet = cards("oval:red:solid:1", "oval:green:solid:1", "oval:purple:solid:1")

@Suite struct SetRuleTests {
  @Test func everyTripleAgreesWithTheSumModThreeRule() {
    let deck = SetCard.fullDeck
    var triples = 0
    var sets = 0
    for i in 0..<81 {
      for j in (i + 1)..<81 {
        for k in (j + 1)..<81 {
          triples += 1
          let (a, b, c) = (deck[i], deck[j], deck[k])
          let bySum = zip(zip(a.attributes, b.attributes), c.attributes).allSatisfy {
            ($0.0 + $0.1 + $1) % 3 == 0
          }
          if bySum { sets += 1 }
          if SetGame.isSet(a, b, c) != bySum { Issue.record("\(a) \(b) \(c)") }
        }
      }
    }
    #expect(triples == 85_320)
    #expect(sets == 1_080)
    #expect(SetFinder.count(in: deck) == 1_080)
    #expect(SetFinder.sets(in: deck).count == 1_080)
  }

  @Test(arguments: 0..<50) func theFinderListsEverySetInLexicographicOrder(seed: Int) {
    let size = [3, 12, 15, 18, 21, 40][seed % 6]
    let table = Array(SetGame.shuffledDeck(seed: UInt64(seed)).prefix(size))
    var brute: [Hand<Int>] = []
    for i in table.indices {
      for j in table.indices where j > i {
        for k in table.indices where k > j && SetGame.isSet(table[i], table[j], table[k]) {
          brute.append(Hand(i, j, k))
        }
      }
    }
    #expect(SetFinder.sets(in: table) == brute)
    #expect(SetFinder.firstSet(in: table) == brute.first)
  }

  @Test func theThirdCardCompletesASet() {
    #expect(SetGame.third(aSet[0], aSet[1]) == aSet[2])
    #expect(SetGame.Rule.match(Hand(aSet)) == 4)
    #expect(
      SetGame.Rule.reason(Hand(aSet)).text
        == "number same, symbol same, shading same, color different")
  }

  @Test func everyReasonNamesEachAttributesOwnAgreement() {
    let both: [SetGame.Agreement] = [.same, .different]
    for number in both {
      for symbol in both {
        for shading in both {
          for color in both {
            let reason = SetGame.Reason(
              number: number, symbol: symbol, shading: shading, color: color)
            #expect(
              reason.text
                == "number \(number.rawValue), symbol \(symbol.rawValue), "
                + "shading \(shading.rawValue), color \(color.rawValue)")
          }
        }
      }
    }
  }
}

@Suite struct SetPlayTests {
  @Test func aSetScoresSixteenAndLeavesTheTableInOrder() throws {
    let rest = capSet(9, skipping: aSet)
    var state = try dealt([rest[0], aSet[0], rest[1], aSet[1], aSet[2]] + rest.dropFirst(2))
    #expect(state.table.slots.count == 12 && state.deck.isEmpty)
    try play(.choose(1), .choose(3), on: &state)
    let events = try play(.choose(4), on: &state)
    #expect(state.table.score == -1 - 1 + 15)
    #expect(status(state.table) == "Matched \(aSet[0]) \(aSet[1]) \(aSet[2]) for 16 points.")
    #expect(events.contains(.removed([1, 3, 4])))
    #expect(state.table.slots.map(\.card) == [rest[0], rest[1]] + rest.dropFirst(2).prefix(7))
    #expect(state.table.found.map { Array($0.cards) } == [aSet])
    #expect(state.table.found[0].reason.color == .different)
  }

  @Test func aMismatchLeavesTheNewCardChosen() throws {
    let table = capSet(12)
    var state = try dealt(table + aSet)
    let events = try play(.choose(0), .choose(1), .choose(2), on: &state)
    #expect(events.last == .mismatched(cards: [0, 1, 2], penalty: 2))
    #expect(state.table.chosenIndices == [2])
    #expect(
      status(state.table) == "\(table[0]) \(table[1]) \(table[2]) don’t match! 2 point penalty!")
    #expect(state.table.score == -1 - 1 - 3)
  }

  @Test func refillDealsReplacementsIntoTheFoundPositions() throws {
    let rest = capSet(9, skipping: aSet)
    let extra = capSet(20, skipping: aSet + rest).prefix(3)
    var state = try dealt(aSet + rest + extra, refill: true)
    let events = try play(.choose(0), .choose(1), .choose(2), on: &state)
    #expect(events.contains(.refilled(cards: [0, 1, 2], faces: Array(extra))))
    #expect(state.table.slots.map(\.card) == Array(extra) + rest)
    #expect(state.deck.isEmpty)
  }

  @Test func plusThreeIsFreeWithoutASetAndAppendsAtTheEnd() throws {
    let table = capSet(12)
    var state = try dealt(table + aSet)
    let events = try play(.dealThree, on: &state)
    #expect(events.first == .dealtThree(cards: [12, 13, 14], faces: aSet, charge: 0))
    #expect(state.table.score == 0 && state.charges == 0)
    #expect(state.table.slots.suffix(3).map(\.card) == aSet)
  }

  @Test func plusThreeCostsThreePenaltiesWhenASetIsShowing() throws {
    let rest = capSet(9, skipping: aSet)
    let extra = Array(capSet(20, skipping: aSet + rest).prefix(2))
    var state = try dealt(aSet + rest + extra)
    let events = try play(.dealThree, on: &state)
    #expect(events.first == .dealtThree(cards: [12, 13], faces: extra, charge: 6))
    #expect(state.table.score == -6 && state.charges == 6)
    let before = state
    #expect(throws: SetGame.RuleViolation.deckEmpty) { try play(.dealThree, on: &state) }
    #expect(state == before)
  }

  @Test func theHintIsTheFirstSetInLexicographicOrder() throws {
    let rest = capSet(9, skipping: aSet)
    var state = try dealt([rest[0], aSet[2], rest[1], aSet[0], aSet[1]] + rest.dropFirst(2))
    #expect(SetGame.hint(in: state) == [1, 3, 4])
    #expect(try play(.hint, on: &state) == [.hinted([1, 3, 4])])
    #expect(state.table.hintedIndices == [1, 3, 4])
    try play(.choose(4), .choose(3), .choose(1), on: &state)
    #expect(state.table.hintedIndices.isEmpty)
  }

  @Test func theGameIsOverWhenTheDeckIsEmptyAndNoSetIsLeft() throws {
    var state = try dealt(aSet)
    #expect(!SetGame.isOver(state))
    let events = try play(.choose(0), .choose(1), .choose(2), on: &state)
    #expect(SetGame.isOver(state) && state.table.slots.isEmpty)
    guard case .gameOver(let record) = events.last else {
      Issue.record("no gameOver")
      return
    }
    #expect(record.score == 13 && record.moves == 3 && record.settings.game == "set")
    let before = state
    #expect(throws: SetGame.RuleViolation.gameOver) { try play(.choose(0), on: &state) }
    #expect(throws: SetGame.RuleViolation.deckEmpty) { try play(.dealThree, on: &state) }
    #expect(state == before)
    #expect(SetGame.isOver(try dealt(capSet(5))))
  }

  @Test func refusedChoicesLeaveTheStateUnchanged() throws {
    var state = try dealt(capSet(12) + aSet, twoPlayer: true)
    let before = state
    #expect(throws: SetGame.RuleViolation.noSuchCard(12)) { try play(.choose(12), on: &state) }
    #expect(throws: SetGame.RuleViolation.notYourTurn("P1")) {
      try play(.choose(0), by: "P2", on: &state)
    }
    #expect(state == before)
    #expect(throws: SetGame.RuleViolation.self) { try dealt([aSet[0], aSet[0]]) }
    #expect(throws: SetGame.RuleViolation.self) { try dealt([]) }
    #expect(throws: SetGame.RuleViolation.self) {
      try SetGame.deal(.init(scoring: .init(costToChoose: 11)), seed: 1)
    }
  }
}

@Suite struct TwoPlayerTests {
  @Test func aMismatchOrAPaidPlusThreeHandsTheTurnOver() throws {
    let table = capSet(12)
    var state = try dealt(table + aSet, twoPlayer: true)
    #expect(state.currentPlayer == "P1")
    let events = try play(.choose(0), .choose(1), .choose(2), by: "P1", on: &state)
    #expect(events.last == .turnPassed(to: "P2"))
    #expect(state.playerScores == [-5, 0])
    try play(.dealThree, by: "P2", on: &state)
    #expect(state.currentPlayer == "P2")
    try play(.choose(2), .choose(12), .choose(13), .choose(14), by: "P2", on: &state)
    #expect(state.playerScores == [-5, 13])
    #expect(state.table.score == 8)
    #expect(state.currentPlayer == "P2")
    try play(.deal, on: &state)
    #expect(state.playerScores == [0, 0] && state.currentPlayer == "P1")
  }

  @Test func aPaidPlusThreePassesTheTurn() throws {
    let rest = capSet(9, skipping: aSet)
    var state = try dealt(aSet + rest + capSet(20, skipping: aSet + rest), twoPlayer: true)
    let events = try play(.dealThree, on: &state)
    #expect(events.contains(.turnPassed(to: "P2")))
    #expect(state.playerScores == [-6, 0])
  }
}

@Suite struct CompleteSetGameTests {
  @Test(arguments: 0..<500) func gamesEndConsistently(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed) &+ 1_000)
    let options = SetGame.Options(refill: seed % 3 == 0, twoPlayer: seed % 5 == 0)
    var match = try Match<SetGame>(options: options, seed: UInt64(seed))
    var steps = 0
    while !match.isOver {
      steps += 1
      let action: SetGame.Action
      if seed % 2 == 0 || steps > 200 {
        action = SetGame.hintedAction(in: match.state)!
      } else if random.nextInt(below: 20) == 0 && !match.state.deck.isEmpty {
        action = .dealThree
      } else if match.state.table.slots.isEmpty {
        action = .dealThree
      } else {
        action = .choose(random.nextInt(below: match.state.table.slots.count))
      }
      try match.perform(action, by: .solo)
    }
    let state = match.state
    let table = state.table
    #expect(SetGame.hint(in: state) == nil && state.deck.isEmpty)
    #expect(
      table.score == table.history.map(\.points).reduce(0, +) - table.choices - state.charges)
    let found = table.found.flatMap(\.cards)
    #expect(Set(found).isDisjoint(with: table.slots.map(\.card)))
    #expect(found.count + table.slots.count == 81)
    #expect(table.found.allSatisfy { SetGame.isSet($0.cards[0], $0.cards[1], $0.cards[2]) })
    if options.twoPlayer { #expect(state.playerScores.reduce(0, +) == table.score) }
    #expect(match.results.last?.score == table.score)
    let replayed = try Match<SetGame>.replay(
      options: match.options, seed: match.seed, log: match.log)
    #expect(replayed.state == match.state)
  }
}

/// The status line of RULES §1.3 for a table's last play.
func status(_ table: SetGame.Table) -> String { RuleTexts.status(table.lastPlay) }

/// The history's entries in the rule book's words.
func texts(_ history: [SetGame.Table.Play]) -> [String] { history.map(RuleTexts.status) }
