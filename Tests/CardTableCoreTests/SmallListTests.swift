import CardTableCore
import Testing

/// A small list keeps its first element inline and the others in an array, and forgets its
/// length when emptied; none of that may show: it reads, compares and copies as the array of
/// its elements.
@Suite struct SmallListTests {
  @Test func anEmptiedListReadsAsEmptyAndTakesNewElementsInOrder() {
    var list: SmallList<String> = ["a", "b", "c"]
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

  @Test func listsCompareAndHashByTheirElementsOnly() {
    var reused: SmallList<Int> = [7, 8, 9]
    reused.removeAll()
    reused.append(1)
    let fresh: SmallList<Int> = [1]
    #expect(reused == fresh)
    #expect(reused.hashValue == fresh.hashValue)
    #expect(reused != [1, 8])
    #expect(reused.description == "[1]" && fresh.debugDescription == [1].debugDescription)
  }

  @Test func aCopyKeepsItsElementsWhenTheOriginalIsEmptiedAndWrittenAgain() {
    var list: SmallList<String> = ["first", "second"]
    let copy = list
    list.removeAll()
    list.append("third")
    list.append("fourth")
    #expect(Array(copy) == ["first", "second"])
    #expect(Array(list) == ["third", "fourth"])
  }

  @Test func aSliceIsAnArraySliceOfTheListsElements() {
    var list: SmallList<Int> = [5, 6, 7]
    list.removeAll()
    list.append(contentsOf: [1, 2, 3])
    #expect(list.dropFirst() == [2, 3])
    #expect(list[0..<2] == [1, 2])
    #expect(list[1..<3] == [2, 3])
  }
}
