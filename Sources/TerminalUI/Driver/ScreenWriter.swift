/// Turns grids into the bytes that draw them: a full paint, or only the cells that changed
/// since the frame before.
///
/// The writer keeps no state: it assumes the terminal shows what `previous` says, in the plain
/// style (every frame it makes ends with SGR 0). It writes no background colour, so the
/// terminal's own stays (PLATFORM.md "Colour conventions": transparent terminals).
public struct ScreenWriter: Sendable {
  public let capabilities: TerminalCapabilities

  public init(capabilities: TerminalCapabilities) {
    self.capabilities = capabilities
  }

  /// The bytes that turn a terminal showing `previous` into one showing `next`.
  ///
  /// Without `previous`, or when its size differs, the screen is cleared (SGR 0, CSI 2J) and
  /// every cell that is not blank is painted. Otherwise only the cells that differ are
  /// written. The cursor is moved (CUP) only where it is not already, and the style (SGR)
  /// is emitted only where it changes; anything written ends with SGR 0. Nothing changed, no
  /// bytes.
  ///
  /// - Parameters:
  ///   - previous: what the terminal shows now, or nil when that is unknown.
  ///   - next: what it should show.
  /// - Returns: the bytes to write, in one `write(2)`.
  /// - Complexity: O(`next.width` × `next.height`).
  public func frame(from previous: Grid?, to next: Grid) -> [UInt8] {
    var out: [UInt8] = []
    let base: Grid
    if let previous, previous.width == next.width, previous.height == next.height {
      base = previous
    } else {
      out.append(contentsOf: Self.clear)
      // NB: after CSI 2J every cell is a blank in the plain style.
      base = Grid(width: next.width, height: next.height)
    }
    out.reserveCapacity(out.count + 64)
    var style = Style.plain
    // NB: the cursor's position, when known; after the last column it is not (pending wrap).
    var cursor: (x: Int, y: Int)?
    var wrote = false
    let width = next.width
    let cells = next.cells
    let shown = base.cells
    for y in 0..<next.height {
      for x in 0..<width {
        let cell = cells[y * width + x]
        guard cell != shown[y * width + x] else { continue }
        wrote = true
        if cursor.map({ $0.x != x || $0.y != y }) ?? true {
          Self.moveCursor(to: x, y, in: &out)
        }
        if cell.style != style {
          appendStyle(cell.style, to: &out)
          style = cell.style
        }
        appendCharacter(cell.character, to: &out)
        cursor = x + 1 < width ? (x + 1, y) : nil
      }
    }
    if wrote { out.append(contentsOf: Self.reset) }
    return out
  }

  /// SGR 0, then CSI 2J: the screen blank in the terminal's own colours.
  static let clear: [UInt8] = Array("\u{1B}[0m\u{1B}[2J".utf8)
  /// SGR 0: the plain style.
  static let reset: [UInt8] = Array("\u{1B}[0m".utf8)

  /// CUP to the 0-based column `x` and row `y` (the sequence is 1-based).
  static func moveCursor(to x: Int, _ y: Int, in out: inout [UInt8]) {
    out.append(0x1B)
    out.append(UInt8(ascii: "["))
    appendDecimal(y + 1, to: &out)
    out.append(UInt8(ascii: ";"))
    appendDecimal(x + 1, to: &out)
    out.append(UInt8(ascii: "H"))
  }

  /// SGR 0 followed by the attributes and the foreground colour of `style`, in one sequence.
  func appendStyle(_ style: Style, to out: inout [UInt8]) {
    out.append(0x1B)
    out.append(UInt8(ascii: "["))
    out.append(UInt8(ascii: "0"))
    if style.bold { Self.appendParameter(1, to: &out) }
    if style.dim { Self.appendParameter(2, to: &out) }
    if style.underline { Self.appendParameter(4, to: &out) }
    if style.reverse { Self.appendParameter(7, to: &out) }
    if let colour = style.foreground {
      switch capabilities.colours {
      case .none: break
      case .sixteen: Self.appendParameter(Self.sixteen(colour), to: &out)
      case .indexed256:
        for code in [38, 5, Self.indexed256(colour)] { Self.appendParameter(code, to: &out) }
      case .trueColour:
        let (red, green, blue) = Self.trueColour(colour)
        for code in [38, 2, red, green, blue] { Self.appendParameter(code, to: &out) }
      }
    }
    out.append(UInt8(ascii: "m"))
  }

  /// `;` and `value`: one more SGR parameter.
  static func appendParameter(_ value: Int, to out: inout [UInt8]) {
    out.append(UInt8(ascii: ";"))
    appendDecimal(value, to: &out)
  }

  /// The ANSI foreground code of `colour` among the 16 colours.
  static func sixteen(_ colour: Colour) -> Int {
    switch colour {
    case .red: 31
    case .green: 32
    case .yellow: 33
    case .blue: 34
    case .purple: 35
    case .cyan: 36
    case .gray: 90
    }
  }

  /// The index of `colour` in the 256-colour palette.
  static func indexed256(_ colour: Colour) -> Int {
    switch colour {
    case .red: 160
    case .green: 28
    case .purple: 91
    case .yellow: 178
    case .cyan: 37
    case .blue: 25
    case .gray: 245
    }
  }

  /// `colour` as 24-bit red, green and blue.
  static func trueColour(_ colour: Colour) -> (Int, Int, Int) {
    switch colour {
    case .red: (200, 30, 45)
    case .green: (0, 140, 60)
    case .purple: (125, 45, 170)
    case .yellow: (215, 170, 0)
    case .cyan: (0, 160, 170)
    case .blue: (40, 80, 170)
    case .gray: (140, 140, 140)
    }
  }

  /// The UTF-8 of `character`, or `?` for a control character (which would move the cursor)
  /// and, without Unicode, for anything not ASCII.
  func appendCharacter(_ character: Character, to out: inout [UInt8]) {
    let bytes = character.utf8
    if let only = bytes.first, bytes.count == 1 {
      out.append(only < 0x20 || only == 0x7F ? UInt8(ascii: "?") : only)
      return
    }
    let control = character.unicodeScalars.contains {
      $0.value < 0x20 || (0x7F..<0xA0).contains($0.value)
    }
    if !capabilities.unicode || control || bytes.isEmpty {
      out.append(UInt8(ascii: "?"))
    } else {
      out.append(contentsOf: bytes)
    }
  }

  /// `value`'s decimal digits, without making a string.
  static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    guard value >= 10 else {
      out.append(UInt8(ascii: "0") + UInt8(max(0, value)))
      return
    }
    appendDecimal(value / 10, to: &out)
    out.append(UInt8(ascii: "0") + UInt8(value % 10))
  }
}
