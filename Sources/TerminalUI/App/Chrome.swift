import CardLayout
import GameWire

/// The parts of every screen around a game's table: the top bar, the status and message
/// lines, the key line, and the boxes that open over the table (help, History, the end, a
/// question).
public enum Chrome {
  /// The size every game fits (README "Playing in a terminal").
  public static let minimumWidth = 80
  public static let minimumHeight = 24

  /// `text` whole when it has at most `width` characters, else its first `width - 1` and `…`:
  /// a line cut at the window's edge says that it goes on.
  public static func clipped(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    guard text.count > width else { return text }
    return String(text.prefix(width - 1)) + "…"
  }

  /// Breaks `text` into lines of at most `width` columns at spaces.
  public static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
      while line.count > width {
        lines.append(String(line.prefix(width)))
        line = String(line.dropFirst(width))
      }
    }
    lines.append(line)
    return lines
  }

  /// The top bar: the title on the left, the figures on the right, reversed.
  static func topBar(_ title: String, _ figures: String, into grid: inout Grid) {
    let bar = Style(bold: true, reverse: true)
    grid.fill(Box(x: 0, y: 0, width: grid.width, height: 1), style: bar)
    let right = figures.count + 2 < grid.width ? figures : ""
    grid.put(" " + title, x: 0, y: 0, style: bar, limit: grid.width - right.count - 2)
    grid.put(right + " ", x: grid.width - right.count - 1, y: 0, style: bar)
  }

  /// A box of `lines` centred over the screen, with a title, wrapped to fit; `scroll` lines
  /// skipped from the top (from the bottom when `anchorBottom`).
  static func dialog(
    _ title: String, _ lines: [String], footer: String, into grid: inout Grid, glyphs: Glyphs,
    width wanted: Int = 64, scroll: Int = 0, anchorBottom: Bool = false
  ) {
    let width = min(wanted, grid.width - 2)
    let inner = width - 4
    var wrapped: [String] = []
    for line in lines { wrapped += line.isEmpty ? [""] : wrap(line, width: inner) }
    let room = max(1, grid.height - 6)
    let most = max(0, wrapped.count - room)
    let start = anchorBottom ? max(0, most - scroll) : min(scroll, most)
    let shown = Array(wrapped.dropFirst(start).prefix(room))
    let height = shown.count + 4
    let box = Box(
      x: (grid.width - width) / 2, y: max(1, (grid.height - height) / 2), width: width,
      height: height)
    grid.fill(box)
    grid.frame(box, lines: glyphs.unicode ? .double : .ascii, style: .bold)
    grid.center(" \(title) ", x: box.x, y: box.y, width: box.width, style: .bold)
    for (offset, line) in shown.enumerated() {
      grid.put(line, x: box.x + 2, y: box.y + 1 + offset, limit: inner)
    }
    grid.center(
      footer, x: box.x, y: box.maxY - 2, width: box.width, style: Style(foreground: .cyan))
  }

  /// The message that replaces a game in a window too small for it; the game stays as it was.
  static func tooSmall(_ title: String, into grid: inout Grid, glyphs: Glyphs) {
    let times = glyphs.unicode ? "×" : "x"
    let lines = [
      "\(title) needs a window of at least \(minimumWidth)\(times)\(minimumHeight);",
      "this one is \(grid.width)\(times)\(grid.height).",
      "Make it larger: the game waits as it is.",
      "q quits",
    ]
    let top = max(0, (grid.height - lines.count) / 2)
    for (offset, line) in lines.enumerated() {
      grid.center(line, y: top + offset, style: offset == 0 ? .bold : .plain)
    }
  }
}
