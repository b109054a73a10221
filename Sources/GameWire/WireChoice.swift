import CardTableCore

// A game's actions declared once (docs/ARCHITECTURE.md "The wire"): each kind of action is one
// line naming its `type`, its members and how the value is made from them and taken apart; the
// writer, `Decodable` and the list of types a player may send are walks of that one list.

/// A value that is one of several shapes told apart by their `type` member: a game's actions.
///
/// ```swift
/// static func choices<C: WireChoices<Self>>(_ c: inout C) throws(C.Failure) {
///   try c.choice("flip", "card", { .flip($0) }, { if case .flip(let card) = $0 { card } else { nil } })
///   try c.choice("resolve", .resolve, read: false)  // a timer's: written, not a player's to send
///   try c.choice("leave", .leave)
/// }
/// ```
///
/// Writing writes the first kind that takes the value apart; reading reads the `type`, then the
/// members of the kind of that name that may be read, and refuses any other `type` with the
/// names of those that may (``typeNames``), in the order declared.
public protocol WireChoice: WireValue, Equatable {
  /// Names every kind in order, with its members.
  static func choices<Choices: WireChoices<Self>>(_ choices: inout Choices)
    throws(Choices.Failure)
}

/// What walks a ``WireChoice``'s kinds: the writer, a `Decoder`'s container, or the list of
/// names.
public protocol WireChoices<Choice> {
  associatedtype Choice: Equatable
  associatedtype Failure: Error
  /// `{"type":name}`: the one value `value`. `read: false` for a kind only a timer performs,
  /// which is written (in a log) but refused as unknown when a player sends it.
  mutating func choice(_ name: StaticString, _ value: Choice, read: Bool) throws(Failure)
  /// `{"type":name,key:…}`: a value made from one member and taken apart into it.
  mutating func choice<Value: WireValue>(
    _ name: StaticString, _ key: StaticString, _ make: (Value) -> Choice,
    _ take: (Choice) -> Value?) throws(Failure)
  /// `{"type":name,key:…,more:…}`, `more` there only when it holds a value.
  mutating func choice<Value: WireValue, More: WireValue>(
    _ name: StaticString, _ key: StaticString, optional more: StaticString,
    _ make: (Value, More?) -> Choice, _ take: (Choice) -> (Value, More?)?) throws(Failure)
  /// A `type` that reading refuses with an error of its own (not listed among the names).
  mutating func refused(_ name: StaticString, _ error: () -> any Error) throws(Failure)
}

extension WireChoices {
  /// `{"type":name}`, which a player may send.
  public mutating func choice(_ name: StaticString, _ value: Choice) throws(Failure) {
    try choice(name, value, read: true)
  }
}

extension WireChoice {
  /// The `type`s a player may send, in the order declared.
  public static var typeNames: [String] {
    var names = NamingChoices<Self>()
    Self.choices(&names)
    return names.names
  }

  public func write(to writer: inout WireWriter) {
    var choices = WritingChoices(value: self, writer: writer)
    Self.choices(&choices)
  }

  /// Reads a value straight from `json` when it is a kind's plain shape: an object whose `type`
  /// names a kind a player may send, each of whose members is there and is read by its type's
  /// ``WireValue/plain(_:)``. Nil for anything else, which `init(from:)` then reads, or refuses
  /// with the error that says what is amiss — so that both read every text alike.
  ///
  /// NB: an action arrives with every move; through a `Decoder`'s containers, its `type` and
  /// its one member cost more than the rules that perform it.
  public init?(plain json: JSON) {
    guard case .object(let members) = json,
      let type = members.first(where: { $0.0 == "type" })?.1.stringValue
    else { return nil }
    var choices = PlainChoices<Self>(type: type, members: members)
    Self.choices(&choices)
    guard let value = choices.value else { return nil }
    self = value
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: MemberKey.self)
    var choices = DecodingChoices<Self>(
      type: try container.decode(String.self, forKey: MemberKey("type")), container: container)
    try Self.choices(&choices)
    guard let value = choices.value else {
      throw InputError.unknownName(member: "type", value: choices.type, expected: Self.typeNames)
    }
    self = value
  }
}

/// Lists the kinds a player may send.
struct NamingChoices<Choice: Equatable>: WireChoices {
  typealias Failure = Never
  var names: [String] = []

  mutating func choice(_ name: StaticString, _ value: Choice, read: Bool) {
    if read { names.append("\(name)") }
  }

  mutating func choice<Value: WireValue>(
    _ name: StaticString, _ key: StaticString, _ make: (Value) -> Choice,
    _ take: (Choice) -> Value?
  ) {
    names.append("\(name)")
  }

  mutating func choice<Value: WireValue, More: WireValue>(
    _ name: StaticString, _ key: StaticString, optional more: StaticString,
    _ make: (Value, More?) -> Choice, _ take: (Choice) -> (Value, More?)?
  ) {
    names.append("\(name)")
  }

  mutating func refused(_ name: StaticString, _ error: () -> any Error) {}
}

