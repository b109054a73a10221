import CardTableCore
import MatchingGame
import MemoryGame
import SetGame
import SnapGame

// The wire's shapes declared once (docs/ARCHITECTURE.md "The wire"): a `WireObject` names its
// members in wire order, each with the property that holds it, in one static function; the
// direct writer, `Encodable` and `Decodable` are all walks of that one declaration, so a member
// cannot be written and forgotten when read, or the other way round.

/// A value that appends its own JSON text to the wire's bytes, with no `Encoder`, container or
/// dynamic dispatch per member; its `Encodable` conformance writes the same text.
///
/// A type that is only written (an event, a message's envelope) declares its shape once, in
/// ``write(to:)``, and `encode(to:)` follows from it; a type that is read back too is a
/// ``WireValue``, and an object among them a ``WireObject``.
public protocol WireEncodable: Encodable {
  /// Appends the value's JSON text.
  ///
  /// The writer is lent for the call: keep no copy of it (it does not keep its encoder alive).
  func write(to writer: inout WireWriter)
}

/// A ``WireEncodable`` value that is read back too.
public protocol WireValue: WireEncodable, Decodable {
  /// The value `json` holds, read straight from it, when this type has a plain reader (a number,
  /// a string, a flag) and `json` is a value `Decodable` reads alike; nil otherwise, for
  /// `Decodable` to read or refuse. See ``WireChoice/init(plain:)``.
  static func plain(_ json: JSON) -> Self?
}

extension WireValue {
  public static func plain(_ json: JSON) -> Self? { nil }
}

extension WireEncodable {
  /// Written by the wire's own writer; for any other encoder, the same text as a ``JSON`` value.
  public func encode(to encoder: any Encoder) throws {
    if let stream = encoder as? StreamEncoder {
      stream.writeDirect(self)
      return
    }
    try WireEncoder().json(of: self).encode(to: encoder)
  }
}

/// A JSON object whose members are declared once, in wire order, by ``members(_:)``.
///
/// ```swift
/// static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
///   try m.member("player", \.player)      // always written
///   try m.member("title", \.title)        // a `String?`: written as null when nil
///   try m.optional("computer", \.computer) // written only when it holds a value
///   try m.shared("history", \.history)    // a view's member, the same for every player
/// }
/// ```
///
/// From it follow ``WireValue/write(to:)`` (the wire's own, straight into bytes), `encode(to:)`
/// for any other `Encoder` and `init(from:)`, which starts from ``init()`` and sets each member
/// it reads.
public protocol WireObject: WireValue {
  /// The value that reading starts from; every declared member is then read into it.
  init()
  /// Names every member in wire order with the property that holds it.
  static func members<Members: WireMembers<Self>>(_ members: inout Members)
    throws(Members.Failure)
}

/// What walks a ``WireObject``'s members: the writer, an `Encoder`'s container or a `Decoder`'s.
public protocol WireMembers<Object> {
  associatedtype Object
  associatedtype Failure: Error
  /// A member that is always there (an optional one written as `null` when nil).
  mutating func member<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value>) throws(Failure)
  /// A member that is there only when it holds a value.
  mutating func optional<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value?>) throws(Failure)
  /// A member of a view (``WireViewType``) that is the same for every player and watcher of
  /// one version — a table's history, its found matches — so that a session writes it once per
  /// version for all of them (the referee's, which may see more, once for the referee). Read,
  /// and written anywhere else, as ``member(_:_:)``.
  mutating func shared<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value>) throws(Failure)
  /// ``shared(_:_:)`` for a member there only when it holds a value (as ``optional(_:_:)``).
  mutating func sharedOptional<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value?>) throws(Failure)
  /// ``shared(_:_:)`` for a list (a board, a history): besides, a session copies the text of
  /// each element equal to the one at its place in the list of the version it last wrote.
  mutating func shared<Element: WireValue & Equatable>(
    _ name: StaticString, _ path: WritableKeyPath<Object, [Element]>) throws(Failure)
  /// ``shared(_:_:)`` for a list whose elements every player and watcher of one version sees
  /// alike but for their member `member` (Snap!'s seats: each seat's `position` is where the
  /// viewer sees it): a session writes the list once per version and copies its text for the
  /// others, writing only that member's values anew.
  mutating func shared<Element: WireObject, Varying: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, [Element]>,
    varying member: StaticString, _ varying: KeyPath<Element, Varying>) throws(Failure)
}

