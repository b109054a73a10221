import CardTableCore
import CardTableTesting
import Testing

@testable import SnapGame

@Suite struct SnapSeatingAndDealingTests {
  @Test func twoPlayersSitAtBottomAndTop() throws {
    let state = try Snap.deal(.init(players: ["Host", "Guest"]), seed: 1)
    #expect(state.players.map(\.seat) == [.bottom, .top])
  }

  @Test func threePlayersSitAtBottomLeftTopInJoiningOrder() throws {
    let state = try Snap.deal(.init(players: ["Host", "First", "Second"]), seed: 1)
    #expect(state.players.map(\.seat) == [.bottom, .left, .top])
  }

  @Test func fourPlayersFillEverySeatClockwise() throws {
    let state = try Snap.deal(.init(players: ["Host", "G1", "G2", "G3"]), seed: 1)
    #expect(state.players.map(\.seat) == [.bottom, .left, .top, .right])
  }

  @Test func theSinglePlayerGameSeatsRayLucyAndSteveAsComputerPlayers() throws {
    let state = try Snap.deal(.singlePlayer, seed: 1)
    #expect(state.players.map(\.id) == ["You", "Ray", "Lucy", "Steve"])
    #expect(state.players.map(\.seat) == [.bottom, .left, .top, .right])
    #expect(state.players.map(\.isComputer) == [false, true, true, true])
    #expect(state.host == "You")
  }

  @Test func theDeckIsDealtOneCardAtATimeClockwiseFromTheStartingPlayerOntoTheTop() throws {
    let deck = PlayingCard.standardDeck
    let state = try Snap.deal(
      .init(players: ["A", "B", "C", "D"], starting: "C", deck: deck), seed: 1)
    // NB: C (Top) gets cards 0, 4, 8…; D (Right) 1, 5, …; A (Bottom) 2, 6, …; B (Left) 3, 7, ….
    #expect(state["C"].closed == stride(from: 0, to: 52, by: 4).map { deck[$0] })
    #expect(state["D"].closed == stride(from: 1, to: 52, by: 4).map { deck[$0] })
    #expect(state["A"].closed == stride(from: 2, to: 52, by: 4).map { deck[$0] })
    #expect(state["B"].closed == stride(from: 3, to: 52, by: 4).map { deck[$0] })
    #expect(state["C"].closed.last == deck[48], "the last card dealt is on top")
    #expect(state.players.allSatisfy { $0.open.isEmpty })
    #expect(state.phase == .dealing)
  }

  @Test func unevenHandsGoToTheStartingPlayerAndThoseAfterThem() throws {
    let three = try Snap.deal(.init(players: ["A", "B", "C"], starting: "B"), seed: 3)
    #expect(three.players.map(\.closed.count) == [17, 18, 17])
    let four = try Snap.deal(.init(players: ["A", "B", "C", "D"]), seed: 3)
    #expect(four.players.map(\.closed.count) == [13, 13, 13, 13])
    let two = try Snap.deal(.init(players: ["A", "B"], starting: "B"), seed: 3)
    #expect(two.players.map(\.closed.count) == [26, 26])
    #expect(Set(three.allCards).count == 52)
  }

  @Test func theFirstStartingPlayerIsDrawnFromTheSeed() throws {
    var seats: Set<Seat> = []
    for seed in UInt64(0)..<40 {
      let state = try Snap.deal(.singlePlayer, seed: seed)
      #expect(try Snap.deal(.singlePlayer, seed: seed) == state)
      seats.insert(state.startingSeat)
    }
    #expect(seats == Set(Seat.allCases))
  }

  @Test func dealingPausesThenActivatesTheStartingPlayer() throws {
    var game = try match(["A", "B"], starting: "B")
    #expect(status(game.state, for: .player("A")) == "Dealing...")
    #expect(game.nextDue == 5.2)
    #expect(game.advance(by: 5.1) == [])
    #expect(game.advance(to: 5.2) == [.activated("B")])
    #expect(game.state.phase == .playing)
    #expect(game.state.active == "B")
    #expect(status(game.state, for: .player("B")) == "Your turn. Tap the stack.")
    #expect(status(game.state, for: .player("A")) == "B's turn")
  }

  @Test(arguments: [
    (Snap.Options(players: ["A"]), "invalid-options"),
    (Snap.Options(players: ["A", "B", "C", "D", "E"]), "invalid-options"),
    (Snap.Options(players: ["A", "A"]), "invalid-options"),
    (Snap.Options(players: ["A", "referee"]), "invalid-options"),
    (Snap.Options(players: ["A", "B"], computer: ["C"]), "invalid-options"),
    (Snap.Options(players: ["A", "B"], starting: "C"), "invalid-options"),
    (
      Snap.Options(players: ["A", "B"], deck: Array(PlayingCard.standardDeck.dropLast())),
      "invalid-deck"
    ),
    (
      Snap.Options(
        players: ["A", "B"], deck: PlayingCard.standardDeck.dropLast() + [playingCard("A♠")]),
      "invalid-deck"
    ),
  ])
  func badOptionsAreRefused(options: Snap.Options, code: String) {
    #expect {
      _ = try Snap.deal(options, seed: 1)
    } throws: { error in
      (error as? Snap.RuleViolation)?.code == code
    }
  }
}
