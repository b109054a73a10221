import CardTableCore
import CardTableTesting
import Testing

@testable import SnapGame

@Suite struct SnapCallTests {
  @Test(
    arguments: [
      ("A♠ A♥ 2♣ 3♦", ["A", "B"]),
      ("A♠ A♥ A♣ 3♦", ["A", "B", "C"]),
      ("A♠ A♥ A♣ A♦", ["A", "B", "C", "D"]),
      ("A♠ 5♥ A♣ 5♦", ["A", "B", "C", "D"]),
      ("A♠ 2♥ 3♣ 4♦", []),
    ] as [(String, [PlayerID])])
  func matchingPlayersShareARankOnTopOfTheirOpenPiles(tops: String, matching: [PlayerID])
    throws
  {
    let piles = tops.split(separator: " ").map { (closed: "", open: String($0)) }
    let state = try table(piles)
    #expect(Snap.matchingPlayers(in: state) == matching)
  }

  @Test func aCorrectCallWinsEveryMatchingPileClockwiseFromTheCallerOntoTheBottom() throws {
    var state = try table(
      [("J♠", "2♠ 5♥"), ("Q♠", "7♣ 5♦"), ("K♠", "9♦"), ("10♠", "3♣ 5♣")], active: 3,
      turned: true)
    let call = try Snap.apply(.snap, by: "C", to: &state)
    #expect(call.events == [.snapCalled(by: "C", result: .correct(matching: ["D", "A", "B"]))])
    #expect(call.cancelled == [.activate, .turn])
    #expect(call.scheduled == [Scheduled(after: 1.0, .resume, key: .pause)])
    #expect(status(state, for: .player("C")) == "*** Match! ***")
    #expect(status(state, for: .player("A")) == "*** Match! ***")

    let move = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(
      move.events == [
        .pileWon(by: "C", from: "D", count: 2, cards: cards("3♣ 5♣")),
        .pileWon(by: "C", from: "A", count: 2, cards: cards("2♠ 5♥")),
        .pileWon(by: "C", from: "B", count: 2, cards: cards("7♣ 5♦")),
      ])
    #expect(state["C"].closed == cards("5♦ 7♣ 5♥ 2♠ 5♣ 3♣ K♠"))
    #expect(state["C"].open == cards("9♦"))
    #expect(state["A"].open.isEmpty && state["B"].open.isEmpty && state["D"].open.isEmpty)
    #expect(status(state, for: .player("C")) == "You Receive Cards")
    #expect(status(state, for: .player("A")) == "C Receives Cards")
    #expect(move.scheduled == [Scheduled(after: 1.0, .resume, key: .pause)])

    let resume = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(resume.events == [.activated("A")], "the pending activation after D's turn runs")
    #expect(state.pause == nil)
  }

  @Test func theCallersOwnMatchingPileIsWonFirst() throws {
    var state = try table([("J♠", "4♦ 8♠"), ("Q♠", "8♥"), ("K♠", "2♣")], active: 1)
    _ = try Snap.apply(.snap, by: "A", to: &state)
    let move = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(
      move.events == [
        .pileWon(by: "A", from: "A", count: 2, cards: cards("4♦ 8♠")),
        .pileWon(by: "A", from: "B", count: 1, cards: cards("8♥")),
      ])
    #expect(state["A"].closed == cards("8♥ 8♠ 4♦ J♠"))
  }