extension WireMembers {
  @inline(__always)
  public mutating func shared<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value>
  ) throws(Failure) {
    try member(name, path)
  }

  @inline(__always)
  public mutating func sharedOptional<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value?>
  ) throws(Failure) {
    try optional(name, path)
  }

  @inline(__always)
  public mutating func shared<Element: WireValue & Equatable>(
    _ name: StaticString, _ path: WritableKeyPath<Object, [Element]>
  ) throws(Failure) {
    try member(name, path)
  }

  @inline(__always)
  public mutating func shared<Element: WireObject, Varying: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, [Element]>,
    varying member: StaticString, _ varying: KeyPath<Element, Varying>
  ) throws(Failure) {
    try self.member(name, path)
  }
}

/// A ``WireObject`` whose text an encoder keeps once written, so that an equal value is written
/// by copying it: a part of a view that repeats from version to version (a board position, a
/// seat, a found match). See ``StreamEncoder/writeMemoized(_:)``.
public protocol MemoizedWireObject: WireObject, Hashable {
  /// A number of this value's own, below ``memoIndexes``, for a type of few enough values that
  /// its texts can be kept by number: found that way rather than by hashing the value.
  ///
  /// NB: a table's slot is written for every position of every view: hashing it to find its
  /// text cost some 520 instructions of the 1,000 a Set slot took (callgrind, `bench rooms`).
  var memoIndex: Int? { get }
  /// How many numbers ``memoIndex`` gives; 0 for a type without them.
  static var memoIndexes: Int { get }
}

extension MemoizedWireObject {
  public var memoIndex: Int? { nil }
  public static var memoIndexes: Int { 0 }

  /// A table slot's ``memoIndex`` (Matchismo's and Set's): its card's place in the deck, 0
  /// when face down, and its three marks, one bit each.
  static func slotMemoIndex(card deckIndex: Int?, chosen: Bool, matched: Bool, hinted: Bool)
    -> Int
  {
    (deckIndex.map { $0 + 1 } ?? 0) << 3 | (chosen ? 4 : 0) | (matched ? 2 : 0) | (hinted ? 1 : 0)
  }

  /// A table slot's ``memoIndexes`` for a deck of `deck` cards.
  static func slotMemoIndexes(deck: Int) -> Int { (deck + 1) << 3 }
}

extension WireObject {
  public func write(to writer: inout WireWriter) {
    writer.writeMembers(of: self)
  }

  public func encode(to encoder: any Encoder) throws {
    if let stream = encoder as? StreamEncoder {
      stream.writeDirect(self)
      return
    }
    var members = EncodingMembers(object: self, into: encoder.container(keyedBy: MemberKey.self))
    try Self.members(&members)
  }

  public init(from decoder: any Decoder) throws {
    var members = DecodingMembers(
      object: Self(), from: try decoder.container(keyedBy: MemberKey.self))
    try Self.members(&members)
    self = members.object
  }
}

extension MemoizedWireObject {
  public func write(to writer: inout WireWriter) {
    writer.encoder.writeMemoized(self)
  }
}

/// Where a ``WireValue`` writes: the bytes of the encoder writing the message.
public struct WireWriter {
  // NB: unowned: a writer lives only while its encoder writes one value.
  unowned(unsafe) let encoder: StreamEncoder
  /// The encoder's state, where the bytes go.
  ///
  /// NB: writes go through it, not through `encoder`: a call to the encoder's methods retains
  /// and releases it around every object written (a board's every position).
  let core: UnsafeMutablePointer<StreamEncoder.Core>

  init(encoder: StreamEncoder) {
    self.encoder = encoder
    core = encoder.core
  }

  /// Appends a member's name and colon, after a comma unless it is the object's first.
  @inline(__always) @usableFromInline
  mutating func key(_ name: StaticString, first: Bool) {
    core.pointee.writer.member(name, first: first)
  }

  /// Appends JSON text through the writer itself: numbers, strings, `null`, brackets.
  @inline(__always)
  public mutating func json(_ write: (inout JSONWriter) -> Void) {
    write(&core.pointee.writer)
  }

