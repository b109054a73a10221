import CardTableTesting
import Testing

@testable import TerminalUI

/// SplitMix64, for the seeded cases of this target's property tests.
struct TerminalTestRandom {
  var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (with a bias too small to matter in a test).
  mutating func int(below bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }

  mutating func chance(_ oneIn: Int) -> Bool {
    int(below: oneIn) == 0
  }
}

/// Just enough of a VT100 to read what ``ScreenWriter`` writes: CUP, SGR, CSI 2J and text.
/// Anything else it meets is a problem, and so is text written past the last column.
struct VirtualTerminal {
  let width: Int
  let height: Int
  var cells: [Cell]
  var x = 0
  var y = 0
  var style = Style.plain
  /// After a character in the last column, the next one would wrap (xterm's pending wrap).
  var pendingWrap = false
  var problems: [String] = []
  /// Every SGR parameter seen, 38 standing for its colour's parameters too.
  var parameters: [Int] = []

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    cells = Array(repeating: .blank, count: width * height)
  }

  static let sixteen: [Int: Colour] = [
    31: .red, 32: .green, 33: .yellow, 34: .blue, 35: .purple, 36: .cyan, 90: .gray,
  ]
  static let indexed256: [Int: Colour] = [
    160: .red, 28: .green, 91: .purple, 178: .yellow, 37: .cyan, 25: .blue, 245: .gray,
  ]
  static let trueColour: [[Int]: Colour] = [
    [200, 30, 45]: .red, [0, 140, 60]: .green, [125, 45, 170]: .purple, [215, 170, 0]: .yellow,
    [0, 160, 170]: .cyan, [40, 80, 170]: .blue, [140, 140, 140]: .gray,
  ]

  mutating func apply(_ bytes: [UInt8]) {
    var index = 0
    var text: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B {
        print(text)
        text = []
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") else {
          problems.append("ESC without [ at \(index)")
          index += 1
          continue
        }
        var end = index + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else {
          problems.append("unfinished sequence at \(index)")
          return
        }
        control(String(decoding: bytes[(index + 2)..<end], as: UTF8.self), final: bytes[end])
        index = end + 1
      } else if byte < 0x20 || byte == 0x7F {
        problems.append("control byte \(byte)")
        index += 1
      } else {
        text.append(byte)
        index += 1
      }
    }
    print(text)
  }

  mutating func print(_ text: [UInt8]) {
    for character in String(decoding: text, as: UTF8.self) {
      if pendingWrap {
        problems.append("wrote past the last column of row \(y)")
        pendingWrap = false
        x = 0
        y = min(height - 1, y + 1)
      }
      cells[y * width + x] = Cell(character, style: style)
      if x == width - 1 { pendingWrap = true } else { x += 1 }
    }
  }

  mutating func control(_ text: String, final: UInt8) {
    let numbers = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
    switch final {
    case UInt8(ascii: "H"):
      let row = numbers.first.flatMap { $0 } ?? 1
      let column = numbers.count > 1 ? numbers[1] ?? 1 : 1
      guard (1...height).contains(row), (1...width).contains(column) else {
        problems.append("CUP \(text) off the screen")
        return
      }
      y = row - 1
      x = column - 1
      pendingWrap = false
    case UInt8(ascii: "J") where text == "2":
      cells = Array(repeating: .blank, count: width * height)
    case UInt8(ascii: "m"):
      sgr(numbers.map { $0 ?? 0 })
    default:
      problems.append("CSI \(text)\(Character(Unicode.Scalar(final)))")
    }
  }

  mutating func sgr(_ codes: [Int]) {
    var index = 0
    while index < codes.count {
      let code = codes[index]
      parameters.append(code)
      index += 1
      switch code {
      case 0: style = .plain
      case 1: style.bold = true
      case 2: style.dim = true
      case 4: style.underline = true
      case 7: style.reverse = true
      case 38 where index + 1 < codes.count && codes[index] == 5:
        style.foreground = Self.indexed256[codes[index + 1]]
        if style.foreground == nil { problems.append("38;5;\(codes[index + 1])") }
        index += 2
      case 38 where index + 3 < codes.count && codes[index] == 2:
        let rgb = Array(codes[(index + 1)...(index + 3)])
        style.foreground = Self.trueColour[rgb]
        if style.foreground == nil { problems.append("38;2;\(rgb)") }
        index += 4
      default:
        if let colour = Self.sixteen[code] {
          style.foreground = colour
        } else {
          problems.append("SGR \(code)")
        }
      }
    }
  }

  /// Where the screen differs from `grid`, described, or nil when it shows exactly `grid`.
  func difference(from grid: Grid) -> String? {
    guard grid.width == width, grid.height == height else { return "size" }
    let wrong = (0..<cells.count).filter { cells[$0] != grid.cells[$0] }
    guard let first = wrong.first else { return nil }
    return "\(wrong.count) cells differ; first at x \(first % width), y \(first / width):"
      + " shows \(cells[first]), wanted \(grid.cells[first])"
  }
}