  @Test func aSnapCancelsThePendingActivationWhichResumesAfterTheCardsMoved() throws {
    var game = try match(
      ["A", "B"], starting: "A", deck: deck(players: 2, tops: ["2♠ 9♠", "2♥ 3♥"]))
    game.advance(by: Snap.dealingDuration)
    try game.perform(.turn, by: "A")
    game.advance(by: 0.5)
    try game.perform(.turn, by: "B")
    #expect(
      try game.perform(.snap, by: "A") == [
        .snapCalled(by: "A", result: .correct(matching: ["A", "B"]))
      ])
    #expect(game.advance(by: 0.5) == [], "the activation 0.5 s after B's turn was cancelled")
    #expect(game.advance(by: 0.5).count == 2)
    #expect(status(game.state, for: .player("B")) == "A Receives Cards")
    #expect(game.advance(by: 0.99) == [])
    #expect(game.advance(by: 0.01) == [.activated("A")])
    #expect(game.state["A"].cardCount == 27)
  }

  @Test func aSnapBeforeTheActivePlayerTurnsGivesThemTheTurnBackAfterThePause() throws {
    var state = try table([("2♠", "3♠"), ("4♥", "3♥")], active: 1)
    _ = try Snap.apply(.snap, by: "A", to: &state)
    _ = try Snap.apply(.resume, by: .referee, to: &state)
    let resume = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(resume.events == [.activated("B")])
  }

  @Test func everyCallAfterTheDecidedOneIsTooLateUntilTheNextCardIsTurned() throws {
    var state = try table(
      [("2♠ 6♠", "3♠"), ("4♥", "3♥"), ("5♦", "")], active: 0, turned: true)
    _ = try Snap.apply(.snap, by: "C", to: &state)
    let decided = state
    let late = try Snap.apply(.snap, by: "B", to: &state)
    #expect(late.events == [.snapCalled(by: "B", result: .tooLate)])
    #expect(late.scheduled.isEmpty && late.cancelled.isEmpty)
    #expect(state == decided, "a late call changes nothing in the game")
    _ = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(
      try Snap.apply(.snap, by: "A", to: &state).events == [
        .snapCalled(by: "A", result: .tooLate)
      ])
    #expect(try Snap.apply(.resume, by: .referee, to: &state).events == [.activated("B")])
    #expect(
      try Snap.apply(.snap, by: "A", to: &state).events == [
        .snapCalled(by: "A", result: .tooLate)
      ], "the pause is over, but no card has been turned since the decided call")
    _ = try Snap.apply(.turn, by: "B", to: &state)
    #expect(
      try Snap.apply(.snap, by: "B", to: &state).events == [.snapCalled(by: "B", result: .wrong)])
  }

  @Test func aWrongCallerPaysTheirTopClosedCardsClockwiseToPlayersWithCards() throws {
    var state = try table(
      [("J♠", "2♥"), ("3♣ 4♣ 5♣ 6♣", "7♦"), ("", ""), ("8♣", "9♥")], active: 0, turned: true)
    let call = try Snap.apply(.snap, by: "B", to: &state)
    #expect(call.events == [.snapCalled(by: "B", result: .wrong)])
    #expect(status(state, for: .player("B")) == "No Match!")
    let pay = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(
      pay.events == [
        .paid(by: "B", .init(to: "D", card: playingCard("6♣"))),
        .paid(by: "B", .init(to: "A", card: playingCard("5♣"))),
      ])
    #expect(state["D"].closed == cards("6♣ 8♣"))
    #expect(state["A"].closed == cards("5♣ J♠"))
    #expect(state["C"].cardCount == 0, "a player without cards is not paid")
    #expect(state["B"].closed == cards("3♣ 4♣"))
    #expect(status(state, for: .player("B")) == "B Must Pay")
    #expect(status(state, for: .player("A")) == "B Must Pay")
  }

  @Test func aCallerWhoRunsShortRecyclesFirstThenPaysWhatTheyHave() throws {
    var state = try table(
      [("J♠", "2♥"), ("3♣", "4♦ 5♦"), ("7♠", ""), ("8♣", "9♥")], active: 0, turned: true)
    _ = try Snap.apply(.snap, by: "B", to: &state)
    let pay = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(
      pay.events == [
        .paid(by: "B", .init(to: "C", card: playingCard("3♣"))),
        .recycled("B", count: 2),
        .paid(by: "B", .init(to: "D", card: playingCard("4♦"))),
        .paid(by: "B", .init(to: "A", card: playingCard("5♦"))),
      ])
    #expect(state["B"].cardCount == 0)

    var short = try table(
      [("J♠", "2♥"), ("", "4♦"), ("7♠", ""), ("8♣", "9♥")], active: 0, turned: true)
    _ = try Snap.apply(.snap, by: "B", to: &short)
    let little = try Snap.apply(.resume, by: .referee, to: &short)
    #expect(
      little.events == [
        .recycled("B", count: 1), .paid(by: "B", .init(to: "C", card: playingCard("4♦"))),
      ])
  }

  @Test func onlyPlayersWithCardsMayCall() throws {
    let state = try table([("J♠", "2♥"), ("", "")])
    expectRefused(.snap, by: "B", in: state, .noCards)
  }
}
