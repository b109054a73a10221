import CardTableCore
import CardTableTesting
import ChoiceTable
import Foundation
import GameWire
import SetGame
import Testing

/// A set whose cards differ in `differences` attributes (1 to 4), skipping `used` cards.
private func setDiffering(in differences: Int, skipping used: [SetCard] = []) -> [SetCard] {
  for a in SetCard.fullDeck where !used.contains(a) {
    for b in SetCard.fullDeck where b != a && !used.contains(b) {
      let c = SetGame.third(a, b)
      guard !used.contains(c), SetGame.differences(Hand(a, b, c)) == differences else { continue }
      return [a, b, c]
    }
  }
  preconditionFailure("no set differs in \(differences)")
}

/// Ray's view of a race of Ann and Ray dealt `deck` (its first 12 cards on the table).
private func raysView(_ deck: [SetCard]) throws -> SetGame.View {
  let state = try SetGame.deal(
    SetGame.Options(deck: deck, players: ["Ann", "Ray"], computer: ["Ray"]), seed: 1,
    later: LaterSeeds(seed: 1))
  return SetGame.view(of: state, for: .player("Ray"))
}

/// The mean of `draws` of the computer's delay before its first choice on `view`.
private func meanDelay(
  _ view: SetGame.View, level: SetGame.ComputerLevel, draws: Int = 4_000
) -> Double {
  var random = SplitMix64(seed: 11)
  var total = 0.0
  for _ in 0..<draws {
    total += SetGame.computerPlan(in: view, level: level, random: &random)?.delay ?? .nan
  }
  return total / Double(draws)
}

/// Whether a claim found a set.
private func found(_ claim: SetGame.Claim) -> Bool {
  if case .matched = claim.play.result { return true }
  return false
}

@Suite struct SetComputerTests {
  /// A set is found after the reach plus an exponential time of mean (τ − reach) × the usual
  /// weight ÷ its weight: sets whose cards share more attributes sooner.
  @Test func aSetIsFoundSoonerTheMoreItsCardsShare() throws {
    var means: [Double] = []
    for differences in 1...4 {
      let mean = meanDelay(try raysView(setDiffering(in: differences)), level: .steady)
      let expected =
        SetGame.computerReach + (8 - SetGame.computerReach) * SetGame.computerUsualWeight
        / SetGame.computerFindingWeights[differences - 1]
      #expect(abs(mean - expected) / expected < 0.05, "\(differences): \(mean) s, not \(expected)")
      means.append(mean)
    }
    #expect(means == means.sorted(), "by differences: \(means)")
  }

  @Test func aQuickerLevelFindsSooner() throws {
    let view = try raysView(setDiffering(in: 2))
    let means = SetGame.ComputerLevel.allCases.map { meanDelay(view, level: $0) }
    #expect(means == means.sorted(by: >), "relaxed, steady, sharp: \(means)")
  }

