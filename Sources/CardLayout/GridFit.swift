/// The largest cards of a given shape that fit a number of cards into a rectangle.
///
/// Every column count from 1 to `count` is tried; `rows = ⌈count / columns⌉`, and the card
/// width is the smaller of what the columns and what the rows allow:
///
///     width = min((W − (columns − 1)·spacing) / columns,
///                 ((H − (rows − 1)·spacing) / rows) / aspectRatio)
///
/// where `W` × `H` is the rectangle inside the insets. The widest card wins; on a tie the
/// fewer columns win. The grid is centred in the rectangle inside the insets, cards fill it row
/// by row, and a short last row starts at the left like the rows above it.
public struct GridFit: Sendable, Equatable {
  public let count: Int
  public let columns: Int
  public let rows: Int
  /// The size of every card; zero when the spacing alone leaves no room, and then every frame
  /// is an empty rectangle at the centre.
  public let cardSize: Size
  public let spacing: Double
  /// One frame per card, row-major.
  public let frames: [Rect]

  /// Fits `count` cards of `aspectRatio` (height / width) into `bounds`.
  ///
  /// - Complexity: O(count).
  public init(
    count: Int, aspectRatio: Double, in bounds: Rect, spacing: Double = 0,
    insets: Insets = .zero
  ) {
    precondition(count >= 0, "count must not be negative")
    precondition(aspectRatio > 0, "aspectRatio must be positive")
    let available = bounds.inset(by: insets)
    var bestColumns = count > 0 ? 1 : 0
    var bestWidth = 0.0
    if count > 0 {
      for columns in 1...count {
        let width = Self.cardWidth(
          count: count, columns: columns, aspectRatio: aspectRatio, available: available.size,
          spacing: spacing)
        if width > bestWidth {
          bestWidth = width
          bestColumns = columns
        }
      }
    }
    let rows = bestColumns > 0 ? (count + bestColumns - 1) / bestColumns : 0
    let card = Size(width: bestWidth, height: bestWidth * aspectRatio)
    let gridWidth = Double(bestColumns) * card.width + Double(max(0, bestColumns - 1)) * spacing
    let gridHeight = Double(rows) * card.height + Double(max(0, rows - 1)) * spacing
    let left = available.minX + (available.width - gridWidth) / 2
    let top = available.minY + (available.height - gridHeight) / 2
    self.count = count
    self.columns = bestColumns
    self.rows = rows
    self.cardSize = card
    self.spacing = spacing
    guard bestWidth > 0 else {
      // NB: nothing fits; empty frames at the centre keep every index valid and in bounds.
      self.frames = Array(repeating: Rect(origin: available.center, size: .zero), count: count)
      return
    }
    self.frames = (0..<count).map { index in
      Rect(
        x: left + Double(index % bestColumns) * (card.width + spacing),
        y: top + Double(index / bestColumns) * (card.height + spacing), width: card.width,
        height: card.height)
    }
  }

  /// Fits `count` cards of `aspectRatio` (height / width) into a container of `size`.
  public init(
    count: Int, aspectRatio: Double, in size: Size, spacing: Double = 0, insets: Insets = .zero
  ) {
    self.init(
      count: count, aspectRatio: aspectRatio, in: Rect(origin: .zero, size: size),
      spacing: spacing, insets: insets)
  }

  /// The widest card of `aspectRatio` that fits `count` cards in `columns` columns, or zero.
  public static func cardWidth(
    count: Int, columns: Int, aspectRatio: Double, available: Size, spacing: Double
  ) -> Double {
    precondition(columns > 0, "columns must be positive")
    let rows = (count + columns - 1) / columns
    let byColumns = (available.width - Double(columns - 1) * spacing) / Double(columns)
    let byRows = (available.height - Double(max(0, rows - 1)) * spacing) / Double(max(1, rows))
    return max(0, min(byColumns, byRows / aspectRatio))
  }

  /// The index of the card under `point`, or nil in a gap or outside the grid.
  ///
  /// - Complexity: O(count).
  public func cardIndex(at point: Point) -> Int? {
    frames.firstIndex { $0.contains(point) }
  }
}
