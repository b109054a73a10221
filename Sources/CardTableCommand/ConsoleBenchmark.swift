import CardTableCore
import GameWire
import MatchingGame
import MemoryGame
import SetGame
import SnapGame

extension Benchmark {
  /// The engine console answering a recorded stream of commands across all five games, its
  /// replies written to a sink: what a tool or a bot on `cardtable engine` costs.
  static let consoleLines = Benchmark(
    name: "console", summary: "the engine console answering a recorded multi-game stream"
  ) { size in
    let games = size.pick(120, quick: 30, smoke: 2)
    let stream = ConsoleStream.record(games: games)
    let passes = size.pick(10, quick: 2, smoke: 1)
    var replied = 0
    let seconds = Benchmark.seconds {
      for _ in 0..<passes { replied += ConsoleStream.answer(stream) }
    }
    let lines = Double(stream.count * passes)
    return [
      "console: \(Benchmark.format(lines / seconds, decimals: 0)) lines/s, "
        + "\(Benchmark.format(Double(replied) / seconds / 1e6)) MB/s of replies "
        + "(\(stream.count) lines of \(games) games, \(passes) passes)"
    ]
  }
}

/// A recorded session of the engine console: the commands a scripted player sends through a
/// game of each kind in turn, with views, states and hints among them.
public enum ConsoleStream {
  /// The command lines of `games` games.
  public static func record(games: Int) -> [String] {
    var lines: [String] = []
    for game in 0..<games {
      let seed = UInt64(game)
      switch game % 6 {
      case 0: memory(.memory(.easy), seed: seed, into: &lines)
      case 1: memory(.memory(.hard), seed: seed, into: &lines)
      case 2: memory(.concentration, seed: seed, into: &lines)
      case 3: matchismo(seed: seed, into: &lines)
      case 4: set(seed: seed, into: &lines)
      default: snap(seed: seed, into: &lines)
      }
    }
    return lines
  }

  /// Answers every line with a fresh console, into a sink; returns the bytes written.
  public static func answer(_ lines: [String]) -> Int {
    let console = EngineConsole(newSeed: { 0 })
    var writer = JSONWriter(capacity: 128 * 1024)
    var total = 0
    for var line in lines {
      line.withUTF8 { console.reply(to: UnsafeRawBufferPointer($0), into: &writer) }
      writer.raw(UInt8(ascii: "\n"))
      if writer.count > 64 * 1024 {
        total += writer.count
        writer.removeAll()
      }
    }
    return total + writer.count
  }

  private static func new(_ game: String, _ options: JSON, seed: UInt64) -> String {
    JSON.object([
      ("cmd", "new"), ("game", .string(game)), ("options", options), ("seed", JSON(seed)),
    ])
    .text
  }

  private static func act(_ action: JSON, player: String? = nil) -> String {
    var members: [(String, JSON)] = [("cmd", "act"), ("action", action)]
    if let player { members.append(("player", .string(player))) }
    return JSON.object(members).text
  }

  private static func advance(_ seconds: Double) -> String {
    JSON.object([("cmd", "advance"), ("seconds", JSON(seconds))]).text
  }

  private static func memory(
    _ options: MemoryGame.Options, seed: UInt64, into lines: inout [String]
  ) {
    let name = options.variant.rawValue
    let json: JSON =
      options.variant == .memory ? ["difficulty": .string(options.difficulty.rawValue)] : [:]
    lines.append(new(name, json, seed: seed))
    guard var match = try? Match<MemoryGame>(options: options, seed: seed) else { return }
    var seen: [PlayingCard: Int] = [:]
    var step = 0
    while !match.isOver, step < 400 {
      step += 1
      if let due = match.nextDue {
        lines.append(advance(due - match.clock))
        match.advance(to: due)
        continue
      }
      let open = match.state.board.indices.filter {
        !match.state.board[$0].faceUp && !match.state.board[$0].removed
          && !match.state.board[$0].matched
      }
      let up = match.state.turned.first
      var pick = open[step % open.count]
      if let up, let known = seen[match.state.board[up].card], known != up, open.contains(known) {
        pick = known
      }
      seen[match.state.board[pick].card] = pick
      lines.append(act(["type": "flip", "card": JSON(pick)]))
      _ = try? match.perform(.flip(pick), by: .solo)
      if step % 7 == 0 { lines.append(#"{"cmd":"state"}"#) }
      if step % 11 == 0 { lines.append(#"{"cmd":"view","player":"You"}"#) }
    }
    lines.append(#"{"cmd":"results"}"#)
  }

  private static func matchismo(seed: UInt64, into lines: inout [String]) {
    lines.append(new("matchismo", [:], seed: seed))
    guard var match = try? Match<MatchingGame>(options: .init(), seed: seed) else { return }
    var step = 0
    while let action = MatchingGame.hintedAction(in: match.state), step < 200 {
      step += 1
      if case .choose(let card) = action {
        lines.append(act(["type": "choose", "card": JSON(card)]))
      }
      _ = try? match.perform(action, by: .solo)
      if step % 9 == 0 { lines.append(#"{"cmd":"hint"}"#) }
    }
  }

  private static func set(seed: UInt64, into lines: inout [String]) {
    lines.append(new("set", [:], seed: seed))
    guard var match = try? Match<SetGame>(options: .init(), seed: seed) else { return }
    var step = 0
    while let action = SetGame.hintedAction(in: match.state), step < 200 {
      step += 1
      switch action {
      case .choose(let card): lines.append(act(["type": "choose", "card": JSON(card)]))
      default: lines.append(act(["type": "dealThree"]))
      }
      _ = try? match.perform(action, by: .solo)
    }
  }

  private static func snap(seed: UInt64, into lines: inout [String]) {
    lines.append(JSON.object([("cmd", "new"), ("game", "snap"), ("seed", JSON(seed))]).text)
    guard var match = try? Match<SnapGame>(options: .singlePlayer, seed: seed) else { return }
    for step in 0..<300 {
      if match.state.active == "You", !match.state.hasTurned, match.state.pause == nil {
        lines.append(act(["type": "turn", "player": "You"]))
        _ = try? match.perform(.turn, by: "You")
      } else if step % 13 == 0 {
        lines.append(act(["type": "snap", "player": "You"]))
        _ = try? match.perform(.snap, by: "You")
      } else if let due = match.nextDue {
        lines.append(advance(due - match.clock))
        match.advance(to: due)
      }
      if match.isOver { break }
    }
  }
}
