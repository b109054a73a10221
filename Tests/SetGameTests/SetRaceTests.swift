import CardTableCore
import CardTableTesting
import ChoiceTable
import GameWire
import SetGame
import Testing

/// A race dealt `deck` in order.
func race(
  _ deck: [SetCard], players: [PlayerID] = ["Ann", "Bob"], refill: Bool = false
) throws -> Match<SetGame> {
  try Match(options: SetGame.Options(refill: refill, deck: deck, players: players), seed: 9)
}

/// The table of Set's race tests: `aSet` at 0–2, nine cards that make no other set, and three
/// more in the deck that make none either.
let raceRest = capSet(9, skipping: aSet)
let raceExtra = Array(capSet(20, skipping: aSet + raceRest).prefix(3))
let raceDeck = aSet + raceRest + raceExtra

extension Match where Rules == SetGame {
  /// The racer named `id`.
  func racer(_ id: PlayerID) -> SetGame.Racer {
    guard let index = state.racer(id) else { preconditionFailure("\(id) is not racing") }
    return state.racers[index]
  }

  /// The positions `viewer` sees chosen.
  func chosen(for viewer: PlayerID) -> [Int] {
    let table = SetGame.view(of: state, for: .player(viewer)).table
    return table.indices.filter { table[$0].chosen }
  }
}

@Suite struct SetRaceTests {
  @Test func everyPlayerChoosesAtAnyTimeIntoASelectionOfTheirOwn() throws {
    var match = try race(raceDeck)
    try match.perform(.choose(0), by: "Ann")
    try match.perform(.choose(0), by: "Bob")
    try match.perform(.choose(3), by: "Bob")
    #expect(match.chosen(for: "Ann") == [0])
    #expect(match.chosen(for: "Bob") == [0, 3])
    #expect(match.racer("Bob").selection == [aSet[0], raceRest[0]])
    #expect(match.state.table.slots.allSatisfy { !$0.chosen })
    let annSees = SetGame.view(of: match.state, for: .player("Ann")).racers
    #expect(annSees.map(\.chosenCount) == [1, 2])
    #expect(annSees.allSatisfy { $0.selection == nil })
    #expect(match.racer("Ann").score == -1 && match.racer("Bob").score == -2)
    #expect(match.state.table.score == -3)
  }