  /// Appends `object`'s braces and members.
  @inline(__always)
  mutating func writeMembers<Object: WireObject>(of object: Object) {
    core.pointee.writer.raw(UInt8(ascii: "{"))
    withUnsafePointer(to: object) { pointer in
      var members = WritingMembers(object: pointer, writer: self)
      Object.members(&members)
    }
    core.pointee.writer.raw(UInt8(ascii: "}"))
  }

  /// Appends an array of `elements`.
  @inline(__always)
  public mutating func array<Elements: Sequence>(_ elements: Elements)
  where Elements.Element: WireEncodable {
    json { $0.raw(UInt8(ascii: "[")) }
    var first = true
    for element in elements {
      if !first { json { $0.raw(UInt8(ascii: ",")) } }
      first = false
      element.write(to: &self)
    }
    json { $0.raw(UInt8(ascii: "]")) }
  }

  /// Appends an object: `body` names its members.
  @inline(__always)
  public mutating func object(_ body: (inout ObjectWriter) -> Void) {
    core.pointee.writer.raw(UInt8(ascii: "{"))
    var members = ObjectWriter(writer: self)
    body(&members)
    core.pointee.writer.raw(UInt8(ascii: "}"))
  }

  /// Appends a value through its `Encodable` conformance: for the rare values that are not
  /// worth a direct writer (a match's reason, kept as text when memoized; a game's record).
  ///
  /// A failure is kept, and ``WireEncoder/encode(_:into:)`` throws it once the value is
  /// written, so that the whole message is refused (the console's and the server's `internal`).
  public mutating func encodable(_ value: some Encodable) {
    do {
      try encoder.encodeNested(value)
    } catch {
      if encoder.failure == nil { encoder.failure = error }
    }
  }
}

/// The members of an object ``WireWriter/object(_:)`` writes, in order.
public struct ObjectWriter {
  @usableFromInline var writer: WireWriter
  @usableFromInline var first = true

  @usableFromInline init(writer: WireWriter) {
    self.writer = writer
  }

  // NB: `@inlinable`, so that another module's writer (the server's `update`) calls them
  // specialized: unspecialized, each `optional` looked up the generic metadata of its
  // `Optional` (some 480 instructions) and each member went through the value's witness.

  /// A member.
  @inlinable @inline(__always)
  public mutating func member(_ name: StaticString, _ value: some WireEncodable) {
    writer.key(name, first: first)
    first = false
    value.write(to: &writer)
  }

  /// A member there only when `value` is not nil.
  @inlinable @inline(__always)
  public mutating func optional(_ name: StaticString, _ value: (some WireEncodable)?) {
    guard let value else { return }
    member(name, value)
  }

  /// `"type":"name"`: which of an event's kinds this object is.
  @inline(__always)
  public mutating func type(_ name: StaticString) {
    writer.key("type", first: first)
    first = false
    writer.json { writer in
      writer.raw(UInt8(ascii: "\""))
      writer.raw(name)
      writer.raw(UInt8(ascii: "\""))
    }
  }

  /// A member written through its `Encodable` conformance (see ``WireWriter/encodable(_:)``).
  public mutating func encodable(_ name: StaticString, _ value: some Encodable) {
    writer.key(name, first: first)
    first = false
    writer.encodable(value)
  }

  /// A member whose name is known only at run time (a reply's).
  public mutating func member(named name: String, _ value: some WireEncodable) {
    writer.json { json in
      if !first { json.raw(UInt8(ascii: ",")) }
      json.write(name)
      json.raw(UInt8(ascii: ":"))
    }
    first = false
    value.write(to: &writer)
  }

  /// Members already written (a view's body, kept as bytes), spliced in.
  public mutating func splice(_ members: EncodedMembers) {
    guard !members.bytes.isEmpty else { return }
    writer.json { json in
      if !first { json.raw(UInt8(ascii: ",")) }
      json.raw(members.bytes)
    }
    first = false
  }

  /// A ``WireObject``'s members, added to this object.
  public mutating func members<Object: WireObject>(of object: Object) {
    withUnsafePointer(to: object) { pointer in
      var members = WritingMembers(object: pointer, writer: writer)
      members.first = first
      Object.members(&members)
      first = members.first
    }
  }
}

