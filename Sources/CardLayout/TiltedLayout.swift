/// Concentration's cards scattered on a table: a grid of cards, each turned by its own angle
/// and stacked by index (RULES.md §4).
///
/// The original (the 神経衰弱 UICollectionView sample) let a flow layout place the cards, then
/// turned each by 0°, 10°, 20° or 30° about its centre and gave it `zIndex = item`, so turned
/// neighbours overlap and later cards lie on top. Here the angles come from the game engine.
///
/// Placement: the container is inset by `insets` and then by the largest overhang of a turned
/// card beyond its frame, so every turned card stays inside the container (as long as one
/// turned card fits in it at all). In that area the frames form a centred grid of as many
/// `cardSize.width + spacing` columns as fit. When the rows do not fit the height, they close
/// up and overlap evenly, like a pile spread on a table, so the first row touches the top and
/// the last row the bottom.
public struct TiltedLayout: Sendable, Equatable {
  /// One card: where it lies, how it is turned and how high it is stacked.
  public struct Card: Sendable, Hashable {
    /// The card's frame before turning; it turns about the frame's centre.
    public let frame: Rect
    /// The turn in degrees; positive turns clockwise on screen (y grows downward).
    public let angle: Double
    /// The stacking order: cards with a larger z-index lie above.
    public let zIndex: Int

    public init(frame: Rect, angle: Double, zIndex: Int) {
      self.frame = frame
      self.angle = angle
      self.zIndex = zIndex
    }

    /// The four corners after turning: top-left, top-right, bottom-right, bottom-left.
    public var corners: [Point] {
      let center = frame.center
      return [
        Point(x: frame.minX, y: frame.minY), Point(x: frame.maxX, y: frame.minY),
        Point(x: frame.maxX, y: frame.maxY), Point(x: frame.minX, y: frame.maxY),
      ].map { $0.rotated(byDegrees: angle, around: center) }
    }

    /// The smallest axis-aligned rectangle around the turned card.
    public var boundingBox: Rect {
      let points = corners
      let xs = points.map(\.x)
      let ys = points.map(\.y)
      let left = xs.min() ?? frame.minX
      let top = ys.min() ?? frame.minY
      return Rect(
        x: left, y: top, width: (xs.max() ?? left) - left, height: (ys.max() ?? top) - top)
    }

    /// Whether `point` lies on the turned card, edges included (to within 10⁻⁹ points, so
    /// that a turned corner counts as on the card despite rounding).
    public func contains(_ point: Point) -> Bool {
      // NB: turning the point back by -angle puts it in the card's own unturned frame.
      let local = point.rotated(byDegrees: -angle, around: frame.center)
      let slack = 1e-9
      return local.x >= frame.minX - slack && local.x <= frame.maxX + slack
        && local.y >= frame.minY - slack && local.y <= frame.maxY + slack
    }
  }

  public let containerSize: Size
  public let columns: Int
  public let rows: Int
  /// One card per index; `cards[i].zIndex == i`.
  public let cards: [Card]

  /// Lays out `count` cards of `cardSize` in `container`, card `i` turned by `angles[i]`.
  ///
  /// - Parameters:
  ///   - count: how many cards.
  ///   - container: the space to fill.
  ///   - cardSize: each card's size before turning.
  ///   - angles: one angle in degrees per card, from the game engine (0, 10, 20 or 30).
  ///   - spacing: the gap between neighbouring frames, before turning.
  ///   - insets: the margins kept free inside `container`.
  /// - Complexity: O(count).
  public init(
    count: Int, container: Size, cardSize: Size, angles: [Double], spacing: Double = 5,
    insets: Insets = .zero
  ) {
    precondition(angles.count == count, "one angle per card")
    let overhang = angles.reduce(Size.zero) { widest, angle in
      let (sine, cosine) = sineAndCosine(degrees: angle)
      let turnedWidth = cardSize.width * abs(cosine) + cardSize.height * abs(sine)
      let turnedHeight = cardSize.width * abs(sine) + cardSize.height * abs(cosine)
      return Size(
        width: max(widest.width, (turnedWidth - cardSize.width) / 2),
        height: max(widest.height, (turnedHeight - cardSize.height) / 2))
    }
    let area = Rect(origin: .zero, size: container).inset(by: insets)
      .insetBy(dx: overhang.width, dy: overhang.height)
    let pitchX = cardSize.width + spacing
    var columns = 1
    if pitchX > 0 {
      let fitting = ((area.width + spacing) / pitchX * (1 + 1e-12)).rounded(.down)
      columns = Int(max(1, min(fitting, Double(max(1, count)))))
    }
    let rows = count > 0 ? (count + columns - 1) / columns : 0
    var pitchY = cardSize.height + spacing
    let neededHeight = Double(rows) * cardSize.height + Double(max(0, rows - 1)) * spacing
    if rows > 1, neededHeight > area.height {
      pitchY = max(0, (area.height - cardSize.height) / Double(rows - 1))
    }
    let gridWidth = Double(min(columns, count)) * pitchX - spacing
    let gridHeight = Double(max(0, rows - 1)) * pitchY + cardSize.height
    let left = area.minX + (area.width - gridWidth) / 2
    let top = area.minY + max(0, (area.height - gridHeight) / 2)
    self.containerSize = container
    self.columns = count > 0 ? columns : 0
    self.rows = rows
    self.cards = (0..<count).map { index in
      Card(
        frame: Rect(
          x: left + Double(index % columns) * pitchX, y: top + Double(index / columns) * pitchY,
          width: cardSize.width, height: cardSize.height),
        angle: angles[index], zIndex: index)
    }
  }

  /// The index of the topmost card whose turned rectangle holds `point`, or nil.
  ///
  /// - Complexity: O(count).
  public func topCard(at point: Point) -> Int? {
    cards.indices.reversed().first { cards[$0].contains(point) }
  }
}
