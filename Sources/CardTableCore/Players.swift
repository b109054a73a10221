/// Names a participant of a match: a player, a computer player, or the referee that runs timers.
public struct PlayerID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  public var rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ name: String) { self.rawValue = name }
  public init(stringLiteral value: String) { self.rawValue = value }

  public var description: String { rawValue }

  /// The one player of a solitaire game.
  ///
  /// NB: computed, not stored: a short literal is made in place, where a stored global is
  /// read through a check that it was initialized.
  @inlinable public static var solo: PlayerID { "You" }

  /// The match itself, performing the follow-up actions its timers run.
  @inlinable public static var referee: PlayerID { "referee" }

  public static func < (lhs: PlayerID, rhs: PlayerID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The bits of the name's string: equal bits are the same string, hence the same name
  /// (the converse does not hold: the same name can be stored in two strings). Nil where a
  /// `String` is not two words (a 32-bit platform), which the compiler decides.
  @inlinable
  var bits: (UInt64, UInt64)? {
    guard MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size else { return nil }
    return withUnsafeBytes(of: rawValue) { $0.loadUnaligned(as: (UInt64, UInt64).self) }
  }
}

/// A place at the table, clockwise from the viewer's own: Bottom → Left → Top → Right.
public enum Seat: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  case bottom, left, top, right

  /// The next seat clockwise.
  public var clockwise: Seat { Seat.allCases[(rawValue + 1) % 4] }

  /// Where this seat appears on the screen of a player sitting at `viewer`, who sees
  /// themselves at the bottom.
  public func relative(to viewer: Seat) -> Seat {
    Seat.allCases[(rawValue - viewer.rawValue + 4) % 4]
  }

  /// The seat's name, as the wire and the screens write it: `bottom`, `left`, `top`, `right`.
  ///
  /// NB: a switch of literals: indexing an array literal built the array on every call, and a
  /// static text is written to the wire without making a `String`.
  public var name: StaticString {
    switch self {
    case .bottom: "bottom"
    case .left: "left"
    case .top: "top"
    case .right: "right"
    }
  }

  public var description: String { name.description }
}

extension PlayerID: Codable {
  /// A player is their name on the wire: `"Lucy"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(String.self))
  }
}

extension Seat: Codable {
  /// A seat is its name on the wire: `"bottom"`, `"left"`, `"top"`, `"right"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let seat = Seat.allCases.first(where: { $0.description == name }) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\"\(name)\" is not a seat.")
    }
    self = seat
  }
}
