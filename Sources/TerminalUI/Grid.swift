import CardLayout

/// A colour a screen asks for, named by what it means on a card table; the driver turns it
/// into the escape sequence the terminal understands (16, 256 or 24-bit colours, or none).
public enum Colour: Sendable, Hashable, CaseIterable {
  /// Hearts and diamonds, Set's red.
  case red
  /// Set's green.
  case green
  /// Set's purple.
  case purple
  /// The cursor, a chosen card's border.
  case yellow
  /// Hints, links, the player's own seat.
  case cyan
  /// Card backs.
  case blue
  /// What is out of play: matched and removed cards, notes.
  case gray
}

/// How one cell is drawn. The background is the terminal's own unless `reverse` is set, so a
/// transparent terminal stays transparent (SGR 49).
public struct Style: Sendable, Hashable {
  public var foreground: Colour?
  public var bold: Bool
  public var dim: Bool
  public var reverse: Bool
  public var underline: Bool

  public init(
    foreground: Colour? = nil, bold: Bool = false, dim: Bool = false, reverse: Bool = false,
    underline: Bool = false
  ) {
    self.foreground = foreground
    self.bold = bold
    self.dim = dim
    self.reverse = reverse
    self.underline = underline
  }

  /// The terminal's own colours, nothing added.
  public static let plain = Style()
  public static let bold = Style(bold: true)
  public static let dim = Style(dim: true)
  public static let reverse = Style(reverse: true)

  public func with(_ colour: Colour?) -> Style {
    var copy = self
    copy.foreground = colour
    return copy
  }
}

/// One character cell: a grapheme that takes one column, and its style.
public struct Cell: Sendable, Hashable {
  public var character: Character
  public var style: Style

  public init(_ character: Character = " ", style: Style = .plain) {
    self.character = character
    self.style = style
  }

  public static let blank = Cell()
}

/// A rectangle of cells on a screen: CardLayout's, so that a layout's frames are drawn as they are.
public typealias Box = CellRect

/// A screen's worth of cells: what a renderer makes and the driver writes.
///
/// Every character is taken to fill one column: renderers use only one-cell glyphs
/// (PLATFORM.md "Widths"), and text from elsewhere (players' names) goes through
/// ``Grid/put(_:x:y:style:limit:)``, which drops what would not fit.
public struct Grid: Sendable, Equatable {
  public let width: Int
  public let height: Int
  public private(set) var cells: [Cell]

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  public subscript(x: Int, y: Int) -> Cell {
    get { cells[y * width + x] }
    set {
      guard x >= 0, x < width, y >= 0, y < height else { return }
      cells[y * width + x] = newValue
    }
  }

  /// Writes `text` from column `x` of row `y`, clipped at the grid's edge and at `limit`
  /// columns; returns the column after the last one written.
  @discardableResult
  public mutating func put(
    _ text: String, x: Int, y: Int, style: Style = .plain, limit: Int? = nil
  ) -> Int {
    guard y >= 0, y < height else { return x }
    var column = x
    let end = min(width, limit.map { x + $0 } ?? width)
    for character in text {
      guard column < end else { break }
      if column >= 0 { cells[y * width + column] = Cell(Self.printable(character), style: style) }
      column += 1
    }
    return column
  }

  /// Writes `text` centred in the `width` columns from `x`.
  public mutating func center(
    _ text: String, x: Int = 0, y: Int, width span: Int? = nil, style: Style = .plain
  ) {
    let span = span ?? width - x
    let count = text.count
    put(text, x: x + max(0, (span - count) / 2), y: y, style: style, limit: span)
  }

  /// Fills `box` with `character` in `style`.
  public mutating func fill(_ box: Box, with character: Character = " ", style: Style = .plain) {
    for row in max(0, box.y)..<min(height, box.maxY) {
      for column in max(0, box.x)..<min(width, box.maxX) {
        cells[row * width + column] = Cell(character, style: style)
      }
    }
  }

  /// Changes the style of the cells in `box`, keeping their characters.
  public mutating func restyle(_ box: Box, _ change: (inout Style) -> Void) {
    for row in max(0, box.y)..<min(height, box.maxY) {
      for column in max(0, box.x)..<min(width, box.maxX) {
        change(&cells[row * width + column].style)
      }
    }
  }

  /// Draws the border of `box` with `lines`.
  public mutating func frame(_ box: Box, lines: BoxLines, style: Style = .plain) {
    guard box.width >= 2, box.height >= 2 else { return }
    self[box.x, box.y] = Cell(lines.topLeft, style: style)
    self[box.maxX - 1, box.y] = Cell(lines.topRight, style: style)
    self[box.x, box.maxY - 1] = Cell(lines.bottomLeft, style: style)
    self[box.maxX - 1, box.maxY - 1] = Cell(lines.bottomRight, style: style)
    for column in (box.x + 1)..<(box.maxX - 1) {
      self[column, box.y] = Cell(lines.horizontal, style: style)
      self[column, box.maxY - 1] = Cell(lines.horizontal, style: style)
    }
    for row in (box.y + 1)..<(box.maxY - 1) {
      self[box.x, row] = Cell(lines.vertical, style: style)
      self[box.maxX - 1, row] = Cell(lines.vertical, style: style)
    }
  }

  /// The grid as text, one line per row, trailing spaces dropped: what a snapshot compares.
  public var text: String {
    (0..<height).map { row in
      var line = String(cells[(row * width)..<((row + 1) * width)].map(\.character))
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }

  /// A control character, a combining mark on its own or a bidi control drawn as `?`, so that
  /// no text from elsewhere can move the cursor or reorder the line.
  static func printable(_ character: Character) -> Character {
    guard let scalar = character.unicodeScalars.first else { return "?" }
    if character.unicodeScalars.count == 1 {
      switch scalar.value {
      case 0..<0x20, 0x7F..<0xA0, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
        return "?"
      default: return character
      }
    }
    // NB: a grapheme of several scalars may be wider than a cell (an emoji sequence) or carry
    // thousands of combining marks: its first scalar stands for it.
    return Character(scalar).isPrintableSingle ? Character(scalar) : "?"
  }
}

extension Character {
  fileprivate var isPrintableSingle: Bool {
    guard let value = unicodeScalars.first?.value else { return false }
    return value >= 0x20 && !(0x7F..<0xA0).contains(value)
      && !(0x200B...0x200F).contains(value) && !(0x202A...0x202E).contains(value)
      && !(0x2066...0x2069).contains(value)
  }
}

/// The characters a box is drawn with: Unicode's light lines, or ASCII's `+-|`.
public struct BoxLines: Sendable, Equatable {
  public var topLeft: Character
  public var topRight: Character
  public var bottomLeft: Character
  public var bottomRight: Character
  public var horizontal: Character
  public var vertical: Character

  public static let light = BoxLines(
    topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─",
    vertical: "│")
  public static let heavy = BoxLines(
    topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛", horizontal: "━",
    vertical: "┃")
  public static let double = BoxLines(
    topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝", horizontal: "═",
    vertical: "║")
  public static let ascii = BoxLines(
    topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-",
    vertical: "|")
  /// ASCII's border for a card that stands out (chosen, under the cursor).
  public static let asciiBold = BoxLines(
    topLeft: "#", topRight: "#", bottomLeft: "#", bottomRight: "#", horizontal: "=",
    vertical: "#")
}
