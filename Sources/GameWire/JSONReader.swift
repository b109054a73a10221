import Synchronization

/// Why a text is not JSON: what was expected and the byte offset where it went wrong.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  public var offset: Int
  public var reason: String

  public var description: String { "\(reason) at offset \(offset)" }
}

/// Reads JSON text (RFC 8259) from UTF-8 bytes into a ``JSON`` value in one pass.
///
/// Runs of string bytes that need no unescaping are found eight bytes at a time and taken
/// whole; a run of at most 16 bytes read before (most names and values: they repeat from one
/// message to the next) is taken from a table of such strings instead of being decoded again.
/// An object's repeated member keeps its first position and its last value. Names are told
/// apart by their bytes when both are ASCII and as strings otherwise (`String`'s `==`, which
/// holds canonical equivalents equal), through a hash table once an object is large, so
/// reading is linear in the input. Nesting is limited to ``maximumDepth`` levels. Invalid
/// UTF-8 inside strings is replaced by U+FFFD, as `readLine()` does.
public struct JSONReader {
  /// The deepest nesting of arrays and objects accepted.
  public static let maximumDepth = 64
  /// Objects with more members than this find repeated names through a hash table.
  static let linearMembers = 32

  /// Where the text begins and how many bytes it has.
  let origin: UnsafeRawPointer
  let size: Int
  var index = 0
  /// Short strings read before, and room for names: this reader's own while it reads.
  var scratch: Scratch
  /// How many of `scratch.names` are in use: the names of the members read so far of every
  /// object being read, the innermost's last.
  var named = 0

