import SetGame

extension SetGame {
  /// Set, as the clients offer it.
  public static let catalog = [
    GameInfo(
      name: "set", title: "Set", blurb: "Find three cards that are all same or all different.",
      face: "squiggle:purple:striped:2", seats: seatRange, together: .race,
      computers: takesComputerPlayers, call: "Set",
      options: ChoiceScoring.options + [
        GameInfo.Option(
          "refill", label: "Refill to 12",
          choices: [
            .init(false, "Off", description: Self.refillOff),
            .init(true, "On", description: Self.refillOn),
          ], default: false,
          hint: "matched cards are replaced while the deck lasts", places: [.settings]),
        GameInfo.Option(
          "twoPlayer", label: "Two players",
          choices: [.init(false, "Off"), .init(true, "On")], default: false, places: [.settings]),
        .computerLevel(
          label: "Computer players’ speed", levels, default: ComputerLevel.steady.rawValue),
        .opponent(levels),
      ],
      help: GameInfo.Help(
        play: [
          "Find a set: three cards where each of the four features — number, symbol, shading and colour — is either the same on all three cards or different on all three.",
          "Tap three cards to claim them. {refill} +3 deals three more cards when you see no set. The game ends when the deck is empty and no set is left. Hint shows a set.",
        ],
        scoring: [
          "With the settings in play: a set scores {matchBonus*4|points} (4 × the match bonus {matchBonus}); three cards that are not a set cost {mismatchPenalty|points}; every card you choose costs {costToChoose|points}.",
          "+3 is free when no set is on the table; if one was there, it costs {mismatchPenalty*3|points} first (3 × the mismatch penalty {mismatchPenalty}).",
        ],
        together: [
          "At a table with friends, Set is a race: everyone plays the same cards at once, each of you picks your own three, and a set scores for whoever claims it first. Each player keeps their own score.",
          "+3 deals only when every player has asked for it. There are no hints in a race.",
          "Race the computer alone with “Play against” on the game’s screen, or let the host of a table seat computer players: they look at the same cards, find a set sooner when its cards share more, claim it card by card like you, and ask for +3 when they see none — a relaxed one in about 15 seconds on a usual table, a steady one 8, a sharp one 4.",
        ]),
      tableHelp: [
        "A race: everyone plays the same table at once. Each of you picks your own three cards; a set scores for whoever found it, a wrong three costs its chooser.",
        "+3 deals three more cards once every player has asked for them. There are no hints in a race. Each player keeps their own score.",
      ],
      sounds: [
        ("chosen", "turn"), ("matched", "match"), ("mismatched", "mismatch"),
        ("gameOver", "win"),
      ])
  ]
}

extension SetGame {
  /// What the help says of found sets with *Refill to 12* off and on (the choices' words).
  static let refillOff =
    "A set leaves the table and the cards after it close up (Refill to 12 is off)."
  static let refillOn =
    "A set's places are dealt fresh cards while the deck lasts (Refill to 12 is on)."
}

extension SetGame {
  static let levels = ComputerLevel.allCases.map { ($0.rawValue, $0.label, $0.helpDescription) }
}
