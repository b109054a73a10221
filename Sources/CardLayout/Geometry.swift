/// A position in layout coordinates: x grows to the right, y grows downward (as on screen).
public struct Point: Sendable, Hashable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin, (0, 0).
  public static let zero = Point(x: 0, y: 0)

  /// Returns this point turned by `degrees` about `center`.
  ///
  /// With y growing downward, a positive angle turns clockwise on screen, like UIKit's
  /// `CGAffineTransform(rotationAngle:)`.
  public func rotated(byDegrees degrees: Double, around center: Point = .zero) -> Point {
    let (sine, cosine) = sineAndCosine(degrees: degrees)
    let dx = x - center.x
    let dy = y - center.y
    return Point(x: center.x + dx * cosine - dy * sine, y: center.y + dx * sine + dy * cosine)
  }
}

/// A width and a height.
public struct Size: Sendable, Hashable {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The empty size, 0 × 0.
  public static let zero = Size(width: 0, height: 0)

  /// Returns this size with both sides multiplied by `factor`.
  public func scaled(by factor: Double) -> Size {
    Size(width: width * factor, height: height * factor)
  }
}

/// Distances kept free inside the edges of a rectangle, as `UIEdgeInsets`.
public struct Insets: Sendable, Hashable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double

  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// The same inset on all four sides.
  public init(all inset: Double) {
    self.init(top: inset, left: inset, bottom: inset, right: inset)
  }

  /// No inset at all.
  public static let zero = Insets(all: 0)

  /// Left plus right.
  public var horizontal: Double { left + right }

  /// Top plus bottom.
  public var vertical: Double { top + bottom }
}

/// An axis-aligned rectangle given by its top-left corner and its size.
///
/// Containment of a point is half-open, like `CGRect.contains(_:)`: the left and top edges
/// belong to the rectangle, the right and bottom edges do not, so two rectangles that share an
/// edge never both contain a point of it.
public struct Rect: Sendable, Hashable {
  public var origin: Point
  public var size: Size

  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The empty rectangle at the origin.
  public static let zero = Rect(origin: .zero, size: .zero)

  public var width: Double { size.width }
  public var height: Double { size.height }
  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }

  /// The centre point.
  public var center: Point { Point(x: midX, y: midY) }

  /// Whether the width or the height is zero or negative.
  public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

  /// Whether `point` lies inside, counting the left and top edges but not the right and bottom.
  public func contains(_ point: Point) -> Bool {
    point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// Whether `other` lies entirely inside this rectangle (shared edges allowed).
  public func contains(_ other: Rect) -> Bool {
    other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
  }

  /// Whether the two rectangles share some area; rectangles that only touch do not intersect.
  public func intersects(_ other: Rect) -> Bool {
    minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
  }

  /// The smallest rectangle holding both.
  public func union(_ other: Rect) -> Rect {
    let left = Swift.min(minX, other.minX)
    let top = Swift.min(minY, other.minY)
    let right = Swift.max(maxX, other.maxX)
    let bottom = Swift.max(maxY, other.maxY)
    return Rect(x: left, y: top, width: right - left, height: bottom - top)
  }

  /// Returns the rectangle moved by `dx` and `dy`.
  public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width, height: height)
  }

  /// Returns the rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom
  /// (grown when negative).
  public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }

  /// Returns the part left inside `insets`.
  public func inset(by insets: Insets) -> Rect {
    Rect(
      x: minX + insets.left, y: minY + insets.top, width: width - insets.horizontal,
      height: height - insets.vertical)
  }
}