  @Test func moreSetsShowingAreFoundSooner() throws {
    let one = setDiffering(in: 3)
    let two = one + setDiffering(in: 3, skipping: one)
    #expect(
      meanDelay(try raysView(two), level: .steady) < meanDelay(try raysView(one), level: .steady)
        * 0.75)
  }

  /// "About 4 / 8 / 15 s on a usual table": over the first tables of 500 seeded deals that
  /// show a set, the mean comes within 5 % of the level's seconds.
  @Test(arguments: SetGame.ComputerLevel.allCases)
  func aUsualTableTakesAboutTheLevelsSeconds(level: SetGame.ComputerLevel) throws {
    var random = SplitMix64(seed: 3)
    var total = 0.0
    var tables = 0
    for seed in 1...500 as ClosedRange<UInt64> {
      let view = try raysView(SetGame.shuffledDeck(seed: seed))
      guard SetFinder.count(in: view.table.compactMap(\.card)) > 0 else { continue }
      total += try #require(SetGame.computerPlan(in: view, level: level, random: &random)).delay
      tables += 1
    }
    let mean = total / Double(tables)
    #expect(abs(mean - level.seconds) / level.seconds < 0.05, "\(level): \(mean) s")
  }

  @Test func withNoSetShowingItAsksForThreeMoreOnceAndUndoesItsStrayChoices() throws {
    let noSet = capSet(12)
    var random = SplitMix64(seed: 1)
    let plan = try #require(
      SetGame.computerPlan(in: try raysView(noSet + aSet), level: .sharp, random: &random))
    #expect(plan.cards.isEmpty && (4...8).contains(plan.delay))
    var view = try raysView(noSet + aSet)
    view.racers[1].askedForThree = true
    #expect(SetGame.computerPlan(in: view, level: .sharp, random: &random) == nil)
    // NB: a card it had chosen that is not of the set it found is chosen again first.
    var stray = try raysView(aSet + capSet(9, skipping: aSet))
    stray.table[5].chosen = true
    let undo = try #require(SetGame.computerPlan(in: stray, level: .sharp, random: &random))
    #expect(undo.cards == [stray.table[5].card!] + aSet)
  }

  /// The computer's plan comes from its seat's view: decks that differ only in the cards not
  /// yet dealt give it the same view and so the same plan.
  @Test func theComputerSeesOnlyTheTable() throws {
    let table = Array(SetGame.shuffledDeck(seed: 4).prefix(12))
    let rest = SetCard.fullDeck.filter { !table.contains($0) }
    let views = [try raysView(table + rest), try raysView(table + rest.reversed())]
    #expect(views[0] == views[1])
    var first = SplitMix64(seed: 9)
    var second = SplitMix64(seed: 9)
    #expect(
      SetGame.computerPlan(in: views[0], level: .steady, random: &first)
        == SetGame.computerPlan(in: views[1], level: .steady, random: &second))
  }

  /// Ann asks for +3 whenever Ray has; otherwise Ray, sharp, finds every set on the clock,
  /// card by card, until the deck is empty and no set is left.
  @Test func aComputerRacesAGameToItsEnd() throws {
    var match = try Match<SetGame>(
      options: SetGame.Options(players: ["Ann", "Ray"], computer: ["Ray"], computerLevel: .sharp),
      seed: 21)
    var rounds = 0
    while !match.state.over, rounds < 2_000 {
      rounds += 1
      if match.racer("Ray").askedForThree, !match.racer("Ann").askedForThree {
        try match.perform(.dealThree, by: "Ann")
      }
      match.advance(by: 1)
    }
    #expect(match.state.over && !match.state.deserted)
    #expect(match.racer("Ray").score > 0)
    #expect(match.state.claims.allSatisfy { $0.player == "Ray" && found($0) })
    #expect(match.state.claims.count == match.state.table.found.count)
    let choices = (0..<match.version).map(match.entry(at:)).filter {
      if case .chooseCard = $0.action { return true } else { return false }
    }
    #expect(choices.count == 3 * match.state.claims.count)
    #expect(choices.allSatisfy { $0.player == "Ray" && $0.automatic })
    #expect(match.replaying { _, _ in }.state == match.state)
  }

  @Test func aPersonsSetMakesTheComputerLookAgainAndAskForThreeMore() throws {
    var match = try Match<SetGame>(
      options: SetGame.Options(
        deck: aSet + capSet(9, skipping: aSet)
          + setDiffering(in: 4, skipping: aSet + capSet(9, skipping: aSet)),
        players: ["Ann", "Ray"], computer: ["Ray"], computerLevel: .relaxed),
      seed: 9)
    for index in 0..<3 { try match.perform(.choose(index), by: "Ann") }
    #expect(match.racer("Ann").score > 0)
    // NB: no set shows now: Ray looks (15 to 30 s at his level) and asks for three more.
    match.advance(by: 14.9)
    #expect(!match.racer("Ray").askedForThree)
    match.advance(by: 15.2)
    #expect(match.racer("Ray").askedForThree && match.racer("Ray").selection.isEmpty)
    try match.perform(.dealThree, by: "Ann")
    match.advance(by: 10_000)
    #expect(match.state.over)
    #expect(match.state.claims.first?.player == "Ann" && match.state.claims.count >= 2)
    #expect(match.state.claims.dropFirst().allSatisfy { $0.player == "Ray" })
    #expect(match.state.claims.allSatisfy(found))
  }

  @Test func theLastPersonLeavingEndsTheRace() throws {
    var match = try Match<SetGame>(
      options: SetGame.Options(players: ["Ann", "Ray"], computer: ["Ray"]), seed: 2)
    try match.perform(.leave, by: "Ann")
    #expect(match.state.over && match.state.deserted)
    let version = match.version
    match.advance(by: 1_000)
    #expect(match.version == version)
  }

  @Test func optionsNameTheComputerRacersAndTheirLevel() throws {
    func decode(_ json: String) throws -> SetGame.Options {
      try JSONDecoder().decode(SetGame.Options.self, from: Data(json.utf8))
    }
    let alone = try decode(#"{"opponent":"sharp"}"#)
    #expect(alone.players == [.solo, "Ray"] && alone.computer == ["Ray"])
    #expect(alone.computerLevel == .sharp)
    #expect(try decode(#"{"opponent":"none"}"#) == SetGame.Options())
    #expect(throws: InputError.self) { try decode(#"{"opponent":"good"}"#) }
    #expect(throws: InputError.self) { try decode(#"{"opponent":"sharp","twoPlayer":true}"#) }
    #expect(
      throws: InputError.unknownMember(
        "speed",
        allowed: [
          "mode", "matchBonus", "mismatchPenalty", "costToChoose", "refill", "twoPlayer",
          "players",
        ]),
      performing: { try decode(#"{"speed":1}"#) })
    #expect(
      throws: SetGame.RuleViolation.invalidOptions(
        "Lucy races for the computer but is not a racer.")
    ) {
      try SetGame.deal(
        SetGame.Options(players: ["Ann", "Bob"], computer: ["Lucy"]), seed: 1,
        later: LaterSeeds(seed: 1))
    }
    let encoded = String(decoding: try JSONEncoder().encode(alone), as: UTF8.self)
    #expect(encoded.contains(#""computer":["Ray"]"#) && encoded.contains(#""sharp""#))
  }
}
