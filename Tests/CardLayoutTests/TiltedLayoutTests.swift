import CardLayout
import Testing

@Suite struct TiltedLayoutTests {
  static let cardSize = Size(width: 50, height: 72.6)

  /// The angles a seeded deal might give: 0°, 10°, 20° or 30°, scrambled by index.
  static func angles(count: Int, salt: Int = 0) -> [Double] {
    (0..<count).map { Double(((($0 + salt) * 7 + 3) * 13 % 17) % 4) * 10 }
  }

  /// Whether `point` lies in the convex polygon `corners` (clockwise on screen), edges included.
  ///
  /// An independent check of `Card.contains`, which turns the point back instead.
  static func polygon(_ corners: [Point], holds point: Point) -> Bool {
    var sign = 0.0
    for index in corners.indices {
      let a = corners[index]
      let b = corners[(index + 1) % corners.count]
      let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
      if abs(cross) < 1e-9 { continue }
      if sign == 0 {
        sign = cross
      } else if (sign > 0) != (cross > 0) {
        return false
      }
    }
    return true
  }

  @Test(arguments: [1, 2, 5, 12, 26, 52])
  func turnedCardsStayInsideTheContainer(count: Int) {
    for container in containerSizes where container.width >= 120 && container.height >= 120 {
      let layout = TiltedLayout(
        count: count, container: container, cardSize: Self.cardSize,
        angles: Self.angles(count: count), insets: Insets(all: 4))
      let bounds = Rect(origin: .zero, size: container).inset(by: Insets(all: 4))
      #expect(layout.cards.count == count)
      for card in layout.cards {
        #expect(bounds.holds(card.boundingBox))
        for corner in card.corners {
          #expect(corner.x >= bounds.minX - tolerance && corner.x <= bounds.maxX + tolerance)
          #expect(corner.y >= bounds.minY - tolerance && corner.y <= bounds.maxY + tolerance)
        }
      }
    }
  }

  @Test(arguments: [1, 2, 5, 12, 26, 52])
  func framesInARowNeverOverlapAndRowsGoDown(count: Int) {
    for container in containerSizes where container.width >= 120 && container.height >= 120 {
      let layout = TiltedLayout(
        count: count, container: container, cardSize: Self.cardSize,
        angles: Self.angles(count: count))
      for (index, card) in layout.cards.enumerated() where index + 1 < count {
        let next = layout.cards[index + 1].frame
        if (index + 1) % layout.columns == 0 {
          #expect(next.minY >= card.frame.minY)
          #expect(isClose(next.minX, layout.cards[0].frame.minX))
        } else {
          #expect(isClose(next.minY, card.frame.minY))
          #expect(isClose(next.minX - card.frame.maxX, 5))
        }
      }
    }
  }

  @Test func rowsFitWithoutOverlapWhenThereIsRoom() {
    let layout = TiltedLayout(
      count: 12, container: Size(width: 1000, height: 800), cardSize: Self.cardSize,
      angles: Self.angles(count: 12))
    #expect(layout.columns == 12 && layout.rows == 1)
    let tall = TiltedLayout(
      count: 52, container: Size(width: 1024, height: 768), cardSize: Self.cardSize,
      angles: Array(repeating: 0, count: 52))
    #expect(tall.columns == 18 && tall.rows == 3)
    let frames = tall.cards.map(\.frame)
    for a in frames.indices {
      for b in frames.indices where a < b {
        #expect(!frames[a].overlaps(frames[b]))
      }
    }
  }

  @Test func rowsCloseUpAndOverlapWhenTheyDoNotFit() {
    let layout = TiltedLayout(
      count: 52, container: Size(width: 320, height: 300), cardSize: Self.cardSize,
      angles: Array(repeating: 0, count: 52))
    #expect(layout.columns == 5 && layout.rows == 11)
    let first = layout.cards[0].frame
    let last = layout.cards[50].frame
    #expect(isClose(first.minY, 0) && isClose(last.maxY, 300))
    #expect(layout.cards[5].frame.minY < first.maxY)
  }

