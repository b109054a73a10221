import CardTableCore
import Testing

/// An outcome's list forgets its length when emptied and keeps its storage; a small list keeps
/// its first element inline too. None of that may show: each reads, compares and copies as the
/// array of its elements.
@Suite struct ReusedListTests {
  /// Which list a test runs on.
  enum Kind: CaseIterable, Sendable {
    case outcomeList
    case smallList

    /// Runs `check` on this kind of list.
    func run(_ check: (any ListCheck.Type) -> Void) {
      switch self {
      case .outcomeList: check(Checks<OutcomeList<String>, OutcomeList<Int>>.self)
      case .smallList: check(Checks<SmallList<String>, SmallList<Int>>.self)
      }
    }
  }

  @Test(arguments: Kind.allCases)
  func anEmptiedListReadsAsEmptyAndTakesNewElementsInOrder(_ kind: Kind) {
    kind.run { $0.emptiedListTakesNewElementsInOrder() }
  }

  @Test(arguments: Kind.allCases)
  func listsCompareAndHashByTheirElementsOnly(_ kind: Kind) {
    kind.run { $0.listsCompareAndHashByTheirElements() }
  }

  @Test(arguments: Kind.allCases)
  func aCopyKeepsItsElementsWhenTheOriginalIsEmptiedAndWrittenAgain(_ kind: Kind) {
    kind.run { $0.copyKeepsItsElements() }
  }

  @Test(arguments: Kind.allCases)
  func aSliceIsAnArraySliceOfTheListsElements(_ kind: Kind) {
    kind.run { $0.sliceIsAnArraySlice() }
  }
}

protocol ListCheck {
  static func emptiedListTakesNewElementsInOrder()
  static func listsCompareAndHashByTheirElements()
  static func copyKeepsItsElements()
  static func sliceIsAnArraySlice()
}

/// The checks, for a list of texts and a list of numbers of one kind.
enum Checks<Texts: ReusedList, Numbers: ReusedList & Hashable>: ListCheck
where Texts.Element == String, Numbers.Element == Int, Numbers.SubSequence == ArraySlice<Int> {
  static func emptiedListTakesNewElementsInOrder() {
    var list: Texts = ["a", "b", "c"]
    list.removeAll()
    #expect(list.isEmpty && list.count == 0 && Array(list) == [])
    list.append("d")
    #expect(Array(list) == ["d"], "the elements left from before are not the list's")
    #expect(list.first == "d" && list.last == "d")
    list.append(contentsOf: ["e", "f", "g"])
    #expect(Array(list) == ["d", "e", "f", "g"], "it grows past the storage it had")
    #expect(list.array == ["d", "e", "f", "g"])
    #expect(list.indices == 0..<4)
  }

  static func listsCompareAndHashByTheirElements() {
    var reused: Numbers = [7, 8, 9]
    reused.removeAll()
    reused.append(1)
    let fresh: Numbers = [1]
    #expect(reused == fresh)
    #expect(reused.hashValue == fresh.hashValue)
    #expect(reused != [1, 8])
    #expect(reused.description == "[1]" && fresh.debugDescription == [1].debugDescription)
  }

  static func copyKeepsItsElements() {
    var list: Texts = ["first", "second"]
    let copy = list
    list.removeAll()
    list.append("third")
    list.append("fourth")
    #expect(Array(copy) == ["first", "second"])
    #expect(Array(list) == ["third", "fourth"])
  }

  static func sliceIsAnArraySlice() {
    var list: Numbers = [5, 6, 7]
    list.removeAll()
    list.append(contentsOf: [1, 2, 3])
    #expect(list.dropFirst() == [2, 3])
    #expect(list[0..<2] == [1, 2])
    #expect(list[1..<3] == [2, 3])
  }
}
