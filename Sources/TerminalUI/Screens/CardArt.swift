/// The characters a screen is drawn with: Unicode's suits and lines, or ASCII's `S H D C` and
/// `+-|` for a terminal without UTF-8 (PLATFORM.md "Widths").
public struct Glyphs: Sendable, Equatable {
  public var unicode: Bool

  public init(unicode: Bool) { self.unicode = unicode }

  public var lines: BoxLines { unicode ? .light : .ascii }
  /// The border of the card under the cursor.
  public var focus: BoxLines { unicode ? .heavy : .asciiBold }
  /// The border of a chosen card.
  public var chosen: BoxLines { unicode ? .double : .asciiBold }
  /// What fills a card's back.
  public var back: Character { unicode ? "░" : "#" }
  public var dot: Character { unicode ? "·" : "." }
  public var arrows: String { unicode ? "←↑↓→" : "arrows" }

  /// A suit as it is drawn: itself, or its letter in ASCII. Never followed by U+FE0F.
  public func suit(_ suit: Character) -> Character {
    guard !unicode else { return suit }
    switch suit {
    case "♠": return "S"
    case "♥": return "H"
    case "♦": return "D"
    case "♣": return "C"
    default: return "?"
    }
  }

  /// Text from the rules (statuses, receipts) made drawable: suits spelled as letters in ASCII.
  public func text(_ text: String) -> String {
    guard !unicode else { return text }
    return String(
      text.map { character -> Character in
        switch character {
        case "♠", "♥", "♦", "♣": suit(character)
        case "’", "‘": "'"
        case "“", "”": "\""
        case "–", "—": "-"
        case "…": "."
        default: character.isASCII ? character : "?"
        }
      })
  }
}

/// What one card place shows.
public struct CardLook: Sendable, Equatable {
  public enum Face: Sendable, Equatable {
    /// A playing card's text (`10♠`).
    case playing(String)
    /// A Set card's text (`oval:red:striped:2`).
    case set(String)
    /// Face down.
    case back
    /// No card here (taken away).
    case gone
  }

  public var face: Face
  public var chosen = false
  /// Out of play but still on the table (Concentration's matched, Matchismo's matched).
  public var matched = false
  public var hinted = false
  /// A key that chooses it, drawn in its corner (Set's and Matchismo's letters).
  public var label: Character?

  public init(
    _ face: Face, chosen: Bool = false, matched: Bool = false, hinted: Bool = false,
    label: Character? = nil
  ) {
    self.face = face
    self.chosen = chosen
    self.matched = matched
    self.hinted = hinted
    self.label = label
  }
}

/// Draws cards into boxes of any size from 3×3 up: a border, rank and suit (or a Set card's
/// number, symbol, shading and colour, told apart without colour too), or a back.
public enum CardArt {
  /// The smallest box a card is drawn in.
  public static let minimumWidth = 5
  public static let minimumHeight = 3

  public static func draw(
    _ look: CardLook, in box: Box, into grid: inout Grid, glyphs: Glyphs, focused: Bool
  ) {
    guard box.width >= 3, box.height >= 3 else { return }
    let inner = Box(x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2)
    var border = Style.plain
    var lines = glyphs.lines
    if look.chosen {
      lines = glyphs.chosen
      border = Style(foreground: .yellow, bold: true)
    }
    if look.hinted { border = Style(foreground: .cyan, bold: true) }
    if focused {
      lines = glyphs.focus
      border = Style(foreground: .yellow, bold: true)
    }
    switch look.face {
    case .gone:
      grid.fill(box)
      if focused { grid.frame(box, lines: lines, style: border) }
      return
    case .back:
      grid.fill(inner, with: glyphs.back, style: Style(foreground: .blue))
    case .playing(let text):
      grid.fill(inner)
      drawPlaying(text, in: inner, into: &grid, glyphs: glyphs, matched: look.matched)
    case .set(let text):
      grid.fill(inner)
      drawSet(text, in: inner, into: &grid, glyphs: glyphs, matched: look.matched)
    }
    if look.matched && !focused { border = Style(foreground: .gray, dim: true) }
    grid.frame(box, lines: lines, style: border)
    if let label = look.label {
      grid[box.x + 1, box.y] = Cell(label, style: Style(foreground: .cyan, bold: true))
    }
    if look.chosen && box.width >= 6 {
      grid.put(glyphs.unicode ? "✓" : "*", x: box.maxX - 2, y: box.y, style: border)
    }
  }

  /// Rank and suit of `10♠`.
  static func split(_ text: String) -> (rank: String, suit: Character) {
    guard let suit = text.last else { return ("?", "?") }
    return (String(text.dropLast()), suit)
  }

