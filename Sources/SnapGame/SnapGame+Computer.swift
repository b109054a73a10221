import CardTableCore

extension SnapGame {
  /// The names of the single-player game's computer players, Left, Top and Right.
  public static let computerNames: [PlayerID] = ["Ray", "Lucy", "Steve"]

  /// A computer player's reaction time at `speed`: 0.5 + r × 2.0 s at the original speed
  /// (RULES §5.5), r drawn from the game's generator.
  static func computerDelay(_ random: inout SplitMix64, speed: ComputerSpeed) -> Double {
    speed.baseDelay + random.nextUnit() * speed.delaySpread
  }

  /// After a turned card, each computer player with cards schedules a Snap! call when a match
  /// shows, or — one draw of 1 in 51 for the whole table — when none does (RULES §5.5).
  ///
  /// Draws happen only when some computer player has cards: first the false-snap draw (only
  /// when no match shows), then one delay per calling computer player in seat order.
  static func scheduleComputerSnaps(_ state: inout State, into outcome: inout Outcome<SnapGame>) {
    func calls(_ player: Player) -> Bool {
      player.isComputer && !player.hasLeft && player.cardCount > 0
    }
    guard state.players.contains(where: calls) else { return }
    guard hasMatch(in: state) || state.random.nextInt(below: falseSnapOdds) == 0 else { return }
    for index in state.players.indices where calls(state.players[index]) {
      outcome.scheduled.append(
        Scheduled(
          after: computerDelay(&state.random, speed: state.computerSpeed), .snap,
          by: state.players[index].id, key: .snap(index)))
    }
  }
}
