import CardLayout
import GameServer
import GameStore
import GameWire
import TerminalUI

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmark {
  /// What the terminal costs: the time to render a frame (the pure renderer and the diff
  /// writer) and the bytes written per keystroke, per move and per Snap! turn, each beside a
  /// full repaint's, on every game at 80×24 and 120×40.
  static let terminalFrames = Benchmark(
    name: "terminal", summary: "terminal frames: render time and bytes per key, move and turn"
  ) { size in
    var lines: [String] = []
    let repeats = size.pick(2_000, quick: 200, smoke: 2)
    for (width, height) in [(80, 24), (120, 40)] {
      for game in GameCatalog.names {
        guard
          let figures = TerminalFigures.measure(
            game, width: width, height: height, repeats: repeats)
        else {
          lines.append("terminal \(game) \(width)x\(height): could not be dealt")
          continue
        }
        lines.append(figures.line)
      }
    }
    return lines
  }
}

/// One game's terminal figures at one size.
struct TerminalFigures {
  var game: String
  var width: Int
  var height: Int
  var renderMicroseconds: Double
  var fullBytes: Int
  var keyBytes: Int
  var moveBytes: Int
  /// Snap!: the bytes of the frames from one of the player's turns to the next (the three
  /// computers' turns between), summed.
  var turnBytes: Int?

  var line: String {
    var text =
      "terminal \(game) \(width)x\(height): \(Benchmark.format(renderMicroseconds)) µs/frame, "
      + "full paint \(fullBytes) B, cursor key \(keyBytes) B, move \(moveBytes) B"
    if let turnBytes { text += ", Snap! round of turns \(turnBytes) B" }
    return text
  }

  static func measure(_ game: String, width: Int, height: Int, repeats: Int) -> TerminalFigures? {
    guard let server = try? ScriptedServer() else { return nil }
    server.send(["cmd": "new", "game": .string(game), "seed": 5])
    if game == "snap" { server.advance(6) }
    let glyphs = Glyphs(unicode: true)
    let writer = ScreenWriter(
      capabilities: TerminalCapabilities(colours: .indexed256, unicode: true))
    var ui = UIState()
    func frame() -> Grid {
      ScreenRenderer.render(
        session: server.session, ui: ui, width: width, height: height, glyphs: glyphs, now: 0
      ).grid
    }
    let first = frame()
    let full = writer.frame(from: nil, to: first).count
    var bytes = 0
    let seconds = Benchmark.seconds {
      for index in 0..<repeats {
        ui.cursor = index % 2
        bytes &+= writer.frame(from: first, to: frame()).count
      }
    }
    ui.cursor = 1
    let moved = frame()
    let key = writer.frame(from: first, to: moved).count
    let action: JSON =
      switch game {
      case "memory", "concentration": ["type": "flip", "card": 1]
      case "snap": ["type": "turn"]
      default: ["type": "choose", "card": 1]
      }
    server.send(["cmd": "act", "action": action])
    let after = frame()
    let move = writer.frame(from: moved, to: after).count
    var turn: Int?
    if game == "snap" {
      // The three computers turn, each frame written as it comes, until it is ours again.
      var last = after
      var total = 0
      for _ in 0..<12 {
        server.advance(0.5)
        let next = frame()
        total += writer.frame(from: last, to: next).count
        last = next
      }
      turn = total
    }
    precondition(bytes >= 0)
    return TerminalFigures(
      game: game, width: width, height: height,
      renderMicroseconds: seconds * 1e6 / Double(repeats), fullBytes: full, keyBytes: key,
      moveBytes: move, turnBytes: turn)
  }
}