  static func isRed(_ suit: Character) -> Bool { suit == "♥" || suit == "♦" }

  private static func drawPlaying(
    _ text: String, in inner: Box, into grid: inout Grid, glyphs: Glyphs, matched: Bool
  ) {
    let (rank, suit) = split(text)
    let shown = glyphs.suit(suit)
    var style = Style(foreground: isRed(suit) ? .red : nil, bold: true)
    if matched { style = Style(foreground: .gray, dim: true) }
    let corner = rank + String(shown)
    if inner.height == 1 || inner.width < corner.count + 2 {
      grid.center(
        corner, x: inner.x, y: inner.y + (inner.height - 1) / 2, width: inner.width, style: style)
      return
    }
    grid.put(corner, x: inner.x, y: inner.y, style: style)
    let bottom = String(shown) + rank
    grid.put(bottom, x: inner.maxX - bottom.count, y: inner.maxY - 1, style: style)
    if inner.height >= 3 {
      let middle = inner.y + inner.height / 2
      let big = inner.width >= 7 && inner.height >= 5 ? "\(shown) \(shown)" : String(shown)
      grid.center(big, x: inner.x, y: middle, width: inner.width, style: style)
    }
  }

  /// A Set card's parts from its text `shape:colour:shading:number`.
  struct SetParts {
    var shape: String
    var colour: String
    var shading: String
    var number: Int

    /// Whether every part is one of a Set card's: not just any word with three colons.
    var isCard: Bool {
      ["diamond", "squiggle", "oval"].contains(shape)
        && ["red", "green", "purple"].contains(colour)
        && ["solid", "striped", "open"].contains(shading) && (1...3).contains(number)
    }

    init?(_ text: String) {
      let parts = text.split(separator: ":").map(String.init)
      guard parts.count == 4, let number = Int(parts[3]) else { return nil }
      shape = parts[0]
      colour = parts[1]
      shading = parts[2]
      self.number = number
    }
  }

  /// The one-cell symbol of a Set card's shape in its shading: the filled glyph for solid, the
  /// outline for open, the outline with a mark inside for striped; in ASCII, the shape's letter
  /// (`D O S`) in upper case for solid, lower case for open, and `%`-marked for striped.
  public static func setSymbol(shape: String, shading: String, glyphs: Glyphs) -> String {
    if glyphs.unicode {
      let set: (solid: String, striped: String, open: String) =
        switch shape {
        case "diamond": ("◆", "◈", "◇")
        case "oval": ("●", "◍", "○")
        default: ("■", "▥", "□")
        }
      return shading == "solid" ? set.solid : shading == "striped" ? set.striped : set.open
    }
    let letter = shape == "diamond" ? "D" : shape == "oval" ? "O" : "S"
    return shading == "solid" ? letter : shading == "striped" ? "%" : letter.lowercased()
  }

  static func setColour(_ name: String) -> Colour {
    switch name {
    case "red": .red
    case "green": .green
    default: .purple
    }
  }

  private static func drawSet(
    _ text: String, in inner: Box, into grid: inout Grid, glyphs: Glyphs, matched: Bool
  ) {
    guard let parts = SetParts(text) else {
      grid.center("?", x: inner.x, y: inner.y, width: inner.width)
      return
    }
    var style = Style(foreground: setColour(parts.colour), bold: parts.shading == "solid")
    if matched { style = Style(foreground: .gray, dim: true) }
    let symbol = setSymbol(shape: parts.shape, shading: parts.shading, glyphs: glyphs)
    let symbols = Array(repeating: symbol, count: parts.number).joined(
      separator: inner.width >= 7 ? " " : "")
    // NB: the words say the colour and shading without colour (NO_COLOR, a colour-blind eye);
    // a small card keeps the colour's initial.
    let shapeWord = parts.number == 1 ? parts.shape : parts.shape + "s"
    var lines = [(symbols, style)]
    let words = Style(foreground: style.foreground, dim: matched)
    let colourWord =
      inner.width >= parts.colour.count ? parts.colour : String(parts.colour.prefix(1)).uppercased()
    if inner.height >= 4 {
      lines += [(colourWord, words), (parts.shading, words), (shapeWord, Style(foreground: .gray))]
    } else if inner.height >= 3 {
      lines += [(colourWord, words), (parts.shading, words)]
    } else if inner.height == 2 {
      lines += [(colourWord + " " + parts.shading, words)]
    } else {
      lines[0].0 += " " + String(parts.colour.prefix(1)).uppercased()
    }
    let top = inner.y + max(0, (inner.height - lines.count) / 2)
    for (offset, line) in lines.prefix(inner.height).enumerated() {
      grid.center(line.0, x: inner.x, y: top + offset, width: inner.width, style: line.1)
    }
  }
}
