/// A rectangle of terminal cells: whole columns and rows from the top left.
public struct CellRect: Sendable, Hashable {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var maxX: Int { x + width }
  public var maxY: Int { y + height }
  public var midX: Int { x + width / 2 }

  public func contains(x px: Int, y py: Int) -> Bool {
    px >= x && px < maxX && py >= y && py < maxY
  }
}

/// The largest cards that fit a number of cards into a terminal's rectangle of cells: the
/// terminal's ``GridFit``, in whole cells.
///
/// A cell is about twice as tall as it is wide, so a card of height/width 1.4 on paper is
/// `0.7` rows per column here (`aspectRatio`). Every column count is tried (or only
/// `columns` when the game fixes its grid, as Memory's difficulties do); a card is as wide as
/// the columns allow and as tall as the rows allow, kept near the aspect ratio and within
/// `maximum`; the largest area wins, and on a tie the fewer rows. Cards are one column apart
/// and one row apart when the rows have room for it, else touching. The grid is centred.
public struct CellFit: Sendable, Equatable {
  public let columns: Int
  public let rows: Int
  public let cardWidth: Int
  public let cardHeight: Int
  /// One frame per card, row-major.
  public let frames: [CellRect]

  /// Nil when `count` cards of at least `minimum` do not fit in `bounds`.
  public init?(
    count: Int, in bounds: CellRect, aspectRatio: Double = 0.7,
    minimum: (width: Int, height: Int) = (5, 3), maximum: (width: Int, height: Int) = (15, 9),
    columns fixed: Int? = nil
  ) {
    guard count > 0 else { return nil }
    var best: (columns: Int, rows: Int, width: Int, height: Int, rowGap: Int)?
    let choices = fixed.map { [min($0, count)] } ?? Array(1...count)
    for columns in choices {
      let rows = (count + columns - 1) / columns
      let widthAllowed = (bounds.width - (columns - 1)) / columns
      for rowGap in [1, 0] {
        let heightAllowed = (bounds.height - (rows - 1) * rowGap) / rows
        var height = min(heightAllowed, maximum.height)
        let wanted = Int((Double(min(widthAllowed, maximum.width)) * aspectRatio).rounded())
        height = min(height, max(minimum.height, wanted))
        var width = min(widthAllowed, maximum.width)
        width = min(width, max(minimum.width, Int((Double(height) / aspectRatio).rounded()) + 1))
        guard width >= minimum.width, height >= minimum.height else { continue }
        let area = width * height
        if let current = best {
          let currentArea = current.width * current.height
          if area < currentArea || (area == currentArea && rows >= current.rows) { continue }
        }
        best = (columns, rows, width, height, rowGap)
        break
      }
    }
    guard let chosen = best else { return nil }
    columns = chosen.columns
    rows = chosen.rows
    cardWidth = chosen.width
    cardHeight = chosen.height
    let gridWidth = chosen.columns * chosen.width + (chosen.columns - 1)
    let gridHeight = chosen.rows * chosen.height + (chosen.rows - 1) * chosen.rowGap
    let left = bounds.x + (bounds.width - gridWidth) / 2
    let top = bounds.y + (bounds.height - gridHeight) / 2
    frames = (0..<count).map { index in
      CellRect(
        x: left + (index % chosen.columns) * (chosen.width + 1),
        y: top + (index / chosen.columns) * (chosen.height + chosen.rowGap), width: chosen.width,
        height: chosen.height)
    }
  }
}
