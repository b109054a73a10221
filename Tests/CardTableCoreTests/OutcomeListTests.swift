import CardTableCore
import Testing

/// An outcome's events are a value: what a match returns for one action is not written over by
/// the next (the list's own behaviour: `ReusedListTests`).
@Suite struct OutcomeListTests {
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
