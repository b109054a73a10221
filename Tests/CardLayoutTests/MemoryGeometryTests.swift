import CardLayout
import Testing

@Suite struct MemoryGeometryTests {
  /// A view, a grid, and the card size and first card origin worked out by hand from RULES §3.
  struct Expectation: Sendable, CustomTestStringConvertible {
    var view: Size
    var grid: MemoryGeometry.Grid
    var cardWidth: Double
    var cardHeight: Double
    var firstX: Double
    var firstY: Double
    var widthLimited: Bool

    var testDescription: String {
      "\(Int(view.width))×\(Int(view.height)) \(grid.columns)×\(grid.rows)"
    }
  }

  static let expectations: [Expectation] = [
    // 1024×768 Easy: h = 768/3 − 10 = 246, w = 246/1.452; table 4(w + 10) × 3·251 = 753,
    // centred: y = 7.5, first card at 7.5 + 5.
    Expectation(
      view: Size(width: 1024, height: 768), grid: .easy, cardWidth: 246 / 1.452,
      cardHeight: 246, firstX: (1024 - 4 * (246 / 1.452 + 10)) / 2 + 5, firstY: 12.5,
      widthLimited: false),
    // 1024×768 Medium: h = 768/4 − 10 = 182; table height 4·187 = 748, y = 10.
    Expectation(
      view: Size(width: 1024, height: 768), grid: .medium, cardWidth: 182 / 1.452,
      cardHeight: 182, firstX: (1024 - 6 * (182 / 1.452 + 10)) / 2 + 5, firstY: 15,
      widthLimited: false),
    // 1024×768 Hard: 8 × (125.3 + 10) > 1024, so w = 1024/8 − 10 = 118, h = 171.336;
    // table 1024 × 4·176.336 = 705.344, y = 31.328.
    Expectation(
      view: Size(width: 1024, height: 768), grid: .hard, cardWidth: 118, cardHeight: 171.336,
      firstX: 5, firstY: 31.328 + 5, widthLimited: true),
    // 320×480 Easy: 4 × (103.3 + 10) > 320, so w = 80 − 10 = 70, h = 101.64;
    // table 320 × 3·106.64 = 319.92, y = 80.04.
    Expectation(
      view: Size(width: 320, height: 480), grid: .easy, cardWidth: 70, cardHeight: 101.64,
      firstX: 5, firstY: 80.04 + 5, widthLimited: true),
    // 320×480 Medium: w = 320/6 − 10, h = 1.452w.
    Expectation(
      view: Size(width: 320, height: 480), grid: .medium, cardWidth: 320 / 6 - 10,
      cardHeight: (320 / 6 - 10) * 1.452, firstX: 5,
      firstY: (480 - 4 * ((320 / 6 - 10) * 1.452 + 5)) / 2 + 5, widthLimited: true),
    // 320×480 Hard: w = 40 − 10 = 30, h = 43.56; table height 4·48.56 = 194.24, y = 142.88.
    Expectation(
      view: Size(width: 320, height: 480), grid: .hard, cardWidth: 30, cardHeight: 43.56,
      firstX: 5, firstY: 142.88 + 5, widthLimited: true),
    // 768×1024 Hard: h = 1024/4 − 10 = 246, w = 169.4; 8 × 179.4 > 768: w = 86, h = 124.872.
    Expectation(
      view: Size(width: 768, height: 1024), grid: .hard, cardWidth: 86, cardHeight: 124.872,
      firstX: 5, firstY: (1024 - 4 * 129.872) / 2 + 5, widthLimited: true),
    // 2000×600 Easy: h = 190, w = 130.85; table 4·140.85 = 563.4 wide, 3·195 = 585 high.
    Expectation(
      view: Size(width: 2000, height: 600), grid: .easy, cardWidth: 190 / 1.452,
      cardHeight: 190, firstX: (2000 - 4 * (190 / 1.452 + 10)) / 2 + 5, firstY: 7.5 + 5,
      widthLimited: false),
  ]

  @Test(arguments: expectations)
  func cardSizeAndPositionsFollowTheOriginalFormula(_ expected: Expectation) {
    let geometry = MemoryGeometry(viewSize: expected.view, grid: expected.grid)
    #expect(geometry.isWidthLimited == expected.widthLimited)
    #expect(isClose(geometry.cardSize.width, expected.cardWidth))
    #expect(isClose(geometry.cardSize.height, expected.cardHeight))
    #expect(geometry.cardFrames.count == expected.grid.cardCount)
    let w = expected.cardWidth
    let h = expected.cardHeight
    for row in 0..<expected.grid.rows {
      for column in 0..<expected.grid.columns {
        let frame = geometry.frame(ofCard: row * expected.grid.columns + column)
        let wanted = Rect(
          x: expected.firstX + Double(column) * (w + 10),
          y: expected.firstY + Double(row) * (h + 5),
          width: w, height: h)
        #expect(isClose(frame, wanted), "card at row \(row), column \(column)")
      }
    }
  }