@Suite struct ScreenWriterTests {
  static let depths: [ColourDepth] = [.none, .sixteen, .indexed256, .trueColour]
  static let glyphs: [Character] = ["a", "b", "Z", "7", " ", " ", "#", "♠", "é", "─", "│", "◆"]

  static func randomStyle(_ random: inout TerminalTestRandom) -> Style {
    let colours: [Colour?] = [nil] + Colour.allCases
    return Style(
      foreground: colours[random.int(below: colours.count)], bold: random.chance(4),
      dim: random.chance(5), reverse: random.chance(6), underline: random.chance(7))
  }

  static func randomCell(_ random: inout TerminalTestRandom) -> Cell {
    random.chance(3)
      ? .blank
      : Cell(glyphs[random.int(below: glyphs.count)], style: randomStyle(&random))
  }

  static func randomGrid(_ random: inout TerminalTestRandom) -> Grid {
    var grid = Grid(width: 1 + random.int(below: 30), height: 1 + random.int(below: 10))
    for y in 0..<grid.height {
      for x in 0..<grid.width { grid[x, y] = randomCell(&random) }
    }
    return grid
  }

  /// `grid` with some cells changed: single cells, styles alone, or a run of text.
  static func edited(_ grid: Grid, _ random: inout TerminalTestRandom) -> Grid {
    var grid = grid
    for _ in 0..<random.int(below: 1 + grid.cells.count / 3) {
      let x = random.int(below: grid.width)
      let y = random.int(below: grid.height)
      switch random.int(below: 3) {
      case 0: grid[x, y] = randomCell(&random)
      case 1: grid[x, y].style = randomStyle(&random)
      default: grid.put("text ♣", x: x, y: y, style: randomStyle(&random))
      }
    }
    return grid
  }

  /// What a writer with `capabilities` should leave on the screen for `grid`.
  static func expected(_ grid: Grid, _ capabilities: TerminalCapabilities) -> Grid {
    var expected = grid
    for y in 0..<grid.height {
      for x in 0..<grid.width {
        if capabilities.colours == .none { expected[x, y].style.foreground = nil }
        if !capabilities.unicode, !grid[x, y].character.isASCII { expected[x, y].character = "?" }
      }
    }
    return expected
  }

  @Test(arguments: 0..<UInt64(Soak.count(300, soak: 10_000)))
  func diffsRebuildTheScreenExactly(seed: UInt64) {
    var random = TerminalTestRandom(seed: seed)
    let capabilities = TerminalCapabilities(
      colours: Self.depths[Int(seed % 4)], unicode: seed % 5 != 0)
    let writer = ScreenWriter(capabilities: capabilities)
    var grid = Self.randomGrid(&random)
    var screen = VirtualTerminal(width: grid.width, height: grid.height)
    screen.apply(writer.frame(from: nil, to: grid))
    #expect(screen.difference(from: Self.expected(grid, capabilities)) == nil, "first paint")
    for step in 1...4 {
      let next = Self.edited(grid, &random)
      screen.apply(writer.frame(from: grid, to: next))
      #expect(screen.difference(from: Self.expected(next, capabilities)) == nil, "step \(step)")
      grid = next
    }
    #expect(screen.problems.isEmpty, "\(screen.problems)")
    #expect(screen.style == .plain)
  }

