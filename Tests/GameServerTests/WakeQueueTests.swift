import CardTableCore
import GameStore
import Testing

@testable import GameServer

/// The rooms' one timer queue (``WakeQueue``): whatever is inserted and removed, in any order,
/// the first entry is always the earliest due, as a sorted list of the same entries says.
@Suite struct WakeQueueTests {
  @Test(arguments: 0..<UInt64(20)) func theFirstIsAlwaysTheEarliestDue(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var queue = WakeQueue()
    var reference: [Double] = []
    for step in 0..<2_000 {
      // NB: more inserts than removals at first, then more removals, so the queue both grows
      // and empties; dues repeat (a coarse clock) so that ties are tried too.
      let inserting = reference.isEmpty || random.next() % 100 < (step < 1_000 ? 65 : 35)
      if inserting {
        let due = Double(random.next() % 500) / 4
        let room = try #require(RoomID(rawValue: "room" + String(100_000_000_000 + step)))
        queue.insert(WakeQueue.Entry(due: due, room: room))
        reference.append(due)
        reference.sort()
      } else {
        queue.removeFirst()
        reference.removeFirst()
      }
      #expect(queue.count == reference.count)
      #expect(queue.first?.due == reference.first, "step \(step)")
    }
    while !reference.isEmpty {
      #expect(queue.first?.due == reference.removeFirst())
      queue.removeFirst()
    }
    #expect(queue.first == nil)
    queue.removeFirst()  // removing from an empty queue does nothing
    #expect(queue.count == 0)
  }
}
