/// Encodes `Encodable` values as compact JSON text, streaming straight into a ``JSONWriter``:
/// the one encoder of the wire.
///
/// Members are written in the order they are encoded, so a type's `CodingKeys` order is its
/// wire order. Asking the same encoder for a keyed container again continues the same object,
/// which lets a value add members to another's (a result's times after its record, a state's
/// header before its body). Containers must be used in nested order, as synthesized and
/// hand-written conformances do: writing to a container closes the containers opened after it.
public struct WireEncoder {
  /// Values a conformance may read, e.g. ``CodingUserInfoKey/gameName``.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  public init() {}

  /// Appends the JSON text of `value` to `writer`.
  public func encode(_ value: some Encodable, into writer: inout JSONWriter) throws {
    let encoder = StreamEncoder(writer: writer, userInfo: userInfo)
    // NB: the writer moves into the encoder and back, so its buffer is never copied.
    writer = JSONWriter(capacity: 0)
    defer { writer = encoder.take() }
    try encoder.encodeValue(value)
  }

  /// The JSON text of `value`.
  public func text(of value: some Encodable) throws -> String {
    var writer = JSONWriter()
    try encode(value, into: &writer)
    return writer.string
  }

  /// `value` as a ``JSON`` value, for tests and tools; the wire itself writes text.
  public func json(of value: some Encodable) throws -> JSON {
    var writer = JSONWriter()
    try encode(value, into: &writer)
    let parsed: Result<JSON, JSONSyntaxError> = writer.bytes.withUnsafeBytes { bytes in
      do throws(JSONSyntaxError) {
        return .success(try JSONReader.parse(bytes))
      } catch {
        return .failure(error)
      }
    }
    return try parsed.get()
  }
}

/// The encoder behind ``WireEncoder``: one per top-level value, with a stack of the open
/// objects and arrays.
final class StreamEncoder: Encoder {
  struct Frame {
    var isObject: Bool
    var count = 0
  }

  var writer: JSONWriter
  let userInfoValues: [CodingUserInfoKey: any Sendable]
  var open: [Frame] = []
  /// A value is expected now: the next container or single value writes it.
  var pending = false
  /// The stack depth of the value being written: its own container, if any, is `open[base]`.
  var base = 0

  init(writer: JSONWriter, userInfo: [CodingUserInfoKey: any Sendable]) {
    self.writer = writer
    self.userInfoValues = userInfo
    open.reserveCapacity(8)
  }

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { userInfoValues }

  /// Hands the writer back, leaving an empty one, so that its buffer is not shared.
  func take() -> JSONWriter {
    defer { writer = JSONWriter(capacity: 0) }
    return writer
  }

  /// Encodes one value where a value is expected, closing what it opened.
  func encodeValue(_ value: some Encodable) throws {
    let (savedPending, savedBase) = (pending, base)
    pending = true
    base = open.count
    try value.encode(to: self)
    if pending {
      // NB: a value that wrote nothing is an empty object, as Foundation's encoder writes it.
      writer.raw("{}")
      pending = false
    }
    close(toDepth: base)
    (pending, base) = (savedPending, savedBase)
  }

