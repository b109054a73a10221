/// What ``OutcomeList`` and ``SmallList`` share: a list that an action writes, a ``Match`` empties
/// by forgetting its length before the next one, and that reads, compares, hashes, prints and
/// is written as the array of its elements.
public protocol ReusedList: RandomAccessCollection, ExpressibleByArrayLiteral,
  CustomStringConvertible, CustomDebugStringConvertible
where Index == Int, Indices == Range<Int>, ArrayLiteralElement == Element {
  /// A list of `elements`.
  init(_ elements: [Element])
  /// Adds `element` after the others.
  mutating func append(_ element: consuming Element)
  /// Empties the list, keeping its storage for the next action's elements.
  mutating func removeAll()
  /// The list's elements as an array.
  var array: [Element] { get }
}

extension ReusedList {
  @inlinable
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }

  /// Adds the elements of `elements` after the others.
  @inlinable
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// The elements as an array prints them, so that a failed test shows the list it read.
  public var description: String { array.description }
  public var debugDescription: String { array.debugDescription }
}

extension ReusedList where Element: Equatable {
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elementsEqual(rhs)
  }
}

extension ReusedList where Element: Hashable {
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for element in self { hasher.combine(element) }
  }
}
