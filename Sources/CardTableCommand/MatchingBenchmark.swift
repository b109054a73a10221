import CardTableCore
import MatchingGame
import SetGame

extension Benchmark {
  /// Complete Matchismo games in 2- and 3-card mode, played through `Match` by a player who
  /// follows the hint.
  static let matchismoGames = Benchmark(
    name: "matchismo", summary: "complete Matchismo games with a hint-following player"
  ) { size in
    var lines: [String] = []
    for mode in MatchingGame.modes {
      let games = size.pick(5_000, quick: 200, smoke: 3)
      var actions = 0
      let seconds = Benchmark.seconds {
        for seed in 0..<UInt64(games) {
          actions += HintFollowingPlayer.play(MatchingGame.Options(mode: mode), seed: seed)
        }
      }
      lines.append(
        "matchismo \(mode)-card: \(Benchmark.format(Double(games) / seconds)) games/s, "
          + "\(Benchmark.format(seconds * 1e9 / Double(actions))) ns/action "
          + "(\(games) games, \(actions) actions)")
    }
    return lines
  }
}

/// A player who always does what the hint says (RULES §1.5): the benchmarks' and tests' bot.
public enum HintFollowingPlayer {
  /// Plays a whole Matchismo game and returns the number of actions performed.
  @discardableResult
  public static func play(_ options: MatchingGame.Options, seed: UInt64) -> Int {
    finished(options, seed: seed).version
  }

  /// A whole Matchismo game played to its end.
  public static func finished(_ options: MatchingGame.Options, seed: UInt64) -> Match<MatchingGame>
  {
    // NB: a benchmark of valid options; a refusal here is a bug worth crashing on.
    var match = valid { try Match<MatchingGame>(options: options, seed: seed) }
    while let action = MatchingGame.hintedAction(in: match.state) {
      perform(action, in: &match)
    }
    return match
  }

  /// Plays a whole Set game and returns the number of actions performed.
  @discardableResult
  public static func play(_ options: SetGame.Options, seed: UInt64) -> Int {
    finished(options, seed: seed).version
  }

  /// A whole Set game played to its end.
  public static func finished(_ options: SetGame.Options, seed: UInt64) -> Match<SetGame> {
    var match = valid { try Match<SetGame>(options: options, seed: seed) }
    while let action = SetGame.hintedAction(in: match.state) {
      perform(action, in: &match)
    }
    return match
  }
}
