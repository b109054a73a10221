/// The Memory table as the original laid it out: a centred grid of cards for a view and a
/// grid of columns × rows (RULES.md §3).
///
/// The original (Swift by Example, "The game screen") sized a collection view from the card
/// size and centred it in the view, then let a flow layout with section inset `s` place the
/// cards. With `s` = 5, `r` = 1.452 (height / width), a view of `W` × `H` and `C` × `R` cards:
///
///     h = H / R − 2s,  w = h / r                       the original: rows fill the height
///     table = C·(w + 2s) × R·(h + s), centred in the view
///     card(row, column).origin = table.origin + (s + column·(w + 2s), s + row·(h + s))
///
/// The table is exactly wide enough for `C` cards between the insets with the flow layout's
/// default 10-point (= 2s) gap between neighbours, and the line spacing is `s`. Its height
/// leaves out the bottom inset, so the cards sit `s / 2` below the exact centre of the view;
/// this is the original's arithmetic and it is kept.
///
/// CardTable adds one rule the original lacked: when `C·(w + 2s) > W` (a narrow phone, or Hard
/// on a 4:3 screen) the cards shrink until the table is exactly as wide as the view,
///
///     w = W / C − 2s,  h = r·w
///
/// and the same table formula applies. Sizes never go below zero.
public struct MemoryGeometry: Sendable, Equatable {
  /// A table of columns × rows, with the original's three difficulties as presets.
  public struct Grid: Sendable, Hashable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
      precondition(columns > 0 && rows > 0, "a grid needs at least one column and one row")
      self.columns = columns
      self.rows = rows
    }

    /// Easy: 4 × 3, 12 cards.
    public static let easy = Grid(columns: 4, rows: 3)
    /// Medium: 6 × 4, 24 cards.
    public static let medium = Grid(columns: 6, rows: 4)
    /// Hard: 8 × 4, 32 cards.
    public static let hard = Grid(columns: 8, rows: 4)

    /// The number of cards on a full table.
    public var cardCount: Int { columns * rows }
  }

  /// The gap unit of the original, in points.
  public static let spacing = 5.0
  /// The card's height divided by its width.
  public static let aspectRatio = 1.452

  public let viewSize: Size
  public let grid: Grid
  /// The size of every card.
  public let cardSize: Size
  /// The original's collection view frame, centred in the view.
  public let tableFrame: Rect
  /// One frame per card, row-major: index `row * columns + column`.
  public let cardFrames: [Rect]
  /// True when the cards were shrunk to fit the view's width (see the type's discussion).
  public let isWidthLimited: Bool

  /// Lays out a full table of `grid.columns × grid.rows` cards in a view of `viewSize`.
  public init(viewSize: Size, grid: Grid) {
    let s = Self.spacing
    let columns = Double(grid.columns)
    let rows = Double(grid.rows)
    var height = max(0, viewSize.height / rows - 2 * s)
    var width = height / Self.aspectRatio
    let widthLimited = columns * (width + 2 * s) > viewSize.width
    if widthLimited {
      width = max(0, viewSize.width / columns - 2 * s)
      height = width * Self.aspectRatio
    }
    let tableSize = Size(width: columns * (width + 2 * s), height: rows * (height + s))
    let table = Rect(
      x: (viewSize.width - tableSize.width) / 2, y: (viewSize.height - tableSize.height) / 2,
      width: tableSize.width, height: tableSize.height)
    var frames: [Rect] = []
    frames.reserveCapacity(grid.cardCount)
    for row in 0..<grid.rows {
      for column in 0..<grid.columns {
        frames.append(
          Rect(
            x: table.minX + s + Double(column) * (width + 2 * s),
            y: table.minY + s + Double(row) * (height + s), width: width, height: height))
      }
    }
    self.viewSize = viewSize
    self.grid = grid
    self.cardSize = Size(width: width, height: height)
    self.tableFrame = table
    self.cardFrames = frames
    self.isWidthLimited = widthLimited
  }

  /// Lays out a full table of `columns × rows` cards in a view of `viewSize`.
  public init(viewSize: Size, columns: Int, rows: Int) {
    self.init(viewSize: viewSize, grid: Grid(columns: columns, rows: rows))
  }

  /// The frame of the card at row-major `index`.
  public func frame(ofCard index: Int) -> Rect {
    cardFrames[index]
  }

  /// The index of the card under `point`, or nil in a gap or outside the grid.
  ///
  /// - Complexity: O(1).
  public func cardIndex(at point: Point) -> Int? {
    guard let first = cardFrames.first, cardSize.width > 0, cardSize.height > 0 else {
      return nil
    }
    let s = Self.spacing
    let column = ((point.x - first.minX) / (cardSize.width + 2 * s)).rounded(.down)
    let row = ((point.y - first.minY) / (cardSize.height + s)).rounded(.down)
    guard column >= 0, column < Double(grid.columns), row >= 0, row < Double(grid.rows) else {
      return nil
    }
    let index = Int(row) * grid.columns + Int(column)
    return cardFrames[index].contains(point) ? index : nil
  }
}