/// A value written through its `Encodable` conformance where a ``WireEncodable`` is asked for:
/// for the rare values not worth a writer of their own (a refusal, a match's records).
public struct ThroughEncodable: WireEncodable {
  let value: any Encodable

  public init(_ value: any Encodable) { self.value = value }

  public func write(to writer: inout WireWriter) { writer.encodable(value) }
}

/// Writes a ``WireObject``'s members as the wire's text.
struct WritingMembers<Object>: WireMembers {
  typealias Failure = Never
  let object: UnsafePointer<Object>
  var writer: WireWriter
  var first = true

  @inline(__always)
  mutating func member<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value>
  ) {
    writer.key(name, first: first)
    first = false
    object.pointee[keyPath: path].write(to: &writer)
  }

  @inline(__always)
  mutating func optional<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value?>
  ) {
    guard let value = object.pointee[keyPath: path] else { return }
    writeMember(name, value)
  }

  @inline(__always)
  mutating func shared<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value>
  ) {
    writeMember(name, object.pointee[keyPath: path], shared: true)
  }

  @inline(__always)
  mutating func sharedOptional<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value?>
  ) {
    guard let value = object.pointee[keyPath: path] else { return }
    writeMember(name, value, shared: true)
  }

  @inline(__always)
  mutating func shared<Element: WireValue & Equatable>(
    _ name: StaticString, _ path: WritableKeyPath<Object, [Element]>
  ) {
    writer.key(name, first: first)
    first = false
    Self.write(list: object.pointee[keyPath: path], sharedAs: name, to: &writer)
  }

  @inline(__always)
  mutating func shared<Element: WireObject, Varying: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, [Element]>,
    varying member: StaticString, _ varying: KeyPath<Element, Varying>
  ) {
    writer.key(name, first: first)
    first = false
    Self.write(
      list: object.pointee[keyPath: path], sharedAs: name, varying: member, varying, to: &writer)
  }

  /// Writes the member `name` holding `value`; `shared`: see ``write(_:sharedAs:to:)``.
  @inline(__always)
  private mutating func writeMember(
    _ name: StaticString, _ value: some WireEncodable, shared: Bool = false
  ) {
    writer.key(name, first: first)
    first = false
    if shared {
      Self.write(value, sharedAs: name, to: &writer)
    } else {
      value.write(to: &writer)
    }
  }

  /// Copies the text of the shared member `key` written for another viewer of this version,
  /// if there is one.
  @inline(__always)
  private static func copyText(
    of key: SharedMembers.Key, from shared: SharedMembers, to writer: inout WireWriter
  ) -> Bool {
    guard let text = shared.text(of: key) else { return false }
    text.body.withUnsafeBufferPointer { body in
      writer.json { $0.raw(UnsafeBufferPointer(rebasing: body[text.range])) }
    }
    return true
  }

  /// Copies the member's text written for another viewer of this version, if the encoder
  /// shares a view's members now (``SharedMembers``); else writes it, and keeps it if so.
  @inline(__always)
  private static func write(
    _ value: some WireEncodable, sharedAs name: StaticString, to writer: inout WireWriter
  ) {
    guard let shared = writer.encoder.shared else { return value.write(to: &writer) }
    let key = SharedMembers.Key(object: Object.self, name: name)
    if copyText(of: key, from: shared, to: &writer) { return }
    let start = writer.core.pointee.writer.count
    value.write(to: &writer)
    shared.wrote(key, at: start..<writer.core.pointee.writer.count)
  }

  /// ``write(_:sharedAs:to:)`` for a list: when it is written, each run of elements equal to
  /// the ones at their places in the list this group's last view held is written by copying
  /// that run's text at once.
  @inline(__always)
  private static func write<Element: WireValue & Equatable>(
    list: [Element], sharedAs name: StaticString, to writer: inout WireWriter
  ) {
    guard let shared = writer.encoder.shared else { return list.write(to: &writer) }
    let key = SharedMembers.Key(object: Object.self, name: name)
    if copyText(of: key, from: shared, to: &writer) { return }
    let core = writer.core
    let start = core.pointee.writer.count
    let last = shared.list(key, of: Element.self)
    var ranges: [Range<Int>] = []
    swap(&ranges, &last.spare)
    ranges.removeAll(keepingCapacity: true)
    ranges.reserveCapacity(list.count)
    core.pointee.writer.raw(UInt8(ascii: "["))
    // NB: a list written twice in one body (not one of a view's) has its first texts nowhere.
    let reusable = last.pending ? 0 : last.values.count
    last.values.withUnsafeBufferPointer { values in
      last.body.withUnsafeBufferPointer { body in
        last.ranges.withUnsafeBufferPointer { texts in
          var index = 0
          while index < list.count {
            if index > 0 { core.pointee.writer.raw(UInt8(ascii: ",")) }
            var end = index
            while end < reusable, end < list.count, values[end] == list[end] { end += 1 }
            guard end > index else {
              let from = core.pointee.writer.count
              list[index].write(to: &writer)
              ranges.append(from..<core.pointee.writer.count)
              index += 1
              continue
            }
            // NB: the run's texts, with the commas between them, are one run of bytes.
            let from = texts[index].lowerBound
            let moved = core.pointee.writer.count - from
            core.pointee.writer.raw(
              UnsafeBufferPointer(
                rebasing: body[(from - last.dropped)..<(texts[end - 1].upperBound - last.dropped)]))
            for text in texts[index..<end] {
              ranges.append((text.lowerBound + moved)..<(text.upperBound + moved))
            }
            index = end
          }
        }
      }
    }
    core.pointee.writer.raw(UInt8(ascii: "]"))
    shared.wrote(key, at: start..<core.pointee.writer.count)
    shared.wrote(last, values: list, ranges: ranges)
  }

  /// ``write(_:sharedAs:to:)`` for a list whose elements differ between viewers in their
  /// member `member` only: the text another viewer of this version wrote is copied, but for
  /// that member's values, which this viewer's elements write in their places.
  @inline(__always)
  private static func write<Element: WireObject, Varying: WireValue>(
    list: [Element], sharedAs name: StaticString, varying member: StaticString,
    _ varying: KeyPath<Element, Varying>, to writer: inout WireWriter
  ) {
    guard let shared = writer.encoder.shared else { return list.write(to: &writer) }
    let key = SharedMembers.Key(object: Object.self, name: name)
    let core = writer.core
    // NB: a text with a place for each element's value, or none: written anew.
    if let text = shared.text(of: key), text.holes.count == list.count {
      text.body.withUnsafeBufferPointer { body in
        var from = text.range.lowerBound
        for index in list.indices {
          let hole = text.holes[index]
          core.pointee.writer.raw(UnsafeBufferPointer(rebasing: body[from..<hole.lowerBound]))
          list[index][keyPath: varying].write(to: &writer)
          from = hole.upperBound
        }
        core.pointee.writer.raw(UnsafeBufferPointer(rebasing: body[from..<text.range.upperBound]))
      }
      return
    }
    let start = core.pointee.writer.count
    var holes: [Range<Int>] = []
    holes.reserveCapacity(list.count)
    core.pointee.writer.raw(UInt8(ascii: "["))
    for index in list.indices {
      if index > 0 { core.pointee.writer.raw(UInt8(ascii: ",")) }
      core.pointee.writer.raw(UInt8(ascii: "{"))
      let marked = withUnsafePointer(to: list[index]) { element in
        var members = MarkingMembers(
          members: WritingMembers<Element>(object: element, writer: writer), marking: member)
        Element.members(&members)
        return members.marked
      }
      core.pointee.writer.raw(UInt8(ascii: "}"))
      if let marked { holes.append(marked) }
    }
    core.pointee.writer.raw(UInt8(ascii: "]"))
    // NB: an element without the member (a mistake in its declaration) leaves the list
    // without a place for every value: it is then written anew for every viewer.
    shared.wrote(key, at: start..<core.pointee.writer.count, holes: holes)
  }
}

