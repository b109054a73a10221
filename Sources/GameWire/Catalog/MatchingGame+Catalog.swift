import MatchingGame

extension MatchingGame {
  /// Matchismo, as the clients offer it.
  public static let catalog = [
    GameInfo(
      name: "matchismo", title: "Matchismo",
      blurb: "Match suits and ranks for points, 2 or 3 at a time.", face: "A♥", seats: seatRange,
      together: nil,
      options: [
        GameInfo.Option(
          "mode", label: "Cards to match",
          choices: [
            .init(2, "2-card", description: "two"), .init(3, "3-card", description: "three"),
          ],
          default: 2, places: [.settings]),
        GameInfo.Option(
          "cards", label: "Cards on the table", range: 2...52, default: 24, places: [.settings]),
      ] + ChoiceScoring.options,
      help: GameInfo.Help(
        play: [
          "Tap face-down cards to turn them up and look for cards that belong together: {mode} at a time in the {mode|number}-card mode (pick 2 or 3 before the first card; Deal unlocks it again).",
          "Cards of the same suit go together, and so do cards of the same rank. Tap a face-up card to turn it back for free. Matched cards stay on the table, dimmed. The game ends when no match is left; Deal starts again with a fresh deck, and Hint shows a match.",
        ],
        scoring: [
          "With the settings in play: a suit pair scores {matchBonus|points} (1 × the match bonus {matchBonus}), a rank pair {matchBonus*4|points} (4 × {matchBonus}). In 3-card mode every pair among the three counts.",
          "Cards that do not belong together cost {mismatchPenalty|points} (the mismatch penalty), and every card you turn up costs {costToChoose|points} (the cost to choose). Settings change these from the next Deal.",
        ],
        together: ["Matchismo is a game for one: there is no table with friends."]),
      tableHelp: [],
      sounds: [
        ("chosen", "turn"), ("matched", "match"), ("mismatched", "mismatch"), ("gameOver", "win"),
      ])
  ]
}

/// The scoring constants Matchismo and Set share (RULES §1), as options.
enum ChoiceScoring {
  static let options = [
    GameInfo.Option(
      "matchBonus", label: "Match bonus", range: 0...10, default: 4, places: [.settings]),
    GameInfo.Option(
      "mismatchPenalty", label: "Mismatch penalty", range: 0...10, default: 2, places: [.settings]),
    GameInfo.Option(
      "costToChoose", label: "Cost to choose", range: 0...10, default: 1, places: [.settings]),
  ]
}
