import CardLayout
import CardTableCommand
import CardTableTesting
import GameWire
import Glibc
import Testing

@testable import TerminalUI

/// The renderers as text snapshots (`Snapshots/*.txt`): every game and its main states at
/// 80×24, 100×30 and 120×40. `CARDTABLE_RECORD_GOLDEN=1` records them anew after a change made
/// on purpose; review the diff.
@Suite struct RendererSnapshotTests {
  static let sizes = [(80, 24), (100, 30), (120, 40)]

  static func render(
    _ session: Session, _ ui: UIState = UIState(), width: Int = 80, height: Int = 24,
    unicode: Bool = true
  ) -> Grid {
    ScreenRenderer.render(
      session: session, ui: ui, width: width, height: height, glyphs: Glyphs(unicode: unicode),
      now: 0
    ).grid
  }

  /// Each cell's colour as one letter (`.` for none): the colour layer of a snapshot.
  static func colours(_ grid: Grid) -> String {
    (0..<grid.height).map { row in
      var line = String(
        (0..<grid.width).map { column -> Character in
          switch grid[column, row].style.foreground {
          case .red: "r"
          case .green: "g"
          case .purple: "p"
          case .yellow: "y"
          case .cyan: "c"
          case .blue: "b"
          case .gray: "-"
          case nil: "."
          }
        })
      while line.last == "." { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }

  static func check(_ text: String, _ name: String, file: String = #filePath) throws {
    let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    let path = "\(folder)/Snapshots/\(name).txt"
    if Golden.recording {
      let handle = fopen(path, "wb")
      defer { fclose(handle) }
      fputs(text + "\n", handle)
      return
    }
    guard let handle = fopen(path, "rb") else {
      Issue.record("no snapshot \(name): record it with CARDTABLE_RECORD_GOLDEN=1")
      return
    }
    defer { fclose(handle) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = fread(&buffer, 1, buffer.count, handle)
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    let expected = String(decoding: bytes, as: UTF8.self)
    #expect(text + "\n" == expected, "snapshot \(name) differs")
  }

  static func new(_ game: String, options: JSON = [:], seed: Int = 5) throws -> ScriptedServer {
    let server = try ScriptedServer()
    server.send([
      "cmd": "new", "game": .string(game), "options": options, "seed": JSON(integerLiteral: seed),
    ])
    return server
  }

  @Test(arguments: ["memory", "concentration", "matchismo", "set", "snap"])
  func everyGameAtItsStartAtEverySize(game: String) throws {
    let server = try Self.new(game)
    if game == "snap" { server.advance(6) }
    for (width, height) in Self.sizes {
      try Self.check(
        Self.render(server.session, width: width, height: height).text,
        "\(game)-start-\(width)x\(height)")
    }
  }

  @Test func memoryChoiceMismatchAndEnd() throws {
    let server = try Self.new("memory", options: ["difficulty": "easy"])
    // Seed 5's board: 6♠ 6♠ 9♦ K♣ 6♥ 4♣ 4♣ 6♥ 8♣ 9♦ K♣ 8♣.
    server.act(["type": "flip", "card": 2])
    try Self.check(Self.render(server.session).text, "memory-choice")
    try Self.check(Self.colours(Self.render(server.session)), "memory-choice-colours")
    server.act(["type": "flip", "card": 3])
    try Self.check(Self.render(server.session).text, "memory-mismatch")
    server.advance(2)
    for pair in [[0, 1], [2, 9], [3, 10], [4, 7], [5, 6], [8, 11]] {
      for card in pair { server.act(["type": "flip", "card": JSON(integerLiteral: card)]) }
      server.advance(1)
    }
    #expect(server.session.over)
    try Self.check(Self.render(server.session).text, "memory-end")
  }

  @Test func matchismoMatchAndHistory() throws {
    let server = try Self.new("matchismo")
    server.act(["type": "choose", "card": 0])
    server.act(["type": "choose", "card": 1])
    server.act(["type": "choose", "card": 2])
    try Self.check(Self.render(server.session).text, "matchismo-match")
    var ui = UIState()
    ui.overlay = .panel(scroll: 0)
    try Self.check(Self.render(server.session, ui).text, "matchismo-history")
  }

  @Test func setTableOfTwentyOneCardsInColourAndAscii() throws {
    let server = try Self.new("set")
    for _ in 0..<3 { server.act(["type": "dealThree"]) }
    let table = server.session.view?["table"]?.arrayValue ?? []
    #expect(table.count == 21)
    try Self.check(Self.render(server.session).text, "set-21")
    try Self.check(Self.colours(Self.render(server.session)), "set-21-colours")
    let ascii = Self.render(server.session, unicode: false).text
    #expect(ascii.utf8.allSatisfy { $0 < 0x80 })
    try Self.check(ascii, "set-21-ascii")
  }

  @Test func aHintMarksItsCardsOnTheTable() throws {
    let server = try Self.new("set")
    server.send(["cmd": "hint"])
    let table = server.session.view?["table"]?.arrayValue ?? []
    let hinted = table.indices.filter { table[$0]["hinted"]?.boolValue == true }
    #expect(hinted == [0, 6, 11])
    var ui = UIState()
    ui.cursor = 1
    let rendered = ScreenRenderer.render(
      session: server.session, ui: ui, width: 80, height: 24,
      glyphs: Glyphs(unicode: true), now: 0)
    for index in hinted {
      let place = rendered.targets[index]
      #expect(rendered.grid[place.x + 2, place.y].style.foreground == .cyan)
    }
  }

  @Test func aSetMatchsLineNamesItsCardsAsTheFoundSetsDoAndFitsEightyColumns() throws {
    let server = try Self.new("set")
    server.send(["cmd": "hint"])
    let table = server.session.view?["table"]?.arrayValue ?? []
    let hinted = table.indices.filter { table[$0]["hinted"]?.boolValue == true }
    for index in hinted { server.act(["type": "choose", "card": JSON(integerLiteral: index)]) }
    let status = try #require(server.session.view?["status"]?.stringValue)
    // NB: the rules' line names the cards in full: longer than the window.
    #expect(status.hasPrefix("Matched ") && status.hasSuffix(" points.") && status.count > 79)
    let screen = ChoiceScreen(set: true)
    let names = hinted.compactMap { table[$0]["card"]?.stringValue }
    let named = "Matched " + names.joined(separator: " ")
    #expect(names.count == 3 && status.hasPrefix(named))
    for unicode in [true, false] {
      let glyphs = Glyphs(unicode: unicode)
      let short = names.map { screen.setShort($0, glyphs) }
      let shown = "Matched " + short.joined(separator: " ") + status.dropFirst(named.count)
      #expect(shown.count < 40)
      let line = String(
        Self.render(server.session, unicode: unicode).text.split(separator: "\n")[1])
      #expect(line == " " + shown)
      // NB: the found sets under the table say it the same way.
      #expect(
        Self.render(server.session, unicode: unicode).text.contains(short.joined(separator: " ")))
    }
  }

  @Test func aWordOfThreeColonsThatIsNoSetCardIsLeftAsItIs() {
    let screen = ChoiceScreen(set: true)
    let glyphs = Glyphs(unicode: true)
    #expect(
      screen.line("Ann:Bob:Cy:1 and oval:green:solid:2, then", glyphs)
        == "Ann:Bob:Cy:1 and 2●G, then")
    #expect(
      screen.line("diamond:blue:solid:1 oval:green:solid:4", glyphs)
        == "diamond:blue:solid:1 oval:green:solid:4")
    #expect(
      ChoiceScreen(set: false).line("Matched A♠ A♥ for 4 points.", Glyphs(unicode: false))
        == "Matched AS AH for 4 points.")
  }

  @Test func aLineLongerThanTheWindowEndsInAnEllipsis() {
    let line = String(repeating: "Ann, Bob, Cy and Dee ", count: 5)
    #expect(Chrome.clipped(line, to: 79) == line.prefix(78) + "…")
    #expect(Glyphs(unicode: false).text(Chrome.clipped(line, to: 79)) == line.prefix(78) + ".")
    #expect(Chrome.clipped("Ann's turn.", to: 79) == "Ann's turn.")
    #expect(Chrome.clipped(line, to: 0) == "")
  }

  @Test func snapFourSeatsInPlay() throws {
    let server = try Self.new("snap")
    server.advance(6)
    server.act(["type": "turn"])
    server.advance(3)
    try Self.check(Self.render(server.session).text, "snap-playing")
  }

  @Test func helpAndQuitDialogs() throws {
    let server = try Self.new("concentration")
    var ui = UIState()
    ui.overlay = .help(scroll: 0)
    try Self.check(Self.render(server.session, ui).text, "concentration-help")
    ui.overlay = .quit
    try Self.check(Self.render(server.session, ui).text, "concentration-quit")
  }

  @Test func aWindowTooSmallSaysTheSizeNeededAndTheSizeNow() throws {
    let server = try Self.new("memory")
    let text = Self.render(server.session, width: 60, height: 20).text
    #expect(text.contains("at least 80×24"))
    #expect(text.contains("this one is 60×20"))
    try Self.check(text, "memory-too-small")
  }

  @Test func theMenu() throws {
    var ui = UIState()
    ui.inMenu = true
    ui.menu = GameCatalog.names.map { .game($0) }
    ui.menuChoice = 1
    try Self.check(Self.render(Session(), ui).text, "menu")
  }
}