/// Writes a ``WireObject``'s members as ``WritingMembers`` does, noting where the value of the
/// member `marking` is written.
struct MarkingMembers<Object>: WireMembers {
  typealias Failure = Never
  var members: WritingMembers<Object>
  let marking: StaticString
  /// Where the marked member's value was written in the encoder's writer.
  var marked: Range<Int>?

  @inline(__always)
  mutating func member<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value>
  ) {
    guard Self.same(name, marking) else { return members.member(name, path) }
    members.writer.key(name, first: members.first)
    members.first = false
    let start = members.writer.core.pointee.writer.count
    members.object.pointee[keyPath: path].write(to: &members.writer)
    marked = start..<members.writer.core.pointee.writer.count
  }

  @inline(__always)
  mutating func optional<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value?>
  ) {
    members.optional(name, path)
  }

  /// Whether two member names are the same text (two literals need not share their bytes).
  @inline(__always)
  static func same(_ a: StaticString, _ b: StaticString) -> Bool {
    a.utf8CodeUnitCount == b.utf8CodeUnitCount
      && (a.utf8Start == b.utf8Start
        || UnsafeBufferPointer(start: a.utf8Start, count: a.utf8CodeUnitCount).elementsEqual(
          UnsafeBufferPointer(start: b.utf8Start, count: b.utf8CodeUnitCount)))
  }
}

