/// Writes compact JSON text as UTF-8 bytes into a buffer it keeps, so that one writer serves
/// many messages without allocating again.
///
/// Strings are copied in whole runs of bytes that need no escape; only `"`, `\` and control
/// characters are escaped (`\n`, `\r`, `\t`, else `\u00XX`), everything else is written as is.
///
/// NB: a writer owns its buffer and cannot be copied (`~Copyable`): it is lent (`inout`) or
/// moved, never shared. So every write makes room for all its bytes with one check of the
/// capacity, and stores them; a copyable buffer would also have to check, before every write,
/// that no copy shares it (a call into the runtime), as an array checks before every byte
/// appended. Measured: a Memory view's many small writes spent more time in those checks than
/// in the bytes.
public struct JSONWriter: ~Copyable, @unchecked Sendable {
  private var base: UnsafeMutablePointer<UInt8>
  /// How many bytes are written.
  public private(set) var count = 0
  private var capacity: Int
  /// The number last written by Swift's own formatter (``writeShortest(_:)``), by its bits, and
  /// its text, at most 24 bytes; a `count` of 0 when there is none.
  ///
  /// NB: a live room's clock has every digit of the host's time, so Swift's formatter writes
  /// it, some 700 instructions a number; the server writes a version's clock into the update of
  /// every seat, with one writer.
  private var lastNumber: (bits: UInt64, count: Int, text: (UInt64, UInt64, UInt64)) =
    (0, 0, (0, 0, 0))

