/// A JSON value with ordered object keys, read and written by this module.
///
/// Numbers keep their source text, so a 64-bit seed survives a round trip exactly, and two
/// numbers are equal when their decimal values are exactly equal (`1.0 == 1`, `1e2 == 100`;
/// 18446744073709551615 never equals 18446744073709551614, as it would through `Double`).
public enum JSON: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSON])
  /// An object whose members keep the order in which they were written.
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b || Decimal(a) == Decimal(b)
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && a.allSatisfy { key, value in b.first { $0.0 == key }?.1 == value }
    default: false
    }
  }

  /// A JSON number's exact decimal value: sign, digits without leading or trailing zeros, and
  /// the power of ten of the last digit.
  struct Decimal: Equatable {
    var negative = false
    var digits: [UInt8] = []
    var exponent = 0

    /// Nil when `text` is not a JSON number (or its exponent is absurdly large).
    init?(_ text: String) {
      var bytes = Array(text.utf8)[...]
      if bytes.first == UInt8(ascii: "-") {
        negative = true
        bytes = bytes.dropFirst()
      }
      var exponent = 0
      if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
        guard let value = Int(String(decoding: bytes[(e + 1)...], as: UTF8.self)),
          abs(value) < 1 << 40
        else { return nil }
        exponent = value
        bytes = bytes[..<e]
      }
      var mantissa: [UInt8] = []
      var sawPoint = false
      for byte in bytes {
        if byte == UInt8(ascii: ".") {
          sawPoint = true
        } else {
          guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
          mantissa.append(byte)
          if sawPoint { exponent -= 1 }
        }
      }
      guard !mantissa.isEmpty else { return nil }
      while mantissa.last == UInt8(ascii: "0") && mantissa.count > 1 {
        mantissa.removeLast()
        exponent += 1
      }
      let leading = mantissa.prefix { $0 == UInt8(ascii: "0") }.count
      digits = Array(mantissa.dropFirst(min(leading, mantissa.count - 1)))
      if digits == [UInt8(ascii: "0")] {
        negative = false
        exponent = 0
      }
      self.exponent = exponent
    }

    /// The value as a non-negative integer, when it is one that fits 64 bits.
    var uint64: UInt64? {
      guard !negative || digits == [UInt8(ascii: "0")], exponent >= 0,
        digits.count + exponent <= 20
      else { return nil }
      var value: UInt64 = 0
      for digit in digits + [UInt8](repeating: UInt8(ascii: "0"), count: exponent) {
        let (times, overflow) = value.multipliedReportingOverflow(by: 10)
        let (sum, carry) = times.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
        guard !overflow, !carry else { return nil }
        value = sum
      }
      return value
    }

    /// The value as an `Int`, when it is an integer that fits.
    var int: Int? {
      if negative {
        guard let magnitude = Decimal(negating: self).uint64, magnitude <= UInt64(Int.max) + 1
        else { return nil }
        return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
      }
      guard let value = uint64, value <= UInt64(Int.max) else { return nil }
      return Int(value)
    }

    private init(negating other: Decimal) {
      self = other
      negative.toggle()
    }
  }
}

// MARK: Building

extension JSON: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(nilLiteral: ()) { self = .null }
  public init(integerLiteral value: Int) { self = .number(String(value)) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(elements) }

  /// An integer number.
  public init(_ value: some BinaryInteger) { self = .number(String(value)) }

  /// A number as this module writes it (see ``JSONWriter/write(_:)-(Double)``); non-finite
  /// values become `null`, since JSON cannot express them.
  public init(_ value: Double) {
    guard value.isFinite else {
      self = .null
      return
    }
    self = .number(JSONWriter.text(of: value))
  }

  public init(_ value: String) { self = .string(value) }
  public init(_ value: Bool) { self = .bool(value) }

  /// An array of strings, e.g. card texts.
  public init(_ strings: [String]) { self = .array(strings.map(JSON.string)) }
}

// MARK: Reading

extension JSON {
  /// The member named `key` of an object, or nil.
  public subscript(key: String) -> JSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// The object's member names in order, or nil when this is not an object.
  public var keys: [String]? {
    guard case .object(let members) = self else { return nil }
    return members.map(\.0)
  }

  public var stringValue: String? {
    guard case .string(let value) = self else { return nil }
    return value
  }

  public var boolValue: Bool? {
    guard case .bool(let value) = self else { return nil }
    return value
  }

  public var arrayValue: [JSON]? {
    guard case .array(let value) = self else { return nil }
    return value
  }

  public var doubleValue: Double? {
    guard case .number(let text) = self else { return nil }
    return Double(text)
  }

  /// The number as an `Int` when it is exactly an integer in range (`3`, `3.0`, `3e0`).
  public var intValue: Int? {
    guard case .number(let text) = self else { return nil }
    return Int(text) ?? Decimal(text)?.int
  }

  /// The number as a `UInt64` when it is exactly a non-negative integer in range; read
  /// exactly, never through `Double`.
  public var uint64Value: UInt64? {
    guard case .number(let text) = self else { return nil }
    return UInt64(text) ?? Decimal(text)?.uint64
  }

  /// The JSON type's name, for error messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

// MARK: Mutating

extension JSON {
  /// Returns this object with `key` set to `value` (appended when new).
  public func setting(_ key: String, to value: JSON) -> JSON {
    guard case .object(var members) = self else { return self }
    if let index = members.firstIndex(where: { $0.0 == key }) {
      members[index].1 = value
    } else {
      members.append((key, value))
    }
    return .object(members)
  }

  /// Returns this object without `key`.
  public func removing(_ key: String) -> JSON {
    guard case .object(let members) = self else { return self }
    return .object(members.filter { $0.0 != key })
  }
}

// MARK: Text

extension JSON {
  /// Parses one JSON text (RFC 8259); surrounding white space is allowed, anything else is not.
  ///
  /// - Throws: ``JSONSyntaxError`` naming the first offending offset.
  /// - Complexity: O(n) in the length of the text; nesting is limited to
  ///   ``JSONReader/maximumDepth`` levels.
  public init(parsing text: String) throws(JSONSyntaxError) {
    var text = text
    let parsed: Result<JSON, JSONSyntaxError> = text.withUTF8 { bytes in
      do throws(JSONSyntaxError) {
        return .success(try JSONReader.parse(UnsafeRawBufferPointer(bytes)))
      } catch {
        return .failure(error)
      }
    }
    self = try parsed.get()
  }

  /// Parses one JSON text from UTF-8 bytes; see ``init(parsing:)-(String)``.
  public init(parsing bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
    self = try JSONReader.parse(bytes)
  }

  /// The compact JSON text of this value, keys in their order, no insignificant white space.
  public var text: String {
    var writer = JSONWriter()
    writer.write(self)
    return writer.string
  }
}
