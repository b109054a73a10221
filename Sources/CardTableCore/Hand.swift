/// At most three values in order — the cards (or table positions) of one move — stored inline,
/// so that a move, a hint or a history entry allocates nothing.
///
/// Matchismo plays two or three cards a move and Set three, so three is enough; appending a
/// fourth is a programming error.
@frozen
public struct Hand<Element> {
  @usableFromInline var first: Element?
  @usableFromInline var second: Element?
  @usableFromInline var third: Element?
  @usableFromInline var length: UInt8

  /// The most values a hand holds.
  public static var capacity: Int { 3 }

  /// An empty hand.
  @inlinable
  public init() {
    (first, second, third, length) = (nil, nil, nil, 0)
  }

  /// A hand of `elements`, at most three.
  @inlinable
  public init(_ elements: Element...) {
    self.init()
    for element in elements { append(element) }
  }

  /// A hand of the values of `sequence`, at most three.
  @inlinable
  public init(_ sequence: some Sequence<Element>) {
    self.init()
    for element in sequence { append(element) }
  }

  /// Adds `element` after the others.
  @inlinable
  public mutating func append(_ element: Element) {
    switch length {
    case 0: first = element
    case 1: second = element
    case 2: third = element
    default: preconditionFailure("a hand holds at most three values")
    }
    length += 1
  }
}

extension Hand: RandomAccessCollection {
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { Int(length) }

  @inlinable
  public subscript(position: Int) -> Element {
    precondition(position >= 0 && position < Int(length), "index out of range")
    let value: Element? =
      switch position {
      case 0: first
      case 1: second
      default: third
      }
    // NB: every position below `length` holds a value.
    guard let value else { preconditionFailure("index out of range") }
    return value
  }
}

extension Hand: Equatable where Element: Equatable {
  @inlinable
  public static func == (lhs: Hand, rhs: Hand) -> Bool {
    lhs.length == rhs.length && lhs.first == rhs.first && lhs.second == rhs.second
      && lhs.third == rhs.third
  }
}

extension Hand: Hashable where Element: Hashable {
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(length)
    for element in self { hasher.combine(element) }
  }
}

extension Hand: Sendable where Element: Sendable {}

extension Hand: ExpressibleByArrayLiteral {
  @inlinable
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension Hand: Encodable where Element: Encodable {
  /// A hand is an array on the wire.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self { try container.encode(element) }
  }
}

extension Hand: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    while !container.isAtEnd {
      guard count < Hand.capacity else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "A hand holds at most three values.")
      }
      append(try container.decode(Element.self))
    }
  }
}

extension Hand: CustomStringConvertible {
  public var description: String { Array(self).description }
}
