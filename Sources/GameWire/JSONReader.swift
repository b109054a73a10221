/// Why a text is not JSON: what was expected and the byte offset where it went wrong.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  public var offset: Int
  public var reason: String

  public var description: String { "\(reason) at offset \(offset)" }
}

/// Reads JSON text (RFC 8259) from UTF-8 bytes into a ``JSON`` value in one pass.
///
/// Runs of string bytes that need no unescaping are taken whole; an object's repeated member
/// keeps its first position and its last value, found through a hash table once an object is
/// large, so reading is linear in the input. Nesting is limited to ``maximumDepth`` levels.
/// Invalid UTF-8 inside strings is replaced by U+FFFD, as `readLine()` does.
public struct JSONReader {
  /// The deepest nesting of arrays and objects accepted.
  public static let maximumDepth = 64
  /// Objects with more members than this find repeated names through a hash table.
  static let linearMembers = 16

  let bytes: UnsafeRawBufferPointer
  var index = 0

  /// Parses one JSON text; white space may surround it, nothing else may.
  ///
  /// - Throws: ``JSONSyntaxError`` naming the first offending offset.
  public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSON {
    var reader = JSONReader(bytes: bytes)
    reader.skipWhitespace()
    let value = try reader.parseValue(depth: 0)
    reader.skipWhitespace()
    guard reader.index == bytes.count else {
      throw reader.error("unexpected text after the JSON value")
    }
    return value
  }

  func error(_ reason: String) -> JSONSyntaxError {
    JSONSyntaxError(offset: index, reason: reason)
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSON {
    guard depth < JSONReader.maximumDepth else {
      throw error("nesting deeper than \(JSONReader.maximumDepth) levels")
    }
    guard index < bytes.count else { throw error("unexpected end of text, expected a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw error("unexpected character, expected a value")
    }
  }

  mutating func parseLiteral(_ word: StaticString, _ value: JSON) throws(JSONSyntaxError) -> JSON {
    let length = word.utf8CodeUnitCount
    guard index + length <= bytes.count,
      (0..<length).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
    else { throw error("unexpected character, expected a value") }
    index += length
    return value
  }

  mutating func parseNumber() throws(JSONSyntaxError) -> JSON {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      skipDigits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
      skipDigits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
      skipDigits()
    }
    return .number(
      String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
  }

  mutating func skipDigits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }

  func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  mutating func parseString() throws(JSONSyntaxError) -> String {
    index += 1  // the opening quote
    let start = index
    // NB: the common case, a string without escapes, is one run decoded at once.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = String(
          decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      index += 1
    }
    var utf8: [UInt8] = []
    utf8.reserveCapacity(index - start + 16)
    utf8.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
    while true {
      guard index < bytes.count else { throw error("unterminated string") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return String(decoding: utf8, as: UTF8.self)
      }
      if byte < 0x20 { throw error("control character in string") }
      guard byte == UInt8(ascii: "\\") else {
        let runStart = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
          bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20
        {
          index += 1
        }
        utf8.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
        continue
      }
      index += 1
      guard index < bytes.count else { throw error("unterminated string") }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
      case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
      case UInt8(ascii: "b"): utf8.append(0x08)
      case UInt8(ascii: "f"): utf8.append(0x0C)
      case UInt8(ascii: "n"): utf8.append(0x0A)
      case UInt8(ascii: "r"): utf8.append(0x0D)
      case UInt8(ascii: "t"): utf8.append(0x09)
      case UInt8(ascii: "u"):
        var code = try parseHex4()
        if (0xD800..<0xDC00).contains(code) {
          guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else { throw error("unpaired surrogate") }
          index += 2
          let low = try parseHex4()
          guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
        if let encoded = UTF8.encode(scalar) { utf8.append(contentsOf: encoded) }
      default:
        index -= 1
        throw error("invalid escape")
      }
    }
  }

  mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = bytes[index + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw error("invalid \\u escape")
      }
      value = value << 4 | UInt32(digit)
    }
    index += 4
    return value
  }

  mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSON {
    index += 1
    var elements: [JSON] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      guard index < bytes.count else { throw error("unterminated array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      } else {
        throw error("expected ',' or ']'")
      }
    }
  }

  mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSON {
    index += 1
    var members: [(String, JSON)] = []
    // NB: filled only once the object outgrows `linearMembers`, so small objects stay cheap.
    var positions: [String: Int] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    // NB: most objects read are a command or an action of a few members: room for them at
    // once, rather than growing the array at its first, second and third member.
    members.reserveCapacity(4)
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a member name in quotes")
      }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected ':'")
      }
      index += 1
      skipWhitespace()
      let value = try parseValue(depth: depth + 1)
      if members.count < JSONReader.linearMembers {
        if let existing = members.firstIndex(where: { $0.0 == key }) {
          members[existing].1 = value
        } else {
          members.append((key, value))
        }
      } else {
        if positions.isEmpty {
          for (position, member) in members.enumerated() { positions[member.0] = position }
        }
        if let existing = positions[key] {
          members[existing].1 = value
        } else {
          positions[key] = members.count
          members.append((key, value))
        }
      }
      skipWhitespace()
      guard index < bytes.count else { throw error("unterminated object") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      } else {
        throw error("expected ',' or '}'")
      }
    }
  }
}
