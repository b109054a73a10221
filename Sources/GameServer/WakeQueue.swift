import GameStore

/// A random number generator made of a function, so that tests can give their own.
struct RandomSource: RandomNumberGenerator {
  let nextValue: () -> UInt64

  init(next: @escaping () -> UInt64) { nextValue = next }

  mutating func next() -> UInt64 { nextValue() }
}

/// Rooms waiting for their timers, earliest first: a binary min-heap.
struct WakeQueue {
  struct Entry {
    var due: Double
    var room: RoomID
  }

  private var heap: [Entry] = []

  var first: Entry? { heap.first }
  var count: Int { heap.count }

  /// - Complexity: O(log n).
  mutating func insert(_ entry: Entry) {
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
  mutating func removeFirst() {
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