/// Encodes a ``WireObject``'s members with any other `Encoder`.
struct EncodingMembers<Object>: WireMembers {
  typealias Failure = any Error
  let object: Object
  var container: KeyedEncodingContainer<MemberKey>

  init(object: Object, into container: KeyedEncodingContainer<MemberKey>) {
    self.object = object
    self.container = container
  }

  mutating func member<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value>
  ) throws {
    try container.encode(object[keyPath: path], forKey: MemberKey("\(name)"))
  }

  mutating func optional<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value?>
  ) throws {
    try container.encodeIfPresent(object[keyPath: path], forKey: MemberKey("\(name)"))
  }
}

/// Reads a ``WireObject``'s members from any `Decoder`.
struct DecodingMembers<Object>: WireMembers {
  typealias Failure = any Error
  var object: Object
  let container: KeyedDecodingContainer<MemberKey>

  init(object: Object, from container: KeyedDecodingContainer<MemberKey>) {
    self.object = object
    self.container = container
  }

  mutating func member<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value>
  ) throws {
    object[keyPath: path] = try container.decode(Value.self, forKey: MemberKey("\(name)"))
  }

  mutating func optional<Value: WireValue>(
    _ name: StaticString, _ path: WritableKeyPath<Object, Value?>
  ) throws {
    // NB: a member that is there is read as a value, even `null`: Memory's `turn` is `null`
    // once a game in turns is over, and absent from a game alone.
    let key = MemberKey("\(name)")
    object[keyPath: path] =
      container.contains(key) ? try container.decode(Value.self, forKey: key) : nil
  }
}

extension StreamEncoder {
  /// Writes `value` where a value is expected.
  func writeDirect<Value: WireEncodable>(_ value: Value) {
    precondition(core.pointee.pending, "a value was written where none was expected")
    core.pointee.pending = false
    var writer = WireWriter(encoder: self)
    value.write(to: &writer)
  }

  /// Writes `object`'s braces and members.
  @inline(__always)
  func writeMembers<Object: WireObject>(of object: Object) {
    var writer = WireWriter(encoder: self)
    writer.writeMembers(of: object)
  }

  /// Encodes `value` through its conformance inside a direct write.
  func encodeNested(_ value: some Encodable) throws {
    // NB: a direct write opens no container of the encoder's, so the value is written as a
    // top-level one would be, at the current depth.
    core.pointee.pending = true
    defer { core.pointee.pending = false }
    try encodeValue(value)
  }
}

// MARK: The wire's leaves

extension Int: WireValue {
  // NB: the same readers as `WireDecoder`'s, so that both read a value alike.
  public static func plain(_ json: JSON) -> Self? { json.intValue }

  public func write(to writer: inout WireWriter) { writer.json { $0.write(self) } }
}

extension UInt64: WireValue {
  public func write(to writer: inout WireWriter) { writer.json { $0.write(self) } }
}

extension Double: WireValue {
  public func write(to writer: inout WireWriter) { writer.json { $0.write(self) } }
}

extension Bool: WireValue {
  public static func plain(_ json: JSON) -> Self? { json.boolValue }

