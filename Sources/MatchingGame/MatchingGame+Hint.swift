import CardTableCore
import ChoiceTable

extension MatchingGame {
  /// The first matching combination of `mode` unmatched cards, in lexicographic order of table
  /// indices (RULES §1.5); nil when none is left, which ends the game.
  @inlinable
  public static func hint(in state: State) -> Hand<Int>? {
    state.table.firstMatch(size: state.mode)
  }

  /// The next choice of a player who follows the hint: first un-choose a chosen card that is
  /// not part of it, then choose the hinted cards in order; nil when the game is over.
  public static func hintedAction(in state: State) -> Action? {
    guard !state.over, let cards = hint(in: state) else { return nil }
    let slots = state.table.slots
    if let stray = slots.indices.first(where: {
      slots[$0].chosen && !slots[$0].matched && !cards.contains($0)
    }) {
      return .choose(stray)
    }
    return cards.first { !slots[$0].chosen }.map(Action.choose)
  }
}
