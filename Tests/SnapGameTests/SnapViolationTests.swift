import CardTableCore
import Testing

@testable import SnapGame

@Suite struct SnapViolationTests {
  @Test func everyRefusalLeavesTheStateUnchanged() throws {
    let playing = try table([("J♠ Q♠", "2♥"), ("3♣", "4♦"), ("", "")], active: 0)
    expectRefused(.turn, by: "Z", in: playing, .notAPlayer("Z"))
    expectRefused(.turn, by: .referee, in: playing, .notAPlayer(.referee))
    expectRefused(.turn, by: "B", in: playing, .notYourTurn)
    expectRefused(.snap, by: "C", in: playing, .noCards)
    expectRefused(.nextRound, by: "B", in: playing, .notHost)
    expectRefused(.nextRound, by: "A", in: playing, .roundNotOver)
    expectRefused(.resume, by: "A", in: playing, .onlyTheTimer)
    expectRefused(.start, by: "A", in: playing, .onlyTheTimer)
    expectRefused(.activateNext, by: "B", in: playing, .onlyTheTimer)
    expectRefused(.resume, by: .referee, in: playing, .nothingPending)
    expectRefused(.start, by: .referee, in: playing, .nothingPending)
    expectRefused(.activateNext, by: .referee, in: playing, .nothingPending)

    var turned = playing
    _ = try Snap.apply(.turn, by: "A", to: &turned)
    expectRefused(.turn, by: "A", in: turned, .alreadyTurned)

    var moving = playing
    _ = try Snap.apply(.snap, by: "B", to: &moving)
    expectRefused(.turn, by: "A", in: moving, .cardsMoving)
    expectRefused(.activateNext, by: .referee, in: moving, .nothingPending)

    var empty = playing
    empty.players[0].closed = []
    empty.players[0].open = cards("2♥ 5♥")
    expectRefused(.turn, by: "A", in: empty, .noCardsToTurn)

    var left = playing
    _ = try Snap.apply(.leave, by: "B", to: &left)
    expectRefused(.turn, by: "B", in: left, .playerLeft("B"))
    expectRefused(.leave, by: "B", in: left, .playerLeft("B"))

    var over = playing
    _ = try Snap.apply(.leave, by: "A", to: &over)
    expectRefused(.snap, by: "B", in: over, .gameOver)
    expectRefused(.leave, by: "C", in: over, .gameOver)
    expectRefused(.resume, by: .referee, in: over, .gameOver)

    let dealing = try Snap.deal(.init(players: ["A", "B"]), seed: 9)
    expectRefused(.turn, by: "A", in: dealing, .notPlaying)
    expectRefused(.snap, by: "B", in: dealing, .notPlaying)
    expectRefused(.nextRound, by: "A", in: dealing, .roundNotOver)
  }

  @Test func everyViolationHasAStableCodeAndAMessage() {
    let all: [Snap.RuleViolation] = [
      .invalidOptions("x"), .invalidDeck("x"), .notAPlayer("Z"), .playerLeft("B"), .notPlaying,
      .cardsMoving, .notYourTurn, .alreadyTurned, .noCardsToTurn, .noCards, .notHost,
      .roundNotOver, .gameOver, .onlyTheTimer, .nothingPending,
    ]
    #expect(
      all.map(\.code) == [
        "invalid-options", "invalid-deck", "not-a-player", "player-left", "not-playing",
        "cards-moving", "not-your-turn", "already-turned", "no-cards-to-turn", "no-cards",
        "not-host", "round-not-over", "game-over", "not-allowed", "nothing-pending",
      ])
    #expect(all.allSatisfy { !$0.message.isEmpty })
  }
}
