import CardLayout

/// Layout arithmetic is floating point; comparisons allow this much absolute error.
let tolerance = 1e-9

/// Whether two numbers agree to within `tolerance`, relative for large values.
func isClose(_ a: Double, _ b: Double, within limit: Double = tolerance) -> Bool {
  abs(a - b) <= limit * max(1, abs(a), abs(b))
}

/// Whether two rectangles agree to within `tolerance`.
func isClose(_ a: Rect, _ b: Rect) -> Bool {
  isClose(a.minX, b.minX) && isClose(a.minY, b.minY) && isClose(a.width, b.width)
    && isClose(a.height, b.height)
}

extension Rect {
  /// Whether `other` lies inside, allowing rounding error at the edges.
  func holds(_ other: Rect) -> Bool {
    insetBy(dx: -tolerance * 100, dy: -tolerance * 100).contains(other)
  }

  /// Whether the two share area beyond rounding error.
  func overlaps(_ other: Rect) -> Bool {
    insetBy(dx: tolerance * 100, dy: tolerance * 100).intersects(other)
  }
}

/// Container sizes from a small watch to a large monitor, portrait and landscape.
let containerSizes: [Size] = [
  Size(width: 320, height: 480), Size(width: 480, height: 320), Size(width: 375, height: 667),
  Size(width: 768, height: 1024), Size(width: 1024, height: 768), Size(width: 1920, height: 1080),
  Size(width: 200, height: 200), Size(width: 80, height: 24), Size(width: 2560, height: 600),
  Size(width: 600, height: 2560), Size(width: 137.5, height: 911.25),
]
