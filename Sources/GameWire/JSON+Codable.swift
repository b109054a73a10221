import CardTableCore

extension JSON: Codable {
  /// Writes the value; through ``WireEncoder`` numbers keep their exact text.
  public func encode(to encoder: any Encoder) throws {
    if let stream = encoder as? StreamEncoder {
      stream.single { $0.write(self) }
      return
    }
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let text):
      var container = encoder.singleValueContainer()
      if let integer = Int(text) {
        try container.encode(integer)
      } else if let large = UInt64(text) {
        try container.encode(large)
      } else {
        try container.encode(Double(text) ?? 0)
      }
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .object(let members):
      var container = encoder.container(keyedBy: MemberKey.self)
      for (key, value) in members { try container.encode(value, forKey: MemberKey(key)) }
    }
  }

  /// Reads any JSON value; through ``WireDecoder`` it is the value itself.
  public init(from decoder: any Decoder) throws {
    if let wire = decoder as? JSONValueDecoder {
      self = wire.json
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var elements: [JSON] = []
      while !array.isAtEnd { elements.append(try array.decode(JSON.self)) }
      self = .array(elements)
    } else if let object = try? decoder.container(keyedBy: MemberKey.self) {
      self = .object(
        try object.allKeys.map { ($0.stringValue, try object.decode(JSON.self, forKey: $0)) })
    } else {
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let flag = try? single.decode(Bool.self) {
        self = .bool(flag)
      } else if let text = try? single.decode(String.self) {
        self = .string(text)
      } else {
        self = JSON(try single.decode(Double.self))
      }
    }
  }
}

/// An object's members already written as JSON text, spliced into the object being written
/// (``ObjectWriter/splice(_:)``): a view's body written once per version and sent in many
/// messages.
public struct EncodedMembers: Sendable {
  /// The members' text without the object's braces: `"score":0,"status":"…"`.
  let bytes: [UInt8]

  /// Writes the members of `value`, which must encode as an object, with `encoder`.
  public init(_ value: some Encodable, encoder: WireEncoder = WireEncoder()) throws {
    try self.init(value) { try encoder.encode(value, into: &$0) }
  }

  /// The members `write` writes of `value` (for the error if it is not an object), into a
  /// writer with room for `capacity` bytes.
  init(
    _ value: some Encodable, capacity: Int = 1024, writing write: (inout JSONWriter) throws -> Void
  ) throws {
    var writer = JSONWriter(capacity: capacity)
    try write(&writer)
    let members: [UInt8]? = writer.withBytes { text in
      guard text.count >= 2, text.first == UInt8(ascii: "{"), text.last == UInt8(ascii: "}")
      else { return nil }
      return Array(text[1..<(text.count - 1)])
    }
    guard let members else {
      throw EncodingError.invalidValue(
        value, EncodingError.Context(codingPath: [], debugDescription: "not an object"))
    }
    bytes = members
  }
}