  @Test func zIndexIsTheIndexAndAnglesComeFromTheEngine() {
    let angles = Self.angles(count: 52)
    let layout = TiltedLayout(
      count: 52, container: Size(width: 800, height: 600), cardSize: Self.cardSize, angles: angles)
    #expect(layout.cards.map(\.zIndex) == Array(0..<52))
    #expect(layout.cards.map(\.angle) == angles)
    #expect(Set(angles) == [0, 10, 20, 30])
  }

  @Test func aTurnedCardKeepsItsCentreAndSize() {
    let card = TiltedLayout.Card(
      frame: Rect(x: 100, y: 100, width: 40, height: 60), angle: 30, zIndex: 0)
    let corners = card.corners
    let centre = Point(
      x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
    #expect(isClose(centre.x, 120) && isClose(centre.y, 130))
    func distance(_ a: Point, _ b: Point) -> Double {
      ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
    #expect(isClose(distance(corners[0], corners[1]), 40))
    #expect(isClose(distance(corners[1], corners[2]), 60))
    // NB: turned clockwise by 30°, the top edge heads right and down by half its length.
    #expect(isClose(corners[1].y - corners[0].y, 20))
    // NB: bounding box of a 40 × 60 card at 30°: 40·cos + 60·sin by 40·sin + 60·cos.
    #expect(isClose(card.boundingBox.width, 40 * 0.866_025_403_784_438_6 + 30))
    #expect(isClose(card.boundingBox.height, 20 + 60 * 0.866_025_403_784_438_6))
  }

  @Test func turnedContainmentAgreesWithThePolygonTest() {
    let card = TiltedLayout.Card(
      frame: Rect(x: 100, y: 100, width: 40, height: 60), angle: 20, zIndex: 0)
    // NB: the top-left corner of the unturned frame has turned away; the turned corner is in.
    #expect(!card.contains(Point(x: 100.5, y: 100.5)))
    #expect(card.contains(card.corners[0]))
    for x in stride(from: 80.0, through: 160, by: 1.5) {
      for y in stride(from: 80.0, through: 180, by: 1.5) {
        let point = Point(x: x, y: y)
        #expect(card.contains(point) == Self.polygon(card.corners, holds: point))
      }
    }
  }

  @Test(arguments: [0, 1, 2, 3])
  func hitTestingReturnsTheTopmostCardUnderAPoint(salt: Int) {
    for (count, container) in [
      (52, Size(width: 320, height: 300)), (26, Size(width: 400, height: 500)),
    ] {
      let layout = TiltedLayout(
        count: count, container: container, cardSize: Self.cardSize,
        angles: Self.angles(count: count, salt: salt))
      let corners = layout.cards.map(\.corners)
      var overlapsSeen = 0
      var misses: [Point] = []
      for x in stride(from: 0.0, through: container.width, by: 3.7) {
        for y in stride(from: 0.0, through: container.height, by: 3.7) {
          let point = Point(x: x, y: y)
          let under = corners.indices.filter { Self.polygon(corners[$0], holds: point) }
          if layout.topCard(at: point) != under.last { misses.append(point) }
          if under.count > 1 { overlapsSeen += 1 }
        }
      }
      #expect(misses.isEmpty, "\(misses.prefix(5))")
      #expect(overlapsSeen > 0)
      // NB: nothing lies above the last card.
      #expect(layout.topCard(at: layout.cards[count - 1].frame.center) == count - 1)
    }
  }

  @Test func hitTestingFindsNothingInGapsOrOutside() {
    let layout = TiltedLayout(
      count: 4, container: Size(width: 400, height: 200), cardSize: Size(width: 50, height: 70),
      angles: [0, 0, 0, 0], spacing: 20)
    for (index, card) in layout.cards.enumerated() {
      #expect(layout.topCard(at: card.frame.center) == index)
      #expect(layout.topCard(at: Point(x: card.frame.maxX + 10, y: card.frame.midY)) == nil)
    }
    #expect(layout.topCard(at: Point(x: 1, y: 1)) == nil)
    #expect(layout.topCard(at: Point(x: 200, y: 199)) == nil)
  }

  @Test func noCardsGiveAnEmptyTable() {
    let layout = TiltedLayout(
      count: 0, container: Size(width: 100, height: 100), cardSize: Self.cardSize, angles: [])
    #expect(layout.cards.isEmpty && layout.columns == 0 && layout.rows == 0)
    #expect(layout.topCard(at: Point(x: 50, y: 50)) == nil)
  }
}
