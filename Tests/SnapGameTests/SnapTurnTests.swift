import CardTableCore
import CardTableTesting
import Testing

@testable import SnapGame

@Suite struct SnapTurnTests {
  @Test func theActivePlayerTurnsTheTopClosedCardAndTheNextIsActivatedHalfASecondLater() throws {
    var game = try match(
      ["A", "B"], starting: "A", deck: deck(players: 2, tops: ["2♠ 3♠", "4♥ 5♥"]))
    game.advance(by: Snap.dealingDuration)
    #expect(try game.perform(.turn, by: "A") == [.turned("A", card: playingCard("2♠"))])
    #expect(game.state["A"].open == cards("2♠"))
    #expect(game.state["A"].closed.count == 25)
    expectRefused(.turn, by: "B", in: game.state, .notYourTurn)
    expectRefused(.turn, by: "A", in: game.state, .alreadyTurned)
    #expect(game.advance(by: 0.49) == [])
    #expect(game.advance(by: 0.01) == [.activated("B")])
    #expect(try game.perform(.turn, by: "B") == [.turned("B", card: playingCard("4♥"))])
    #expect(game.advance(by: 0.5) == [.activated("A")])
    #expect(try game.perform(.turn, by: "A") == [.turned("A", card: playingCard("3♠"))])
    #expect(game.state["A"].open == cards("2♠ 3♠"))
  }

  @Test func activationGoesClockwiseSkippingPlayersWithoutCardsOrWithOneOpenCardOnly() throws {
    var state = try table(
      [("2♠", "3♠"), ("", ""), ("", "5♠"), ("7♦ 8♦", "")], active: 0, turned: true)
    let outcome = try Snap.apply(.activateNext, by: .referee, to: &state)
    #expect(outcome.events == [.activated("D")])
    #expect(state.active == "D")
    #expect(!state.hasTurned)
  }

  @Test func activationComesBackToTheTurnerWhenEveryoneElseIsSkipped() throws {
    var state = try table([("2♠ 4♠", "3♠"), ("", "9♥"), ("", "")], active: 0, turned: true)
    let outcome = try Snap.apply(.activateNext, by: .referee, to: &state)
    #expect(outcome.events == [.activated("A")])
  }

  @Test func recyclingTurnsTheOpenPileOverSoTheFirstCardTurnedEndsOnTop() throws {
    var state = try table([("2♠", "3♠"), ("", "4♥ 5♥ 6♥")], active: 0, turned: true)
    let outcome = try Snap.apply(.activateNext, by: .referee, to: &state)
    #expect(outcome.events == [.activated("B"), .recycled("B", count: 3)])
    #expect(state["B"].closed == cards("6♥ 5♥ 4♥"))
    #expect(state["B"].open.isEmpty)
    let turn = try Snap.apply(.turn, by: "B", to: &state)
    #expect(turn.events == [.turned("B", card: playingCard("4♥"))])
  }

  @Test func aRecycleThatEndsTheMatchCancelsTheComputerPlayersPendingCalls() throws {
    var state = try table(
      [("2♠", "7♠"), ("", "K♦ 7♥"), ("9♣ 9♦", "")], active: 0, turned: true, computer: ["C"])
    #expect(Snap.matchingPlayers(in: state) == ["A", "B"])
    let outcome = try Snap.apply(.activateNext, by: .referee, to: &state)
    #expect(outcome.events == [.activated("B"), .recycled("B", count: 2)])
    #expect(Snap.matchingPlayers(in: state).isEmpty)
    #expect(outcome.cancelled.contains(.snap(2)))
    let call = try Snap.apply(.snap, by: "C", to: &state)
    #expect(call.events == [.snapCalled(by: "C", result: .wrong)])
  }

  @Test func theSnapCheckAfterARecycleStillSeesTheOtherMatches() throws {
    var state = try table(
      [("2♠", "7♠"), ("", "K♦ 7♥"), ("3♣", "9♣"), ("4♣", "9♦")], active: 0, turned: true,
      computer: ["C"])
    let outcome = try Snap.apply(.activateNext, by: .referee, to: &state)
    #expect(outcome.events == [.activated("B"), .recycled("B", count: 2)])
    #expect(!outcome.cancelled.contains(.snap(2)))
    let call = try Snap.apply(.snap, by: "C", to: &state)
    #expect(call.events == [.snapCalled(by: "C", result: .correct(matching: ["C", "D"]))])
  }

  @Test func turnsAreRefusedWhileDealingAndWhileCardsMove() throws {
    let game = try match(["A", "B"], starting: "A")
    expectRefused(.turn, by: "A", in: game.state, .notPlaying)
    expectRefused(.snap, by: "A", in: game.state, .notPlaying)
    var state = try table([("2♠", "3♠"), ("4♥", "3♥")], active: 0)
    _ = try Snap.apply(.snap, by: "B", to: &state)
    expectRefused(.turn, by: "A", in: state, .cardsMoving)
  }
}
