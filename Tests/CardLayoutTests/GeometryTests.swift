import CardLayout
import Testing

@Suite struct GeometryTests {
  @Test func rectEdgesAndCentre() {
    let rect = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(rect.minX == 10 && rect.maxX == 40 && rect.midX == 25)
    #expect(rect.minY == 20 && rect.maxY == 60 && rect.midY == 40)
    #expect(rect.center == Point(x: 25, y: 40))
    #expect(!rect.isEmpty && Rect(x: 0, y: 0, width: 0, height: 5).isEmpty)
  }

  @Test func pointContainmentIsHalfOpen() {
    let rect = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(rect.contains(Point(x: 0, y: 0)))
    #expect(rect.contains(Point(x: 9.999, y: 5)))
    #expect(!rect.contains(Point(x: 10, y: 5)))
    #expect(!rect.contains(Point(x: 5, y: 10)))
    #expect(!rect.contains(Point(x: -0.001, y: 5)))
  }

  @Test func touchingRectanglesDoNotIntersect() {
    let left = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(!left.intersects(Rect(x: 10, y: 0, width: 10, height: 10)))
    #expect(!left.intersects(Rect(x: 0, y: 10, width: 10, height: 10)))
    #expect(left.intersects(Rect(x: 9, y: 9, width: 10, height: 10)))
    #expect(left.intersects(Rect(x: 2, y: 2, width: 1, height: 1)))
  }

  @Test func rectContainsRectIncludingSharedEdges() {
    let outer = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(outer.contains(outer))
    #expect(outer.contains(Rect(x: 5, y: 5, width: 5, height: 5)))
    #expect(!outer.contains(Rect(x: 5, y: 5, width: 5.5, height: 5)))
  }

  @Test func insetsOffsetsAndUnion() {
    let rect = Rect(x: 0, y: 0, width: 100, height: 50)
    #expect(
      rect.inset(by: Insets(top: 1, left: 2, bottom: 3, right: 4))
        == Rect(x: 2, y: 1, width: 94, height: 46))
    #expect(rect.insetBy(dx: 5, dy: 5) == Rect(x: 5, y: 5, width: 90, height: 40))
    #expect(rect.offsetBy(dx: 3, dy: -2) == Rect(x: 3, y: -2, width: 100, height: 50))
    #expect(
      rect.union(Rect(x: 90, y: 40, width: 20, height: 20))
        == Rect(x: 0, y: 0, width: 110, height: 60))
    #expect(Insets(all: 5).horizontal == 10 && Insets(all: 5).vertical == 10)
  }

  @Test(arguments: [
    (0.0, 0.0, 1.0), (10.0, 0.173_648_177_666_930_33, 0.984_807_753_012_208_1),
    (20.0, 0.342_020_143_325_668_7, 0.939_692_620_785_908_4), (30.0, 0.5, 0.866_025_403_784_438_6),
    (90.0, 1.0, 0.0), (-30.0, -0.5, 0.866_025_403_784_438_6), (180.0, 0.0, -1.0),
    (390.0, 0.5, 0.866_025_403_784_438_6),
    (135.0, 0.707_106_781_186_547_6, -0.707_106_781_186_547_6),
  ])
  func rotatingTheUnitVectorGivesCosineAndSine(degrees: Double, sine: Double, cosine: Double) {
    let turned = Point(x: 1, y: 0).rotated(byDegrees: degrees)
    #expect(abs(turned.x - cosine) < 1e-15)
    #expect(abs(turned.y - sine) < 1e-15)
  }

  @Test func positiveAnglesTurnClockwiseOnScreen() {
    // NB: y grows downward, so "right" turning clockwise heads "down".
    let turned = Point(x: 11, y: 5).rotated(byDegrees: 90, around: Point(x: 10, y: 5))
    #expect(isClose(turned.x, 10) && isClose(turned.y, 6))
  }
}