  @Test(arguments: containerSizes)
  func tableIsCentredAndEveryCardFitsTheView(view: Size) {
    let viewRect = Rect(origin: .zero, size: view)
    for grid in [
      MemoryGeometry.Grid.easy, .medium, .hard, MemoryGeometry.Grid(columns: 3, rows: 7),
    ] {
      let geometry = MemoryGeometry(viewSize: view, grid: grid)
      let table = geometry.tableFrame
      #expect(isClose(table.midX, view.width / 2) && isClose(table.midY, view.height / 2))
      #expect(isClose(table.width, Double(grid.columns) * (geometry.cardSize.width + 10)))
      #expect(isClose(table.height, Double(grid.rows) * (geometry.cardSize.height + 5)))
      // NB: a view too small even for the spacing gets empty cards and an overflowing table.
      guard geometry.cardSize.width > 0 else { continue }
      #expect(viewRect.holds(table))
      #expect(isClose(geometry.cardSize.height / geometry.cardSize.width, 1.452))
      for frame in geometry.cardFrames {
        #expect(viewRect.holds(frame))
        #expect(table.holds(frame))
      }
    }
  }

  @Test(arguments: containerSizes)
  func cardsAreHeightLimitedUnlessTheViewIsTooNarrow(view: Size) {
    for grid in [MemoryGeometry.Grid.easy, .medium, .hard] {
      let geometry = MemoryGeometry(viewSize: view, grid: grid)
      let byHeight = max(0, view.height / Double(grid.rows) - 10)
      if geometry.isWidthLimited {
        #expect(geometry.cardSize.height < byHeight)
        #expect(isClose(geometry.tableFrame.width, max(view.width, Double(grid.columns) * 10)))
      } else {
        #expect(isClose(geometry.cardSize.height, byHeight))
        #expect(geometry.tableFrame.width <= view.width)
      }
    }
  }

  @Test(arguments: containerSizes)
  func noTwoCardsOverlapAndGapsAreTenAcrossAndFiveDown(view: Size) {
    let geometry = MemoryGeometry(viewSize: view, grid: .medium)
    let frames = geometry.cardFrames
    for a in frames.indices {
      for b in frames.indices where a < b {
        #expect(!frames[a].overlaps(frames[b]), "cards \(a) and \(b)")
      }
    }
    #expect(isClose(frames[1].minX - frames[0].maxX, 10))
    #expect(isClose(frames[6].minY - frames[0].maxY, 5))
  }

  @Test func originalLeavesTheGridHalfASpacingBelowCentre() {
    let geometry = MemoryGeometry(viewSize: Size(width: 1024, height: 768), grid: .easy)
    let top = geometry.cardFrames[0].minY
    let bottom = 768 - geometry.cardFrames[11].maxY
    #expect(isClose(top - bottom, 5))
  }

  @Test func matchesAFlowLayoutInsideTheTable() {
    for view in containerSizes {
      let geometry = MemoryGeometry(viewSize: view, grid: .hard)
      guard geometry.cardSize.width > 0 else { continue }
      let flow = FlowLayout(
        width: geometry.tableFrame.width,
        sections: [
          FlowLayout.Section(
            itemCount: 32, itemSize: geometry.cardSize, itemSpacing: 10, lineSpacing: 5,
            insets: Insets(all: 5))
        ])
      let table = geometry.tableFrame
      for (index, frame) in flow.itemFrames[0].enumerated() {
        #expect(isClose(frame.offsetBy(dx: table.minX, dy: table.minY), geometry.cardFrames[index]))
      }
    }
  }

  @Test(arguments: containerSizes)
  func hitTestingFindsTheCardUnderAPointAndNothingInGaps(view: Size) {
    let geometry = MemoryGeometry(viewSize: view, grid: .hard)
    guard geometry.cardSize.width > 0 else { return }
    for (index, frame) in geometry.cardFrames.enumerated() {
      #expect(geometry.cardIndex(at: frame.center) == index)
      #expect(geometry.cardIndex(at: Point(x: frame.minX + 0.01, y: frame.maxY - 0.01)) == index)
      #expect(geometry.cardIndex(at: Point(x: frame.maxX + 5, y: frame.midY)) == nil)
      #expect(geometry.cardIndex(at: Point(x: frame.midX, y: frame.maxY + 2.5)) == nil)
    }
    #expect(geometry.cardIndex(at: Point(x: -1, y: -1)) == nil)
    #expect(geometry.cardIndex(at: Point(x: view.width / 2, y: view.height - 0.1)) == nil)
  }

  @Test func presetsAreTheOriginalDifficulties() {
    #expect(MemoryGeometry.Grid.easy == MemoryGeometry.Grid(columns: 4, rows: 3))
    #expect(MemoryGeometry.Grid.medium == MemoryGeometry.Grid(columns: 6, rows: 4))
    #expect(MemoryGeometry.Grid.hard == MemoryGeometry.Grid(columns: 8, rows: 4))
    #expect([MemoryGeometry.Grid.easy, .medium, .hard].map(\.cardCount) == [12, 24, 32])
    let view = Size(width: 800, height: 600)
    #expect(
      MemoryGeometry(viewSize: view, columns: 6, rows: 4)
        == MemoryGeometry(viewSize: view, grid: .medium))
  }
}