@Suite struct CursorTests {
  /// A 4×3 grid of places, 10 columns apart and 5 rows apart, with a short last row.
  static let places = (0..<10).map { index in
    CellRect(x: (index % 4) * 10, y: (index / 4) * 5, width: 9, height: 4)
  }

  @Test func leftAndRightGoInReadingOrderAndWrap() {
    #expect(Cursor.move(3, .right, Self.places) == 4)
    #expect(Cursor.move(4, .left, Self.places) == 3)
    #expect(Cursor.move(9, .right, Self.places) == 0)
    #expect(Cursor.move(0, .left, Self.places) == 9)
  }

  @Test func upAndDownKeepTheColumnOrTakeTheNearest() {
    #expect(Cursor.move(1, .down, Self.places) == 5)
    #expect(Cursor.move(5, .up, Self.places) == 1)
    #expect(Cursor.move(7, .down, Self.places) == 9)
    #expect(Cursor.move(1, .up, Self.places) == 1)
    #expect(Cursor.move(9, .down, Self.places) == 9)
  }

  @Test func homeAndEnd() {
    #expect(Cursor.move(6, .home, Self.places) == 0)
    #expect(Cursor.move(2, .end, Self.places) == 9)
  }
}

@Suite struct CellFitTests {
  @Test func memoryHardFitsEightByFourAt80By24() throws {
    let fit = try #require(
      CellFit(count: 32, in: CellRect(x: 0, y: 2, width: 80, height: 20), columns: 8))
    #expect(fit.columns == 8 && fit.rows == 4)
    #expect(fit.frames.allSatisfy { $0.x >= 0 && $0.maxX <= 80 && $0.y >= 2 && $0.maxY <= 22 })
    // No two cards overlap.
    for (a, b) in zip(fit.frames, fit.frames.dropFirst()) where a.y == b.y {
      #expect(a.maxX < b.x)
    }
  }

  @Test func cardsGrowWithTheWindow() throws {
    let small = try #require(CellFit(count: 12, in: CellRect(x: 0, y: 0, width: 80, height: 20)))
    let large = try #require(CellFit(count: 12, in: CellRect(x: 0, y: 0, width: 200, height: 56)))
    #expect(large.cardWidth > small.cardWidth && large.cardHeight > small.cardHeight)
  }

  @Test func tooManyCardsForTheRectangleDoNotFit() {
    #expect(CellFit(count: 52, in: CellRect(x: 0, y: 0, width: 40, height: 10)) == nil)
  }
}
