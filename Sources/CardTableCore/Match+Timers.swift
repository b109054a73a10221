extension Match {
  /// The pending timers: one kept inline, and any set while it waits in an array.
  ///
  /// NB: most games wait on one timer at a time — Memory's turned pair, Concentration's pause,
  /// Snap!'s turn — which as an array was an allocation a game, and a check that the storage
  /// was not shared at every timer set and every timer run (`bench memory`, callgrind:
  /// docs/PERFORMANCE.md "Session 24"). Which timer runs first is decided by its due time and
  /// then the order it was set (``Pending/sequence``), never by where it is kept.
  @usableFromInline
  struct Timers: Sendable {
    @usableFromInline var head: Pending?
    @usableFromInline var rest: [Pending]

    /// Where a timer is kept.
    @usableFromInline
    enum Slot {
      case head
      case rest(Int)
    }

    @inlinable
    init() {
      head = nil
      rest = []
    }

    /// Adds a timer.
    @inlinable
    mutating func insert(_ timer: Pending) {
      if head == nil {
        head = timer
      } else {
        rest.append(timer)
      }
    }

    /// The clock time of the earliest timer, if any.
    @inlinable
    var nextDue: Double? {
      var earliest = head?.due
      for index in rest.indices where earliest.map({ rest[index].due < $0 }) ?? true {
        earliest = rest[index].due
      }
      return earliest
    }

    /// The timer due by `time` that runs first: the earliest, then the first set.
    ///
    /// NB: the fields are compared in place; copying a timer would retain its action's payload.
    @inlinable
    func next(dueBy time: Double) -> Slot? {
      var best: Slot?
      var (bestDue, bestSequence) = (0.0, 0)
      if let due = head?.due, due <= time, let sequence = head?.sequence {
        (best, bestDue, bestSequence) = (.head, due, sequence)
      }
      for index in rest.indices where rest[index].due <= time {
        let (due, sequence) = (rest[index].due, rest[index].sequence)
        if best == nil || due < bestDue || (due == bestDue && sequence < bestSequence) {
          (best, bestDue, bestSequence) = (.rest(index), due, sequence)
        }
      }
      return best
    }

    /// Takes out the timer in `slot`.
    @inlinable
    mutating func remove(_ slot: Slot) -> Pending {
      switch slot {
      case .head:
        guard let timer = head.take() else { preconditionFailure("no timer is kept inline") }
        return timer
      // NB: the last timer is taken without moving the others (`remove(at:)` calls memmove).
      case .rest(let index):
        return index == rest.count - 1 ? rest.removeLast() : rest.remove(at: index)
      }
    }

    /// Drops every timer for which `shouldRemove` is true.
    @inlinable
    mutating func removeAll(where shouldRemove: (Pending) -> Bool) {
      if let timer = head, shouldRemove(timer) { head = nil }
      if !rest.isEmpty { rest.removeAll(where: shouldRemove) }
    }

    /// Every timer, in the order they were set.
    @inlinable
    var inOrder: [Pending] {
      var all = rest
      if let head { all.append(head) }
      return all.sorted { $0.sequence < $1.sequence }
    }
  }
}