  public func write(to writer: inout WireWriter) { writer.json { $0.write(self) } }
}

extension String: WireValue {
  public static func plain(_ json: JSON) -> Self? { json.stringValue }

  public func write(to writer: inout WireWriter) { writer.json { $0.write(self) } }
}

extension PlayerID: WireValue {
  public func write(to writer: inout WireWriter) { writer.json { $0.write(rawValue) } }
}

extension PlayingCard: WireValue {
  public func write(to writer: inout WireWriter) {
    writer.json { $0.raw(CardTexts.playing[deckIndex]) }
  }
}

extension SetCard: WireValue {
  public func write(to writer: inout WireWriter) {
    writer.json { $0.raw(CardTexts.set[deckIndex]) }
  }
}

/// Every card's JSON text, quoted, by deck index: a card is written by copying its bytes.
enum CardTexts {
  static let playing = Texts(PlayingCard.texts)
  static let set = Texts(SetCard.texts)

  /// Texts in one buffer that is never freed, each found by where it starts.
  ///
  /// NB: not an array of arrays: reading one of those retains and releases it, which cost
  /// more than copying a card's bytes.
  struct Texts: @unchecked Sendable {
    private let bytes: UnsafePointer<UInt8>
    /// Where each text starts, and after the last, where it ends.
    private let starts: UnsafePointer<Int>

    init(_ texts: [String]) {
      var writer = JSONWriter(capacity: 16 * texts.count)
      var starts = [0]
      for text in texts {
        writer.write(text)
        starts.append(writer.count)
      }
      let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: writer.count)
      _ = writer.withBytes {
        UnsafeMutableBufferPointer(start: bytes, count: $0.count).initialize(from: $0)
      }
      let offsets = UnsafeMutablePointer<Int>.allocate(capacity: starts.count)
      offsets.initialize(from: starts, count: starts.count)
      self.bytes = UnsafePointer(bytes)
      self.starts = UnsafePointer(offsets)
    }

    subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(start: bytes + starts[index], count: starts[index + 1] - starts[index])
    }
  }
}

extension Seat: WireValue {
  public func write(to writer: inout WireWriter) {
    writer.json { json in
      json.raw(UInt8(ascii: "\""))
      json.raw(name)
      json.raw(UInt8(ascii: "\""))
    }
  }
}

/// `null` for nil.
extension Optional: WireEncodable where Wrapped: WireEncodable {
  public func write(to writer: inout WireWriter) {
    if let self {
      self.write(to: &writer)
    } else {
      writer.json { $0.writeNull() }
    }
  }
}

extension Optional: WireValue where Wrapped: WireValue {}

extension Array: WireEncodable where Element: WireEncodable {
  public func write(to writer: inout WireWriter) { writer.array(self) }
}

extension Array: WireValue where Element: WireValue {}

extension JSON: WireValue {
  public func write(to writer: inout WireWriter) { writer.json { $0.write(self) } }
}

extension Nullable: WireEncodable where Value: WireEncodable {
  public func write(to writer: inout WireWriter) { wrappedValue.write(to: &writer) }
}

extension Nullable: WireValue where Value: WireValue {}

/// A hand is an array on the wire, as its `Codable` conformance says.
extension Hand: WireEncodable where Element: WireEncodable {
  public func write(to writer: inout WireWriter) { writer.array(self) }
}

extension Hand: WireValue where Element: WireValue {}

/// A name from a fixed set, written as its raw value, as its `Codable` conformance does.
extension WireValue where Self: RawRepresentable, RawValue == String {
  public func write(to writer: inout WireWriter) { writer.json { $0.write(rawValue) } }
}

extension MemoryGame.ComputerLevel: WireValue {}
extension SetGame.ComputerLevel: WireValue {}
extension SnapGame.ComputerSpeed: WireValue {}
extension SnapGame.Phase: WireValue {}
extension SnapGame.EndReason: WireValue {}

// NB: written through their `Encodable` conformances: memoized with the found match that holds
// them, so not worth a writer of their own.
extension MatchingGame.Reason: WireValue {
  public func write(to writer: inout WireWriter) { writer.encodable(self) }
}

extension SetGame.Reason: WireValue {
  public func write(to writer: inout WireWriter) { writer.encodable(self) }
}