/// Writes the first kind that takes the value apart.
struct WritingChoices<Choice: Equatable>: WireChoices {
  typealias Failure = Never
  let value: Choice
  var writer: WireWriter
  var written = false

  mutating func choice(_ name: StaticString, _ value: Choice, read: Bool) {
    guard !written, value == self.value else { return }
    written = true
    writer.object { $0.type(name) }
  }

  mutating func choice<Value: WireValue>(
    _ name: StaticString, _ key: StaticString, _ make: (Value) -> Choice,
    _ take: (Choice) -> Value?
  ) {
    guard !written, let member = take(value) else { return }
    written = true
    writer.object { object in
      object.type(name)
      object.member(key, member)
    }
  }

  mutating func choice<Value: WireValue, More: WireValue>(
    _ name: StaticString, _ key: StaticString, optional more: StaticString,
    _ make: (Value, More?) -> Choice, _ take: (Choice) -> (Value, More?)?
  ) {
    guard !written, let (member, another) = take(value) else { return }
    written = true
    writer.object { object in
      object.type(name)
      object.member(key, member)
      object.optional(more, another)
    }
  }

  mutating func refused(_ name: StaticString, _ error: () -> any Error) {}
}

/// Reads the kind whose name the `type` member holds straight from an object's members, when
/// each is there and plain (``WireChoice/init(plain:)``); any doubt leaves `value` nil.
struct PlainChoices<Choice: Equatable>: WireChoices {
  typealias Failure = Never
  let type: String
  let members: [(String, JSON)]
  var value: Choice?
  /// Whether the kind was found: a later one of the same name is not read.
  private var found = false

  init(type: String, members: [(String, JSON)]) {
    self.type = type
    self.members = members
  }

  /// Whether this kind is the one to read.
  private mutating func named(_ name: StaticString) -> Bool {
    guard !found, Self.is(type, name) else { return false }
    found = true
    return true
  }

  /// The member named `key`, as a `Decoder`'s container finds it: the first of that name.
  private func member(_ key: StaticString) -> JSON? {
    members.first(where: { Self.is($0.0, key) })?.1
  }

  /// Whether `text` is `name`, compared as bytes.
  private static func `is`(_ text: String, _ name: StaticString) -> Bool {
    var text = text
    return text.withUTF8 { text in
      name.withUTF8Buffer { name in text.count == name.count && text.elementsEqual(name) }
    }
  }

  mutating func choice(_ name: StaticString, _ value: Choice, read: Bool) {
    guard read, named(name) else { return }
    self.value = value
  }

  mutating func choice<Value: WireValue>(
    _ name: StaticString, _ key: StaticString, _ make: (Value) -> Choice,
    _ take: (Choice) -> Value?
  ) {
    guard named(name), let json = member(key), let member = Value.plain(json) else { return }
    value = make(member)
  }

  mutating func choice<Value: WireValue, More: WireValue>(
    _ name: StaticString, _ key: StaticString, optional more: StaticString,
    _ make: (Value, More?) -> Choice, _ take: (Choice) -> (Value, More?)?
  ) {
    guard named(name), let json = member(key), let member = Value.plain(json) else { return }
    // NB: an optional member that is there is read only when plain; `null` is left to the
    // container, as any other doubt.
    guard let another = self.member(more) else {
      value = make(member, nil)
      return
    }
    guard let read = More.plain(another) else { return }
    value = make(member, read)
  }

  mutating func refused(_ name: StaticString, _ error: () -> any Error) {
    _ = named(name)
  }
}

/// Reads the kind whose name the `type` member holds, through a `Decoder`'s container (so that a
/// member missing or of the wrong type is refused as any other member is).
struct DecodingChoices<Choice: Equatable>: WireChoices {
  typealias Failure = any Error
  let type: String
  let container: KeyedDecodingContainer<MemberKey>
  var value: Choice?

  init(type: String, container: KeyedDecodingContainer<MemberKey>) {
    self.type = type
    self.container = container
  }

  /// Whether this kind is the one to read.
  private func named(_ name: StaticString) -> Bool {
    value == nil && "\(name)" == type
  }

  mutating func choice(_ name: StaticString, _ value: Choice, read: Bool) throws {
    guard read, named(name) else { return }
    self.value = value
  }

  mutating func choice<Value: WireValue>(
    _ name: StaticString, _ key: StaticString, _ make: (Value) -> Choice,
    _ take: (Choice) -> Value?
  ) throws {
    guard named(name) else { return }
    value = make(try container.decode(Value.self, forKey: MemberKey("\(key)")))
  }

  mutating func choice<Value: WireValue, More: WireValue>(
    _ name: StaticString, _ key: StaticString, optional more: StaticString,
    _ make: (Value, More?) -> Choice, _ take: (Choice) -> (Value, More?)?
  ) throws {
    guard named(name) else { return }
    let member = try container.decode(Value.self, forKey: MemberKey("\(key)"))
    value = make(member, try container.decodeIfPresent(More.self, forKey: MemberKey("\(more)")))
  }

  mutating func refused(_ name: StaticString, _ error: () -> any Error) throws {
    guard named(name) else { return }
    throw error()
  }
}
