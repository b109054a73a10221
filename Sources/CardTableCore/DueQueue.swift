/// Things waiting for their time, earliest first: a binary min-heap on `due` (the server's
/// rooms waiting for their timers, a benchmark's players waiting to move).
///
/// NB: `@inlinable`, so that each module specializes it for its items: unspecialized, every
/// swap of the heap looked up the entries' generic metadata, and taking the first of the
/// server's timers cost some 11,000 instructions (callgrind, `bench rooms`).
public struct DueQueue<Item> {
  public struct Entry {
    public var due: Double
    public var item: Item

    @inlinable
    public init(due: Double, item: Item) {
      self.due = due
      self.item = item
    }
  }

  @usableFromInline var heap: [Entry] = []

  @inlinable
  public init() {}

  @inlinable
  public var first: Entry? { heap.first }
  @inlinable
  public var count: Int { heap.count }

  /// - Complexity: O(log n).
  @inlinable
  public mutating func insert(_ entry: Entry) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].due < heap[parent].due else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  /// - Complexity: O(log n).
  @inlinable
  public mutating func removeFirst() {
    guard let last = heap.popLast() else { return }
    guard !heap.isEmpty else { return }
    heap[0] = last
    var parent = 0
    while true {
      let (left, right) = (2 * parent + 1, 2 * parent + 2)
      var smallest = parent
      if left < heap.count, heap[left].due < heap[smallest].due { smallest = left }
      if right < heap.count, heap[right].due < heap[smallest].due { smallest = right }
      guard smallest != parent else { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
