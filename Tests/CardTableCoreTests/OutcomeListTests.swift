import CardTableCore
import Testing

/// An outcome's list forgets its length when emptied and keeps its storage; none of that may
/// show: it reads, compares and copies as the array of its elements.
@Suite struct OutcomeListTests {
  @Test func anEmptiedListReadsAsEmptyAndTakesNewElementsInOrder() {
    var list: OutcomeList<String> = ["a", "b", "c"]
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
    var reused: OutcomeList<Int> = [7, 8, 9]
    reused.removeAll()
    reused.append(1)
    let fresh: OutcomeList<Int> = [1]
    #expect(reused == fresh)
    #expect(reused.hashValue == fresh.hashValue)
    #expect(reused != [1, 8])
    #expect(reused.description == "[1]" && fresh.debugDescription == [1].debugDescription)
  }

  @Test func aCopyKeepsItsElementsWhenTheOriginalIsEmptiedAndWrittenAgain() {
    var list: OutcomeList<String> = ["first", "second"]
    let copy = list
    list.removeAll()
    list.append("third")
    #expect(Array(copy) == ["first", "second"])
    #expect(Array(list) == ["third"])
  }

  @Test func aSliceIsAnArraySliceOfTheListsElements() {
    var list: OutcomeList<Int> = [5, 6, 7]
    list.removeAll()
    list.append(contentsOf: [1, 2])
    #expect(list.dropFirst() == [2])
    #expect(list[0..<2] == [1, 2])
  }

  /// The events a match returns for one action stay its own after the next action, which
  /// reuses the match's outcome.
  @Test func anActionsEventsStayTheirsAfterTheNextAction() throws {
    var match = try Match<BellGame>(options: .init(limit: 5), seed: 1)
    let first = try match.perform(.press, by: "Ann")
    let second = try match.perform(.press, by: "Ann")
    #expect(first == [.pressed(1)])
    #expect(second == [.pressed(2)])
    let rung = match.advance(by: 1)
    #expect(rung == [.rang(1)])
    #expect(first == [.pressed(1)] && second == [.pressed(2)])
  }
}
