import CardTableCore
import GameWire
import MatchingGame
import SetGame
import Testing

/// A table's slots are memoized by number (``MemoizedWireObject/memoIndex``), not by hash: every
/// slot of Set and Matchismo must have a number of its own within its type's count, and a list
/// written through one encoder — again and again, past the memo's limit, when it starts afresh —
/// must be the text of the slots written one by one, each through an encoder of its own.
@Suite struct MemoIndexTests {
  /// Every slot: face down or each card, and each of the eight settings of its marks.
  static func slots<Slot: MemoizedWireObject, Card>(
    _ cards: [Card], _ make: (Card?, Bool, Bool, Bool) -> Slot
  ) -> [Slot] {
    ([nil] + cards.map(Optional.some)).flatMap { card in
      (0..<8).map { bits in make(card, bits & 4 != 0, bits & 2 != 0, bits & 1 != 0) }
    }
  }

  static let setSlots = slots(SetCard.fullDeck) { card, chosen, matched, hinted in
    var slot = SetGame.WireView.Slot()
    (slot.card, slot.chosen, slot.matched, slot.hinted) = (card, chosen, matched, hinted)
    return slot
  }

  static let matchismoSlots = slots(PlayingCard.standardDeck) { card, chosen, matched, hinted in
    var slot = MatchingGame.WireView.Slot()
    (slot.card, slot.chosen, slot.matched, slot.hinted) = (card, chosen, matched, hinted)
    return slot
  }

  func check<Slot: MemoizedWireObject>(_ slots: [Slot]) throws {
    let indexes = slots.compactMap(\.memoIndex)
    #expect(indexes.count == slots.count, "every slot has a number")
    #expect(Set(indexes).count == slots.count, "no two slots share a number")
    #expect(indexes.allSatisfy { (0..<Slot.memoIndexes).contains($0) })
    let alone = try slots.map { try WireEncoder().text(of: $0) }
    let encoder = WireEncoder()
    // NB: in an order of its own each time, so that the texts kept are found in other places.
    var random = SplitMix64(seed: 19)
    for _ in 0..<3 {
      var order = Array(slots.indices)
      for index in order.indices.dropLast() {
        order.swapAt(index, index + random.nextInt(below: order.count - index))
      }
      let text = try encoder.text(of: order.map { slots[$0] })
      #expect(text == "[" + order.map { alone[$0] }.joined(separator: ",") + "]")
    }
  }

  @Test func everySetSlotHasANumberOfItsOwnAndItsOwnText() throws {
    try check(Self.setSlots)
  }

  @Test func everyMatchismoSlotHasANumberOfItsOwnAndItsOwnText() throws {
    try check(Self.matchismoSlots)
  }
}