  init(bytes: UnsafeRawBufferPointer, scratch: Scratch) {
    // NB: an empty buffer may have no address; none of its bytes is ever read.
    origin = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1).unsafelyUnwrapped
    size = bytes.count
    self.scratch = scratch
  }

  /// Parses one JSON text; white space may surround it, nothing else may.
  ///
  /// - Throws: ``JSONSyntaxError`` naming the first offending offset.
  public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSON {
    var reader = JSONReader(bytes: bytes, scratch: Scratch.borrow())
    defer { Scratch.giveBack(reader.scratch) }
    reader.skipWhitespace()
    let value = try reader.parseValue(depth: 0)
    reader.skipWhitespace()
    guard reader.index == reader.size else {
      throw reader.error("unexpected text after the JSON value")
    }
    return value
  }

  func error(_ reason: String) -> JSONSyntaxError {
    JSONSyntaxError(offset: index, reason: reason)
  }

  /// The byte at `offset`, which is below `size`.
  @inline(__always)
  func byte(_ offset: Int) -> UInt8 { origin.load(fromByteOffset: offset, as: UInt8.self) }

  mutating func skipWhitespace() {
    while index < size {
      switch byte(index) {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSON {
    guard depth < JSONReader.maximumDepth else {
      throw error("nesting deeper than \(JSONReader.maximumDepth) levels")
    }
    guard index < size else { throw error("unexpected end of text, expected a value") }
    switch byte(index) {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("unexpected character, expected a value")
    }
  }

  /// `word` (four or five letters, its first already seen at `index`) and its value.
  mutating func parseLiteral(_ word: StaticString, _ value: JSON) throws(JSONSyntaxError) -> JSON {
    let length = word.utf8CodeUnitCount
    // NB: its last four letters at once; the first is the one that chose this word.
    let last = UnsafeRawPointer(word.utf8Start).loadUnaligned(
      fromByteOffset: length - 4, as: UInt32.self)
    guard index + length <= size,
      origin.loadUnaligned(fromByteOffset: index + length - 4, as: UInt32.self) == last
    else { throw error("unexpected character, expected a value") }
    index += length
    return value
  }

  mutating func parseNumber() throws(JSONSyntaxError) -> JSON {
    let first = index
    if byte(index) == UInt8(ascii: "-") { index += 1 }
    guard index < size, isDigit(byte(index)) else { throw error("invalid number") }
    if byte(index) == UInt8(ascii: "0") {
      index += 1
    } else {
      skipDigits()
    }
    if index < size, byte(index) == UInt8(ascii: ".") {
      index += 1
      guard index < size, isDigit(byte(index)) else { throw error("invalid number") }
      skipDigits()
    }
    if index < size, byte(index) == UInt8(ascii: "e") || byte(index) == UInt8(ascii: "E") {
      index += 1
      if index < size, byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-") {
        index += 1
      }
      guard index < size, isDigit(byte(index)) else { throw error("invalid number") }
      skipDigits()
    }
    return .number(text(from: first, to: index))
  }

  mutating func skipDigits() {
    while index < size, isDigit(byte(index)) { index += 1 }
  }

  func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  // MARK: Strings

  /// The first offset from `offset` of a byte that ends a string's run: a quote, a backslash
  /// or a control character; `size` when there is none.
  ///
  /// Eight bytes at a time while eight are left, three tests on the word: a byte is flagged
  /// when subtracting one from it borrows because it is zero (a quote or a backslash, xored
  /// to zero first), or when subtracting 0x20 borrows because it is below 0x20 (a control
  /// character); bytes with their high bit set never are. Each test's borrow only starts at
  /// a byte that matches, so the lowest flagged byte is always a true one.
  @inline(__always)
  func endOfRun(from offset: Int) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var offset = offset
    while offset + 8 <= size {
      let word = UInt64(
        littleEndian: origin.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      let quotes = word ^ (ones &* 0x22)
      let backslashes = word ^ (ones &* 0x5C)
      let flagged =
        ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
        | ((word &- ones &* 0x20) & ~word)
      if flagged & highs != 0 {
        return offset + (flagged & highs).trailingZeroBitCount / 8
      }
      offset += 8
    }
    while offset < size {
      let next = byte(offset)
      if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next < 0x20 { return offset }
      offset += 1
    }
    return size
  }

  /// The string of the bytes `first..<end`, which hold no escape: a short one from the
  /// strings read before.
  @inline(__always)
  mutating func text(from first: Int, to end: Int) -> String {
    run(from: first, to: end).text
  }

  /// The string of the bytes `first..<end`, which hold no escape, and those bytes packed when
  /// there are at most 16 (``packed(from:length:)``); a short one from the strings read before.
  @inline(__always)
  mutating func run(from first: Int, to end: Int) -> (text: String, packed: (UInt64, UInt64)?) {
    let length = end - first
    let run = UnsafeRawBufferPointer(start: origin + first, count: length)
    guard length <= ShortStrings.longest else { return (String(decoding: run, as: UTF8.self), nil) }
    let (low, high) = packed(from: first, length: length)
    let text = scratch.strings.string(low: low, high: high, length: length) {
      String(decoding: run, as: UTF8.self)
    }
    return (text, (low, high))
  }

  /// The `length` (at most 16) bytes from `first`, little-endian in two words, zeros after.
  @inline(__always)
  func packed(from first: Int, length: Int) -> (UInt64, UInt64) {
    // NB: near the end of the text, byte by byte.
    guard first + 16 <= size else {
      return MemberName.packed(UnsafeRawBufferPointer(start: origin + first, count: length))
    }
    var low = UInt64(littleEndian: origin.loadUnaligned(fromByteOffset: first, as: UInt64.self))
    var high = UInt64(
      littleEndian: origin.loadUnaligned(fromByteOffset: first + 8, as: UInt64.self))
    if length < 8 {
      low &= (1 &<< UInt64(8 * length)) &- 1
      high = 0
    } else if length < 16 {
      high &= (1 &<< UInt64(8 * (length - 8))) &- 1
    }
    return (low, high)
  }

  /// A member's name, and what tells it from the other names of its object.
  mutating func parseName() throws(JSONSyntaxError) -> (String, MemberName) {
    let first = index + 1
    let end = endOfRun(from: first)
    guard end < size, byte(end) == UInt8(ascii: "\"") else {
      // NB: a name with escapes is known by its string.
      let name = try parseString()
      return (name, MemberName(name))
    }
    index = end + 1
    let (name, packed) = run(from: first, to: end)
    guard let (low, high) = packed else {
      return (
        name, MemberName(bytes: UnsafeRawBufferPointer(start: origin + first, count: end - first))
      )
    }
    return (name, MemberName(low: low, high: high, length: end - first))
  }

  mutating func parseString() throws(JSONSyntaxError) -> String {
    let first = index + 1  // after the opening quote
    index = endOfRun(from: first)
    // NB: the common case, a string without escapes, is one run decoded at once.
    if index < size, byte(index) == UInt8(ascii: "\"") {
      index += 1
      return text(from: first, to: index - 1)
    }
    var utf8: [UInt8] = []
    utf8.reserveCapacity(index - first + 16)
    utf8.append(contentsOf: UnsafeRawBufferPointer(start: origin + first, count: index - first))
    while true {
      guard index < size else { throw error("unterminated string") }
      let next = byte(index)
      if next == UInt8(ascii: "\"") {
        index += 1
        return String(decoding: utf8, as: UTF8.self)
      }
      if next < 0x20 { throw error("control character in string") }
      guard next == UInt8(ascii: "\\") else {
        let runStart = index
        index = endOfRun(from: index)
        utf8.append(
          contentsOf: UnsafeRawBufferPointer(start: origin + runStart, count: index - runStart))
        continue
      }
      index += 1
      guard index < size else { throw error("unterminated string") }
      let escape = byte(index)
      index += 1
      switch escape {
      case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
      case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
      case UInt8(ascii: "b"): utf8.append(0x08)
      case UInt8(ascii: "f"): utf8.append(0x0C)
      case UInt8(ascii: "n"): utf8.append(0x0A)
      case UInt8(ascii: "r"): utf8.append(0x0D)
      case UInt8(ascii: "t"): utf8.append(0x09)
      case UInt8(ascii: "u"):
        var code = try parseHex4()
        if (0xD800..<0xDC00).contains(code) {
          guard index + 1 < size, byte(index) == UInt8(ascii: "\\"),
            byte(index + 1) == UInt8(ascii: "u")
          else { throw error("unpaired surrogate") }
          index += 2
          let low = try parseHex4()
          guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
        if let encoded = UTF8.encode(scalar) { utf8.append(contentsOf: encoded) }
      default:
        index -= 1
        throw error("invalid escape")
      }
    }
  }

  mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= size else { throw error("invalid \\u escape") }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let hex = byte(index + offset)
      let digit: UInt8
      switch hex {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = hex - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = hex - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = hex - UInt8(ascii: "A") + 10
      default: throw error("invalid \\u escape")
      }
      value = value << 4 | UInt32(digit)
    }
    index += 4
    return value
  }

  mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSON {
    index += 1
    var elements: [JSON] = []
    skipWhitespace()
    if index < size, byte(index) == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    elements.reserveCapacity(4)
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      guard index < size else { throw error("unterminated array") }
      if byte(index) == UInt8(ascii: ",") {
        index += 1
      } else if byte(index) == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      } else {
        throw error("expected ',' or ']'")
      }
    }
  }

  mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSON {
    index += 1
    var members: [(String, JSON)] = []
    // NB: filled only once the object outgrows `linearMembers`, so small objects stay cheap.
    var positions: [String: Int] = [:]
    skipWhitespace()
    if index < size, byte(index) == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    // NB: most objects read are a command or an action of a few members: room for them at
    // once, rather than growing the array at its first, second and third member.
    members.reserveCapacity(4)
    // NB: this object's names are `scratch.names[first..<named]`, one for each of `members`;
    // an inner object's come and go above them.
    let first = named
    defer { named = first }
    // NB: the bits of the names so far (``MemberName/bit``): an ASCII name whose bit is not
    // among them is new, unless a name of other characters (`others`) may equal it.
    var bits: UInt64 = 0
    var others = false
    while true {
      skipWhitespace()
      guard index < size, byte(index) == UInt8(ascii: "\"") else {
        throw error("expected a member name in quotes")
      }
      let (key, name) = try parseName()
      skipWhitespace()
      guard index < size, byte(index) == UInt8(ascii: ":") else {
        throw error("expected ':'")
      }
      index += 1
      skipWhitespace()
      let value = try parseValue(depth: depth + 1)
      if members.count < JSONReader.linearMembers {
        var existing: Int?
        if others || !name.isASCII || bits & name.bit != 0 {
          for position in first..<named {
            let other = scratch.names[position]
            let same =
              name.isASCII && other.isASCII
              ? name.low == other.low && name.high == other.high && name.length == other.length
                && (name.isWhole || members[position - first].0 == key)
              : members[position - first].0 == key
            if same {
              existing = position - first
              break
            }
          }
        }
        if let existing {
          members[existing].1 = value
        } else {
          if named < scratch.names.count {
            scratch.names[named] = name
          } else {
            scratch.names.append(name)
          }
          named += 1
          members.append((key, value))
          bits |= name.bit
          others = others || !name.isASCII
        }
      } else {
        if positions.isEmpty {
          for (position, member) in members.enumerated() { positions[member.0] = position }
        }
        if let existing = positions[key] {
          members[existing].1 = value
        } else {
          positions[key] = members.count
          members.append((key, value))
        }
      }
      skipWhitespace()
      guard index < size else { throw error("unterminated object") }
      if byte(index) == UInt8(ascii: ",") {
        index += 1
      } else if byte(index) == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      } else {
        throw error("expected ',' or '}'")
      }
    }
  }
}

