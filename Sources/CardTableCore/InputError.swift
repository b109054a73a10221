/// Input that a game's `Decodable` conformance does not accept, as facts about the input;
/// the wire puts them in words for the person or program that sent it.
///
/// Malformed input (a missing member, a number where a name belongs) is the decoder's own
/// `DecodingError`; these are the games' rules about well-formed input.
public enum InputError: Error, Equatable, Sendable {
  /// An object has a member its type does not know; `allowed` are the ones it knows.
  case unknownMember(String, allowed: [String])
  /// An integer member is out of its range, or not an integer at all.
  case outOfRange(member: String, ClosedRange<Int>)
  /// A member names none of the names it may (an action type, a difficulty); `value` is the
  /// name given, if it was a name.
  case unknownName(member: String, value: String?, expected: [String])
  /// A member is not what it must be; `expected` says what, e.g. `an array of names`.
  case invalid(member: String, expected: String)
  /// A refusal with its own stable code and sentence, e.g. `mode-fixed`.
  case refused(code: String, message: String)
}

/// Any member name, for reading the names an object actually has.
public struct MemberKey: CodingKey, Hashable, Sendable {
  public var stringValue: String
  public var intValue: Int? { nil }

  public init(_ name: String) { stringValue = name }
  public init?(stringValue: String) { self.stringValue = stringValue }
  public init?(intValue: Int) { nil }
}

extension Decoder {
  /// Throws ``InputError/unknownMember(_:allowed:)`` for the first member of this object whose
  /// name is not among `Keys`, so that a misspelt option is never silently ignored.
  public func rejectUnknownMembers<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
    try rejectUnknownMembers(keys, unlisted: [])
  }

  /// Throws ``InputError/unknownMember(_:allowed:)`` for the first member whose name is not
  /// among `Keys`; the refusal names the members of `Keys` but those in `unlisted`.
  ///
  /// NB: for options added after the engine console's refusals were pinned byte for byte (the
  /// golden transcript): naming them would change the words of every older refusal.
  public func rejectUnknownMembers<Keys: CodingKey & CaseIterable>(
    _ keys: Keys.Type, unlisted: Set<String>
  ) throws {
    let known = Keys.allCases.map(\.stringValue)
    let container = try container(keyedBy: MemberKey.self)
    if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
      throw InputError.unknownMember(
        unknown.stringValue, allowed: known.filter { !unlisted.contains($0) })
    }
  }
}

extension KeyedDecodingContainer {
  /// The choice named at `key` (a computer level, say), nil when the member is absent or null
  /// or, with `none`, when it names that word.
  ///
  /// - Throws: ``InputError/unknownName(member:value:expected:)`` for any other text.
  public func decodeChoice<Choice: RawRepresentable & CaseIterable>(
    _ type: Choice.Type, forKey key: Key, none: String? = nil
  ) throws -> Choice? where Choice.RawValue == String {
    guard contains(key), try !decodeNil(forKey: key) else { return nil }
    let name = try? decode(String.self, forKey: key)
    if let none, name == none { return nil }
    guard let choice = name.flatMap(Choice.init(rawValue:)) else {
      throw InputError.unknownName(
        member: key.stringValue, value: name,
        expected: (none.map { [$0] } ?? []) + Choice.allCases.map(\.rawValue))
    }
    return choice
  }

  /// The integer at `key` within `range`, or `defaultValue` when the member is absent or null.
  ///
  /// - Throws: ``InputError/outOfRange(member:_:)`` when it is not an integer in `range`.
  public func decode(
    _ type: Int.Type, forKey key: Key, in range: ClosedRange<Int>, default defaultValue: Int
  ) throws -> Int {
    guard contains(key), try !decodeNil(forKey: key) else { return defaultValue }
    guard let value = try? decode(Int.self, forKey: key), range.contains(value) else {
      throw InputError.outOfRange(member: key.stringValue, range)
    }
    return value
  }

  /// The value at `key`, or `defaultValue` when the member is absent or null.
  public func decode<T: Decodable>(_ type: T.Type, forKey key: Key, default defaultValue: T)
    throws -> T
  {
    try decodeIfPresent(type, forKey: key) ?? defaultValue
  }
}

extension CodingUserInfoKey {
  /// The wire name of the game whose options or actions are being read (`"concentration"`),
  /// for a type that serves several games.
  public static let gameName: CodingUserInfoKey = {
    // NB: `init(rawValue:)` is failable in its signature only; it accepts every string.
    guard let key = CodingUserInfoKey(rawValue: "cardtable.gameName") else { preconditionFailure() }
    return key
  }()
}
