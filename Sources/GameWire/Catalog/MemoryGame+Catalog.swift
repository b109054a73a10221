import MemoryGame

extension MemoryGame {
  /// Memory and Concentration, as the clients offer them.
  public static let catalog = [memoryInfo, concentrationInfo]

  /// The computer players' level at a table, and the computer opponent of a game alone.
  static let computerOptions = [
    GameInfo.Option.computerLevel(
      label: "Computer players’ memory", levels, default: ComputerLevel.good.rawValue),
    GameInfo.Option.opponent(levels),
  ]

  static let levels = ComputerLevel.allCases.map { ($0.rawValue, $0.label, $0.helpDescription) }

  static let computerHelp =
    "Play against the computer alone with “Play against” on the game’s screen, or let the host of a table seat computer players: they take their turns like you, after a pause to think, and remember only what they saw — a forgetful one about 3 cards in 10, a good one 7 in 10, a perfect one every card."

  static let turnsSounds: [(event: String, effect: String)] = [
    ("flipped", "turn"), ("matched", "match"), ("mismatched", "mismatch"), ("finished", "win"),
  ]

  static let memoryInfo = GameInfo(
    name: "memory", title: "Memory", blurb: "Find the pairs: three sizes of table.", face: "K♥",
    seats: seatRange, together: .turns, computers: takesComputerPlayers,
    options: [
      GameInfo.Option(
        "difficulty", label: "Table size",
        choices: [
          .init("easy", "EASY", description: "6 pairs"),
          .init("medium", "MEDIUM", description: "12 pairs"),
          .init("hard", "HARD", description: "16 pairs"),
        ], default: "easy", places: [.menu, .host])
    ] + computerOptions,
    help: GameInfo.Help(
      play: [
        "The cards lie face down, and every card is there twice (Easy 6 pairs, Medium 12, Hard 16). Turn two cards: if they are the same card, rank and suit, they are a pair and leave the board after a second; if not, they turn back after two seconds.",
        "You win when the last pair has left the board.",
      ],
      scoring: [
        "The score counts mistakes: every two cards that are not a pair add 1. Lower is better; a perfect game scores 0."
      ],
      together: [
        "At a table with friends, players take turns. A pair is yours and keeps the turn; two cards that are not a pair pass it to the next player. Each player counts their own pairs.",
        computerHelp,
      ]),
    tableHelp: [
      "Players take turns. On your turn flip two cards: a pair is yours and you go again; otherwise the turn passes on. Each player counts their own pairs."
    ],
    sounds: turnsSounds)

  static let concentrationInfo = GameInfo(
    name: "concentration", title: "Concentration",
    blurb: "All 52 cards, tilted on the table. Match ranks.", face: "Q♠", seats: seatRange,
    together: .turns, computers: takesComputerPlayers, options: computerOptions,
    help: GameInfo.Help(
      play: [
        "All 52 cards lie face down, each tilted a little. Turn two cards of the same rank — any suits — to match them: they stay face up for the rest of the game. Two of different ranks turn back after one and a half seconds.",
        "After a match the table flashes green and takes no card for one second. The table is cleared when all 26 pairs are face up.",
      ],
      scoring: [
        "There are no points: the moves count every two cards turned, and the timer starts with the first card you turn, not when the cards are dealt. Fewer moves and less time are better."
      ],
      together: [
        "At a table with friends, players take turns. A pair is yours and keeps the turn; two different ranks pass it on. Each player counts their own pairs.",
        computerHelp,
      ]),
    tableHelp: [
      "Players take turns. On your turn flip two cards of the same rank: a pair is yours and you go again; otherwise the turn passes on. Each player counts their own pairs."
    ],
    sounds: turnsSounds)
}
