import CardTableTesting
import Testing

@testable import TerminalUI

@Suite struct InputDecoderTests {
  /// The keys of `bytes` fed at once, and what a flush gives after them.
  func keys(_ bytes: [UInt8]) -> [Key] {
    var decoder = InputDecoder()
    return decoder.feed(bytes) + decoder.flush()
  }

  func keys(_ text: String) -> [Key] {
    keys(Array(text.utf8))
  }

  /// The keys of `bytes` fed in pieces cut at `cuts` (indices, ascending), then flushed.
  func keys(_ bytes: [UInt8], cutAt cuts: [Int]) -> [Key] {
    var decoder = InputDecoder()
    var result: [Key] = []
    var start = 0
    for cut in cuts + [bytes.count] {
      result += decoder.feed(bytes[start..<cut])
      start = cut
    }
    return result + decoder.flush()
  }

  static let escape = "\u{1B}"

  @Test func arrowsArriveInCSIAndSS3FormsWithOrWithoutModifiers() {
    let cases: [(String, Key)] = [
      ("[A", .up), ("[B", .down), ("[C", .right), ("[D", .left),
      ("OA", .up), ("OB", .down), ("OC", .right), ("OD", .left),
      ("[1;5C", .right), ("[1;2A", .up), ("[1;3D", .left), ("[1;6B", .down),
    ]
    for (sequence, key) in cases {
      #expect(keys(Self.escape + sequence) == [key], "ESC \(sequence)")
    }
  }

  @Test func homeAndEndArriveInEveryForm() {
    let cases: [(String, Key)] = [
      ("[H", .home), ("[F", .end), ("OH", .home), ("OF", .end),
      ("[1~", .home), ("[7~", .home), ("[4~", .end), ("[8~", .end), ("[1;5H", .home),
    ]
    for (sequence, key) in cases {
      #expect(keys(Self.escape + sequence) == [key], "ESC \(sequence)")
    }
  }

  @Test func pageKeysDeleteAndBackTab() {
    let cases: [(String, Key)] = [
      ("[5~", .pageUp), ("[6~", .pageDown), ("[3~", .delete), ("[Z", .backTab),
      ("[5;5~", .pageUp), ("[3;2~", .delete), ("OM", .enter),
    ]
    for (sequence, key) in cases {
      #expect(keys(Self.escape + sequence) == [key], "ESC \(sequence)")
    }
  }

  @Test func singleBytesAreTheirKeys() {
    #expect(keys([0x0D]) == [.enter])
    #expect(keys([0x0A]) == [.enter])
    #expect(keys([0x09]) == [.tab])
    #expect(keys([0x7F]) == [.backspace])
    #expect(keys([0x08]) == [.backspace])
    #expect(keys([0x03]) == [.control("c")])
    #expect(keys([0x01]) == [.control("a")])
    #expect(keys([0x1A]) == [.control("z")])
    #expect(keys([0x00]) == [.control("@")])
    #expect(keys([0x1F]) == [.control("_")])
    #expect(keys(" ") == [.character(" ")])
    #expect(keys("~") == [.character("~")])
  }

  @Test func sgrMouseReportsAreZeroBasedCells() {
    let cases: [(String, Mouse)] = [
      ("[<0;10;5M", Mouse(action: .press, button: 0, x: 9, y: 4)),
      ("[<0;10;5m", Mouse(action: .release, button: 0, x: 9, y: 4)),
      ("[<1;1;1M", Mouse(action: .press, button: 1, x: 0, y: 0)),
      ("[<2;80;24M", Mouse(action: .press, button: 2, x: 79, y: 23)),
      ("[<2;80;24m", Mouse(action: .release, button: 2, x: 79, y: 23)),
      ("[<32;3;4M", Mouse(action: .drag, button: 0, x: 2, y: 3)),
      ("[<34;3;4M", Mouse(action: .drag, button: 2, x: 2, y: 3)),
      ("[<64;7;8M", Mouse(action: .wheelUp, button: 0, x: 6, y: 7)),
      ("[<65;7;8M", Mouse(action: .wheelDown, button: 0, x: 6, y: 7)),
      // NB: Ctrl (16) and Shift (4) held do not change the click.
      ("[<16;5;6M", Mouse(action: .press, button: 0, x: 4, y: 5)),
      ("[<68;5;6M", Mouse(action: .wheelUp, button: 0, x: 4, y: 5)),
      ("[<0;300;120M", Mouse(action: .press, button: 0, x: 299, y: 119)),
    ]
    for (sequence, mouse) in cases {
      #expect(keys(Self.escape + sequence) == [.mouse(mouse)], "ESC \(sequence)")
    }
  }

