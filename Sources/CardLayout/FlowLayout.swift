/// A vertical flow layout with sections, after `UICollectionViewFlowLayout`.
///
/// In each section the items run left to right and wrap to a new line when the next one would
/// cross the right inset; sections stack from top to bottom. Matchismo and Set use two
/// sections: the cards on the table, then — below a "matched cards:" header shown only once
/// there is a match — the found matches, drawn smaller (cs193p Assignment 3, extra task 3).
///
/// Every item of a section has the same size, so a line holds
/// `max(1, ⌊(W − insets + itemSpacing) / (itemWidth + itemSpacing)⌋)` items and item `i` sits
/// at column `i mod perLine` and line `i / perLine`.
///
/// - Note: UIKit spreads the spare width of a full line between its items; this layout keeps
///   exactly `itemSpacing` and aligns every line to the left, so columns line up across lines
///   and a short last line lines up with the lines above it.
public struct FlowLayout: Sendable, Equatable {
  /// A title above a section, as wide as the layout minus its insets.
  public struct Header: Sendable, Hashable {
    public var height: Double
    public var insets: Insets

    public init(height: Double, insets: Insets = .zero) {
      self.height = height
      self.insets = insets
    }
  }

  /// A run of equally sized items.
  public struct Section: Sendable, Hashable {
    public var itemCount: Int
    public var itemSize: Size
    /// The gap between neighbours on a line.
    public var itemSpacing: Double
    /// The gap between lines.
    public var lineSpacing: Double
    public var insets: Insets
    /// A header drawn above the section; present only while the section has items.
    public var header: Header?

    public init(
      itemCount: Int, itemSize: Size, itemSpacing: Double = 0, lineSpacing: Double = 0,
      insets: Insets = .zero, header: Header? = nil
    ) {
      precondition(itemCount >= 0, "itemCount must not be negative")
      self.itemCount = itemCount
      self.itemSize = itemSize
      self.itemSpacing = itemSpacing
      self.lineSpacing = lineSpacing
      self.insets = insets
      self.header = header
    }
  }

  /// What a point lands on.
  public enum Hit: Sendable, Hashable {
    case item(section: Int, item: Int)
    case header(section: Int)
  }

  public let width: Double
  public let sections: [Section]
  /// The frames of each section's items: `itemFrames[section][item]`.
  public let itemFrames: [[Rect]]
  /// Each section's header frame; nil when it has no header or no items.
  public let headerFrames: [Rect?]
  /// The height of everything laid out; an empty section takes no room at all.
  public let contentHeight: Double

  /// Lays out `sections` in a column `width` wide.
  ///
  /// - Complexity: O(total items).
  public init(width: Double, sections: [Section]) {
    var top = 0.0
    var items: [[Rect]] = []
    var headers: [Rect?] = []
    for section in sections {
      guard section.itemCount > 0 else {
        items.append([])
        headers.append(nil)
        continue
      }
      if let header = section.header {
        headers.append(
          Rect(
            x: header.insets.left, y: top + header.insets.top,
            width: width - header.insets.horizontal, height: header.height))
        top += header.insets.vertical + header.height
      } else {
        headers.append(nil)
      }
      top += section.insets.top
      let perLine = Self.itemsPerLine(section, width: width)
      let size = section.itemSize
      let lineTop = top
      items.append(
        (0..<section.itemCount).map { index in
          Rect(
            x: section.insets.left + Double(index % perLine) * (size.width + section.itemSpacing),
            y: lineTop + Double(index / perLine) * (size.height + section.lineSpacing),
            width: size.width, height: size.height)
        })
      let lines = (section.itemCount + perLine - 1) / perLine
      top += Double(lines) * size.height + Double(lines - 1) * section.lineSpacing
      top += section.insets.bottom
    }
    self.width = width
    self.sections = sections
    self.itemFrames = items
    self.headerFrames = headers
    self.contentHeight = top
  }

  /// The two-section table of Matchismo and Set: the cards in play, then the found matches
  /// under `matchedHeader` (which shows only once `foundMatches` has items).
  public static func table(
    width: Double, cards: Section, matchedHeader: Header?, foundMatches: Section
  ) -> FlowLayout {
    var found = foundMatches
    found.header = matchedHeader
    return FlowLayout(width: width, sections: [cards, found])
  }

  /// How many items of `section` share a line in a layout `width` wide (at least one).
  public static func itemsPerLine(_ section: Section, width: Double) -> Int {
    let pitch = section.itemSize.width + section.itemSpacing
    guard pitch > 0 else { return max(1, section.itemCount) }
    let room = width - section.insets.horizontal + section.itemSpacing
    // NB: a hair of tolerance so that a line computed to fit exactly is not lost to rounding.
    let fitting = (room / pitch * (1 + 1e-12)).rounded(.down)
    guard fitting >= 1 else { return 1 }
    return Int(min(fitting, Double(max(1, section.itemCount))))
  }

  /// The frame of `item` in `section`.
  public func frame(section: Int, item: Int) -> Rect {
    itemFrames[section][item]
  }

  /// The item or header under `point`, or nil in a gap, an inset or outside the content.
  ///
  /// - Complexity: O(total items).
  public func hit(at point: Point) -> Hit? {
    for (section, frames) in itemFrames.enumerated() {
      if let header = headerFrames[section], header.contains(point) {
        return .header(section: section)
      }
      if let item = frames.firstIndex(where: { $0.contains(point) }) {
        return .item(section: section, item: item)
      }
    }
    return nil
  }
}
