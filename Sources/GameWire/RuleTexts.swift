import CardTableCore
import ChoiceTable

/// The rule book's words (RULES.md): the status lines, history entries, titles and Snap!
/// messages that the engine's facts stand for, byte for byte as the rules give them.
///
/// The engine's states hold what happened; these functions say it. They are the one place
/// where a text of RULES.md is written: here what games share, and each game's own words in
/// an extension beside its wire form (`MemoryGame+Wire.swift`, `SetGame+Wire.swift`,
/// `SnapGame+Wire.swift`).
public enum RuleTexts {
  // MARK: Matchismo and Set (RULES §1.3)

  /// The status line of a play: `Matched A♥ A♠ for 16 points.`,
  /// `A♥ K♣ don’t match! 2 point penalty!`, or the cards' texts.
  public static func status<Rule>(_ play: ChoiceTable<Rule>.Play) -> String {
    var text = TextLine.Builder()
    append(play, to: &text)
    return text.string
  }

  /// Appends `play`'s line to `text`.
  ///
  /// NB: in a ``TextLine/Builder``: added up as `String`s, a Set race's line cost some 5,000
  /// instructions, written for every seat's view of every version (callgrind, `bench rooms`).
  static func append<Rule>(_ play: ChoiceTable<Rule>.Play, to text: inout TextLine.Builder) {
    func names() {
      for (index, card) in play.cards.enumerated() {
        if index > 0 { text.append(" ") }
        text.append(card.description)
      }
    }
    switch play.result {
    case .chosen:
      names()
    case .matched(let points):
      text.append("Matched ")
      names()
      text.append(" for ")
      text.append(points)
      text.append(" points.")
    case .mismatched(let penalty):
      names()
      text.append(" don’t match! ")
      text.append(penalty)
      text.append(" point penalty!")
    }
  }

  /// The status line of a table: its last play's, or empty before the first choice.
  public static func status<Rule>(_ lastPlay: ChoiceTable<Rule>.Play?) -> String {
    lastPlay.map(status) ?? ""
  }

  // MARK: Every game in turns (RULES §7)

  /// `Ann wins with 4 pairs!`, or `A tie: Ann and Bob found 3 pairs each.` (`Ann, Bob and Cy`
  /// for three or more); `unit` is the singular, `pair` or `point`.
  public static func winner(of scores: [PlayerScore], unit: String, verb: String)
    -> String
  {
    let best = scores.map(\.score).max() ?? 0
    let amount = "\(best) \(unit)" + (abs(best) == 1 ? "" : "s")
    let leaders = scores.filter { $0.score == best }.map(\.player.rawValue)
    guard leaders.count > 1 else { return "\(leaders.first ?? "") wins with \(amount)!" }
    let names = leaders.dropLast().joined(separator: ", ") + " and " + (leaders.last ?? "")
    return "A tie: \(names) \(verb) \(amount) each."
  }
}
