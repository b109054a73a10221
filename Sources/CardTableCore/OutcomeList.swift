/// One of an ``Outcome``'s lists — the events, follow-ups, cancellations or game marks of an
/// action — that keeps its storage when it is emptied, so that a ``Match`` reuses one outcome
/// for every action at the cost of forgetting a length.
///
/// It reads as any random-access collection of its first ``count`` elements, compares and
/// prints as the array of them, and is written as an array literal.
///
/// NB: emptying forgets the length only. The elements past it stay in the storage until an
/// append writes over them, so that emptying costs no check that the storage is not shared
/// and no destruction element by element: popping each element, as the arrays did, was some
/// 30 instructions an element and 11 % of an action of `bench memory` (callgrind). An
/// element left there lives until it is written over or the list is freed: at most the
/// largest outcome's worth of a game's events.
@frozen
public struct OutcomeList<Element> {
  /// The elements written so far; those from ``count`` on are left over from earlier actions.
  @usableFromInline var storage: [Element]
  /// How many elements of `storage` are the list's.
  @usableFromInline var length: Int

  /// An empty list.
  @inlinable
  public init() {
    storage = []
    length = 0
  }

  /// A list of `elements`.
  @inlinable
  public init(_ elements: [Element]) {
    storage = elements
    length = elements.count
  }

  /// Adds `element` after the others, writing over an element left from an earlier action
  /// when there is one.
  ///
  /// NB: always inlined and consuming its argument: called, and copying the element into the
  /// storage, an append cost more than the popping it saved (`bench_memory_c.py`).
  @inlinable @inline(__always)
  public mutating func append(_ element: consuming Element) {
    if length < storage.count {
      storage[length] = element
    } else {
      storage.append(element)
    }
    length += 1
  }

  /// Makes room for `capacity` elements in all.
  @inlinable
  public mutating func reserveCapacity(_ capacity: Int) {
    storage.reserveCapacity(capacity)
  }

  /// Empties the list, keeping its storage for the next action's elements.
  @inlinable
  public mutating func removeAll() {
    length = 0
  }

  /// The list's elements as an array.
  @inlinable
  public var array: [Element] {
    length == storage.count ? storage : Array(storage[..<length])
  }
}

extension OutcomeList: RandomAccessCollection {
  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { length }
  /// NB: a range, not the default indices, which hold a copy of the list (a retain) and step
  /// through it generically.
  @inlinable public var indices: Range<Int> { 0..<length }

  @inlinable
  public subscript(position: Int) -> Element {
    precondition(position >= 0 && position < length, "index out of range")
    return storage[position]
  }

  /// The elements in `bounds`, as an array's slice (as `dropFirst()` gives an array's).
  @inlinable
  public subscript(bounds: Range<Int>) -> ArraySlice<Element> {
    precondition(bounds.lowerBound >= 0 && bounds.upperBound <= length, "range out of bounds")
    return storage[bounds]
  }
}

extension OutcomeList: ReusedList {}

extension OutcomeList: Equatable where Element: Equatable {}

extension OutcomeList: Hashable where Element: Hashable {}

extension OutcomeList: Sendable where Element: Sendable {}
