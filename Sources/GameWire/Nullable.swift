/// An optional member that the wire always writes, as `null` when it has no value.
///
/// Synthesized `Codable` leaves a nil optional out; some of the protocol's answers name members
/// even when empty (`"bestScore":null`), and this wrapper keeps them named. (A view's members say
/// whether they are always there in their `WireObject` declaration.)
@propertyWrapper
public struct Nullable<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
  public var wrappedValue: Value?

  public init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue {
      try container.encode(wrappedValue)
    } else {
      try container.encodeNil()
    }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }
}
