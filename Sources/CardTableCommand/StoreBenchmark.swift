import CardTableCore
import GameStore

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmark {
  /// What keeping a move costs: one `RoomChange` of one action (its own transaction, as the
  /// server saves every accepted action before it answers) into a real SQLite file, with each
  /// durability; and a room read back with its log, as `open` wakes it.
  static let storeActions = Benchmark(
    name: "store", summary: "the SQLite store: µs per saved action, and a room read back"
  ) { size in
    let actions = size.pick(5_000, quick: 500, smoke: 20)
    var lines: [String] = []
    do {
      for durability in SQLiteStore.Durability.allCases {
        let directory = try ServerProbe.temporaryDirectory()
        defer { _ = system("rm -rf '\(directory)'") }
        let store = try SQLiteStore.open(directory: directory, durability: durability)
        let owner = try store.player(.random(), at: 0).key
        let room = RoomID.random()
        let match = MatchRecord(
          ordinal: 0, game: "memory", options: #"{"options":{"difficulty":"hard"}}"#, seed: 1,
          seedChosen: false, laterKey: [1, 2], replay: false, started: 0)
        try store.createRoom(
          NewRoom(id: room, owner: owner, match: match, status: .playing, created: 0))
        let seconds = try Benchmark.secondsThrowing {
          for index in 0..<actions {
            let action = ActionRecord(
              index: index, time: Double(index), at: Int64(index), player: "You",
              automatic: index % 3 == 2, action: #"{"type":"flip","card":\#(index % 32)}"#)
            try store.save(
              RoomChange(
                room: room, ordinal: 0, actions: [action], status: .playing, at: Int64(index)))
          }
        }
        lines.append(
          "store, one action per transaction (\(durability.rawValue)): "
            + "\(Benchmark.format(seconds * 1e6 / Double(actions))) µs/action (\(actions) actions)")
        if durability == .normal {
          let reads = size.pick(200, quick: 20, smoke: 2)
          var count = 0
          let read = try Benchmark.secondsThrowing {
            for _ in 0..<reads { count = try store.room(room)?.actions.count ?? 0 }
          }
          lines.append(
            "store, a room of \(count) actions read back: "
              + "\(Benchmark.format(read * 1e6 / Double(reads))) µs/room")
        }
      }
    } catch {
      lines.append("store: failed: \(error)")
    }
    return lines
  }

  /// Times `body`, which may throw, and returns the elapsed seconds.
  static func secondsThrowing(_ body: () throws -> Void) throws -> Double {
    var failure: (any Error)?
    let elapsed = seconds {
      do { try body() } catch { failure = error }
    }
    if let failure { throw failure }
    return elapsed
  }
}
