import GameStore
import GameWire

// Group commit (docs/ARCHITECTURE.md): the moves of one turn of the host's loop are staged,
// saved in one transaction at its end, and only then told; a refused commit undoes each of them
// and refuses every request they answer.

extension GameServer {
  /// What waits for the next commit.
  struct Batch {
    /// The rooms with staged changes, in the order they were first staged.
    private(set) var rooms: [Room] = []
    private var staged: Set<RoomID> = []
    /// The messages to clients in those rooms, written one after another into `bytes`.
    private(set) var letters: [Letter] = []
    private(set) var bytes: [UInt8] = []
    /// The requests answered while their room had staged changes.
    private(set) var requests: [Request] = []

    struct Letter {
      var client: ClientID
      var room: RoomID
      var bytes: Range<Int>
    }

    struct Request {
      var client: ClientID
      var room: RoomID
      var reply: JSON?
      /// Whether it was a player's action the counters counted.
      var action: Bool
    }

    var isEmpty: Bool { rooms.isEmpty }

    /// Whether `room` has staged changes.
    func holds(_ client: ClientID, in room: RoomID?) -> Bool {
      room.map(staged.contains) ?? false
    }

    mutating func add(_ room: Room) {
      if staged.insert(room.id).inserted { rooms.append(room) }
    }

    mutating func keep(_ message: UnsafeRawBufferPointer, for client: ClientID, in room: RoomID) {
      let start = bytes.count
      bytes.append(contentsOf: message)
      letters.append(Letter(client: client, room: room, bytes: start..<bytes.count))
    }

    mutating func answered(_ request: Request) {
      requests.append(request)
    }

    /// Forgets everything, keeping the room its arrays have.
    mutating func removeAll() {
      rooms.removeAll(keepingCapacity: true)
      staged.removeAll(keepingCapacity: true)
      letters.removeAll(keepingCapacity: true)
      bytes.removeAll(keepingCapacity: true)
      requests.removeAll(keepingCapacity: true)
    }
  }

  /// Stages `room`'s change for the group commit.
  func stage(_ room: Room) {
    guard let change = room.stage(wall: wallClock()) else { return }
    store.stage(change)
    batch.add(room)
  }

  /// A request from `client` was handled: when its room's changes wait for the commit, so does
  /// its answer, and a refused commit refuses it.
  func handled(_ client: ClientID, reply: JSON?, actions before: Int) {
    // NB: nil when a commit in the middle of it refused it already.
    guard answering != nil else { return }
    answering = nil
    guard let room = connections[client]?.room, batch.holds(client, in: room) else { return }
    batch.answered(
      Batch.Request(
        client: client, room: room, reply: reply, action: counters.actions > before))
  }

  /// How the commit of the batch went (``GroupCommit/settled``): the rooms it saved tell what
  /// waited; each one refused goes back to what the store has, what it would have told is
  /// dropped, and every request it would have answered is refused.
  func settle(_ failures: [RoomID: StoreError]) {
    var batch = self.batch
    self.batch = Batch()
    defer {
      // NB: the next turn writes into this batch's room, unless something was staged while
      // this one was told: a commit of 25 tables of four wrote a megabyte of messages into
      // a buffer allocated anew, and faulted in page by page, every turn.
      if self.batch.isEmpty && self.batch.requests.isEmpty {
        batch.removeAll()
        self.batch = batch
      }
    }
    counters.groupCommits += 1
    for room in batch.rooms {
      if failures[room.id] == nil {
        room.committed()
      } else {
        room.uncommitted(at: lastNow)
      }
    }
    batch.bytes.withUnsafeBytes { bytes in
      for letter in batch.letters where failures[letter.room] == nil {
        host.send(UnsafeRawBufferPointer(rebasing: bytes[letter.bytes]), to: letter.client)
      }
    }
    guard !failures.isEmpty else { return }
    var refusals: [RoomID: WireError] = [:]
    for room in batch.rooms {
      guard let error = failures[room.id] else { continue }
      refusals[room.id] = storeFailed(room, error, doing: "save room")
      reschedule(room)
    }
    // NB: a request whose handling read or wrote the store, which committed the batch first,
    // is refused when its room's part was.
    var requests = batch.requests
    if let (client, reply) = answering, let room = connections[client]?.room,
      failures[room] != nil
    {
      requests.append(Batch.Request(client: client, room: room, reply: reply, action: false))
      answering = nil
    }
    for request in requests {
      guard let refusal = refusals[request.room] else { continue }
      if request.action { counters.actions -= 1 }
      counters.refusals[refusal.code, default: 0] += 1
      send(ErrorMessage(error: refusal, reply: request.reply), to: request.client)
    }
    // NB: the host's timer follows the rooms' retries.
    rearm()
  }
}