  /// Closes every container deeper than `depth` containers.
  func close(toDepth depth: Int) {
    while open.count > depth {
      writer.raw(open.removeLast().isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }
  }

  /// Opens an object or array where a value is expected, or returns the object the current
  /// value already opened.
  func openContainer(object: Bool) -> Int {
    if pending {
      pending = false
      writer.raw(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
      open.append(Frame(isObject: object))
      return open.count - 1
    }
    precondition(
      object && open.count > base && open[base].isObject,
      "a value asked for a second container of another kind")
    close(toDepth: base + 1)
    return base
  }

  /// Starts the next member of the object at `depth`: a comma when needed, the key, a colon.
  func key(_ key: some CodingKey, in depth: Int) {
    close(toDepth: depth + 1)
    if open[depth].count > 0 { writer.raw(UInt8(ascii: ",")) }
    open[depth].count += 1
    writer.write(key.stringValue)
    writer.raw(UInt8(ascii: ":"))
  }

  /// Starts the next element of the array at `depth`.
  func element(in depth: Int) {
    close(toDepth: depth + 1)
    if open[depth].count > 0 { writer.raw(UInt8(ascii: ",")) }
    open[depth].count += 1
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      StreamKeyedContainer<Key>(encoder: self, depth: openContainer(object: true)))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    StreamUnkeyedContainer(encoder: self, depth: openContainer(object: false))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    StreamSingleValueContainer(encoder: self)
  }

  /// Writes a primitive where a single value is expected.
  func single(_ write: (inout JSONWriter) -> Void) {
    precondition(pending, "a single value was encoded twice")
    pending = false
    write(&writer)
  }
}

struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: StreamEncoder
  let depth: Int

  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.writer.writeNull()
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: String, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: Float, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.writer.write(Double(value))
  }

  mutating func encode(_ value: Int, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try encode(Int(value), forKey: key)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try encode(Int(value), forKey: key)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try encode(Int(value), forKey: key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try encode(Int(value), forKey: key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try encode(UInt64(value), forKey: key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try encode(Int(value), forKey: key)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try encode(Int(value), forKey: key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try encode(Int(value), forKey: key)
  }

  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: some Encodable, forKey key: Key) throws {
    encoder.key(key, in: depth)
    try encoder.encodeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.key(key, in: depth)
    encoder.writer.raw(UInt8(ascii: "{"))
    encoder.open.append(StreamEncoder.Frame(isObject: true))
    return KeyedEncodingContainer(
      StreamKeyedContainer<NestedKey>(encoder: encoder, depth: encoder.open.count - 1))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.key(key, in: depth)
    encoder.writer.raw(UInt8(ascii: "["))
    encoder.open.append(StreamEncoder.Frame(isObject: false))
    return StreamUnkeyedContainer(encoder: encoder, depth: encoder.open.count - 1)
  }

  // NB: a streaming encoder cannot leave a member to be written later; no type of this
  // project encodes its superclass, so these are refused rather than half supported.
  mutating func superEncoder() -> any Encoder {
    preconditionFailure("WireEncoder does not encode superclasses")
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    preconditionFailure("WireEncoder does not encode superclasses")
  }
}

struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: StreamEncoder
  let depth: Int

  var codingPath: [any CodingKey] { [] }
  var count: Int { encoder.open.count > depth ? encoder.open[depth].count : 0 }

  mutating func encodeNil() throws {
    encoder.element(in: depth)
    encoder.writer.writeNull()
  }

  mutating func encode(_ value: Bool) throws {
    encoder.element(in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: String) throws {
    encoder.element(in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: Double) throws {
    encoder.element(in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: Float) throws { try encode(Double(value)) }

  mutating func encode(_ value: Int) throws {
    encoder.element(in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
  mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
  mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
  mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt) throws { try encode(UInt64(value)) }
  mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
  mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }

  mutating func encode(_ value: UInt64) throws {
    encoder.element(in: depth)
    encoder.writer.write(value)
  }

  mutating func encode(_ value: some Encodable) throws {
    encoder.element(in: depth)
    try encoder.encodeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    encoder.element(in: depth)
    encoder.writer.raw(UInt8(ascii: "{"))
    encoder.open.append(StreamEncoder.Frame(isObject: true))
    return KeyedEncodingContainer(
      StreamKeyedContainer<NestedKey>(encoder: encoder, depth: encoder.open.count - 1))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    encoder.element(in: depth)
    encoder.writer.raw(UInt8(ascii: "["))
    encoder.open.append(StreamEncoder.Frame(isObject: false))
    return StreamUnkeyedContainer(encoder: encoder, depth: encoder.open.count - 1)
  }

  mutating func superEncoder() -> any Encoder {
    preconditionFailure("WireEncoder does not encode superclasses")
  }
}

struct StreamSingleValueContainer: SingleValueEncodingContainer {
  let encoder: StreamEncoder

  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws { encoder.single { $0.writeNull() } }
  mutating func encode(_ value: Bool) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: String) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: Double) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: Float) throws { encoder.single { $0.write(Double(value)) } }
  mutating func encode(_ value: Int) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: Int8) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: Int16) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: Int32) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: Int64) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: UInt) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: UInt8) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: UInt16) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: UInt32) throws { encoder.single { $0.write(value) } }
  mutating func encode(_ value: UInt64) throws { encoder.single { $0.write(value) } }

  mutating func encode(_ value: some Encodable) throws {
    precondition(encoder.pending, "a single value was encoded twice")
    // NB: the value takes this value's place; its own containers open here.
    try value.encode(to: encoder)
  }
}