  @Test func x10MouseReportsAreDecodedToo() {
    #expect(
      keys([0x1B, 0x5B, 0x4D, 32, 33 + 9, 33 + 4])
        == [.mouse(Mouse(action: .press, button: 0, x: 9, y: 4))])
    #expect(
      keys([0x1B, 0x5B, 0x4D, 35, 33, 33])
        == [.mouse(Mouse(action: .release, button: 0, x: 0, y: 0))])
    #expect(
      keys([0x1B, 0x5B, 0x4D, 32 + 65, 40, 40])
        == [.mouse(Mouse(action: .wheelDown, button: 0, x: 7, y: 7))])
  }

  @Test func aMultibyteCharacterSplitAcrossTwoFeedsIsOneKey() {
    for text in ["é", "♠", "🂡"] {
      let bytes = Array(text.utf8)
      for cut in 1..<bytes.count {
        var decoder = InputDecoder()
        #expect(decoder.feed(bytes[..<cut]).isEmpty)
        #expect(decoder.isPending)
        #expect(decoder.feed(bytes[cut...]) == [.character(Character(text))])
        #expect(!decoder.isPending)
      }
    }
  }

  @Test func aLoneEscapeWaitsForTheFlush() {
    var decoder = InputDecoder()
    #expect(decoder.feed([0x1B]).isEmpty)
    #expect(decoder.isPending)
    #expect(decoder.flush() == [.escape])
    #expect(!decoder.isPending)
    #expect(decoder.flush().isEmpty)
    #expect(decoder.feed("q".utf8) == [.character("q")])
  }

  @Test func anEscapeThenTheRestOfASequenceInALaterFeedIsTheSequence() {
    var decoder = InputDecoder()
    #expect(decoder.feed([0x1B]).isEmpty)
    #expect(decoder.feed("[".utf8).isEmpty)
    #expect(decoder.isPending)
    #expect(decoder.feed("1;5".utf8).isEmpty)
    #expect(decoder.feed("D".utf8) == [.left])
    #expect(!decoder.isPending)
  }

  @Test func escapeBeforeAnotherKeyIsAnAltKey() {
    #expect(keys(Self.escape + "j") == [.escape, .character("j")])
    #expect(keys(Self.escape + "é") == [.escape, .character("é")])
    #expect(keys([0x1B, 0x0D]) == [.escape, .enter])
    #expect(keys([0x1B, 0x1B]) == [.escape, .escape])
    #expect(keys(Self.escape + Self.escape + "[A") == [.escape, .up])
  }

  @Test func aSequenceCutShortIsFlushedAsEscapeAndTheRest() {
    var decoder = InputDecoder()
    #expect(decoder.feed((Self.escape + "[").utf8).isEmpty)
    #expect(decoder.isPending)
    #expect(decoder.flush() == [.escape, .character("[")])
    #expect(keys(Self.escape + "O") == [.escape, .character("O")])
    #expect(keys(Self.escape + "[1;") == [.escape, .unknown("[1;")])
    #expect(keys(Self.escape + "[<0;10") == [.escape, .unknown("[<0;10")])
    #expect(keys([0xE2, 0x99]) == [.unknown("\u{FFFD}")])
  }

  @Test func sequencesNotUnderstoodAreReportedNotDropped() {
    #expect(keys(Self.escape + "[15~") == [.unknown("[15~")])
    #expect(keys(Self.escape + "[2~") == [.unknown("[2~")])
    #expect(keys(Self.escape + "OP") == [.unknown("OP")])
    #expect(keys(Self.escape + "[?1;2c") == [.unknown("[?1;2c")])
    #expect(keys(Self.escape + "[<1;2M") == [.unknown("[<1;2M")])
    #expect(keys(Self.escape + "[<35;2;2M") == [.unknown("[<35;2;2M")])
    #expect(keys(Self.escape + "[200~x") == [.unknown("[200~"), .character("x")])
    // NB: a sequence interrupted by another: the first as far as it got, then the second.
    #expect(keys(Self.escape + "[1" + Self.escape + "[A") == [.unknown("[1"), .up])
    #expect(keys([0xFF, 0x61]) == [.unknown("\u{FFFD}"), .character("a")])
    #expect(keys([0xC3, 0x41]) == [.unknown("\u{FFFD}"), .character("A")])
    #expect(keys([0x80]) == [.unknown("\u{FFFD}")])
  }

  @Test func aLongRunawaySequenceEndsAsUnknown() {
    let bytes = [0x1B, 0x5B] + [UInt8](repeating: 0x31, count: 100) + [0x41]
    let decoded = keys(bytes)
    #expect(decoded.first.map { if case .unknown = $0 { true } else { false } } ?? false)
    #expect(decoded.count < 60)
  }

  @Test func severalKeysInOneFeedAllDecode() {
    #expect(keys("jjj") == [.character("j"), .character("j"), .character("j")])
    let burst = "\u{1B}[A\u{1B}[Bx\u{1B}[<0;2;3M\u{1B}[<0;2;3m\r"
    #expect(
      keys(burst) == [
        .up, .down, .character("x"),
        .mouse(Mouse(action: .press, button: 0, x: 1, y: 2)),
        .mouse(Mouse(action: .release, button: 0, x: 1, y: 2)), .enter,
      ])
  }

  /// A recording of everything above, one after another.
  static let recording: [UInt8] = Array(
    ("jk l\u{1B}[A\u{1B}OB\u{1B}[1;5C\u{1B}[H\u{1B}OF\u{1B}[7~\u{1B}[4~\u{1B}[5~\u{1B}[6~"
      + "\u{1B}[3~\u{1B}[Zé♠\u{1B}[<0;10;5M\u{1B}[<0;10;5m\u{1B}[<32;11;5M\u{1B}[<64;1;1M"
      + "\u{1B}[<65;1;1M\u{1B}x\u{1B}[15~\r\t\u{7F}\u{03}🂡\u{1B}OP\u{1B}[?1;2c").utf8)

  @Test func aRecordingSplitAtEveryByteGivesTheSameKeys() {
    let whole = keys(Self.recording)
    let expected: [Key] = [
      .character("j"), .character("k"), .character(" "), .character("l"), .up, .down, .right,
      .home, .end, .home, .end, .pageUp, .pageDown, .delete, .backTab, .character("é"),
      .character("♠"), .mouse(Mouse(action: .press, button: 0, x: 9, y: 4)),
      .mouse(Mouse(action: .release, button: 0, x: 9, y: 4)),
      .mouse(Mouse(action: .drag, button: 0, x: 10, y: 4)),
      .mouse(Mouse(action: .wheelUp, button: 0, x: 0, y: 0)),
      .mouse(Mouse(action: .wheelDown, button: 0, x: 0, y: 0)), .escape, .character("x"),
      .unknown("[15~"), .enter, .tab, .backspace, .control("c"), .character("🂡"),
      .unknown("OP"), .unknown("[?1;2c"),
    ]
    #expect(whole == expected)
    for cut in 1..<Self.recording.count {
      #expect(keys(Self.recording, cutAt: [cut]) == whole, "cut at \(cut)")
    }
    #expect(keys(Self.recording, cutAt: Array(1..<Self.recording.count)) == whole)
  }

  @Test(arguments: 0..<UInt64(Soak.count(200, soak: 5_000)))
  func randomBytesDecodeAlikeHoweverTheyAreSplit(seed: UInt64) {
    var random = TerminalTestRandom(seed: seed)
    let alphabet: [UInt8] = [
      0x1B, 0x1B, 0x5B, 0x5B, 0x4F, 0x3C, 0x3B, 0x31, 0x35, 0x7E, 0x41, 0x4D, 0x6D, 0x61, 0x0D,
      0xC3, 0xA9, 0xE2, 0x99, 0xA0, 0xFF, 0x00,
    ]
    let bytes = (0..<random.int(below: 40)).map { _ in alphabet[random.int(below: alphabet.count)] }
    let whole = keys(bytes)
    let cuts = (1..<max(1, bytes.count)).filter { _ in random.int(below: 3) == 0 }
    #expect(keys(bytes, cutAt: cuts) == whole, "bytes \(bytes), cuts \(cuts)")
  }
}
