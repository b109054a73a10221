import CardTableCore
import ChoiceTable
import MatchingGame
import MemoryGame
import SetGame
import SnapGame

/// The rule book's words (RULES.md): the status lines, history entries, titles and Snap!
/// messages that the engine's facts stand for, byte for byte as the rules give them.
///
/// The engine's states hold what happened; these functions say it. They are the one place
/// where a text of RULES.md is written.
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

  // MARK: Set as a race (docs/ENGINE.md "set")

  /// A judged selection of a race: `Ann: Matched A B C for 16 points.` or
  /// `Bob: A B C don’t match! 2 point penalty!` (the cards in table order).
  public static func claim(_ claim: SetGame.Claim) -> String {
    "\(claim.player): " + status(claim.play)
  }

  /// A race's status line: its last claim, empty before the first; at the end
  /// `Ann wins with 40 points!` or `A tie: Ann and Bob scored 30 points each.`, and
  /// `Everyone has left.`
  public static func raceStatus(_ view: SetGame.View) -> String {
    if view.deserted { return "Everyone has left." }
    if view.over {
      return winner(
        of: view.racers.map { PlayerScore(player: $0.id, score: $0.score) }, unit: "point",
        verb: "scored")
    }
    return view.claims.last.map(claim) ?? ""
  }

  // MARK: Memory and Concentration (RULES §3, §4, §7)

  /// The end dialog's heading: `Great!` for Memory, `Cleared!` for Concentration; nil while
  /// the game goes on, and when every player left before the end.
  public static func title(_ view: MemoryGame.View) -> String? {
    guard view.over, !view.deserted else { return nil }
    return view.variant == .memory ? "Great!" : "Cleared!"
  }

  /// The line under the board: `Pairs found: 2 of 6. Score: 1`, `You won with score: 3!`,
  /// `All 26 pairs found in 40 moves.`; in turns `Ann's turn. Pairs: Ann 2, Bob 1` (`Your
  /// turn. …` to Ann), at the end `Ann wins with 4 pairs!` or
  /// `A tie: Ann and Bob found 3 pairs each.`, and `Everyone has left.`
  public static func status(_ view: MemoryGame.View) -> String {
    if view.deserted { return "Everyone has left." }
    if !view.players.isEmpty { return statusInTurns(view) }
    return switch (view.variant, view.over) {
    case (.memory, true): "You won with score: \(view.score)!"
    case (.concentration, true): "All \(view.pairCount) pairs found in \(view.moves) moves."
    case (.memory, false):
      "Pairs found: \(view.pairsFound) of \(view.pairCount). Score: \(view.score)"
    case (.concentration, false):
      "Pairs found: \(view.pairsFound) of \(view.pairCount). Moves: \(view.moves)"
    }
  }

  /// The status line of a game in turns (docs/ENGINE.md "memory").
  private static func statusInTurns(_ view: MemoryGame.View) -> String {
    let scores = view.players.map { PlayerScore(player: $0.id, score: $0.pairs) }
    if view.over { return winner(of: scores, unit: "pair", verb: "found") }
    let pairs = view.players.map { player in
      "\(player.id) \(player.pairs)" + (player.hasLeft ? " (left)" : "")
    }
    let whose = view.turn == view.viewer ? "Your turn" : "\(view.turn?.rawValue ?? "")'s turn"
    return "\(whose). Pairs: " + pairs.joined(separator: ", ")
  }

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

  // MARK: Snap! (RULES §5, §7)

  /// The status line of a Snap! table as `view`'s viewer reads it: `You` where it is about them.
  public static func status(_ view: SnapGame.View) -> String {
    func isViewer(_ id: PlayerID) -> Bool { view.viewer == id }
    switch view.phase {
    case .dealing:
      return "Dealing..."
    case .roundOver:
      return "** Winner: \(view.winner?.rawValue ?? "") **"
    case .gameOver:
      if view.endReason == .hostLeft { return "The host has left. Game over." }
      if let winner = view.winner { return "** Winner: \(winner) **" }
      return "Game over."
    case .playing:
      if let pause = view.pause {
        switch (pause.result, pause.moved) {
        case (.correct, false): return "*** Match! ***"
        case (.correct, true):
          return isViewer(pause.caller) ? "You Receive Cards" : "\(pause.caller) Receives Cards"
        case (_, false): return "No Match!"
        case (_, true): return "\(pause.caller) Must Pay"
        }
      }
      guard let active = view.active else { return "" }
      return isViewer(active) ? "Your turn. Tap the stack." : "\(active)'s turn"
    }
  }

  /// A seat's games-won label: `<n> Won`.
  public static func won(_ gamesWon: Int) -> String { "\(gamesWon) Won" }

  /// The statuses of the room before a game starts (RULES §5.4), for the host and for guests.
  public static func waiting(isHost: Bool) -> String {
    isHost ? "Waiting for other players..." : "Waiting for game to start..."
  }
}
