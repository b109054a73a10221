import CardTableCore

extension SetGame {
  /// Whether three cards form a set: in each attribute all the same or all different.
  @inlinable
  public static func isSet(_ a: SetCard, _ b: SetCard, _ c: SetCard) -> Bool {
    SetFinder.third(a.deckIndex, b.deckIndex) == c.deckIndex
  }

  /// The one card that makes a set with two different cards.
  public static func third(_ a: SetCard, _ b: SetCard) -> SetCard {
    SetCard(deckIndex: SetFinder.third(a.deckIndex, b.deckIndex))
  }
}

/// Finds the sets among the cards of a table in O(n²): for each pair it looks up the deck index
/// of the completing card and whether (and where) that card lies on the table.
///
/// Nothing is allocated: the table of positions lives on the stack.
public enum SetFinder {
  /// `thirds[a * 81 + b]`: the deck index completing deck indices `a` and `b`.
  @usableFromInline static let thirds: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 81 * 81)
    for a in 0..<81 {
      for b in 0..<81 {
        var (x, y, index, place) = (a, b, 0, 1)
        for _ in 0..<4 {
          // NB: digits d, e complete with (6 − d − e) mod 3: equal stays, different gives the third.
          index += (6 - x % 3 - y % 3) % 3 * place
          (x, y, place) = (x / 3, y / 3, place * 3)
        }
        table[a * 81 + b] = UInt8(index)
      }
    }
    return table
  }()

  /// The deck index that completes deck indices `a` and `b` to a set (`a` itself when a == b).
  @inlinable
  static func third(_ a: Int, _ b: Int) -> Int { Int(thirds[a * 81 + b]) }

  /// Every set among `cards` as index triples, `i < j < k`, in lexicographic order.
  ///
  /// - Complexity: O(n²) for n cards.
  public static func sets(in cards: [SetCard]) -> [Hand<Int>] {
    var found: [Hand<Int>] = []
    search(cards, card: \.self) { i, j, k in
      found.append(Hand(i, j, k))
      return true
    }
    return found
  }

  /// The first set among `cards` in lexicographic order of indices, or nil.
  @inlinable
  public static func firstSet(in cards: [SetCard]) -> Hand<Int>? {
    firstSet(in: cards) { $0 }
  }

  /// The first set among the cards of `elements` (each element's card read by `card`), in
  /// lexicographic order of indices, or nil.
  @inlinable
  public static func firstSet<Elements: RandomAccessCollection>(
    in elements: Elements, card: (Elements.Element) -> SetCard
  ) -> Hand<Int>? where Elements.Index == Int {
    var first: Hand<Int>?
    search(elements, card: card) { i, j, k in
      first = Hand(i, j, k)
      return false
    }
    return first
  }

  /// How many sets lie among `cards`.
  public static func count(in cards: [SetCard]) -> Int {
    var total = 0
    search(cards, card: \.self) { _, _, _ in
      total += 1
      return true
    }
    return total
  }

  /// Calls `visit` with each set `i < j < k` in lexicographic order while it returns true.
  @inlinable
  static func search<Elements: RandomAccessCollection>(
    _ elements: Elements, card: (Elements.Element) -> SetCard,
    _ visit: (Int, Int, Int) -> Bool
  ) where Elements.Index == Int {
    let count = elements.count
    guard count >= 3 else { return }
    precondition(count <= 81, "a table holds each of the 81 Set cards at most once")
    // NB: a table holds each card at most once; 255 marks cards that are not on it. A table
    // holds at most 81 cards, so a position fits a byte.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 81 + count) { buffer in
      let position = UnsafeMutableBufferPointer(rebasing: buffer[0..<81])
      let codes = UnsafeMutableBufferPointer(rebasing: buffer[81...])
      position.initialize(repeating: 255)
      for (offset, index) in elements.indices.enumerated() {
        let code = UInt8(truncatingIfNeeded: card(elements[index]).deckIndex)
        codes[offset] = code
        position[Int(code)] = UInt8(truncatingIfNeeded: offset)
      }
      thirds.withUnsafeBufferPointer { thirds in
        for i in 0..<(count - 2) {
          let row = Int(codes[i]) * 81
          for j in (i + 1)..<(count - 1) {
            let k = Int(position[Int(thirds[row + Int(codes[j])])])
            if k != 255 && k > j && !visit(i, j, k) { return }
          }
        }
      }
    }
  }
}
