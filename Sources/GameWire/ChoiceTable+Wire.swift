import CardTableCore
import MatchingGame

/// The JSON that Matchismo and Set share: settings, table positions and found matches.
enum ChoiceWire {
  /// Reads `matchBonus`, `mismatchPenalty` and `costToChoose` (each 0…10) from options.
  static func scoring(from options: JSON, context: String) throws(WireError) -> MatchScoring {
    let range = MatchScoring.range
    return MatchScoring(
      matchBonus: try options.optionalInt("matchBonus", in: range, default: 4, context: context),
      mismatchPenalty: try options.optionalInt(
        "mismatchPenalty", in: range, default: 2, context: context),
      costToChoose: try options.optionalInt("costToChoose", in: range, default: 1, context: context)
    )
  }

  static func scoring(_ scoring: MatchScoring) -> [(String, JSON)] {
    [
      ("matchBonus", JSON(scoring.matchBonus)), ("mismatchPenalty", JSON(scoring.mismatchPenalty)),
      ("costToChoose", JSON(scoring.costToChoose)),
    ]
  }

  /// One object per position: `card` (null when face down to this viewer), `chosen`,
  /// `matched`, `hinted`.
  static func table<Rule>(_ slots: [ChoiceTable<Rule>.SlotView]) -> JSON {
    .array(
      slots.map { slot in
        [
          "card": slot.card.map { .string($0.description) } ?? .null,
          "chosen": .bool(slot.chosen), "matched": .bool(slot.matched),
          "hinted": .bool(slot.hinted),
        ]
      })
  }

  /// `found`: every found card's text in the order found; `foundMatches`: each match's cards,
  /// points and reason.
  static func found<Rule>(
    _ matches: [ChoiceTable<Rule>.FoundMatch], reason: (Rule.Reason) -> JSON
  ) -> [(String, JSON)] {
    let cards = matches.flatMap { $0.cards.map { JSON.string($0.description) } }
    let list = matches.map { match -> JSON in
      [
        "cards": JSON(match.cards.map(\.description)), "points": JSON(match.points),
        "reason": reason(match.reason),
      ]
    }
    return [("found", .array(cards)), ("foundMatches", .array(list))]
  }

  /// The members every choosing game's state starts with.
  static func common(
    score: Int, status: String, flips: Int, history: [String], mode: Int, deckCount: Int,
    over: Bool
  ) -> [(String, JSON)] {
    [
      ("score", JSON(score)), ("status", .string(status)), ("flips", JSON(flips)),
      ("history", JSON(history)), ("mode", JSON(mode)), ("deckCount", JSON(deckCount)),
      ("over", .bool(over)),
    ]
  }

  /// Reads a `choose` action's table index.
  static func choice(_ json: JSON) throws(WireError) -> Int {
    try json.requiredInt("card", in: "A choose action")
  }
}

extension WireGame {
  /// The matching games' `{"cmd":"hint"}`: performs `hint` (which marks the first matching
  /// combination) and replies `{"ok":true,"cards":[i,j,…]}`, or `[]` when none is left.
  static func hintCommand(
    _ name: String, in match: inout Match<Self>, hint: Action, marked: (State) -> [Int]
  ) throws(WireError) -> JSON? {
    guard name == "hint" else { return nil }
    do {
      try match.perform(hint, by: .solo)
    } catch {
      throw WireError(error)
    }
    return ["ok": true, "cards": .array(marked(match.state).map { JSON($0) })]
  }
}
