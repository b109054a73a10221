import CardTableCore
import CardTableTesting
import GameWire
import Testing

@testable import SnapGame

@Suite struct SnapRoundTests {
  /// A holds 50 closed cards and 5♠ open; B holds only 5♥ open.
  func almostWon() throws -> Snap.State {
    let rest = PlayingCard.standardDeck.filter {
      $0 != playingCard("5♠") && $0 != playingCard("5♥")
    }
    return try table([(rest.map(\.description).joined(separator: " "), "5♠"), ("", "5♥")])
  }

  @Test func aPlayerWhoHoldsAll52CardsAfterASnapWinsTheRound() throws {
    var state = try almostWon()
    _ = try Snap.apply(.snap, by: "A", to: &state)
    _ = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(state.phase == .playing, "the winner is checked after the cards moved")
    let end = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(end.events == [.roundWon("A", gamesWon: 1)])
    #expect(Set(end.cancelled).isSuperset(of: [.deal, .activate, .turn, .pause]))
    #expect(state.phase == .roundOver && Snap.isOver(state))
    #expect(state["A"].cardCount == 52)
    for viewer: Viewer in [.player("A"), .player("B"), .referee] {
      #expect(status(state, for: viewer) == "** Winner: A **")
    }
    let view = Snap.view(of: state, for: .player("B"))
    #expect(view.players.map { RuleTexts.won($0.gamesWon) } == ["1 Won", "0 Won"])
    #expect(view.canStartNextRound == false)
    #expect(Snap.view(of: state, for: .player("A")).canStartNextRound)
  }