  @Test func theFirstFrameClearsTheScreenThenPaints() {
    var grid = Grid(width: 10, height: 3)
    grid.put("hi", x: 4, y: 1, style: .bold)
    let bytes = ScreenWriter(capabilities: TerminalCapabilities(colours: .sixteen, unicode: true))
      .frame(from: nil, to: grid)
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "\u{1B}[0m\u{1B}[2J\u{1B}[2;5H\u{1B}[0;1mhi\u{1B}[0m")
  }

  @Test func aChangeOfSizeRepaintsEverything() {
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: .sixteen, unicode: true))
    var small = Grid(width: 10, height: 4)
    small.put("same", x: 0, y: 0)
    var large = Grid(width: 12, height: 4)
    large.put("same", x: 0, y: 0)
    let bytes = writer.frame(from: small, to: large)
    #expect(bytes.starts(with: Array("\u{1B}[0m\u{1B}[2J".utf8)))
    var screen = VirtualTerminal(width: 12, height: 4)
    screen.apply(bytes)
    #expect(screen.difference(from: large) == nil)
  }

  @Test(arguments: depths)
  func anUnchangedGridWritesNothing(depth: ColourDepth) {
    var random = TerminalTestRandom(seed: 7)
    let grid = Self.randomGrid(&random)
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: depth, unicode: true))
    #expect(writer.frame(from: grid, to: grid).isEmpty)
  }

  @Test(arguments: depths)
  func oneChangedCellTakesFewBytes(depth: ColourDepth) {
    var random = TerminalTestRandom(seed: 11)
    let grid = Self.randomGrid(&random)
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: depth, unicode: true))
    for style in [Style.plain, Style(foreground: .red), Style(foreground: .cyan, bold: true)] {
      var next = grid
      next[grid.width - 1, grid.height - 1] = Cell("♥", style: style)
      let bytes = writer.frame(from: grid, to: next)
      // NB: a 24-bit colour alone takes 15 bytes (`38;2;200;30;45`).
      let limit = depth == .trueColour && style.foreground != nil ? 40 : 30
      #expect(bytes.count < limit, "\(bytes.count) bytes for \(style)")
      var screen = VirtualTerminal(width: grid.width, height: grid.height)
      screen.apply(writer.frame(from: nil, to: grid))
      screen.apply(bytes)
      #expect(screen.difference(from: Self.expected(next, writer.capabilities)) == nil)
    }
  }

  @Test func aRunOfChangedCellsMovesTheCursorOnce() {
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: .sixteen, unicode: true))
    let blank = Grid(width: 20, height: 5)
    var next = blank
    next.put("Memory", x: 3, y: 2, style: Style(foreground: .red))
    let text = String(decoding: writer.frame(from: blank, to: next), as: UTF8.self)
    #expect(text == "\u{1B}[3;4H\u{1B}[0;31mMemory\u{1B}[0m")
  }

  @Test func aCellInTheLastColumnIsFollowedByAMove() {
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: .none, unicode: true))
    let blank = Grid(width: 4, height: 2)
    var next = blank
    next.put("abcd", x: 0, y: 0)
    next.put("e", x: 0, y: 1)
    let text = String(decoding: writer.frame(from: blank, to: next), as: UTF8.self)
    #expect(text == "\u{1B}[1;1Habcd\u{1B}[2;1He\u{1B}[0m")
  }

  @Test func eachColourHasItsCodeAtEachDepth() {
    let expected: [(ColourDepth, Colour, String)] = [
      (.sixteen, .red, "31"), (.sixteen, .green, "32"), (.sixteen, .purple, "35"),
      (.sixteen, .yellow, "33"), (.sixteen, .cyan, "36"), (.sixteen, .blue, "34"),
      (.sixteen, .gray, "90"),
      (.indexed256, .red, "38;5;160"), (.indexed256, .green, "38;5;28"),
      (.indexed256, .purple, "38;5;91"), (.indexed256, .yellow, "38;5;178"),
      (.indexed256, .cyan, "38;5;37"), (.indexed256, .blue, "38;5;25"),
      (.indexed256, .gray, "38;5;245"),
      (.trueColour, .red, "38;2;200;30;45"), (.trueColour, .green, "38;2;0;140;60"),
      (.trueColour, .purple, "38;2;125;45;170"), (.trueColour, .yellow, "38;2;215;170;0"),
      (.trueColour, .cyan, "38;2;0;160;170"), (.trueColour, .blue, "38;2;40;80;170"),
      (.trueColour, .gray, "38;2;140;140;140"),
    ]
    let blank = Grid(width: 3, height: 1)
    for (depth, colour, code) in expected {
      let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: depth, unicode: true))
      var next = blank
      next[1, 0] = Cell("x", style: Style(foreground: colour))
      let text = String(decoding: writer.frame(from: blank, to: next), as: UTF8.self)
      #expect(text == "\u{1B}[1;2H\u{1B}[0;\(code)mx\u{1B}[0m", "\(depth) \(colour)")
    }
  }

  @Test func attributesComeAfterAResetInOneSequence() {
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: .sixteen, unicode: true))
    let blank = Grid(width: 2, height: 1)
    var next = blank
    next[0, 0] = Cell(
      "x", style: Style(foreground: .blue, bold: true, dim: true, reverse: true, underline: true))
    let text = String(decoding: writer.frame(from: blank, to: next), as: UTF8.self)
    #expect(text == "\u{1B}[1;1H\u{1B}[0;1;2;4;7;34mx\u{1B}[0m")
  }

  @Test(arguments: 0..<UInt64(20))
  func withoutColourNoColourCodeIsWritten(seed: UInt64) {
    var random = TerminalTestRandom(seed: seed)
    let grid = Self.randomGrid(&random)
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: .none, unicode: true))
    let bytes =
      writer.frame(from: nil, to: grid) + writer.frame(from: grid, to: Self.edited(grid, &random))
    #expect(!String(decoding: bytes, as: UTF8.self).contains("38;"))
    var screen = VirtualTerminal(width: grid.width, height: grid.height)
    screen.apply(bytes)
    #expect(Set(screen.parameters).isSubset(of: [0, 1, 2, 4, 7]), "\(Set(screen.parameters))")
  }

  @Test(arguments: depths)
  func theBackgroundIsNeverSet(depth: ColourDepth) {
    var random = TerminalTestRandom(seed: 3)
    let grid = Self.randomGrid(&random)
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: depth, unicode: true))
    var screen = VirtualTerminal(width: grid.width, height: grid.height)
    screen.apply(writer.frame(from: nil, to: grid))
    #expect(!screen.parameters.contains { (40...49).contains($0) || (100...107).contains($0) })
    #expect(screen.problems.isEmpty)
  }

  @Test(arguments: 0..<UInt64(20))
  func withoutUnicodeEveryByteIsASCII(seed: UInt64) {
    var random = TerminalTestRandom(seed: seed)
    let grid = Self.randomGrid(&random)
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: .sixteen, unicode: false))
    let bytes =
      writer.frame(from: nil, to: grid) + writer.frame(from: grid, to: Self.edited(grid, &random))
    #expect(bytes.allSatisfy { $0 < 0x80 })
  }

  @Test func controlCharactersInCellsAreWrittenAsQuestionMarks() {
    let writer = ScreenWriter(capabilities: TerminalCapabilities(colours: .sixteen, unicode: true))
    let blank = Grid(width: 5, height: 1)
    var next = blank
    next[0, 0] = Cell("\u{1B}")
    next[1, 0] = Cell("\n")
    next[2, 0] = Cell("\u{85}")
    next[3, 0] = Cell("\u{7F}")
    next[4, 0] = Cell("\r\n")
    let text = String(decoding: writer.frame(from: blank, to: next), as: UTF8.self)
    #expect(text == "\u{1B}[1;1H?????\u{1B}[0m")
  }
}
