import CardTableCore
import SnapGame

extension Benchmark {
  /// Complete Snap! rounds between four computer players, run through `Match` on a virtual
  /// clock that jumps to each next timer, as a room would run them without waiting.
  static let snapRounds = Benchmark(
    name: "snap", summary: "complete four-computer-player Snap! rounds on a virtual clock"
  ) { size in
    let rounds = size.pick(2_000, quick: 100, smoke: 2)
    var actions = 0
    var virtualSeconds = 0.0
    var unfinished = 0
    let seconds = Benchmark.seconds {
      for seed in 0..<UInt64(rounds) {
        let round = ComputerRound.play(seed: seed)
        actions += round.actions
        virtualSeconds += round.clock
        if !round.finished { unfinished += 1 }
      }
    }
    var lines = [
      "snap rounds: \(Benchmark.format(Double(rounds) / seconds)) rounds/s, "
        + "\(Benchmark.format(Double(actions) / seconds, decimals: 0)) actions/s "
        + "(\(rounds) rounds, \(actions) actions)",
      "snap rounds: \(Benchmark.format(Double(actions) / Double(rounds))) actions and "
        + "\(Benchmark.format(virtualSeconds / Double(rounds) / 60)) virtual minutes per round",
    ]
    if unfinished > 0 { lines.append("snap rounds: \(unfinished) stopped at the action cap") }
    return lines
  }
}

/// One Snap! round played by four computer players.
public enum ComputerRound {
  /// The table: the single-player seats, every one played by the computer.
  public static let options = SnapGame.Options(
    players: ["You", "Ray", "Lucy", "Steve"], computer: ["You", "Ray", "Lucy", "Steve"])

  /// Plays the round dealt by `seed` until a player holds all 52 cards or `cap` actions ran.
  public static func play(seed: UInt64, cap: Int = 200_000) -> (
    actions: Int, clock: Double, finished: Bool
  ) {
    // NB: valid options; a refusal here is a bug worth crashing on.
    var match = valid { try Match<SnapGame>(options: options, seed: seed) }
    while !match.isOver, match.version < cap, let due = match.nextDue {
      match.advance(to: due)
    }
    return (match.version, match.clock, match.isOver)
  }
}