  @Test func aWrongCallThatGivesAPlayerEveryCardAlsoEndsTheRound() throws {
    let rest = PlayingCard.standardDeck.filter { $0 != playingCard("5♥") }
    var state = try table([(rest.map(\.description).joined(separator: " "), ""), ("5♥", "")])
    _ = try Snap.apply(.snap, by: "B", to: &state)
    _ = try Snap.apply(.resume, by: .referee, to: &state)
    #expect(
      try Snap.apply(.resume, by: .referee, to: &state).events == [.roundWon("A", gamesWon: 1)])
  }

  @Test func onlyTheHostStartsTheNextRoundAndOnlyWhenTheRoundIsOver() throws {
    var state = try almostWon()
    expectRefused(.nextRound, by: "A", in: state, .roundNotOver)
    _ = try Snap.apply(.snap, by: "A", to: &state)
    _ = try Snap.apply(.resume, by: .referee, to: &state)
    _ = try Snap.apply(.resume, by: .referee, to: &state)
    expectRefused(.nextRound, by: "B", in: state, .notHost)
    let starting = state.startingSeat
    let next = try Snap.apply(.nextRound, by: "A", to: &state)
    #expect(state.round == 2)
    #expect(state.startingSeat == (starting == .bottom ? .top : .bottom))
    #expect(next.events == [.dealt(round: 2, starting: state.player(at: state.startingSeat)!.id)])
    #expect(next.scheduled == [Scheduled(after: 5.2, .start, key: .deal)])
    #expect(state.phase == .dealing && state.winner == nil)
    #expect(state.players.map(\.closed.count) == [26, 26])
    #expect(Set(state.allCards).count == 52)
    #expect(state["A"].gamesWon == 1)
  }

  @Test func theNextRoundStartsOneOccupiedSeatClockwise() throws {
    var state = try table([("2♠", ""), ("3♠", ""), ("4♠", ""), ("5♠", "")])
    state.phase = .roundOver
    state.startingSeat = .right
    var copy = state
    _ = try Snap.apply(.nextRound, by: "A", to: &copy)
    #expect(copy.startingSeat == .bottom)
    #expect(copy.players.map(\.closed.count) == [13, 13, 13, 13])
    state.startingSeat = .bottom
    state.players[1].hasLeft = true
    _ = try Snap.apply(.nextRound, by: "A", to: &state)
    #expect(state.startingSeat == .top, "Left is empty, so Top starts")
    #expect(state.players.map(\.closed.count) == [17, 0, 18, 17])
  }

  @Test func aGuestWhoLeavesDealsTheirCardsRoundRobinOntoTheBottomsOfPlayersWithCards() throws {
    var state = try table(
      [("J♠", "2♥"), ("3♣ 4♣ 5♣", "6♦ 7♦"), ("8♠", ""), ("", "")], active: 0)
    let outcome = try Snap.apply(.leave, by: "B", to: &state)
    #expect(
      outcome.events == [
        .left(
          "B",
          given: [
            .init(to: "C", card: playingCard("5♣")), .init(to: "A", card: playingCard("4♣")),
            .init(to: "C", card: playingCard("3♣")), .init(to: "A", card: playingCard("7♦")),
            .init(to: "C", card: playingCard("6♦")),
          ])
      ])
    #expect(state["C"].closed == cards("6♦ 3♣ 5♣ 8♠"))
    #expect(state["A"].closed == cards("7♦ 4♣ J♠"))
    #expect(state["D"].cardCount == 0)
    #expect(state["B"].hasLeft && state["B"].cardCount == 0)
    #expect(state.active == "A", "the active player keeps the turn")
    expectRefused(.snap, by: "B", in: state, .playerLeft("B"))
  }

  @Test func whenTheActivePlayerLeavesTheNextIsActivated() throws {
    var state = try table([("J♠", ""), ("3♣", ""), ("8♠", "")], active: 1, computer: ["C"])
    let outcome = try Snap.apply(.leave, by: "B", to: &state)
    #expect(outcome.events.dropFirst() == [.activated("C")])
    #expect(state.active == "C")
    #expect(outcome.scheduled.map(\.key) == [.turn])
    #expect(outcome.scheduled.first?.player == "C")
  }

  @Test func anActivePlayerWhoLeavesAfterTurningHandsOnAtOnce() throws {
    var state = try table([("J♠", ""), ("3♣", "4♦"), ("8♠", "")], active: 1, turned: true)
    let outcome = try Snap.apply(.leave, by: "B", to: &state)
    #expect(outcome.events.dropFirst() == [.activated("C")])
    #expect(outcome.cancelled.contains(.activate), "the pending 0.5 s activation is dropped")
    #expect(state.active == "C")
    #expect(status(state, for: .player("A")) == "C's turn")
  }

  @Test func aLeaveThatEndsTheShowingMatchCancelsTheComputersPendingCalls() throws {
    var state = try table(
      [("J♠", "5♠"), ("3♣", "9♥"), ("8♠", "2♦"), ("7♣", "5♦")], active: 3, turned: true,
      computer: ["B", "C"])
    #expect(Snap.matchingPlayers(in: state) == ["A", "D"])
    let outcome = try Snap.apply(.leave, by: "D", to: &state)
    #expect(Snap.matchingPlayers(in: state).isEmpty)
    #expect(outcome.cancelled.contains(.snap(1)) && outcome.cancelled.contains(.snap(2)))
  }

  @Test func aLeaveThatKeepsAMatchShowingKeepsTheirCalls() throws {
    var state = try table(
      [("J♠", "5♠"), ("3♣", "5♥"), ("8♠", "2♦"), ("7♣", "6♦")], active: 3, turned: true,
      computer: ["B", "C"])
    let outcome = try Snap.apply(.leave, by: "D", to: &state)
    #expect(Snap.matchingPlayers(in: state) == ["A", "B"])
    #expect(!outcome.cancelled.contains(.snap(2)))
  }

  @Test func theHostLeavingEndsTheGameForEveryone() throws {
    var state = try table([("J♠", ""), ("3♣", ""), ("8♠", "")], active: 1)
    let outcome = try Snap.apply(.leave, by: "A", to: &state)
    #expect(outcome.events == [.left("A", given: []), .gameEnded(.hostLeft)])
    #expect(state.phase == .gameOver && Snap.isOver(state))
    #expect(status(state, for: .player("B")) == "The host has left. Game over.")
    #expect(Set(state.allCards).count == 3, "no card is lost")
    expectRefused(.turn, by: "B", in: state, .gameOver)
    expectRefused(.start, by: .referee, in: state, .gameOver)
  }

  @Test func theLastGuestLeavingGivesTheHostEveryCardAndEndsTheGame() throws {
    var game = try match(["A", "B"], starting: "A")
    game.advance(by: Snap.dealingDuration)
    let events = try game.perform(.leave, by: "B")
    #expect(events.dropFirst() == [.roundWon("A", gamesWon: 1), .gameEnded(.tooFewPlayers)])
    #expect(game.state["A"].cardCount == 52)
    #expect(game.isOver && game.nextDue == nil)
  }
}

