import CardTableCore
import CardTableTesting
import Testing

@testable import SnapGame

@Suite struct SnapComputerTests {
  @Test func aComputerPlayerTurnsBetweenHalfASecondAndTwoAndAHalfSecondsAfterActivation() throws {
    for seed in UInt64(0)..<30 {
      var game = try match(
        ["You", "Ray", "Lucy", "Steve"], computer: ["Ray", "Lucy", "Steve"], starting: "Ray",
        seed: seed)
      game.advance(by: Snap.dealingDuration)
      let turn = try #require(game.timers.first { $0.scheduled.key == .turn })
      #expect(turn.scheduled.player == "Ray" && turn.scheduled.action == .turn)
      let delay = turn.due - game.clock
      #expect(delay >= 0.5 && delay < 2.5)
      #expect(game.advance(to: turn.due).first == .turned("Ray", card: game.state["Ray"].open[0]))
    }
  }

  @Test func everyComputerPlayerWithCardsCallsSnapOnAMatch() throws {
    var state = try table(
      [("J♠", "2♥"), ("3♣", "4♦"), ("5♠", "4♣"), ("", "")], names: ["You", "Ray", "Lucy", "Steve"],
      active: 0, computer: ["Ray", "Lucy", "Steve"])
    state.players[0].closed = cards("J♠ 4♥")
    let outcome = try Snap.apply(.turn, by: "You", to: &state)
    #expect(outcome.scheduled.filter { $0.action == .snap }.map(\.player) == ["Ray", "Lucy"])
    for call in outcome.scheduled where call.action == .snap {
      #expect(call.delay >= 0.5 && call.delay < 2.5)
      #expect(call.key == .snap(state.index(of: call.player) ?? -1))
    }
    #expect(outcome.cancelled == [.turn, .snap(1), .snap(2), .snap(3)])
  }

  @Test func turningTheNextCardCancelsPendingComputerCalls() throws {
    var game = try match(
      ["You", "Ray"], computer: ["Ray"], starting: "You",
      deck: deck(players: 2, tops: ["2♠ 9♠ 4♠", "2♥ 5♥"]))
    game.advance(by: Snap.dealingDuration)
    try game.perform(.turn, by: "You")
    #expect(game.advance(by: 0.5) == [.activated("Ray")])
    #expect(game.advance(to: game.nextDue!) == [.turned("Ray", card: playingCard("2♥"))])
    let call = try #require(game.timers.first { $0.scheduled.key == .snap(1) })
    #expect(call.scheduled.player == "Ray" && call.due - game.clock >= 0.5)
    #expect(game.advance(by: 0.5) == [.activated("You")])
    try game.perform(.turn, by: "You")
    #expect(!game.timers.contains { $0.scheduled.key == .snap(1) && $0.due == call.due })
  }

  @Test func aComputerPlayerCallsFalselyAboutOnceIn51TurnsWithoutAMatch() throws {
    let base = try table(
      [("J♠ 4♥", "2♥"), ("3♣", "5♦"), ("5♠", "7♣")], names: ["You", "Ray", "Lucy"],
      computer: ["Ray", "Lucy"])
    var falseCalls = 0
    let trials = 5_100
    for seed in 0..<UInt64(trials) {
      var state = base
      state.random = SplitMix64(seed: seed)
      let outcome = try Snap.apply(.turn, by: "You", to: &state)
      let calls = outcome.scheduled.filter { $0.action == .snap }
      #expect(calls.isEmpty || calls.map(\.player) == ["Ray", "Lucy"])
      if !calls.isEmpty { falseCalls += 1 }
    }
    #expect((70...135).contains(falseCalls), "expected about 100 in \(trials), saw \(falseCalls)")
  }

  @Test func computerPlayersWithoutCardsDoNotCall() throws {
    var state = try table(
      [("J♠ 4♥", "2♥"), ("", ""), ("5♠", "4♣")], names: ["You", "Ray", "Lucy"],
      computer: ["Ray", "Lucy"])
    let outcome = try Snap.apply(.turn, by: "You", to: &state)
    #expect(outcome.scheduled.filter { $0.action == .snap }.map(\.player) == ["Lucy"])
  }
}