/// What tells a member's name from the others of its object without comparing strings.
///
/// Two ASCII names are equal exactly when their bytes are: an ASCII name of at most 16 bytes
/// is held whole (`low` and `high`), a longer one by a hash of its bytes, which can only tell
/// that two names differ. A name with other characters is compared as a string: `String`'s
/// `==` holds canonical equivalents equal, so such a name may equal an ASCII one ("\u{212A}",
/// the Kelvin sign, is "K").
struct MemberName {
  var low: UInt64
  var high: UInt64
  /// How many bytes the name has; -1 when it is not all ASCII.
  var length: Int
  /// One of 64 bits, picked by the name's bytes: equal names have the same bit.
  var bit: UInt64
  /// `low` and `high` are the name's bytes, not a hash of them.
  var isWhole: Bool

  /// The name of these bytes (at most 16, zeros after).
  init(low: UInt64, high: UInt64, length: Int) {
    self.low = low
    self.high = high
    let ascii = (low | high) & 0x8080_8080_8080_8080 == 0
    self.length = ascii ? length : -1
    isWhole = true
    bit = MemberName.bit(low, high, length)
  }

  /// A name of these bytes: held whole when there are at most 16, else by a hash of them.
  init(bytes: UnsafeRawBufferPointer) {
    guard bytes.count > ShortStrings.longest else {
      let (low, high) = MemberName.packed(bytes)
      self.init(low: low, high: high, length: bytes.count)
      return
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var all: UInt8 = 0
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      all |= byte
    }
    self.init(hash: hash, length: all < 0x80 ? bytes.count : -1)
  }

