/// A list that keeps its first element inline and only the others in an array, so that a list
/// that never holds more than one allocates nothing: an outcome's follow-ups and game marks
/// (most actions set one timer at most, and a game ends once) and a ``Match``'s results (a game
/// alone ends once). Like ``OutcomeList`` it is emptied by forgetting its length, keeping its
/// storage; it reads as a random-access collection of its first ``count`` elements, compares
/// and prints as the array of them, and is written as an array literal.
///
/// NB: the events stay an ``OutcomeList``: hosts copy an action's events (``Match/perform(_:by:)``
/// returns them, the wire keeps them to write for each viewer), and a copy of a list with an
/// optional element inline went through its type's metadata, looked up at run time: the
/// console's and the server's actions cost 2–3 % more with the events inline. With the
/// follow-ups, marks and results inline, and the first follow-up handed to the match's timers by
/// moving it (``takeFirst()``), `bench memory` went from 551.9 to 523.8 instructions an action
/// (callgrind, docs/PERFORMANCE.md "Session 24").
@frozen
public struct SmallList<Element> {
  /// The first element written, kept inline: a list of one element — most actions' follow-up,
  /// every game mark — has no storage to allocate or to check for sharing.
  @usableFromInline var head: Element?
  /// The elements after the first; those from ``count`` − 1 on are left over from earlier
  /// actions.
  @usableFromInline var storage: [Element]
  /// How many elements the list holds: `head`'s, then `storage`'s first `length − 1`.
  @usableFromInline var length: Int

  /// An empty list.
  @inlinable
  public init() {
    head = nil
    storage = []
    length = 0
  }

  /// A list of `elements`.
  @inlinable
  public init(_ elements: [Element]) {
    head = elements.first
    storage = elements.count > 1 ? Array(elements.dropFirst()) : []
    length = elements.count
  }

  /// Adds `element` after the others, writing over an element left from an earlier action
  /// when there is one.
  ///
  /// NB: always inlined and consuming its argument: called, and copying the element into the
  /// storage, an append cost more than the popping it saved (`bench_memory_c.py`).
  @inlinable @inline(__always)
  public mutating func append(_ element: consuming Element) {
    if length == 0 {
      head = element
    } else if length <= storage.count {
      storage[length - 1] = element
    } else {
      storage.append(element)
    }
    length += 1
  }

  /// Moves the first element out of the list, which the caller then empties
  /// (``removeAll()``) after reading the others: ``Match`` hands an action's follow-ups to its
  /// timers so, where a copy of the first retained and released what it holds.
  @inlinable
  mutating func takeFirst() -> Element? {
    length > 0 ? head.take() : nil
  }

  /// Empties the list, keeping its storage for the next action's elements.
  @inlinable
  public mutating func removeAll() {
    length = 0
  }

  /// The list's elements as an array.
  @inlinable
  public var array: [Element] {
    guard let head, length > 0 else { return [] }
    var elements = [head]
    elements.append(contentsOf: storage[..<(length - 1)])
    return elements
  }
}

extension SmallList: RandomAccessCollection {
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { length }
  /// NB: a range, not the default indices, which hold a copy of the list (a retain) and step
  /// through it generically.
  @inlinable public var indices: Range<Int> { 0..<length }

  @inlinable
  public subscript(position: Int) -> Element {
    precondition(position >= 0 && position < length, "index out of range")
    guard position > 0 else {
      // NB: a list with an element has its head.
      guard let head else { preconditionFailure("index out of range") }
      return head
    }
    return storage[position - 1]
  }

  /// The elements in `bounds`, as an array's slice (as `dropFirst()` gives an array's).
  @inlinable
  public subscript(bounds: Range<Int>) -> ArraySlice<Element> {
    precondition(bounds.lowerBound >= 0 && bounds.upperBound <= length, "range out of bounds")
    return array[bounds]
  }
}

extension SmallList: ReusedList {}

extension SmallList: Equatable where Element: Equatable {}

extension SmallList: Hashable where Element: Hashable {}

extension SmallList: Sendable where Element: Sendable {}
