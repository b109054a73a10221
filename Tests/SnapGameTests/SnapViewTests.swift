import CardTableCore
import CardTableTesting
import GameWire
import Testing

@testable import SnapGame

@Suite struct SnapViewTests {
  @Test func aPlayerSeesCountsAndOpenTopsOnlyWithTheTableRotatedToThem() throws {
    let state = try table(
      [("J♠ Q♠", "2♥ 3♥"), ("3♣", "4♦"), ("5♠ 6♠ 7♠", ""), ("8♣", "9♣")],
      names: ["You", "Ray", "Lucy", "Steve"], active: 1)
    let view = Snap.view(of: state, for: .player("Lucy"))
    #expect(view.viewer == "Lucy")
    #expect(view.players.map(\.position) == [.top, .right, .bottom, .left])
    #expect(view.players.map(\.closedCount) == [2, 1, 3, 1])
    #expect(view.players.map(\.openCount) == [2, 1, 0, 1])
    #expect(
      view.players.map(\.openTop) == [PlayingCard("3♥"), PlayingCard("4♦"), nil, PlayingCard("9♣")])
    #expect(view.players.allSatisfy { $0.closed == nil && $0.open == nil })
    #expect(view.matching == nil)
    #expect(RuleTexts.status(view) == "Ray's turn")
    #expect(
      RuleTexts.status(Snap.view(of: state, for: .player("Ray"))) == "Your turn. Tap the stack.")
    #expect(Snap.view(of: state, for: .player("Ray")).canTurn)
    #expect(!view.canTurn && view.canSnap)
  }

  @Test func theRefereeSeesEveryPile() throws {
    let state = try table([("J♠ Q♠", "2♥ 3♥"), ("3♣", "4♦")])
    let view = Snap.view(of: state, for: .referee)
    #expect(view.players[0].closed == cards("J♠ Q♠"))
    #expect(view.players[0].open == cards("2♥ 3♥"))
    #expect(view.matching == [])
  }

  @Test func eventsNameCardsGoingFaceDownToTheRefereeOnly() {
    let won = Snap.Event.pileWon(by: "A", from: "B", count: 2, cards: cards("2♥ 3♥"))
    let paid = Snap.Event.paid(by: "A", .init(to: "B", card: PlayingCard("2♥")))
    let left = Snap.Event.left("B", given: [.init(to: "A", card: PlayingCard("2♥"))])
    let turned = Snap.Event.turned("A", card: playingCard("2♥"))
    for viewer: Viewer in [.player("A"), .player("B"), .player("Nobody")] {
      #expect(
        Snap.redact(won, for: viewer) == .pileWon(by: "A", from: "B", count: 2, cards: nil))
      #expect(Snap.redact(paid, for: viewer) == .paid(by: "A", .init(to: "B", card: nil)))
      #expect(Snap.redact(left, for: viewer) == .left("B", given: [.init(to: "A", card: nil)]))
      #expect(Snap.redact(turned, for: viewer) == turned)
    }
    for event in [won, paid, left, turned] { #expect(Snap.redact(event, for: .referee) == event) }
  }

  @Test func theRoomsWaitingTextsAreTheOriginals() {
    #expect(RuleTexts.waiting(isHost: true) == "Waiting for other players...")
    #expect(RuleTexts.waiting(isHost: false) == "Waiting for game to start...")
  }
}
