import CardTableCore

extension SetGame {
  /// Whether three cards form a set: in each attribute all the same or all different.
  public static func isSet(_ a: SetCard, _ b: SetCard, _ c: SetCard) -> Bool {
    func fits<T: Equatable>(_ x: T, _ y: T, _ z: T) -> Bool {
      (x == y && y == z) || (x != y && y != z && x != z)
    }
    return fits(a.number, b.number, c.number) && fits(a.symbol, b.symbol, c.symbol)
      && fits(a.shading, b.shading, c.shading) && fits(a.color, b.color, c.color)
  }

  /// The one card that makes a set with two different cards.
  public static func third(_ a: SetCard, _ b: SetCard) -> SetCard {
    SetCard(deckIndex: Int(SetFinder.thirds[a.deckIndex * 81 + b.deckIndex]))
  }
}

/// Finds every set among the cards of a table in O(n²): for each pair it computes the deck
/// index of the completing card and looks up whether (and where) that card lies on the table.
public enum SetFinder {
  /// `thirds[a * 81 + b]`: the deck index completing deck indices `a` and `b`.
  static let thirds: [UInt8] = {
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

  /// Every set among `cards` as index triples `[i, j, k]`, `i < j < k`, in lexicographic order.
  ///
  /// - Complexity: O(n²) for n cards.
  public static func sets(in cards: [SetCard]) -> [[Int]] {
    var found: [[Int]] = []
    search(cards) { i, j, k in
      found.append([i, j, k])
      return true
    }
    return found
  }

  /// The first set among `cards` in lexicographic order of indices, or nil.
  public static func firstSet(in cards: [SetCard]) -> [Int]? {
    var first: [Int]?
    search(cards) { i, j, k in
      first = [i, j, k]
      return false
    }
    return first
  }

  /// How many sets lie among `cards`.
  public static func count(in cards: [SetCard]) -> Int {
    var total = 0
    search(cards) { _, _, _ in
      total += 1
      return true
    }
    return total
  }

  /// Calls `visit` with each set `i < j < k` in lexicographic order while it returns true.
  @inline(__always)
  private static func search(_ cards: [SetCard], _ visit: (Int, Int, Int) -> Bool) {
    let count = cards.count
    guard count >= 3 else { return }
    // NB: a table holds each card at most once; -1 marks cards that are not on it.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 81 + count) { buffer in
      let position = UnsafeMutableBufferPointer(rebasing: buffer[0..<81])
      let codes = UnsafeMutableBufferPointer(rebasing: buffer[81...])
      position.initialize(repeating: -1)
      for index in 0..<count {
        codes[index] = cards[index].deckIndex
        position[codes[index]] = index
      }
      thirds.withUnsafeBufferPointer { thirds in
        for i in 0..<(count - 2) {
          let row = codes[i] * 81
          for j in (i + 1)..<(count - 1) {
            let k = position[Int(thirds[row + codes[j]])]
            if k > j && !visit(i, j, k) { return }
          }
        }
      }
    }
  }
}