  /// `bytes` (at most 16), little-endian in two words, zeros after.
  static func packed(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    var low: UInt64 = 0
    var high: UInt64 = 0
    for (offset, byte) in bytes.enumerated() {
      if offset < 8 {
        low |= UInt64(byte) &<< UInt64(8 * offset)
      } else {
        high |= UInt64(byte) &<< UInt64(8 * (offset - 8))
      }
    }
    return (low, high)
  }

  private init(hash: UInt64, length: Int) {
    low = hash
    high = 0
    self.length = length
    isWhole = false
    bit = MemberName.bit(hash, 0, length)
  }

  /// A name written with escapes, by its string's bytes: the same as the name written
  /// without them.
  init(_ name: String) {
    var name = name
    self = name.withUTF8 { MemberName(bytes: UnsafeRawBufferPointer($0)) }
  }

  var isASCII: Bool { length >= 0 }

  private static func bit(_ low: UInt64, _ high: UInt64, _ length: Int) -> UInt64 {
    let mixed =
      (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F)
      ^ UInt64(truncatingIfNeeded: length)
    return 1 &<< (mixed >> 58)
  }
}

/// Strings of at most ``longest`` bytes read before, found by their bytes: reading one again
/// takes it from here instead of decoding it. The same bytes always decode to the same
/// string, invalid UTF-8 included, so a string found is the string decoding would give.
///
/// Each reader has its own while it reads (``JSONReader/Scratch``).
struct ShortStrings: Sendable {
  static let longest = 16
  private static let slots = 1024

  private struct Entry: Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    /// Zero for an empty slot (the empty string is never kept).
    var length = 0
    var string = ""
  }

  private var entries = [Entry](repeating: Entry(), count: ShortStrings.slots)

  /// The string of the `length` bytes `low` and `high`, decoded by `decode` unless found.
  @inline(__always)
  mutating func string(
    low: UInt64, high: UInt64, length: Int, decode: () -> String
  ) -> String {
    guard length > 0 else { return "" }
    let mixed =
      (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xC2B2_AE3D_27D4_EB4F)
      ^ UInt64(truncatingIfNeeded: length)
    let slot = Int(truncatingIfNeeded: mixed >> 54)
    if entries[slot].low == low, entries[slot].high == high, entries[slot].length == length {
      return entries[slot].string
    }
    let string = decode()
    entries[slot] = Entry(low: low, high: high, length: length, string: string)
    return string
  }

}

extension JSONReader {
  /// What a reader keeps from one parse to the next: the short strings read before, and room
  /// for the names of the objects being read.
  ///
  /// A reader borrows one for the time of a parse (``borrow()``) and gives it back, so that
  /// no two parses, on any threads, ever share one, and a parse seldom allocates any of it: a
  /// new one (some 40 KiB) only when every kept one is in use, as on a thread's first parse.
  struct Scratch: Sendable {
    var strings = ShortStrings()
    var names: [MemberName] = []

    /// Scratches given back, for the next parses on any thread.
    private static let spare = Mutex<[Scratch]>([])

    /// A scratch no other reader uses until it is given back.
    static func borrow() -> Scratch {
      spare.withLock { $0.popLast() } ?? Scratch()
    }

    /// Keeps `scratch` for a next parse: a few at most, one for each thread parsing at once.
    static func giveBack(_ scratch: Scratch) {
      spare.withLock { spare in
        if spare.count < 8 { spare.append(scratch) }
      }
    }
  }
}