@Suite struct SnapRecycleCallTests {
  @Test func aRecycleThatEndsAMatchCancelsTheComputersPendingCalls() throws {
    var state = try table(
      [("J♠", "2♥"), ("", "3♣ 9♣"), ("8♠", "9♦")], active: 0, turned: true, computer: ["C"])
    #expect(Snap.matchingPlayers(in: state) == ["B", "C"])
    let outcome = try Snap.apply(.activateNext, by: .referee, to: &state)
    #expect(outcome.events.first == .activated("B"))
    #expect(Snap.matchingPlayers(in: state).isEmpty)
    #expect(outcome.cancelled.contains(.snap(2)))
  }

  @Test func aRecycleWhileNoMatchShowedKeepsTheDeliberateFalseCalls() throws {
    var state = try table(
      [("J♠", "2♥"), ("", "3♣ 4♣"), ("8♠", "9♦")], active: 0, turned: true, computer: ["C"])
    let outcome = try Snap.apply(.activateNext, by: .referee, to: &state)
    #expect(outcome.events.first == .activated("B"))
    #expect(!outcome.cancelled.contains(.snap(2)))
  }
}

@Suite struct SnapRecordTests {
  @Test(arguments: [1000, 1001] as [UInt64])
  func everyWonRoundIsRecordedWithItsWinnerItsSeedAndItsTimes(seed: UInt64) throws {
    var game = try match(
      ["You", "Ray", "Lucy", "Steve"], computer: ["You", "Ray", "Lucy", "Steve"], seed: seed)
    var guardrail = 0
    while game.results.count < 2, guardrail < 20_000 {
      guardrail += 1
      if game.state.phase == .roundOver {
        try game.perform(.nextRound, by: "You")
      } else if let due = game.nextDue {
        game.advance(to: due)
      }
    }
    let results = game.results
    #expect(results.count == 2)
    for (round, result) in results.enumerated() {
      #expect(result.game == "snap")
      #expect(result.ending == .finished)
      let winner = try #require(result.record.winner)
      #expect(result.record.players.first { $0.player == winner }?.score == result.score)
      #expect(result.moves > 0)
      #expect(result.options.hasPrefix("round \(round + 1); players You, Ray, Lucy, Steve"))
      #expect(result.duration > Snap.dealingDuration)
    }
    #expect(results[0].seed == seed, "round 1 is the match's own deal")
    #expect(results[1].seed != seed)
    #expect(results[1].start >= results[0].end, "round 2 is dealt after round 1 is won")
  }

  @Test func aRoundCutShortByTheHostIsRecordedAsAbandoned() throws {
    var game = try match(["A", "B", "C"], starting: "B")
    game.advance(by: Snap.dealingDuration)
    try game.perform(.turn, by: "B")
    try game.perform(.leave, by: "A")
    #expect(game.results.map(\.ending) == [.abandoned])
    #expect(game.results.first?.record.winner == nil)
    #expect(game.results.first?.moves == 1)
  }
}

@Suite struct SnapRoundSeedTests {
  @Test func aLaterRoundsSeedDealsThatRoundAgain() throws {
    var state = try table([("", ""), ("", ""), ("", "")], active: 0)
    state.players[0].closed = PlayingCard.standardDeck
    state.phase = .roundOver
    state.winner = "A"
    _ = try Snap.apply(.nextRound, by: "A", to: &state)
    let starter = state.players.first { $0.seat == state.startingSeat }!.id
    let again = try Snap.deal(
      Snap.Options(players: ["A", "B", "C"], starting: starter), seed: state.roundSeed)
    #expect(again.players.map(\.closed) == state.players.map(\.closed))
  }
}

@Suite struct SnapRatingModeTests {
  @Test func aTableIsRatedByHowManySatAtItNeverByTheirNames() {
    let ann = SnapGame.Settings(round: 2, players: ["Ann", "Bob", "Cat"], computer: [])
    let zoe = SnapGame.Settings(round: 1, players: ["Zoe", "Yan", "Xi"], computer: [])
    #expect(ann.ratingMode == "players 3" && zoe.ratingMode == ann.ratingMode)
    #expect(ann.category != zoe.category, "statistics still compare the same table")
    let quick = SnapGame.Settings(
      round: 1, players: ["You", "Ray"], computer: ["Ray"], computerSpeed: .quick)
    #expect(quick.ratingMode == "players 2, computerSpeed quick")
  }
}
