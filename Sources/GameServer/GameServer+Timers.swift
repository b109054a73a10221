import CardTableCore
import GameStore
import GameWire

// Timers: one queue of rooms by due time, the idle-room sweep, and the host's one timer.

extension GameServer {
  // MARK: Timers

  func reschedule(_ room: Room) {
    guard rooms[room.id] === room else { return }
    let due = room.nextWake
    if queued[room.id] != due {
      queued[room.id] = due
      if let due { wakes.insert(WakeQueue.Entry(due: due, room: room.id)) }
    }
  }

  func sweepIfDue(at now: Double) {
    guard !stopping else { return }
    guard let due = nextSweep else {
      nextSweep = now + configuration.sweepInterval
      return
    }
    guard now >= due else { return }
    nextSweep = now + configuration.sweepInterval
    closeIdleRooms(at: now)
    // NB: an allowance refills within two minutes; older ones are full again.
    roomAllowance = roomAllowance.filter { now - $0.value.at < 120 }
  }

  /// Keeps the host's one timer at the earliest due room (or the next sweep), dropping stale
  /// entries first.
  func rearm() {
    while let next = wakes.first, queued[next.room] != next.due { wakes.removeFirst() }
    let due = [wakes.first?.due, nextSweep].compactMap { $0 }.min()
    guard due != armed else { return }
    armed = due
    host.wake(at: due)
  }
}
