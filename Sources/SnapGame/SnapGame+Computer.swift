import CardTableCore

extension SnapGame {
  /// The names of the single-player game's computer players, Left, Top and Right.
  public static let computerNames: [PlayerID] = ["Ray", "Lucy", "Steve"]

  /// A computer player's reaction time: 0.5 + r × 2.0 s, r drawn from the game's generator
  /// (RULES §5.5).
  static func computerDelay(_ random: inout SplitMix64) -> Double {
    computerBaseDelay + random.nextUnit() * computerDelaySpread
  }

  /// After a turned card, each computer player with cards schedules a Snap! call when a match
  /// shows, or — one draw of 1 in 51 for the whole table — when none does (RULES §5.5).
  ///
  /// Draws happen only when some computer player has cards: first the false-snap draw (only
  /// when no match shows), then one delay per calling computer player in seat order.
  static func scheduleComputerSnaps(
    _ state: inout State, into outcome: inout Outcome<Event, Action>
  ) {
    let callers = state.players.filter { $0.isComputer && !$0.hasLeft && $0.cardCount > 0 }
    guard !callers.isEmpty else { return }
    let showing = !matchingPlayers(in: state).isEmpty
    guard showing || state.random.nextInt(below: falseSnapOdds) == 0 else { return }
    for caller in callers {
      outcome.scheduled.append(
        Scheduled(
          after: computerDelay(&state.random), .snap, by: caller.id,
          key: TimerKey.snap(caller.id)))
    }
  }
}
