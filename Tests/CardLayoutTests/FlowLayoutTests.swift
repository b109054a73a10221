import CardLayout
import Testing

@Suite struct FlowLayoutTests {
  /// The Matchismo table of the cs193p solution: 70 × 90 cards, 56 × 72 found matches and a
  /// 20-point "matched cards:" header inset 10 from the top and left.
  func matchismo(width: Double, cards: Int, found: Int) -> FlowLayout {
    FlowLayout.table(
      width: width,
      cards: FlowLayout.Section(
        itemCount: cards, itemSize: Size(width: 70, height: 90), itemSpacing: 10, lineSpacing: 10,
        insets: Insets(all: 10)),
      matchedHeader: FlowLayout.Header(
        height: 20, insets: Insets(top: 10, left: 10, bottom: 0, right: 0)),
      foundMatches: FlowLayout.Section(
        itemCount: found, itemSize: Size(width: 56, height: 72), itemSpacing: 4, lineSpacing: 4,
        insets: Insets(all: 10)))
  }

  @Test func itemsWrapAtTheRightEdge() {
    // NB: 320 wide with 10-point insets: a fourth card would end at 10 + 3·80 + 70 = 320,
    // past the right inset at 310, so a line holds 3 cards.
    let layout = matchismo(width: 320, cards: 7, found: 0)
    let frames = layout.itemFrames[0]
    #expect(frames[0] == Rect(x: 10, y: 10, width: 70, height: 90))
    #expect(frames[2] == Rect(x: 170, y: 10, width: 70, height: 90))
    #expect(frames[3] == Rect(x: 10, y: 110, width: 70, height: 90))
    #expect(frames[6] == Rect(x: 10, y: 210, width: 70, height: 90))
    #expect(layout.contentHeight == 310)  // 10 + 3·90 + 2·10 + 10
  }

  @Test func anItemThatEndsExactlyAtTheRightInsetStaysOnTheLine() {
    // NB: 4 cards end at 10 + 3·80 + 70 = 320 = 330 − 10.
    let layout = matchismo(width: 330, cards: 5, found: 0)
    #expect(layout.itemFrames[0][3].minY == 10 && layout.itemFrames[0][3].maxX == 320)
    #expect(layout.itemFrames[0][4].minX == 10 && layout.itemFrames[0][4].minY == 110)
  }

  @Test func theHeaderAppearsOnlyOnceThereAreFoundMatches() {
    let none = matchismo(width: 320, cards: 6, found: 0)
    #expect(none.headerFrames == [nil, nil])
    #expect(none.itemFrames[1].isEmpty)
    #expect(none.contentHeight == 210)  // 10 + 2·90 + 10 + 10

    let some = matchismo(width: 320, cards: 6, found: 3)
    let tableBottom = 210.0
    #expect(some.headerFrames[0] == nil)
    #expect(some.headerFrames[1] == Rect(x: 10, y: tableBottom + 10, width: 310, height: 20))
    let foundTop = tableBottom + 10 + 20 + 10
    #expect(some.itemFrames[1][0] == Rect(x: 10, y: foundTop, width: 56, height: 72))
    #expect(some.itemFrames[1][2] == Rect(x: 130, y: foundTop, width: 56, height: 72))
    #expect(some.contentHeight == foundTop + 72 + 10)
  }

  @Test func anEmptyTableStillShowsTheFoundMatches() {
    let layout = matchismo(width: 320, cards: 0, found: 2)
    #expect(layout.itemFrames[0].isEmpty)
    #expect(layout.headerFrames[1] == Rect(x: 10, y: 10, width: 310, height: 20))
    #expect(layout.itemFrames[1][0].minY == 40)
  }

