/// A JSON value with ordered object keys, parsed and printed by this module.
///
/// Numbers keep their source text, so a 64-bit seed survives a round trip exactly.
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
    case (.number(let a), .number(let b)): a == b || (Double(a) != nil && Double(a) == Double(b))
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && a.allSatisfy { key, value in b.first { $0.0 == key }?.1 == value }
    default: false
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

  /// A number; non-finite values become `null`, since JSON cannot express them.
  public init(_ value: Double) {
    guard value.isFinite else {
      self = .null
      return
    }
    if value == value.rounded(), abs(value) < 1e15 {
      self = .number(String(Int64(value)))
    } else {
      self = .number(String(value))
    }
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

  /// The number as an `Int` when it is integral and in range.
  public var intValue: Int? {
    guard case .number(let text) = self else { return nil }
    if let value = Int(text) { return value }
    guard let value = Double(text), value == value.rounded(), abs(value) < 9e15 else { return nil }
    return Int(value)
  }

  /// The number as a `UInt64` when it is a non-negative integer in range.
  public var uint64Value: UInt64? {
    guard case .number(let text) = self else { return nil }
    if let value = UInt64(text) { return value }
    guard let value = Double(text), value >= 0, value == value.rounded(), value < 9e15 else {
      return nil
    }
    return UInt64(value)
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
}