  public init(capacity: Int = 1024) {
    self.capacity = max(capacity, 1)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  /// The text written so far (a copy).
  public var bytes: [UInt8] { withBytes { Array($0) } }

  /// The bytes written from `offset` on (a copy).
  public func bytes(from offset: Int) -> [UInt8] {
    withBytes { Array(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
  }

  /// Calls `body` with the text written so far, without copying it.
  public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
    -> Result
  {
    try body(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// The text written so far, as a string.
  public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

  /// Forgets the text but keeps the buffer.
  public mutating func removeAll() {
    count = 0
  }

  /// Makes room for `extra` more bytes and returns where they go; ``commit(_:)`` then counts
  /// those written.
  @inline(__always)
  private mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    if _slowPath(count + extra > capacity) { grow(to: count + extra) }
    return base + count
  }

  /// Makes the buffer hold at least `needed` bytes, at least doubling it.
  @inline(never)
  private mutating func grow(to needed: Int) {
    let new = Swift.max(needed, capacity * 2, 64)
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: new)
    larger.initialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity = new
  }

  @inline(__always)
  private mutating func commit(_ written: Int) {
    count += written
  }

  /// Appends bytes as they are: a separator, or text already JSON.
  @inline(__always)
  public mutating func raw(_ byte: UInt8) {
    reserve(1).pointee = byte
    commit(1)
  }

  /// Appends bytes that are already JSON text (not this writer's own: making room may move them).
  @inline(__always)
  public mutating func raw(_ text: UnsafeBufferPointer<UInt8>) {
    guard let source = text.baseAddress, !text.isEmpty else { return }
    Self.copy(source, to: reserve(text.count), count: text.count)
    commit(text.count)
  }

  /// Copies `count` bytes; a short run (a member's name, a card, `false`) in two loads and two
  /// stores that may overlap, rather than a call to `memcpy`, which costs more than the copy.
  @inline(__always)
  private static func copy(
    _ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(target)
    switch count {
    case 8...16:
      let head = from.loadUnaligned(as: UInt64.self)
      let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      to.storeBytes(of: head, as: UInt64.self)
      to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
    case 4..<8:
      let head = from.loadUnaligned(as: UInt32.self)
      let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
      to.storeBytes(of: head, as: UInt32.self)
      to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
    case 0..<4:
      for offset in 0..<count { target[offset] = source[offset] }
    default:
      to.copyMemory(from: from, byteCount: count)
    }
  }

  /// Appends bytes that are already JSON text.
  @inline(__always)
  public mutating func raw(_ text: [UInt8]) {
    text.withUnsafeBufferPointer { raw($0) }
  }

  /// Appends the UTF-8 of `text` as it is, unquoted and unescaped.
  @inline(__always)
  public mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { raw($0) }
  }

  /// Appends `"name":`, after a comma unless `first`: an object member's name, which needs no
  /// escape.
  @inline(__always)
  public mutating func member(_ name: StaticString, first: Bool) {
    name.withUTF8Buffer { utf8 in
      let comma = first ? 0 : 1
      let start = reserve(utf8.count + 3 + comma)
      var at = start
      if comma == 1 {
        at.pointee = UInt8(ascii: ",")
        at += 1
      }
      at.pointee = UInt8(ascii: "\"")
      if let source = utf8.baseAddress { Self.copy(source, to: at + 1, count: utf8.count) }
      at += 1 + utf8.count
      at.pointee = UInt8(ascii: "\"")
      (at + 1).pointee = UInt8(ascii: ":")
      commit(utf8.count + 3 + comma)
    }
  }

  /// Appends `text` as a JSON string.
  public mutating func write(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      // NB: most texts need no escape: one pass over them looks, and one copy writes them
      // with their quotes.
      guard JSONWriter.needsEscape(utf8) else {
        let count = utf8.count
        let start = reserve(count + 2)
        start.pointee = UInt8(ascii: "\"")
        if let source = utf8.baseAddress { Self.copy(source, to: start + 1, count: count) }
        (start + 1 + count).pointee = UInt8(ascii: "\"")
        return commit(count + 2)
      }
      raw(UInt8(ascii: "\""))
      appendEscaped(utf8)
      raw(UInt8(ascii: "\""))
    }
  }

  /// Whether any byte of `utf8` is `"`, `\` or a control character.
  ///
  /// NB: eight bytes at a time: a word has such a byte when one of its bytes is below 0x20,
  /// or is 0 once the word is xored with eight quotes or eight backslashes (the usual tests
  /// for a zero or a smaller byte in a word, exact for whether there is one).
  @inline(__always)
  static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = utf8.baseAddress else { return false }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var offset = 0
    while offset + 8 <= utf8.count {
      let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
      let quotes = word ^ (ones &* 0x22)
      let backslashes = word ^ (ones &* 0x5C)
      let control = (word &- ones &* 0x20) & ~word
      let quote = (quotes &- ones) & ~quotes
      let backslash = (backslashes &- ones) & ~backslashes
      if (control | quote | backslash) & highs != 0 { return true }
      offset += 8
    }
    while offset < utf8.count {
      let byte = base[offset]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
      offset += 1
    }
    return false
  }

  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    for index in utf8.indices {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      if runStart < index {
        raw(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      }
      runStart = index + 1
      raw(UInt8(ascii: "\\"))
      switch byte {
      case UInt8(ascii: "\""): raw(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): raw(UInt8(ascii: "\\"))
      case 0x0A: raw(UInt8(ascii: "n"))
      case 0x0D: raw(UInt8(ascii: "r"))
      case 0x09: raw(UInt8(ascii: "t"))
      default:
        raw(UInt8(ascii: "u"))
        raw(UInt8(ascii: "0"))
        raw(UInt8(ascii: "0"))
        raw(JSONWriter.hexDigit(byte >> 4))
        raw(JSONWriter.hexDigit(byte & 0xF))
      }
    }
    if runStart < utf8.count {
      raw(UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }

  /// Appends an integer.
  public mutating func write(_ value: some BinaryInteger) {
    if let small = Int(exactly: value) {
      write(small)
    } else {
      appendASCII(String(value))
    }
  }

  /// Appends an integer, its digits written in place.
  public mutating func write(_ value: Int) {
    // NB: most numbers of a view are a score, a count or a place: one or two digits.
    if value >= 0, value < 100 {
      if value < 10 { return raw(UInt8(ascii: "0") + UInt8(value)) }
      let at = reserve(2)
      at[0] = UInt8(ascii: "0") + UInt8(value / 10)
      at[1] = UInt8(ascii: "0") + UInt8(value % 10)
      return commit(2)
    }
    write(magnitude: UInt64(value.magnitude), negative: value < 0)
  }

  /// Appends an integer (a seed), its digits written in place.
  public mutating func write(_ value: UInt64) {
    write(magnitude: value, negative: false)
  }

  private mutating func write(magnitude value: UInt64, negative: Bool) {
    // NB: 20 digits and a sign hold any 64-bit integer.
    let start = reserve(21)
    var digits = 0
    var scratch = value
    repeat {
      digits += 1
      scratch /= 10
    } while scratch > 0
    var at = start
    if negative {
      at.pointee = UInt8(ascii: "-")
      at += 1
    }
    var place = at + digits - 1
    var magnitude = value
    repeat {
      place.pointee = UInt8(ascii: "0") + UInt8(magnitude % 10)
      magnitude /= 10
      place -= 1
    } while magnitude > 0
    commit(digits + (negative ? 1 : 0))
  }

  /// Appends a number: integral values below 10¹⁵ without a fraction (`2`, not `2.0`), others
  /// in Swift's shortest exact form (`0.5`, `1e-07`); non-finite values as `null`.
  public mutating func write(_ value: Double) {
    guard value.isFinite else {
      raw("null")
      return
    }
    // NB: a clock is mostly whole seconds: its digits are written in place, as an `Int`'s.
    if value == value.rounded(), abs(value) < 1e15 { return write(Int(value)) }
    if writeMilliseconds(value) { return }
    writeShortest(value)
  }

  /// Writes any other finite number as Swift's shortest form does, from ``lastNumber`` when it
  /// is the number written last.
  private mutating func writeShortest(_ value: Double) {
    let bits = value.bitPattern
    if lastNumber.count == 0 || lastNumber.bits != bits {
      var text = JSONWriter.text(of: value)
      let count = text.utf8.count
      guard count <= MemoryLayout.size(ofValue: lastNumber.text) else { return appendASCII(text) }
      var stored: (UInt64, UInt64, UInt64) = (0, 0, 0)
      text.withUTF8 { utf8 in
        withUnsafeMutableBytes(of: &stored) { $0.copyMemory(from: UnsafeRawBufferPointer(utf8)) }
      }
      lastNumber = (bits, count, stored)
    }
    var stored = lastNumber.text
    let count = lastNumber.count
    withUnsafeBytes(of: &stored) { bytes in
      raw(UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self)[..<count]))
    }
  }