  @Test(arguments: [0, 1, 2, 3, 5, 8, 12, 21, 30, 81])
  func itemsStayInsideTheWidthAndNeverOverlap(count: Int) {
    for width in stride(from: 90.0, through: 1200, by: 37) {
      let layout = matchismo(width: width, cards: count, found: (count * 7) % 13)
      var allFrames: [Rect] = layout.headerFrames.compactMap { $0 }
      for (index, section) in layout.sections.enumerated() {
        let frames = layout.itemFrames[index]
        #expect(frames.count == section.itemCount)
        let perLine = FlowLayout.itemsPerLine(section, width: width)
        let lineEnd = width - section.insets.right
        for (item, frame) in frames.enumerated() {
          #expect(frame.minX >= section.insets.left - tolerance)
          #expect(frame.maxX <= lineEnd + tolerance)
          #expect(frame.maxY <= layout.contentHeight - section.insets.bottom + tolerance)
          // NB: the wrap point: the next item on this line would have crossed the right inset.
          if item % perLine == perLine - 1, item + 1 < frames.count {
            #expect(frame.maxX + section.itemSpacing + section.itemSize.width > lineEnd)
            #expect(frames[item + 1].minX == section.insets.left)
            #expect(frames[item + 1].minY > frame.maxY)
          } else if item + 1 < frames.count {
            #expect(frames[item + 1].minY == frame.minY)
            #expect(isClose(frames[item + 1].minX - frame.maxX, section.itemSpacing))
          }
        }
        allFrames += frames
      }
      // NB: one #expect for all pairs; an #expect per pair would be slow.
      let overlapping = allFrames.indices.flatMap { a in
        allFrames.indices.filter { b in a < b && allFrames[a].overlaps(allFrames[b]) }
      }
      #expect(overlapping.isEmpty, "width \(width)")
      if let last = layout.itemFrames.last(where: { !$0.isEmpty })?.last {
        #expect(isClose(last.maxY + 10, layout.contentHeight))
      } else {
        #expect(layout.contentHeight == 0)
      }
    }
  }

  @Test func aTooWideItemGetsALineOfItsOwn() {
    let section = FlowLayout.Section(
      itemCount: 3, itemSize: Size(width: 500, height: 10), itemSpacing: 5, lineSpacing: 5)
    let layout = FlowLayout(width: 300, sections: [section])
    #expect(FlowLayout.itemsPerLine(section, width: 300) == 1)
    #expect(layout.itemFrames[0].map(\.minY) == [0, 15, 30])
  }

  @Test func hitTestingFindsItemsAndTheHeaderAndNothingInGaps() {
    let layout = matchismo(width: 320, cards: 7, found: 5)
    for section in 0..<2 {
      for (item, frame) in layout.itemFrames[section].enumerated() {
        #expect(layout.hit(at: frame.center) == .item(section: section, item: item))
        #expect(layout.hit(at: frame.origin) == .item(section: section, item: item))
        #expect(
          layout.hit(at: Point(x: frame.maxX, y: frame.midY)) != .item(section: section, item: item)
        )
      }
    }
    let header = layout.headerFrames[1]!
    #expect(layout.hit(at: header.center) == .header(section: 1))
    #expect(layout.hit(at: Point(x: 85, y: 50)) == nil)  // between cards 0 and 1
    #expect(layout.hit(at: Point(x: 40, y: 105)) == nil)  // between lines
    #expect(layout.hit(at: Point(x: 5, y: 50)) == nil)  // in the left inset
    #expect(layout.hit(at: Point(x: 300, y: 50)) == nil)  // right of a short line
    #expect(layout.hit(at: Point(x: 40, y: header.minY - 5)) == nil)  // above the header
    #expect(layout.hit(at: Point(x: 40, y: layout.contentHeight + 1)) == nil)
  }

  @Test func withoutAHeaderTheSectionsStackDirectly() {
    let layout = FlowLayout.table(
      width: 200,
      cards: FlowLayout.Section(itemCount: 2, itemSize: Size(width: 50, height: 50)),
      matchedHeader: nil,
      foundMatches: FlowLayout.Section(itemCount: 1, itemSize: Size(width: 20, height: 20)))
    #expect(layout.headerFrames == [nil, nil])
    #expect(layout.itemFrames[1][0] == Rect(x: 0, y: 50, width: 20, height: 20))
    #expect(layout.contentHeight == 70)
  }
}
