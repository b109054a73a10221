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
    var text = ""
    var names = ""
    for (index, card) in play.cards.enumerated() {
      if index > 0 { names += " " }
      names += card.description
    }
    switch play.result {
    case .chosen:
      return names
    case .matched(let points):
      text.reserveCapacity(names.utf8.count + 24)
      text += "Matched "
      text += names
      text += " for "
      text += String(points)
      text += " points."
    case .mismatched(let penalty):
      text.reserveCapacity(names.utf8.count + 32)
      text += names
      text += " don’t match! "
      text += String(penalty)
      text += " point penalty!"
    }
    return text
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
