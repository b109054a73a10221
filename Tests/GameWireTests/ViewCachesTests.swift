import CardTableCore
import GameWire
import Testing

/// A session puts each history entry in words once (``TextCache``) and makes the found sets'
/// lists once per change (``ArrayMapCache``); what they return must be what they are given made
/// anew, whatever they were given before.
@Suite struct ViewCachesTests {
  /// Histories that grow, are given again as the same array, start anew (a new deal) with or
  /// without the old entries at their places, and change an entry in place; both kinds of
  /// cache answer each with the words of that history, and each entry is written once while
  /// it stays at its place.
  @Test(arguments: [false, true])
  func theTextsAreTheHistorysWords(holdingHistory: Bool) {
    var cache = TextCache<Int>(holdingHistory: holdingHistory)
    var random = SplitMix64(seed: holdingHistory ? 7 : 8)
    var history: [Int] = []
    var written = 0
    for _ in 0..<2_000 {
      switch random.nextInt(below: 6) {
      case 0, 1: history.append(random.nextInt(below: 5))
      case 2: break
      case 3: history = Array(history.prefix(random.nextInt(below: history.count + 1)))
      case 4: if !history.isEmpty { history[random.nextInt(below: history.count)] += 1 }
      default: history = (0..<random.nextInt(below: 4)).map { _ in random.nextInt(below: 5) }
      }
      let texts = cache.texts(of: history) { entry in
        written += 1
        return "entry \(entry)"
      }
      #expect(texts == history.map { "entry \($0)" })
    }
    #expect(written < 2_000, "entries kept at their places are not written again")
  }

  /// Given the same array again, a cache that holds its history writes nothing and returns
  /// the same texts.
  @Test func theSameArrayAgainWritesNothing() {
    var cache = TextCache<Int>(holdingHistory: true)
    let history = [1, 2, 3]
    _ = cache.texts(of: history) { "\($0)" }
    var written = 0
    let again = cache.texts(of: history) { entry in
      written += 1
      return "\(entry)"
    }
    #expect(again == ["1", "2", "3"])
    #expect(written == 0)
  }

  /// The same array again is not made again; another array is, even one equal to it, and so
  /// is the array once changed (its storage then is another).
  @Test func aMappedArrayIsMadeAgainOnlyForAnotherArray() {
    var cache = ArrayMapCache<Int, [String]>()
    var made = 0
    func value(_ array: [Int]) -> [String] {
      cache.value(of: array) { array in
        made += 1
        return array.map(String.init)
      }
    }
    var numbers = [1, 2, 3]
    #expect(value(numbers) == ["1", "2", "3"])
    #expect(value(numbers) == ["1", "2", "3"])
    #expect(made == 1)
    #expect(value([1, 2, 3]) == ["1", "2", "3"])
    #expect(made == 2, "an equal array of other storage is made again")
    numbers[1] = 5
    #expect(value(numbers) == ["1", "5", "3"])
    numbers.append(4)
    #expect(value(numbers) == ["1", "5", "3", "4"])
    #expect(value([]) == [])
    #expect(made == 5)
  }
}
