/// A room's id: 96 random bits as 16 characters of base64url, the last part of its link
/// `/play/ID`. Unguessable, so the link is the only way in.
public struct RoomID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
  public let rawValue: String
  /// The id's 16 bytes as two words, which tell ids apart and hash them.
  ///
  /// NB: the server looks a room up by its id several times an action (its timers, its store,
  /// its players). Sixteen bytes make a `String` kept on the heap, which hashed byte by byte
  /// and compared as a string: 1.7 % of the server's instructions in `bench rooms`.
  private let words: (UInt64, UInt64)

  /// Accepts exactly 16 base64url characters.
  public init?(rawValue: String) {
    guard rawValue.utf8.count == Self.length, rawValue.utf8.allSatisfy(Base64URL.isDigit) else {
      return nil
    }
    self.rawValue = rawValue
    var words: (UInt64, UInt64) = (0, 0)
    for (offset, byte) in rawValue.utf8.enumerated() {
      if offset < 8 {
        words.0 |= UInt64(byte) << (8 * offset)
      } else {
        words.1 |= UInt64(byte) << (8 * (offset - 8))
      }
    }
    self.words = words
  }

  public static func == (a: RoomID, b: RoomID) -> Bool { a.words == b.words }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(words.0)
    hasher.combine(words.1)
  }

  /// The number of characters of an id.
  public static let length = 16

  /// A new id from the system's secure random source.
  public static func random() -> RoomID {
    var generator = SystemRandomNumberGenerator()
    return random(using: &generator)
  }

  /// A new id from `generator`.
  public static func random(using generator: inout some RandomNumberGenerator) -> RoomID {
    let bytes = (0..<12).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    // NB: 12 bytes are 16 base64url characters exactly, every one carrying 6 random bits.
    guard let id = RoomID(rawValue: Base64URL.encode(bytes)) else {
      preconditionFailure("12 random bytes always make a room id")
    }
    return id
  }

  public var description: String { rawValue }

  public static func < (a: RoomID, b: RoomID) -> Bool { a.rawValue < b.rawValue }
}

/// A player's secret: 128 random bits as 22 characters of base64url. The browser keeps it; the
/// store keeps only its SHA-256 hash, so a copy of the database plays as nobody.
public struct PlayerToken: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  /// Accepts exactly 22 base64url characters.
  public init?(rawValue: String) {
    guard rawValue.utf8.count == Self.length, rawValue.utf8.allSatisfy(Base64URL.isDigit) else {
      return nil
    }
    self.rawValue = rawValue
  }

  /// The number of characters of a token.
  public static let length = 22

  /// A new token from the system's secure random source.
  public static func random() -> PlayerToken {
    var generator = SystemRandomNumberGenerator()
    return random(using: &generator)
  }

  /// A new token from `generator`.
  public static func random(using generator: inout some RandomNumberGenerator) -> PlayerToken {
    let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    guard let token = PlayerToken(rawValue: Base64URL.encode(bytes)) else {
      preconditionFailure("16 random bytes always make a token")
    }
    return token
  }

  /// The SHA-256 hash of the token's text: what the store keeps.
  public var hash: [UInt8] { SHA256.hash(Array(rawValue.utf8)) }

  /// Never the token itself: it is a secret.
  public var description: String { "PlayerToken(…)" }
}

/// A player as the store numbers it.
public struct PlayerKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: Int64
  public init(rawValue: Int64) { self.rawValue = rawValue }
  public var description: String { "player-\(rawValue)" }
}

/// Base64 with the URL-safe alphabet (RFC 4648 §5) and no padding.
enum Base64URL {
  static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  static func isDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 4 + 2) / 3)
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      var value: UInt32 = 0
      for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
      let digits = chunk.count + 1
      for position in 0..<digits {
        output.append(alphabet[Int((value >> (18 - 6 * UInt32(position))) & 63)])
      }
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }
}

/// A table's join code: six characters read aloud, `KXQ-4TP`, 30 random bits from an alphabet
/// without look-alikes (no I, O, 0 or 1).
///
/// 2^30 codes against at most ten wrong tries per minute per connection (the server's limit)
/// make guessing a table hopeless; the room id behind it stays the secret that opens the link.
public struct TableCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The six characters, without the dash.
  public let rawValue: String

  static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789".utf8)

  public init?(rawValue: String) {
    guard rawValue.utf8.count == 6, rawValue.utf8.allSatisfy(Self.alphabet.contains) else {
      return nil
    }
    self.rawValue = rawValue
  }

  /// Reads a code as a person types it: any case, with or without the dash or spaces.
  public init?(typed text: String) {
    let kept = text.uppercased().filter { $0 != "-" && $0 != " " }
    self.init(rawValue: kept)
  }

  /// A new code from `generator`.
  public static func random(using generator: inout some RandomNumberGenerator) -> TableCode {
    let characters = (0..<6).map { _ in
      alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
    }
    guard let code = TableCode(rawValue: String(decoding: characters, as: UTF8.self)) else {
      preconditionFailure("the alphabet makes codes")
    }
    return code
  }

  /// `KXQ-4TP`.
  public var description: String {
    String(rawValue.prefix(3)) + "-" + String(rawValue.suffix(3))
  }
}
