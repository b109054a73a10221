import CardTableCore

/// Encodes `Encodable` values as compact JSON text, streaming straight into a ``JSONWriter``:
/// the one encoder of the wire.
///
/// Members are written in the order they are encoded, so a type's `CodingKeys` order is its
/// wire order. Asking the same encoder for a keyed container again continues the same object,
/// which lets a value add members to another's (a result's times after its record). A
/// ``WireEncodable`` value writes itself (see `WireObject.swift`). Containers must be used in nested order, as synthesized and
/// hand-written conformances do: writing to a container closes the containers opened after it.
///
/// An encoder keeps what it learns between values (see ``StreamEncoder``), so keep one per
/// thread of work and use it from that thread only.
public final class WireEncoder {
  /// Values a conformance may read, e.g. ``CodingUserInfoKey/gameName``.
  public let userInfo: [CodingUserInfoKey: any Sendable]
  private let stream: StreamEncoder
  private var busy = false

  public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.userInfo = userInfo
    stream = StreamEncoder(userInfo: userInfo)
  }

  /// Appends the JSON text of `value` to `writer`.
  public func encode(_ value: some Encodable, into writer: inout JSONWriter) throws {
    try encode(into: &writer) { encoder throws in try encoder.encodeValue(value) }
  }

  /// Appends the JSON text of `value` to `writer`, written by the value itself.
  ///
  /// NB: the same text as through `Encodable`, without asking at run time what the encoder
  /// is (a dynamic cast for every message) or whether the value is a card or a list of them.
  public func encode(_ value: some WireEncodable, into writer: inout JSONWriter) throws {
    try encode(into: &writer) { encoder in
      encoder.core.pointee.pending = true
      encoder.writeDirect(value)
    }
  }

  @inline(__always)
  private func encode(
    into writer: inout JSONWriter, _ write: (StreamEncoder) throws -> Void
  ) throws {
    // NB: a conformance that encodes with this encoder while it encodes gets a fresh one.
    let reentered = busy
    let encoder = reentered ? StreamEncoder(userInfo: userInfo) : stream
    busy = true
    defer { if !reentered { busy = false } }
    // NB: the writer is swapped into the encoder and back, so its buffer is never copied.
    encoder.begin(swapping: &writer)
    defer { encoder.end(swapping: &writer) }
    try write(encoder)
    encoder.close(toDepth: 0)
    if let failure = encoder.failure {
      encoder.failure = nil
      throw failure
    }
  }

  /// Appends the members of `view`, `viewer`'s view of `version`, copying the members shared
  /// by every viewer (``WireMembers/shared(_:_:)``) from what `shared` kept of this version.
  func encode(
    view: some WireObject, of version: Int, for viewer: Viewer, sharing shared: SharedMembers,
    into writer: inout JSONWriter
  ) throws {
    shared.begin(version: version, viewer: viewer)
    // NB: only the top-level value written here shares: a conformance that encodes with this
    // encoder while it writes gets a fresh one, which shares nothing.
    stream.shared = shared
    defer { stream.shared = nil }
    try encode(view, into: &writer)
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
    let parsed: Result<JSON, JSONSyntaxError> = writer.withBytes { bytes in
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
///
/// NB: its mutable state lives behind a pointer the encoder owns, so that the many small
/// writes of an encoding are not each checked for exclusive access at run time, as writes to
/// a class's stored properties are; only this encoder and its containers reach that state,
/// one call at a time.
final class StreamEncoder: Encoder {
  struct Frame {
    var isObject: Bool
    var count = 0
  }

  struct Core: ~Copyable {
    var writer: JSONWriter
    var open: [Frame] = []
    /// A value is expected now: the next container or single value writes it.
    var pending = false
    /// The stack depth of the value being written: its own container, if any, is `open[base]`.
    var base = 0
  }

  let core: UnsafeMutablePointer<Core>
  let userInfoValues: [CodingUserInfoKey: any Sendable]

  /// A keyed container's place: its key type and its depth.
  struct Place: Hashable {
    var keys: ObjectIdentifier
    var depth: Int
  }

  /// The keyed containers made so far, by key type and depth, each as its box.
  ///
  /// NB: measured: making a `KeyedEncodingContainer` looks up two generic types' metadata at
  /// run time (its box and our container, ~760 instructions) and allocates the box; a view of
  /// 40 objects spent a third of its cost there. A container holds nothing but its encoder and
  /// depth, so one made for a key type at a depth serves every later object of that type there.
  private var boxes: [Place: AnyObject] = [:]
  /// The texts of memoized values, by type.
  private var memos: [ObjectIdentifier: AnyObject] = [:]
  /// The memo found last, and its type.
  private var lastMemo: (type: ObjectIdentifier, memo: AnyObject)?
  /// What a value written through its `Encodable` conformance inside a direct write threw
  /// (``WireWriter/encodable(_:)``): thrown once the top-level value is written.
  var failure: (any Error)?
  /// The view members shared between viewers, while a session writes a view's body (nil the
  /// rest of the time: a shared member is then written as any other).
  var shared: SharedMembers?

  init(userInfo: [CodingUserInfoKey: any Sendable]) {
    core = .allocate(capacity: 1)
    core.initialize(to: Core(writer: JSONWriter(capacity: 0)))
    core.pointee.open.reserveCapacity(8)
    self.userInfoValues = userInfo
  }

  deinit {
    core.deinitialize(count: 1)
    core.deallocate()
  }

  /// Starts a new top-level value written to `writer`, which the encoder holds until
  /// ``end(swapping:)`` hands it back (leaving `writer` its own empty one meanwhile).
  func begin(swapping writer: inout JSONWriter) {
    failure = nil
    swap(&core.pointee.writer, &writer)
    core.pointee.open.removeAll(keepingCapacity: true)
    core.pointee.pending = false
    core.pointee.base = 0
  }

  /// The keyed container for `Key` at `depth`, made once.
  func keyed<Key: CodingKey>(_ type: Key.Type, at depth: Int) -> KeyedEncodingContainer<Key> {
    let place = Place(keys: ObjectIdentifier(Key.self), depth: depth)
    if let box = boxes[place] {
      // NB: a KeyedEncodingContainer is its box and nothing else, whatever its key type.
      return unsafeBitCast(box, to: KeyedEncodingContainer<Key>.self)
    }
    let container = KeyedEncodingContainer(StreamKeyedContainer<Key>(encoder: self, depth: depth))
    boxes[place] = unsafeBitCast(container, to: AnyObject.self)
    return container
  }

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { userInfoValues }

  /// Hands back the writer ``begin(swapping:)`` took.
  func end(swapping writer: inout JSONWriter) {
    swap(&core.pointee.writer, &writer)
  }

  /// Encodes one value where a value is expected, closing what it opened.
  func encodeValue<T: Encodable>(_ value: T) throws {
    if writeLeaf(value) { return }
    let (savedPending, savedBase) = (core.pointee.pending, core.pointee.base)
    core.pointee.pending = true
    core.pointee.base = core.pointee.open.count
    try value.encode(to: self)
    if core.pointee.pending {
      // NB: a value that wrote nothing is an empty object, as Foundation's encoder writes it.
      core.pointee.writer.raw("{}")
      core.pointee.pending = false
    }
    close(toDepth: core.pointee.base)
    (core.pointee.pending, core.pointee.base) = (savedPending, savedBase)
  }

  /// Writes the wire's most common leaves — cards and names are their texts, and lists of
  /// them and of numbers — without a trip through their `Encodable` conformances, which give
  /// the same text; false for every other type.
  @inline(__always)
  func writeLeaf<T>(_ value: T) -> Bool {
    // NB: comparing metadata is cheap; a list of 52 cards through `Array`'s conformance costs
    // a generic call per card.
    if T.self == PlayingCard.self {
      core.pointee.writer.write(unsafeBitCast(value, to: PlayingCard.self).description)
    } else if T.self == SetCard.self {
      core.pointee.writer.write(unsafeBitCast(value, to: SetCard.self).description)
    } else if T.self == PlayerID.self {
      core.pointee.writer.write(unsafeBitCast(value, to: PlayerID.self).rawValue)
    } else if T.self == [PlayingCard].self {
      writeList(unsafeBitCast(value, to: [PlayingCard].self)) { $0.write($1.description) }
    } else if T.self == [SetCard].self {
      writeList(unsafeBitCast(value, to: [SetCard].self)) { $0.write($1.description) }
    } else if T.self == [Int].self {
      writeList(unsafeBitCast(value, to: [Int].self)) { $0.write($1) }
    } else if T.self == [String].self {
      writeList(unsafeBitCast(value, to: [String].self)) { $0.write($1) }
    } else if T.self == [PlayerID].self {
      writeList(unsafeBitCast(value, to: [PlayerID].self)) { $0.write($1.rawValue) }
    } else {
      return false
    }
    return true
  }

  @inline(__always)
  private func writeList<Element>(
    _ elements: [Element], _ write: (inout JSONWriter, Element) -> Void
  ) {
    core.pointee.writer.raw(UInt8(ascii: "["))
    for (index, element) in elements.enumerated() {
      if index > 0 { core.pointee.writer.raw(UInt8(ascii: ",")) }
      write(&core.pointee.writer, element)
    }
    core.pointee.writer.raw(UInt8(ascii: "]"))
  }

  /// Writes `value` from the text written the last time an equal value was written, or
  /// writes it and keeps the text; see ``MemoizedWireObject``.
  func writeMemoized<T: MemoizedWireObject>(_ value: T) {
    let memo = self.memo(of: T.self)
    if let text = memo.text(of: value) {
      core.pointee.writer.raw(text)
      return
    }
    let start = core.pointee.writer.count
    writeMembers(of: value)
    memo.keep(core.pointee.writer.bytes(from: start), of: value)
  }

  /// The memo of `type`'s texts.
  ///
  /// NB: the last one found is at hand: a list's elements are of one type, and looking the
  /// type up for each of them was 13 % of writing a slot.
  private func memo<T: MemoizedWireObject>(of type: T.Type) -> Memo<T> {
    let id = ObjectIdentifier(type)
    if let last = lastMemo, last.type == id { return unsafeDowncast(last.memo, to: Memo<T>.self) }
    let memo: Memo<T>
    if let existing = memos[id] {
      memo = unsafeDowncast(existing, to: Memo<T>.self)
    } else {
      memo = Memo<T>()
      memos[id] = memo
    }
    lastMemo = (id, memo)
    return memo
  }

  /// Closes every container deeper than `depth` containers.
  func close(toDepth depth: Int) {
    while core.pointee.open.count > depth {
      let frame = core.pointee.open.removeLast()
      core.pointee.writer.raw(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }
  }

  /// Opens an object or array where a value is expected, or returns the object the current
  /// value already opened.
  func openContainer(object: Bool) -> Int {
    if core.pointee.pending {
      core.pointee.pending = false
      core.pointee.writer.raw(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
      core.pointee.open.append(Frame(isObject: object))
      return core.pointee.open.count - 1
    }
    let base = core.pointee.base
    precondition(
      object && core.pointee.open.count > base && core.pointee.open[base].isObject,
      "a value asked for a second container of another kind")
    close(toDepth: base + 1)
    return base
  }

  /// Opens a nested object or array after its key or comma.
  func openNested(object: Bool) -> Int {
    core.pointee.writer.raw(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
    core.pointee.open.append(Frame(isObject: object))
    return core.pointee.open.count - 1
  }

  /// Starts the next member of the object at `depth`: a comma when needed, the key, a colon.
  func key(_ key: some CodingKey, in depth: Int) {
    if core.pointee.open.count > depth + 1 { close(toDepth: depth + 1) }
    if core.pointee.open[depth].count > 0 { core.pointee.writer.raw(UInt8(ascii: ",")) }
    core.pointee.open[depth].count += 1
    core.pointee.writer.write(key.stringValue)
    core.pointee.writer.raw(UInt8(ascii: ":"))
  }

  /// Starts the next element of the array at `depth`.
  func element(in depth: Int) {
    if core.pointee.open.count > depth + 1 { close(toDepth: depth + 1) }
    if core.pointee.open[depth].count > 0 { core.pointee.writer.raw(UInt8(ascii: ",")) }
    core.pointee.open[depth].count += 1
  }

  /// How many members or elements the container at `depth` has.
  func count(at depth: Int) -> Int {
    core.pointee.open.count > depth ? core.pointee.open[depth].count : 0
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    keyed(type, at: openContainer(object: true))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    StreamUnkeyedContainer(encoder: self, depth: openContainer(object: false))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    StreamSingleValueContainer(encoder: self)
  }

  /// Writes a primitive where a single value is expected.
  @inline(__always)
  func single(_ write: (inout JSONWriter) -> Void) {
    precondition(core.pointee.pending, "a single value was encoded twice")
    core.pointee.pending = false
    write(&core.pointee.writer)
  }

  /// Whether a value is expected now.
  var pending: Bool { core.pointee.pending }
}

/// One type's memoized texts: those written or read lately, in two generations.
///
/// NB: a session's encoder keeps a memo per type for as long as its room is open, so what it
/// keeps must stay small: the texts of the current generation and of the one before, at most
/// ``capacity`` each. A text read from the older generation moves to the current one, so the
/// parts every view shows (the found matches, the table's slots) stay while the ones gone are
/// dropped; before, a memo kept up to 4,096 texts per type for the life of a room.
final class Memo<Value: MemoizedWireObject> {
  /// The most texts kept per generation.
  static var capacity: Int { 64 }
  private var current: [Value: [UInt8]] = [:]
  private var previous: [Value: [UInt8]] = [:]
  /// The texts of a type with ``MemoizedWireObject/memoIndex``, by it; at most twice
  /// ``capacity`` of them, after which all are dropped and kept afresh.
  private var indexed: [[UInt8]?] = []
  private var indexedCount = 0

  /// The text kept for `value`, if any.
  func text(of value: Value) -> [UInt8]? {
    if let index = value.memoIndex { return index < indexed.count ? indexed[index] : nil }
    if let text = current[value] { return text }
    guard let text = previous[value] else { return nil }
    keep(text, of: value)
    return text
  }

  /// Keeps `text` as `value`'s.
  func keep(_ text: [UInt8], of value: Value) {
    if let index = value.memoIndex {
      precondition(
        (0..<Value.memoIndexes).contains(index), "\(Value.self).memoIndex beyond memoIndexes")
      if indexed.isEmpty || indexedCount >= 2 * Self.capacity {
        indexed = Array(repeating: nil, count: Value.memoIndexes)
        indexedCount = 0
      }
      if indexed[index] == nil { indexedCount += 1 }
      indexed[index] = text
      return
    }
    if current.count >= Self.capacity {
      previous = current
      current.removeAll(keepingCapacity: true)
    }
    current[value] = text
  }
}

struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  // NB: unowned: the encoder keeps its containers (``StreamEncoder/keyed(_:at:)``), and a
  // container lives no longer than the encoding it was made for.
  unowned(unsafe) let encoder: StreamEncoder
  let depth: Int

  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.core.pointee.writer.writeNull()
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.core.pointee.writer.write(value)
  }

  mutating func encode(_ value: String, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.core.pointee.writer.write(value)
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.core.pointee.writer.write(value)
  }

  mutating func encode(_ value: Float, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.core.pointee.writer.write(Double(value))
  }

  mutating func encode(_ value: Int, forKey key: Key) throws {
    encoder.key(key, in: depth)
    encoder.core.pointee.writer.write(value)
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
    encoder.core.pointee.writer.write(value)
  }

  mutating func encode(_ value: some Encodable, forKey key: Key) throws {
    encoder.key(key, in: depth)
    try encoder.encodeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.key(key, in: depth)
    return encoder.keyed(keyType, at: encoder.openNested(object: true))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.key(key, in: depth)
    return StreamUnkeyedContainer(encoder: encoder, depth: encoder.openNested(object: false))
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
  var count: Int { encoder.count(at: depth) }

  mutating func encodeNil() throws {
    encoder.element(in: depth)
    encoder.core.pointee.writer.writeNull()
  }

  mutating func encode(_ value: Bool) throws {
    encoder.element(in: depth)
    encoder.core.pointee.writer.write(value)
  }

  mutating func encode(_ value: String) throws {
    encoder.element(in: depth)
    encoder.core.pointee.writer.write(value)
  }

  mutating func encode(_ value: Double) throws {
    encoder.element(in: depth)
    encoder.core.pointee.writer.write(value)
  }

  mutating func encode(_ value: Float) throws { try encode(Double(value)) }

  mutating func encode(_ value: Int) throws {
    encoder.element(in: depth)
    encoder.core.pointee.writer.write(value)
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
    encoder.core.pointee.writer.write(value)
  }

  mutating func encode(_ value: some Encodable) throws {
    encoder.element(in: depth)
    try encoder.encodeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    encoder.element(in: depth)
    return encoder.keyed(keyType, at: encoder.openNested(object: true))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    encoder.element(in: depth)
    return StreamUnkeyedContainer(encoder: encoder, depth: encoder.openNested(object: false))
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
    if encoder.writeLeaf(value) {
      encoder.core.pointee.pending = false
      return
    }
    // NB: the value takes this value's place; its own containers open here.
    try value.encode(to: encoder)
  }
}