  @Test func choosingAChosenCardOfYourOwnUnchoosesItForFree() throws {
    var match = try race(raceDeck)
    try match.perform(.choose(4), by: "Ann")
    #expect(
      try match.perform(.choose(4), by: "Ann") == [.deselected(by: "Ann", index: 4, count: 0)])
    #expect(match.racer("Ann").selection.isEmpty && match.racer("Ann").score == -1)
  }

  @Test func theFirstValidSetWinsTheRace() throws {
    var match = try race(raceDeck)
    for player: PlayerID in ["Ann", "Bob"] {
      try match.perform(.choose(0), by: player)
      try match.perform(.choose(1), by: player)
    }
    let events = try match.perform(.choose(2), by: "Ann")
    #expect(
      events == [
        .selected(by: "Ann", index: 2, card: aSet[2], count: 3),
        .found(
          by: "Ann", cards: [0, 1, 2], faces: aSet, points: 16,
          reason: SetGame.Rule.reason(Hand<SetCard>(aSet))),
        .deselected(by: "Bob", index: 0, count: 1), .deselected(by: "Bob", index: 1, count: 0),
        .removed([0, 1, 2]),
      ])
    #expect(match.racer("Ann").score == 16 - 3)
    #expect(match.racer("Bob").selection.isEmpty && match.racer("Bob").score == -2)
    #expect(match.state.table.found.map { Array($0.cards) } == [aSet])
    #expect(match.state.table.slots.map(\.card) == raceRest)
    // NB: Bob's claim of the same set arrives second: its card has gone.
    expectRefused(
      .chooseCard(aSet[2], at: 2), by: "Bob", in: &match, .cardAlreadyMatched(aSet[2]))
  }

  @Test func aWrongSetCostsItsPlayerAndLeavesTheNewCardChosen() throws {
    var match = try race(raceDeck)
    try match.perform(.choose(5), by: "Bob")
    try match.perform(.choose(3), by: "Bob")
    let events = try match.perform(.choose(4), by: "Bob")
    #expect(events.last == .missed(by: "Bob", cards: [3, 4, 5], penalty: 2))
    #expect(match.racer("Bob").selection == [raceRest[1]])
    #expect(match.chosen(for: "Bob") == [4])
    #expect(match.racer("Bob").score == -3 - 2)
    #expect(match.racer("Ann").score == 0)
    let status = RuleTexts.raceStatus(SetGame.view(of: match.state, for: .player("Ann")))
    #expect(
      status == "Bob: \(raceRest[0]) \(raceRest[1]) \(raceRest[2]) don’t match! 2 point penalty!")
  }

  @Test func theTableClosesUpAndOtherSelectionsKeepTheirCards() throws {
    var match = try race(raceDeck)
    try match.perform(.choose(7), by: "Bob")
    for position in 0..<3 { try match.perform(.choose(position), by: "Ann") }
    #expect(match.racer("Bob").selection == [raceRest[4]])
    #expect(match.chosen(for: "Bob") == [4])
    try match.perform(.chooseCard(raceRest[4], at: 7), by: "Bob")
    #expect(match.racer("Bob").selection.isEmpty)
  }

  @Test func refillReplacesFoundCardsInPlace() throws {
    var match = try race(raceDeck, refill: true)
    try match.perform(.choose(7), by: "Bob")
    var events: OutcomeList<SetGame.Event> = []
    for position in 0..<3 { events = try match.perform(.choose(position), by: "Ann") }
    #expect(events.contains(.refilled(cards: [0, 1, 2], faces: raceExtra)))
    #expect(match.chosen(for: "Bob") == [7])
    #expect(match.chosen(for: "Ann") == [])
  }

  @Test func plusThreeIsDealtWhenEveryPlayerStillInHasAskedAndCostsNothing() throws {
    var match = try race(raceDeck, players: ["Ann", "Bob", "Cy"])
    #expect(
      try match.perform(.dealThree, by: "Ann") == [
        .askedForThree(by: "Ann", waiting: ["Bob", "Cy"])
      ])
    expectRefused(.dealThree, by: "Ann", in: &match, .alreadyAsked)
    try match.perform(.dealThree, by: "Cy")
    #expect(match.state.table.slots.count == 12)
    // NB: a set shows (0–2), yet the agreed +3 is free.
    let events = try match.perform(.dealThree, by: "Bob")
    #expect(
      events == [
        .askedForThree(by: "Bob", waiting: []),
        .dealtThree(cards: [12, 13, 14], faces: raceExtra, charge: 0),
      ])
    #expect(match.state.racers.allSatisfy { !$0.askedForThree })
    #expect(match.state.table.score == 0)
    expectRefused(.dealThree, by: "Ann", in: &match, .deckEmpty)
  }

  @Test func aPlayerWhoLeavesIsOutTheirScoreStaysAndTheAgreementMayComplete() throws {
    var match = try race(raceDeck)
    try match.perform(.choose(3), by: "Bob")
    try match.perform(.dealThree, by: "Ann")
    let events = try match.perform(.leave, by: "Bob")
    #expect(events.first == .left("Bob"))
    #expect(events.last == .dealtThree(cards: [12, 13, 14], faces: raceExtra, charge: 0))
    #expect(match.racer("Bob").hasLeft && match.racer("Bob").score == -1)
    #expect(match.racer("Bob").selection.isEmpty)
    expectRefused(.choose(0), by: "Bob", in: &match, .playerLeft("Bob"))
    expectRefused(.leave, by: "Bob", in: &match, .playerLeft("Bob"))
    try match.perform(.choose(0), by: "Ann")
  }

  @Test func theLastPlayerLeavingEndsTheRaceUnfinished() throws {
    var match = try race(raceDeck)
    try match.perform(.leave, by: "Ann")
    try match.perform(.leave, by: "Bob")
    #expect(match.isOver && match.state.deserted)
    let record = try #require(match.results.last?.record)
    #expect(record.ending == .abandoned && record.winner == nil)
    #expect(
      RuleTexts.raceStatus(SetGame.view(of: match.state, for: .referee)) == "Everyone has left.")
  }

  @Test func strangersMayNotRaceAndARaceGivesNoHints() throws {
    var match = try race(raceDeck)
    expectRefused(.choose(0), by: .solo, in: &match, .notAPlayer(.solo))
    expectRefused(.dealThree, by: "Cy", in: &match, .notAPlayer("Cy"))
    expectRefused(.hint, by: "Ann", in: &match, .notInARace)
    expectRefused(.choose(12), by: "Ann", in: &match, .noSuchCard(12))
    expectRefused(.deal, by: "Ann", in: &match, .gameNotOver)
  }

  @Test func theRaceEndsAsAGameAloneAndTheHighestScoreWins() throws {
    var match = try race(aSet + raceRest)
    try match.perform(.choose(5), by: "Bob")
    for position in 0..<3 { try match.perform(.choose(position), by: "Ann") }
    #expect(match.isOver)
    let record = try #require(match.results.last?.record)
    #expect(record.players == [.init(player: "Ann", score: 13), .init(player: "Bob", score: -1)])
    #expect(record.winner == "Ann" && record.score == 12)
    #expect(record.settings.summary.hasSuffix(", players 2"))
    #expect(record.settings.scoreOrder == .none)
    #expect(
      RuleTexts.raceStatus(SetGame.view(of: match.state, for: .player("Bob")))
        == "Ann wins with 13 points!")
    expectRefused(.choose(0), by: "Bob", in: &match, .gameOver)
    expectRefused(.leave, by: "Bob", in: &match, .gameOver)
    expectRefused(.dealThree, by: "Bob", in: &match, .gameOver)
    let dealt = try match.perform(.deal, by: "Bob")
    #expect(dealt.count == 1)
    #expect(match.state.racers.allSatisfy { $0.score == 0 } && match.state.claims.isEmpty)
  }

  @Test func aTieHasNoWinner() throws {
    // NB: two disjoint sets and nothing else: each player finds one.
    let other = try #require(
      SetCard.fullDeck.lazy.compactMap { a -> [SetCard]? in
        for b in SetCard.fullDeck where b != a {
          let c = SetGame.third(a, b)
          let six = aSet + [a, b, c]
          if Set(six).count == 6, SetFinder.count(in: six) == 2 { return [a, b, c] }
        }
        return nil
      }.first)
    var match = try race(aSet + other)
    for position in 0..<3 { try match.perform(.choose(position), by: "Ann") }
    for position in 0..<3 { try match.perform(.choose(position), by: "Bob") }
    let record = try #require(match.results.last?.record)
    #expect(record.players.map(\.score) == [13, 13])
    #expect(record.winner == nil)
    #expect(
      RuleTexts.raceStatus(SetGame.view(of: match.state, for: .referee))
        == "A tie: Ann and Bob scored 13 points each.")
    #expect(
      SetGame.view(of: match.state, for: .referee).claims.map(RuleTexts.claim) == [
        "Ann: Matched \(aSet[0]) \(aSet[1]) \(aSet[2]) for 16 points.",
        "Bob: Matched \(other.map(\.description).joined(separator: " ")) for 16 points.",
      ])
  }

  @Test func anotherPlayersChoicesAreRedactedToACount() {
    let event = SetGame.Event.selected(by: "Bob", index: 3, card: aSet[0], count: 2)
    #expect(SetGame.redact(event, for: .player("Bob")) == event)
    #expect(SetGame.redact(event, for: .referee) == event)
    #expect(
      SetGame.redact(event, for: .player("Ann"))
        == .selected(by: "Bob", index: nil, card: nil, count: 2))
    #expect(
      SetGame.redact(.deselected(by: "Bob", index: 3, count: 1), for: .player("Ann"))
        == .deselected(by: "Bob", index: nil, count: 1))
  }

  @Test func chooseCardFindsACardWhereTheTableMovedIt() throws {
    var state = try dealt(raceDeck)
    try play(.choose(0), .choose(1), .choose(2), on: &state)
    try play(.chooseCard(raceRest[5], at: 8), on: &state)
    #expect(state.table.chosenIndices == [5])
    expectRefused(
      .chooseCard(aSet[0], at: 0), by: .solo, in: state, of: SetGame.self,
      .cardAlreadyMatched(aSet[0]))
    expectRefused(
      .chooseCard(raceExtra[0], at: 0), by: .solo, in: state, of: SetGame.self, .noSuchCard(0))
  }

  @Test func leavingAGameAloneGivesItUpUntilTheNextDeal() throws {
    var match = try Match<SetGame>(options: SetGame.Options(deck: raceDeck), seed: 1)
    #expect(try match.perform(.leave, by: .solo) == [.left(.solo)])
    #expect(match.isOver && match.results.last?.record.ending == .abandoned)
    expectRefused(.dealThree, by: .solo, in: &match, .gameOver)
    expectRefused(.leave, by: .solo, in: &match, .gameOver)
    try match.perform(.deal, by: .solo)
    #expect(!match.isOver && !match.state.deserted)
  }

  @Test(
    arguments: [
      (["Ann"], true, nil),
      (["Ann", "Bob"], true, "A race seats its own players; two-player Set shares one table."),
      ([], false, "Set is played by 1 to 4 players, not 0."),
      (["A", "B", "C", "D", "E"], false, "Set is played by 1 to 4 players, not 5."),
      (["Ann", "Ann"], false, "Every player needs a different name."),
    ] as [([PlayerID], Bool, String?)])
  func racesThatCannotBeRunAreRefused(players: [PlayerID], twoPlayer: Bool, reason: String?) {
    let options = SetGame.Options(twoPlayer: twoPlayer, players: players)
    if let reason {
      #expect(throws: SetGame.RuleViolation.invalidOptions(reason)) {
        try SetGame.deal(options, seed: 1)
      }
    } else {
      #expect(throws: Never.self) { try SetGame.deal(options, seed: 1) }
    }
  }

  @Test func recordSettingsOfARaceReadBack() {
    let settings = SetGame.Settings(
      refill: true, twoPlayer: false, scoring: MatchScoring(), playerCount: 3)
    #expect(SetGame.Settings(game: "set", summary: settings.summary) == settings)
    #expect(
      settings.summary
        == "refill on, twoPlayer off, matchBonus 4, mismatchPenalty 2, costToChoose 1, players 3")
  }
}
