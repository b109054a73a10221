import CardTableCore

/// Decodes `Decodable` values from a ``JSON`` value: the one decoder of the wire.
///
/// Its errors are `DecodingError`s whose coding paths name the member at fault; a
/// `keyNotFound` error's description names the type that was expected (`Int`), and a
/// `typeMismatch` error's the JSON text found, so that ``WireError/reading(_:of:as:)`` can say
/// exactly what was wrong. Numbers are read exactly: an integer never passes through `Double`.
public struct WireDecoder {
  /// Values a conformance may read, e.g. ``CodingUserInfoKey/gameName``.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  public init() {}

  /// Decodes a `T` from `json`.
  public func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws -> T {
    try T(from: JSONValueDecoder(json: json, codingPath: [], userInfo: userInfo))
  }
}

/// The decoder behind ``WireDecoder``: one per value, with its coding path.
struct JSONValueDecoder: Decoder {
  let json: JSON
  let codingPath: [any CodingKey]
  let userInfoValues: [CodingUserInfoKey: any Sendable]

  init(json: JSON, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
    self.json = json
    self.codingPath = codingPath
    self.userInfoValues = userInfo
  }

  var userInfo: [CodingUserInfoKey: Any] { userInfoValues }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = json else {
      throw mismatch([String: JSON].self, json, at: codingPath)
    }
    return KeyedDecodingContainer(
      JSONKeyedContainer<Key>(members: members, codingPath: codingPath, userInfo: userInfoValues))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = json else {
      throw mismatch([JSON].self, json, at: codingPath)
    }
    return JSONUnkeyedContainer(
      elements: elements, codingPath: codingPath, userInfo: userInfoValues)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    JSONSingleValueContainer(json: json, codingPath: codingPath, userInfo: userInfoValues)
  }
}

/// The error for `json` found where a `type` was expected; its description is the JSON text.
func mismatch(_ type: Any.Type, _ json: JSON, at path: [any CodingKey]) -> DecodingError {
  .typeMismatch(type, DecodingError.Context(codingPath: path, debugDescription: json.text))
}

/// Reads a primitive from a JSON value, or throws a type mismatch naming the value's text.
func primitive<T>(_ type: T.Type, from json: JSON, at path: [any CodingKey]) throws -> T {
  let value: Any? =
    switch type {
    case is String.Type: json.stringValue
    case is Bool.Type: json.boolValue
    case is Int.Type: json.intValue
    case is UInt64.Type: json.uint64Value
    case is Double.Type: json.doubleValue
    case is Int64.Type: json.intValue.map { Int64($0) }
    case is Int32.Type: json.intValue.flatMap(Int32.init(exactly:))
    case is UInt32.Type: json.uint64Value.flatMap(UInt32.init(exactly:))
    case is UInt.Type: json.uint64Value.flatMap(UInt.init(exactly:))
    case is Int16.Type: json.intValue.flatMap(Int16.init(exactly:))
    case is UInt16.Type: json.intValue.flatMap(UInt16.init(exactly:))
    case is Int8.Type: json.intValue.flatMap(Int8.init(exactly:))
    case is UInt8.Type: json.intValue.flatMap(UInt8.init(exactly:))
    case is Float.Type: json.doubleValue.map { Float($0) }
    default: nil
    }
  guard let typed = value as? T else { throw mismatch(type, json, at: path) }
  return typed
}

/// Decodes a `T` from `json` at `path`, through its primitive reader when it has one.
func decodeValue<T: Decodable>(
  _ type: T.Type, from json: JSON, at path: [any CodingKey],
  userInfo: [CodingUserInfoKey: any Sendable]
) throws -> T {
  switch type {
  case is String.Type, is Bool.Type, is Int.Type, is UInt64.Type, is Double.Type:
    return try primitive(type, from: json, at: path)
  default:
    return try T(from: JSONValueDecoder(json: json, codingPath: path, userInfo: userInfo))
  }
}

struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [(String, JSON)]
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: any Sendable]

  var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

  func contains(_ key: Key) -> Bool { members.contains { $0.0 == key.stringValue } }

  private func member(_ key: Key, expecting type: Any.Type) throws -> JSON {
    let name = key.stringValue
    guard let found = members.first(where: { $0.0 == name }) else {
      throw DecodingError.keyNotFound(
        key, DecodingError.Context(codingPath: codingPath, debugDescription: "\(type)"))
    }
    return found.1
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    try member(key, expecting: Never.self) == .null
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try primitive(type, from: try member(key, expecting: type), at: codingPath + [key])
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decodeValue(
      type, from: try member(key, expecting: type), at: codingPath + [key], userInfo: userInfo)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let found = members.first(where: { $0.0 == key.stringValue }), found.1 != .null else {
      return nil
    }
    return try decodeValue(type, from: found.1, at: codingPath + [key], userInfo: userInfo)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try JSONValueDecoder(
      json: try member(key, expecting: [String: JSON].self), codingPath: codingPath + [key],
      userInfo: userInfo
    ).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try JSONValueDecoder(
      json: try member(key, expecting: [JSON].self), codingPath: codingPath + [key],
      userInfo: userInfo
    ).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    JSONValueDecoder(json: .object(members), codingPath: codingPath, userInfo: userInfo)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    JSONValueDecoder(
      json: try member(key, expecting: [String: JSON].self), codingPath: codingPath + [key],
      userInfo: userInfo)
  }
}

/// An array position in a coding path.
struct ElementKey: CodingKey {
  var intValue: Int?
  var stringValue: String { intValue.map(String.init) ?? "" }
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
  let elements: [JSON]
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: any Sendable]
  var currentIndex = 0

  init(elements: [JSON], codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
    self.elements = elements
    self.codingPath = codingPath
    self.userInfo = userInfo
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private mutating func next(expecting type: Any.Type) throws -> (JSON, [any CodingKey]) {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(codingPath: codingPath, debugDescription: "the array has ended"))
    }
    defer { currentIndex += 1 }
    return (elements[currentIndex], codingPath + [ElementKey(currentIndex)])
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    let (json, path) = try next(expecting: type)
    return try primitive(type, from: json, at: path)
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (json, path) = try next(expecting: type)
    return try decodeValue(type, from: json, at: path, userInfo: userInfo)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let (json, path) = try next(expecting: [String: JSON].self)
    return try JSONValueDecoder(json: json, codingPath: path, userInfo: userInfo)
      .container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (json, path) = try next(expecting: [JSON].self)
    return try JSONValueDecoder(json: json, codingPath: path, userInfo: userInfo).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (json, path) = try next(expecting: JSON.self)
    return JSONValueDecoder(json: json, codingPath: path, userInfo: userInfo)
  }
}

struct JSONSingleValueContainer: SingleValueDecodingContainer {
  let json: JSON
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: any Sendable]

  func decodeNil() -> Bool { json == .null }

  func decode(_ type: Bool.Type) throws -> Bool { try primitive(type, from: json, at: codingPath) }
  func decode(_ type: String.Type) throws -> String {
    try primitive(type, from: json, at: codingPath)
  }
  func decode(_ type: Double.Type) throws -> Double {
    try primitive(type, from: json, at: codingPath)
  }
  func decode(_ type: Float.Type) throws -> Float {
    try primitive(type, from: json, at: codingPath)
  }
  func decode(_ type: Int.Type) throws -> Int { try primitive(type, from: json, at: codingPath) }
  func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type, from: json, at: codingPath) }
  func decode(_ type: Int16.Type) throws -> Int16 {
    try primitive(type, from: json, at: codingPath)
  }
  func decode(_ type: Int32.Type) throws -> Int32 {
    try primitive(type, from: json, at: codingPath)
  }
  func decode(_ type: Int64.Type) throws -> Int64 {
    try primitive(type, from: json, at: codingPath)
  }
  func decode(_ type: UInt.Type) throws -> UInt { try primitive(type, from: json, at: codingPath) }
  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try primitive(type, from: json, at: codingPath)
  }
  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try primitive(type, from: json, at: codingPath)
  }
  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try primitive(type, from: json, at: codingPath)
  }
  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try primitive(type, from: json, at: codingPath)
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decodeValue(type, from: json, at: codingPath, userInfo: userInfo)
  }
}
