import CardTableCore
import CardTableTesting
import GameWire
import MemoryGame
import Testing

/// The fixed Easy board (pairs at 0–1, 2–3, …, 10–11) played in turns by `players`.
func turns(_ players: [PlayerID] = ["Ann", "Bob"], variant: MemoryGame.Variant = .memory) throws
  -> Match<MemoryGame>
{
  let deck = variant == .memory ? easyDeck : orderedDeck
  return try Match(
    options: MemoryGame.Options(variant: variant, deck: deck, players: players), seed: 1)
}

/// The status line of `state` as `viewer` reads it.
func status(_ state: MemoryGame.State, for viewer: Viewer = .referee) -> String {
  RuleTexts.status(MemoryGame.view(of: state, for: viewer))
}

@Suite struct MemoryTurnsTests {
  @Test func onePlayerOfAnyNamePlaysTodaysGame() throws {
    var match = try turns(["Ann"])
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.flip(2), by: .solo)
    let view = MemoryGame.view(of: match.state, for: .player("Ann"))
    #expect(view.players.isEmpty && view.turn == nil && view.viewer == nil)
    #expect(RuleTexts.status(view) == "Pairs found: 0 of 6. Score: 1")
    #expect(match.state.settings.summary == "difficulty easy")
  }

  @Test func onlyThePlayerOnTurnMayFlip() throws {
    var match = try turns()
    #expect(match.state.playerOnTurn == "Ann")
    expectRefused(.flip(0), by: "Bob", in: &match, .notYourTurn("Ann"))
    try match.perform(.flip(0), by: "Ann")
    expectRefused(.flip(1), by: "Bob", in: &match, .notYourTurn("Ann"))
  }

  @Test func someoneNotAtTheTableMayNeitherFlipNorLeave() throws {
    var match = try turns()
    expectRefused(.flip(0), by: .solo, in: &match, .notAPlayer(.solo))
    expectRefused(.leave, by: "Cy", in: &match, .notAPlayer("Cy"))
  }

  @Test func aMatchKeepsTheTurn() throws {
    var match = try turns()
    try match.perform(.flip(0), by: "Ann")
    #expect(try match.perform(.flip(1), by: "Ann").last == .matched(0, 1))
    #expect(match.advance(by: MemoryGame.removalDelay) == [.removed(0, 1)])
    #expect(match.state.playerOnTurn == "Ann")
    #expect(match.state.players.map(\.pairs) == [1, 0])
    try match.perform(.flip(2), by: "Ann")
  }

  @Test func aMismatchPassesTheTurnWhenThePairIsTurnedDown() throws {
    var match = try turns()
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.flip(2), by: "Ann")
    #expect(match.state.playerOnTurn == "Ann")
    expectRefused(.flip(4), by: "Bob", in: &match, .notYourTurn("Ann"))
    #expect(
      match.advance(by: MemoryGame.memoryMismatchDelay) == [
        .turnedDown(0, 2), .turnPassed(to: "Bob"),
      ])
    #expect(match.state.playerOnTurn == "Bob")
    #expect(match.state.score == 1)
    expectRefused(.flip(4), by: "Ann", in: &match, .notYourTurn("Bob"))
    try match.perform(.flip(4), by: "Bob")
  }

  @Test func theTurnGoesRoundInTurnOrder() throws {
    var match = try turns(["Ann", "Bob", "Cy"])
    for (player, next) in [("Ann", "Bob"), ("Bob", "Cy"), ("Cy", "Ann")] as [(PlayerID, PlayerID)] {
      try match.perform(.flip(0), by: player)
      try match.perform(.flip(2), by: player)
      #expect(match.advance(by: 2).last == .turnPassed(to: next))
    }
  }

  @Test func eachPlayerScoresThePairsTheyFoundAndTheMostPairsWin() throws {
    var match = try turns()
    // NB: Ann finds two pairs, misses once, and Bob finds the other four.
    for pair in [0, 2] {
      try match.perform(.flip(pair), by: "Ann")
      try match.perform(.flip(pair + 1), by: "Ann")
      match.advance(by: 1)
    }
    try match.perform(.flip(4), by: "Ann")
    try match.perform(.flip(6), by: "Ann")
    match.advance(by: 2)
    for pair in [4, 6, 8, 10] {
      try match.perform(.flip(pair), by: "Bob")
      try match.perform(.flip(pair + 1), by: "Bob")
      match.advance(by: 1)
    }
    #expect(match.isOver)
    let record = try #require(match.results.last?.record)
    #expect(record.players == [.init(player: "Ann", score: 2), .init(player: "Bob", score: 4)])
    #expect(record.winner == "Bob" && record.ending == .finished)
    #expect(record.score == 1 && record.moves == 7)
    #expect(record.settings.summary == "difficulty easy, players 2")
    #expect(status(match.state) == "Bob wins with 4 pairs!")
    let title = { (viewer: Viewer) in RuleTexts.title(MemoryGame.view(of: match.state, for: viewer))
    }
    #expect(title(.player("Bob")) == "Great!")
    #expect(title(.player("Ann")) == "Game over", "the loser is not told Great!")
    #expect(title(.referee) == "Game over", "nor is a watcher")
  }

  @Test func aTieHasNoWinner() throws {
    var match = try turns()
    for (index, pair) in [0, 2, 4, 6, 8, 10].enumerated() {
      let player: PlayerID = index < 3 ? "Ann" : "Bob"
      if index == 3 {
        try match.perform(.flip(6), by: "Ann")
        try match.perform(.flip(8), by: "Ann")
        match.advance(by: 2)
      }
      try match.perform(.flip(pair), by: player)
      try match.perform(.flip(pair + 1), by: player)
      match.advance(by: 1)
    }
    let record = try #require(match.results.last?.record)
    #expect(record.players.map(\.score) == [3, 3])
    #expect(record.winner == nil)
    #expect(status(match.state) == "A tie: Ann and Bob found 3 pairs each.")
    #expect(RuleTexts.title(MemoryGame.view(of: match.state, for: .player("Bob"))) == "A tie!")
  }

  @Test func theStatusNamesWhoseTurnItIs() throws {
    var match = try turns(["Ann", "Bob", "Cy"])
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.flip(1), by: "Ann")
    try match.perform(.leave, by: "Cy")
    #expect(status(match.state) == "Ann's turn. Pairs: Ann 1, Bob 0, Cy 0 (left)")
    #expect(
      status(match.state, for: .player("Bob")) == "Ann's turn. Pairs: Ann 1, Bob 0, Cy 0 (left)")
    #expect(
      status(match.state, for: .player("Ann")) == "Your turn. Pairs: Ann 1, Bob 0, Cy 0 (left)")
    let view = MemoryGame.view(of: match.state, for: .player("Bob"))
    #expect(view.turn == "Ann" && view.viewer == "Bob")
    #expect(view.players.map(\.hasLeft) == [false, false, true])
  }

  @Test func leavingOnTurnPassesTheTurnAndThePairsStayCounted() throws {
    var match = try turns(["Ann", "Bob", "Cy"])
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.flip(1), by: "Ann")
    #expect(try match.perform(.leave, by: "Ann") == [.left("Ann"), .turnPassed(to: "Bob")])
    expectRefused(.flip(2), by: "Ann", in: &match, .playerLeft("Ann"))
    expectRefused(.leave, by: "Ann", in: &match, .playerLeft("Ann"))
    #expect(match.state.players[0].pairs == 1)
    #expect(match.advance(by: 1) == [.removed(0, 1)])
    try match.perform(.flip(2), by: "Bob")
    try match.perform(.flip(4), by: "Bob")
    #expect(match.advance(by: 2).last == .turnPassed(to: "Cy"))
    try match.perform(.flip(2), by: "Cy")
    try match.perform(.flip(4), by: "Cy")
    #expect(match.advance(by: 2).last == .turnPassed(to: "Bob"))
  }

  @Test func leavingWithAMismatchPendingPassesTheTurnOnce() throws {
    var match = try turns(["Ann", "Bob", "Cy"])
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.flip(2), by: "Ann")
    #expect(try match.perform(.leave, by: "Ann") == [.left("Ann"), .turnPassed(to: "Bob")])
    #expect(match.advance(by: 2) == [.turnedDown(0, 2)])
    #expect(match.state.playerOnTurn == "Bob")
  }

  @Test func aSingleCardTurnedByALeaverStaysUpForTheNextPlayer() throws {
    var match = try turns()
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.leave, by: "Ann")
    #expect(try match.perform(.flip(1), by: "Bob").last == .matched(0, 1))
    #expect(match.state.players.map(\.pairs) == [0, 1])
  }

  @Test func leavingOffTurnKeepsTheTurnAndTheLastOneGoesOnAlone() throws {
    var match = try turns()
    #expect(try match.perform(.leave, by: "Bob") == [.left("Bob")])
    #expect(match.state.playerOnTurn == "Ann")
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.flip(2), by: "Ann")
    #expect(match.advance(by: 2).last == .turnPassed(to: "Ann"))
    try match.perform(.flip(0), by: "Ann")
  }

  @Test func theLastPlayerLeavingEndsTheGameUnfinished() throws {
    var match = try turns()
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.flip(1), by: "Ann")
    try match.perform(.leave, by: "Bob")
    #expect(try match.perform(.leave, by: "Ann") == [.left("Ann")])
    #expect(match.isOver && match.state.deserted)
    #expect(match.timers.isEmpty)
    let record = try #require(match.results.last?.record)
    #expect(record.ending == .abandoned && record.winner == nil)
    #expect(record.players.map(\.score) == [1, 0])
    #expect(status(match.state) == "Everyone has left.")
    #expect(RuleTexts.title(MemoryGame.view(of: match.state, for: .referee)) == nil)
    expectRefused(.flip(2), by: "Ann", in: &match, .playerLeft("Ann"))
  }

  @Test func aLonePlayerLeavingAbandonsTheGame() throws {
    var match = try easyMatch()
    #expect(try match.perform(.leave, by: .solo) == [.left(.solo)])
    #expect(match.results.last?.record.ending == .abandoned)
    expectRefused(.flip(0), by: .solo, in: &match, .gameOver)
  }

  @Test func nobodyLeavesAGameThatIsWon() throws {
    var match = try turns()
    for pair in [0, 2, 4, 6, 8, 10] {
      try match.perform(.flip(pair), by: "Ann")
      try match.perform(.flip(pair + 1), by: "Ann")
      if pair < 10 { match.advance(by: 1) }
    }
    expectRefused(.leave, by: "Bob", in: &match, .gameOver)
    match.advance(by: 1)
    #expect(match.isOver)
    expectRefused(.leave, by: "Ann", in: &match, .gameOver)
    expectRefused(.flip(0), by: "Ann", in: &match, .gameOver)
  }

  @Test func concentrationInTurnsKeepsItsTimings() throws {
    var match = try turns(variant: .concentration)
    try match.perform(.flip(0), by: "Ann")
    #expect(try match.perform(.flip(13), by: "Ann").last == .matched(0, 13))
    #expect(match.state.playerOnTurn == "Ann")
    expectRefused(.flip(1), by: "Ann", in: &match, .pairPending)
    #expect(match.advance(by: MemoryGame.matchPause) == [.ready])
    try match.perform(.flip(1), by: "Ann")
    try match.perform(.flip(2), by: "Ann")
    #expect(match.advance(by: MemoryGame.concentrationMismatchDelay - 0.01) == [])
    #expect(match.advance(by: 0.01) == [.turnedDown(1, 2), .turnPassed(to: "Bob")])
    #expect(
      status(match.state, for: .player("Bob")) == "Your turn. Pairs: Ann 1, Bob 0")
    #expect(match.state.settings.summary == "52 cards, players 2")
  }

  @Test(
    arguments: [
      ([], "Memory is played by 1 to 4 players, not 0."),
      (["A", "B", "C", "D", "E"], "Memory is played by 1 to 4 players, not 5."),
      (["Ann", "Ann"], "Every player needs a different name."),
      (["Ann", " "], "\" \" cannot be a player's name."),
      (["Ann", "referee"], "\"referee\" cannot be a player's name."),
    ] as [([PlayerID], String)])
  func tablesThatCannotTakeTurnsAreRefused(players: [PlayerID], reason: String) {
    #expect(throws: MemoryGame.RuleViolation.invalidOptions(reason)) {
      try MemoryGame.deal(MemoryGame.Options(players: players), seed: 1)
    }
  }

  @Test(arguments: [
    MemoryGame.Settings(variant: .memory, difficulty: .hard, playerCount: 3),
    MemoryGame.Settings(variant: .concentration, difficulty: .easy, playerCount: 4),
    MemoryGame.Settings(variant: .memory, difficulty: .medium),
  ])
  func recordSettingsReadBack(settings: MemoryGame.Settings) {
    #expect(MemoryGame.Settings(game: settings.game, summary: settings.summary) == settings)
    #expect(settings.scoreOrder == (settings.playerCount == 1 ? .lowerIsBetter : .none))
  }
}
