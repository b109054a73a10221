/// Writes compact JSON text as UTF-8 bytes into a buffer it keeps, so that one writer serves
/// many messages without allocating again.
///
/// Strings are copied in whole runs of bytes that need no escape; only `"`, `\` and control
/// characters are escaped (`\n`, `\r`, `\t`, else `\u00XX`), everything else is written as is.
public struct JSONWriter: Sendable {
  /// The text written so far.
  public private(set) var bytes: [UInt8] = []

  public init(capacity: Int = 1024) {
    bytes.reserveCapacity(capacity)
  }

  /// The text written so far, as a string.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  /// Forgets the text but keeps the buffer.
  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// Appends bytes as they are: a separator, or text already JSON.
  @inline(__always)
  public mutating func raw(_ byte: UInt8) {
    bytes.append(byte)
  }

  /// Appends bytes that are already JSON text.
  public mutating func raw(_ text: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: text)
  }

  /// Appends the UTF-8 of `text` as it is, unquoted and unescaped.
  public mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends `text` as a JSON string.
  public mutating func write(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
      let copy = Array(text.utf8)
      copy.withUnsafeBufferPointer { appendEscaped($0) }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Appends a run of bytes: short runs (keys, card texts) byte by byte, which is cheaper
  /// than the generic bulk append, long ones at once.
  @inline(__always)
  private mutating func append(run: UnsafeBufferPointer<UInt8>) {
    if run.count <= 24 {
      for byte in run { bytes.append(byte) }
    } else {
      bytes.append(contentsOf: run)
    }
  }

  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    for index in utf8.indices {
      let byte = utf8[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      if runStart < index {
        append(run: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      }
      runStart = index + 1
      bytes.append(UInt8(ascii: "\\"))
      switch byte {
      case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
      case 0x0A: bytes.append(UInt8(ascii: "n"))
      case 0x0D: bytes.append(UInt8(ascii: "r"))
      case 0x09: bytes.append(UInt8(ascii: "t"))
      default:
        bytes.append(UInt8(ascii: "u"))
        bytes.append(UInt8(ascii: "0"))
        bytes.append(UInt8(ascii: "0"))
        bytes.append(JSONWriter.hexDigit(byte >> 4))
        bytes.append(JSONWriter.hexDigit(byte & 0xF))
      }
    }
    if runStart < utf8.count {
      append(run: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }

  /// Appends an integer.
  public mutating func write(_ value: some BinaryInteger) {
    if let small = Int(exactly: value), small >= 0, small < 10 {
      bytes.append(UInt8(ascii: "0") + UInt8(small))
      return
    }
    appendASCII(String(value))
  }

  /// Appends a number: integral values below 10¹⁵ without a fraction (`2`, not `2.0`), others
  /// in Swift's shortest exact form (`0.5`, `1e-07`); non-finite values as `null`.
  public mutating func write(_ value: Double) {
    guard value.isFinite else {
      raw("null")
      return
    }
    appendASCII(JSONWriter.text(of: value))
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
    text.withUTF8 { bytes.append(contentsOf: $0) }
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
