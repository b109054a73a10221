import CardTableCore
import Testing

@Suite struct PlayingCardTextTests {
  @Test func textFormIsRankThenSuitGlyph() {
    #expect(PlayingCard(.ace, .hearts).description == "A♥")
    #expect(PlayingCard(.ten, .clubs).description == "10♣")
    #expect(PlayingCard(.king, .spades).description == "K♠")
    #expect(PlayingCard(.seven, .diamonds).description == "7♦")
  }

  @Test(arguments: [
    ("A♥", "A♥"), ("AH", "A♥"), ("ah", "A♥"), ("10C", "10♣"), ("10♣", "10♣"), ("QS", "Q♠"),
    ("TD", "10♦"), (" k♠ ", "K♠"), ("2d", "2♦"), ("J♡", "J♥"),
  ])
  func parsingAcceptsGlyphsAndAscii(input: String, expected: String) {
    #expect(PlayingCard(input)?.description == expected)
  }

  @Test(arguments: ["", "A", "♥", "11H", "0S", "AX", "1O♥", "A♥♥", "ZZ"])
  func parsingRejectsNonsense(input: String) {
    #expect(PlayingCard(input) == nil)
  }

  @Test func everyCardRoundTripsThroughBothTextForms() {
    for card in PlayingCard.standardDeck {
      #expect(PlayingCard(card.description) == card)
      #expect(PlayingCard(card.ascii) == card)
    }
  }

  @Test func standardDeckHoldsEachCardOnce() {
    #expect(PlayingCard.standardDeck.count == 52)
    #expect(Set(PlayingCard.standardDeck).count == 52)
    #expect(PlayingCard.standardDeck.enumerated().allSatisfy { $0.offset == $0.element.deckIndex })
  }
}

@Suite struct SetCardTextTests {
  @Test func textFormIsSymbolColorShadingNumber() {
    let card = SetCard(number: 2, symbol: .oval, shading: .solid, color: .red)
    #expect(card.description == "oval:red:solid:2")
    #expect(SetCard("oval:red:solid:2") == card)
    #expect(SetCard("SQUIGGLE:Purple:Striped:3")?.description == "squiggle:purple:striped:3")
  }

  @Test(arguments: [
    "", "oval:red:solid", "oval:red:solid:4", "star:red:solid:1", "oval:red:solid:2:x",
  ])
  func parsingRejectsNonsense(input: String) {
    #expect(SetCard(input) == nil)
  }

  @Test func fullDeckHoldsEachCombinationOnce() {
    #expect(SetCard.fullDeck.count == 81)
    #expect(Set(SetCard.fullDeck).count == 81)
    for card in SetCard.fullDeck {
      #expect(SetCard(card.description) == card)
      #expect(SetCard(deckIndex: card.deckIndex) == card)
    }
  }
}

@Suite struct SeatTests {
  @Test func seatsGoClockwiseBottomLeftTopRight() {
    #expect(Seat.bottom.clockwise == .left)
    #expect(Seat.left.clockwise == .top)
    #expect(Seat.top.clockwise == .right)
    #expect(Seat.right.clockwise == .bottom)
  }

  @Test func everyPlayerSeesThemselvesAtTheBottom() {
    for seat in Seat.allCases {
      #expect(seat.relative(to: seat) == .bottom)
      #expect(seat.clockwise.relative(to: seat) == .left)
    }
  }
}
