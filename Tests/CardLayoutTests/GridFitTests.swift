import CardLayout
import Testing

@Suite struct GridFitTests {
  static let aspectRatios = [1.452, 1.0, 0.7, 1.4]
  static let spacings = [0.0, 5.0]
  static let insets = Insets(top: 3, left: 7, bottom: 11, right: 2)

  /// Whether `count` cards of `card` fit in `columns` columns inside `available`.
  func fits(_ card: Size, count: Int, columns: Int, available: Size, spacing: Double) -> Bool {
    let rows = (count + columns - 1) / columns
    let width = Double(columns) * card.width + Double(columns - 1) * spacing
    let height = Double(rows) * card.height + Double(rows - 1) * spacing
    return width <= available.width + 1e-9 && height <= available.height + 1e-9
  }

  /// Every fit of `count` cards over the sizes, aspect ratios and spacings under test.
  func fits(count: Int) -> [(fit: GridFit, available: Rect, aspectRatio: Double)] {
    var result: [(GridFit, Rect, Double)] = []
    for size in containerSizes {
      for aspectRatio in Self.aspectRatios {
        for spacing in Self.spacings {
          let fit = GridFit(
            count: count, aspectRatio: aspectRatio, in: size, spacing: spacing,
            insets: Self.insets)
          result.append((fit, Rect(origin: .zero, size: size).inset(by: Self.insets), aspectRatio))
        }
      }
    }
    return result
  }

  @Test(arguments: 1...60)
  func everyCardFitsInsideTheInsetsWithoutOverlap(count: Int) {
    // NB: failures are collected and checked once; an #expect per pair would be slow.
    var problems: [String] = []
    for (fit, available, aspectRatio) in fits(count: count) {
      let label = "\(count) cards in \(available.size) at \(aspectRatio), spacing \(fit.spacing)"
      #expect(fit.frames.count == count)
      #expect(fit.columns * fit.rows >= count && fit.columns * (fit.rows - 1) < count)
      #expect(isClose(fit.cardSize.height, fit.cardSize.width * aspectRatio))
      for (index, frame) in fit.frames.enumerated() {
        if !available.holds(frame) || frame.size != fit.cardSize {
          problems.append("\(label): card \(index) at \(frame)")
        }
        for other in fit.frames[(index + 1)...] where frame.overlaps(other) {
          problems.append("\(label): \(frame) overlaps \(other)")
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  @Test(arguments: 1...60)
  func aCardOnePercentLargerFitsWithNoColumnCount(count: Int) {
    for (fit, available, _) in fits(count: count) where fit.cardSize.width > 0 {
      #expect(
        fits(
          fit.cardSize, count: count, columns: fit.columns, available: available.size,
          spacing: fit.spacing))
      let larger = fit.cardSize.scaled(by: 1.01)
      let columns = (1...count).filter {
        fits(larger, count: count, columns: $0, available: available.size, spacing: fit.spacing)
      }
      #expect(columns.isEmpty, "\(count) cards in \(available.size) fit \(columns) of \(larger)")
    }
  }

  @Test func cardWidthIsTheSmallerOfColumnAndRowLimits() {
    // NB: 12 cards in 4 columns → 3 rows; 400 wide allows (400 − 3·10)/4 = 92.5 wide, 300 high
    // allows (300 − 2·10)/3 = 93.33 tall.
    let available = Size(width: 400, height: 300)
    let square = GridFit.cardWidth(
      count: 12, columns: 4, aspectRatio: 1, available: available, spacing: 10)
    #expect(isClose(square, 92.5))
    let tall = GridFit.cardWidth(
      count: 12, columns: 4, aspectRatio: 2, available: available, spacing: 10)
    #expect(isClose(tall, 280.0 / 3 / 2))
  }

  @Test func twelveSquareCardsInAWideRectangleChooseSixByTwo() {
    let fit = GridFit(count: 12, aspectRatio: 1, in: Size(width: 600, height: 200))
    #expect(fit.columns == 6 && fit.rows == 2)
    #expect(fit.cardSize == Size(width: 100, height: 100))
    #expect(fit.frames[6] == Rect(x: 0, y: 100, width: 100, height: 100))
  }

  @Test func theGridIsCentredAndAShortLastRowStartsAtTheLeft() {
    // NB: 5 square cards in 300 × 250: 3 columns of 100 → 2 rows, 200 high, centred at y = 25.
    let fit = GridFit(count: 5, aspectRatio: 1, in: Rect(x: 10, y: 20, width: 300, height: 250))
    #expect(fit.columns == 3 && fit.rows == 2)
    #expect(fit.frames[0] == Rect(x: 10, y: 45, width: 100, height: 100))
    #expect(fit.frames[3] == Rect(x: 10, y: 145, width: 100, height: 100))
    #expect(fit.frames[4] == Rect(x: 110, y: 145, width: 100, height: 100))
  }

  @Test func onATieTheFewerColumnsWin() {
    // NB: 5 squares in 300 × 300: 2 × 3 and 3 × 2 both allow 100-point cards.
    let fit = GridFit(count: 5, aspectRatio: 1, in: Size(width: 300, height: 300))
    #expect(fit.columns == 2 && fit.rows == 3)
    #expect(fit.frames[0] == Rect(x: 50, y: 0, width: 100, height: 100))
    #expect(fit.frames[4] == Rect(x: 50, y: 200, width: 100, height: 100))
  }

  @Test func whenNothingFitsTheCardsAreEmptyAtTheCentre() {
    let fit = GridFit(count: 40, aspectRatio: 1, in: Size(width: 100, height: 100), spacing: 50)
    #expect(fit.cardSize == .zero)
    #expect(fit.frames == Array(repeating: Rect(x: 50, y: 50, width: 0, height: 0), count: 40))
  }

  @Test func noCardsGiveAnEmptyGrid() {
    let fit = GridFit(count: 0, aspectRatio: 1.452, in: Size(width: 100, height: 100))
    #expect(fit.frames.isEmpty && fit.columns == 0 && fit.rows == 0 && fit.cardSize == .zero)
    #expect(fit.cardIndex(at: Point(x: 50, y: 50)) == nil)
  }

  @Test(arguments: [1, 7, 12, 24, 52, 81])
  func hitTestingFindsTheCardUnderAPointAndNothingInGaps(count: Int) {
    let fit = GridFit(
      count: count, aspectRatio: 1.452, in: Size(width: 1024, height: 768), spacing: 6,
      insets: Insets(all: 4))
    for (index, frame) in fit.frames.enumerated() {
      #expect(fit.cardIndex(at: frame.center) == index)
      #expect(fit.cardIndex(at: frame.origin) == index)
      #expect(fit.cardIndex(at: Point(x: frame.maxX + 3, y: frame.midY)) == nil)
      #expect(fit.cardIndex(at: Point(x: frame.midX, y: frame.maxY + 3)) == nil)
    }
    #expect(fit.cardIndex(at: Point(x: 2, y: 2)) == nil)
  }
}
