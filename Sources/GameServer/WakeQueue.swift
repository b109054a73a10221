import CardTableCore
import GameStore

/// A random number generator made of a function, so that tests can give their own.
struct RandomSource: RandomNumberGenerator {
  let nextValue: () -> UInt64

  init(next: @escaping () -> UInt64) { nextValue = next }

  mutating func next() -> UInt64 { nextValue() }
}

/// Rooms waiting for their timers, earliest first.
typealias WakeQueue = DueQueue<RoomID>

extension DueQueue.Entry where Item == RoomID {
  init(due: Double, room: RoomID) { self.init(due: due, item: room) }

  var room: RoomID { item }
}
