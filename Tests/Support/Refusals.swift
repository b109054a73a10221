import CardTableCore
import Testing

/// Applies `action` and expects the rules to refuse it with `violation`, leaving the state —
/// and the outcome — exactly as they were (RULES §6: a refused action changes nothing).
public func expectRefused<Rules: GameRules>(
  _ action: Rules.Action, by player: PlayerID, in state: Rules.State, of rules: Rules.Type,
  _ violation: Rules.RuleViolation, sourceLocation: SourceLocation = #_sourceLocation
) {
  var copy = state
  var outcome = Outcome<Rules>()
  #expect(throws: violation, sourceLocation: sourceLocation) {
    try Rules.apply(action, by: player, to: &copy, into: &outcome)
  }
  #expect(copy == state, "a refused action changed the state", sourceLocation: sourceLocation)
  #expect(outcome == Outcome(), "a refused action did something", sourceLocation: sourceLocation)
}

/// Performs `action` on a match and expects it to be refused with `violation`, leaving the
/// match's state, version and timers as they were.
public func expectRefused<Rules: GameRules>(
  _ action: Rules.Action, by player: PlayerID, in match: inout Match<Rules>,
  _ violation: Rules.RuleViolation, sourceLocation: SourceLocation = #_sourceLocation
) {
  let (state, version, timers) = (match.state, match.version, match.timers)
  #expect(throws: violation, sourceLocation: sourceLocation) {
    try match.perform(action, by: player)
  }
  #expect(
    match.state == state, "a refused action changed the state", sourceLocation: sourceLocation)
  #expect(match.version == version, "a refused action was logged", sourceLocation: sourceLocation)
  #expect(match.timers == timers, "a refused action set a timer", sourceLocation: sourceLocation)
}
