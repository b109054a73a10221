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
  ///
  /// Which cards lie on the table is a bit set of deck indices (81 bits in two words), so a
  /// pair's third card is looked up and tested with no table to clear first; only a hit
  /// searches for the third card's position.
  @inlinable
  static func search<Elements: RandomAccessCollection>(
    _ elements: Elements, card: (Elements.Element) -> SetCard,
    _ visit: (Int, Int, Int) -> Bool
  ) where Elements.Index == Int {
    let count = elements.count
    guard count >= 3 else { return }
    precondition(count <= 81, "a table holds each of the 81 Set cards at most once")
    // NB: on a big table most pairs' third card is there; positions are then kept in a table
    // rather than searched for.
    let positioned = count > 27
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + (positioned ? 81 : 0)) {
      buffer in
      let codes = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
      let position = UnsafeMutableBufferPointer(rebasing: buffer[count...])
      if positioned { position.initialize(repeating: 255) }
      var (low, high): (UInt64, UInt64) = (0, 0)
      for (offset, index) in elements.indices.enumerated() {
        let code = UInt8(truncatingIfNeeded: card(elements[index]).deckIndex)
        codes[offset] = code
        if positioned { position[Int(code)] = UInt8(truncatingIfNeeded: offset) }
        if code < 64 { low |= 1 << code } else { high |= 1 << (code - 64) }
      }
      thirds.withUnsafeBufferPointer { thirds in
        for i in 0..<(count - 2) {
          let row = Int(codes[i]) * 81
          for j in (i + 1)..<(count - 1) {
            let third = thirds[row + Int(codes[j])]
            let present = third < 64 ? low & (1 << third) : high & (1 << (third - 64))
            guard present != 0 else { continue }
            if positioned {
              let k = Int(position[Int(third)])
              if k > j && !visit(i, j, k) { return }
              continue
            }
            // NB: on a small table a hit is rare; the third card's position is looked for.
            for k in (j + 1)..<count where codes[k] == third {
              if !visit(i, j, k) { return }
              break
            }
          }
        }
      }
    }
  }
}