  /// Writes a number of at most three decimals below 10⁹ (a clock's `2.5`, `0.25`) in place,
  /// as Swift's shortest form writes it; false, writing nothing, for any other.
  ///
  /// NB: below 10⁹ two doubles lie less than 2⁻²³ apart, so at most one number of three
  /// decimals rounds to `value`: when the nearest double to `thousandths` / 1000 is `value`,
  /// that number, without its trailing zeros, is the shortest text that reads back as
  /// `value`. Swift's own writer costs some 300 instructions a number.
  private mutating func writeMilliseconds(_ value: Double) -> Bool {
    let magnitude = abs(value)
    guard magnitude >= 0.001, magnitude < 1e9 else { return false }
    let thousandths = (magnitude * 1000).rounded()
    guard thousandths / 1000 == magnitude else { return false }
    let whole = Int(thousandths)
    if value < 0 { raw(UInt8(ascii: "-")) }
    write(magnitude: UInt64(whole / 1000), negative: false)
    var fraction = whole % 1000
    var digits = 3
    while fraction % 10 == 0 {
      fraction /= 10
      digits -= 1
    }
    let at = reserve(digits + 1)
    at.pointee = UInt8(ascii: ".")
    for place in stride(from: digits, to: 0, by: -1) {
      at[place] = UInt8(ascii: "0") + UInt8(fraction % 10)
      fraction /= 10
    }
    commit(digits + 1)
    return true
  }

  /// The text ``write(_:)-(Double)`` writes for a finite number.
  static func text(of value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }

  public mutating func write(_ value: Bool) {
    value ? raw("true") : raw("false")
  }

  public mutating func writeNull() {
    raw("null")
  }

  private mutating func appendASCII(_ text: String) {
    var text = text
    text.withUTF8 { raw($0) }
  }

  /// Appends a whole value.
  public mutating func write(_ value: JSON) {
    switch value {
    case .null: writeNull()
    case .bool(let flag): write(flag)
    case .number(let text): appendASCII(text)
    case .string(let text): write(text)
    case .array(let elements):
      raw(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { raw(UInt8(ascii: ",")) }
        write(element)
      }
      raw(UInt8(ascii: "]"))
    case .object(let members):
      raw(UInt8(ascii: "{"))
      for (index, (key, member)) in members.enumerated() {
        if index > 0 { raw(UInt8(ascii: ",")) }
        write(key)
        raw(UInt8(ascii: ":"))
        write(member)
      }
      raw(UInt8(ascii: "}"))
    }
  }
}
