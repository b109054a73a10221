import SnapGame

extension SnapGame {
  /// Snap!, as the clients offer it.
  public static let catalog = [
    GameInfo(
      name: "snap", title: "Snap!",
      blurb: "Turn cards with Ray, Lucy and Steve; shout Snap! first.",
      face: "J♣", seats: seatRange, together: .realTime, computers: takesComputerPlayers,
      call: "Snap!",
      options: [
        GameInfo.Option(
          "computerSpeed", label: "Computer players’ speed",
          choices: ComputerSpeed.allCases.map { speed in
            GameInfo.Option.Choice(
              .string(speed.rawValue), speed.label, description: speed.helpDescription)
          }, default: .string(ComputerSpeed.original.rawValue),
          hint: "for the computer players you add", places: [.host])
      ],
      help: GameInfo.Help(
        play: [
          "The whole deck is dealt face down to the players; then, after a pause of 5.2 seconds while the cards are dealt, each player in turn, clockwise, turns the top card of their stack onto their open pile (T, Enter, or a tap on your stack).",
          "When two open piles show the same rank, call Snap! (S, or the Snap! button). The first call after a card is turned is the one that counts: if it is right, the caller takes every matching open pile under their stack. A player who holds all 52 cards wins the round.",
        ],
        scoring: [
          "A wrong Snap! — no two open piles of the same rank — costs the caller one card from their stack to every other player who still has cards. A call after the first one is simply too late and costs nothing.",
          "The computer players (Ray, Lucy and Steve when you play alone) play at {computerSpeed} to turn a card, and as long to call Snap! when they see a match (now and then they call one by mistake).",
        ],
        together: [
          "At a table with friends, Snap! is for 2 to 4 players in real time: everyone sees the table from the bottom seat, anyone may call Snap! at any moment, and the server decides who was first. The host can fill empty seats with computer players and starts every round."
        ]),
      tableHelp: [
        "Two to four players. Each of you sees the table from the Bottom seat; the others sit Left, Top and Right in the order they joined.",
        "Turn your card when it is your turn. Anyone may call Snap! at any time: the first call after a card is turned is decided, later ones are too late. Every call shows who called, how many milliseconds after the card, and the verdict.",
        "The host may fill empty seats with computer players and starts every round. A player whose connection drops keeps the seat for a short while; a player who leaves gives their cards to the others. When the host leaves, the game is over.",
      ],
      sounds: [("turned", "turn"), ("snap", "call"), ("roundWon", "win")])
  ]
}

extension SnapGame.ComputerSpeed {
  /// The speed as a menu shows it: `Original`.
  var label: String {
    switch self {
    case .relaxed: "Relaxed"
    case .original: "Original"
    case .quick: "Quick"
    case .sharp: "Sharp"
    }
  }

  /// The speed in the help's words: `quick speed: each takes 0.15 to 1.15 seconds`.
  var helpDescription: String {
    let name = self == .original ? "the original’s" : rawValue
    return
      "\(name) speed: each takes \(Self.seconds(baseDelay)) to \(Self.seconds(baseDelay + delaySpread)) seconds"
  }

  /// Seconds as the help writes them: `0.15`, `2.5`, `4`.
  private static func seconds(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let (whole, fraction) = (hundredths / 100, hundredths % 100)
    if fraction == 0 { return "\(whole)" }
    if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
    return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
