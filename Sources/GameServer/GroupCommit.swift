import GameStore

/// The game server's store with group commit (docs/ARCHITECTURE.md "Group commit"): the
/// changes players' actions and rooms' timers make during one turn of the host's loop are
/// staged here and written in one transaction at the turn's end (``commit()``), and only then
/// told to anyone.
///
/// Every other use of the store commits what is staged first, in the same transaction when it
/// is a room's change too, so that the store sees the changes in the order they were made and
/// every read sees every change before it. ``settled`` says how each commit went; the server
/// then sends what waited for it, or undoes it.
final class GroupCommit: GameStore {
  let store: any GameStore
  /// The changes not yet written, oldest first.
  private(set) var staged: [RoomChange] = []
  /// Called after staged changes went to the store: with no failures when all were written,
  /// else with the error of each room whose changes were not (all of them, unless only some
  /// rooms' leases were lost).
  var settled: (_ failures: [RoomID: StoreError]) -> Void = { _ in }

  init(_ store: any GameStore) {
    self.store = store
  }

  var path: String { store.path }

  /// Whether changes wait for the end of the turn.
  var isPending: Bool { !staged.isEmpty }

  /// Keeps a room's change for the end of the turn.
  func stage(_ change: RoomChange) {
    staged.append(change)
  }

  /// Writes every staged change in one transaction; ``settled`` hears how it went.
  func commit() {
    guard !staged.isEmpty else { return }
    var changes = staged
    staged = []
    // NB: a room whose lease another server took fails alone; the others are written.
    var failures: [RoomID: StoreError] = [:]
    for change in changes where !store.holds(change.room) {
      failures[change.room] = .leaseLost(path: store.path, room: change.room.rawValue)
    }
    if !failures.isEmpty { changes.removeAll { failures[$0.room] != nil } }
    do {
      if !changes.isEmpty { try store.save(changes) }
    } catch {
      for change in changes { failures[change.room] = error }
    }
    settled(failures)
  }

  // MARK: GameStore

  /// A room's change written now: with whatever is staged, in one transaction.
  func save(_ change: RoomChange) throws(StoreError) {
    try save([change])
  }

  /// Rooms' changes written now: after whatever is staged, in one transaction.
  func save(_ changes: [RoomChange]) throws(StoreError) {
    guard !staged.isEmpty else { return try store.save(changes) }
    let waiting = staged
    staged = []
    do {
      try store.save(waiting + changes)
    } catch {
      var failures: [RoomID: StoreError] = [:]
      for change in waiting { failures[change.room] = error }
      settled(failures)
      throw error
    }
    settled([:])
  }

  func player(_ token: PlayerToken, at now: Int64) throws(StoreError) -> PlayerRecord {
    commit()
    return try store.player(token, at: now)
  }

  func players() throws(StoreError) -> [PlayerRecord] {
    commit()
    return try store.players()
  }

  func saveSettings(_ settings: String, of player: PlayerKey) throws(StoreError) {
    commit()
    try store.saveSettings(settings, of: player)
  }

  func createRoom(_ room: NewRoom) throws(StoreError) {
    commit()
    try store.createRoom(room)
  }

  func room(_ id: RoomID) throws(StoreError) -> RoomRecord? {
    commit()
    return try store.room(id)
  }

  func room(code: String) throws(StoreError) -> RoomID? {
    commit()
    return try store.room(code: code)
  }

  func publicTables(limit: Int) throws(StoreError) -> [TableSummary] {
    commit()
    return try store.publicTables(limit: limit)
  }

  func openRooms(of player: PlayerKey, limit: Int) throws(StoreError) -> [RoomSummary] {
    commit()
    return try store.openRooms(of: player, limit: limit)
  }

  func results(in room: RoomID) throws(StoreError) -> [ResultRecord] {
    commit()
    return try store.results(in: room)
  }

  func results(of player: PlayerKey, game: String?) throws(StoreError) -> [ResultRecord] {
    commit()
    return try store.results(of: player, game: game)
  }

  func ratings(of player: PlayerKey) throws(StoreError) -> [RatingSummary] {
    commit()
    return try store.ratings(of: player)
  }

  func publicID(of player: PlayerKey, new: String) throws(StoreError) -> String {
    commit()
    return try store.publicID(of: player, new: new)
  }

  func player(publicID: String) throws(StoreError) -> PlayerRecord? {
    commit()
    return try store.player(publicID: publicID)
  }

  func keepTransfer(_ transfer: TransferRecord, now: Int64) throws(StoreError) {
    commit()
    try store.keepTransfer(transfer, now: now)
  }

  func takeTransfer(_ code: [UInt8], now: Int64) throws(StoreError) -> [UInt8]? {
    commit()
    return try store.takeTransfer(code, now: now)
  }

  func chat(in room: RoomID, last limit: Int?) throws(StoreError) -> [ChatRecord] {
    commit()
    return try store.chat(in: room, last: limit)
  }

  func matches(in room: RoomID) throws(StoreError) -> [(
    match: MatchRecord, actions: [ActionRecord]
  )] {
    commit()
    return try store.matches(in: room)
  }

  func idleRooms(before time: Int64, limit: Int) throws(StoreError) -> [RoomID] {
    commit()
    return try store.idleRooms(before: time, limit: limit)
  }

  func check() throws(StoreError) {
    try store.check()
  }

  func claim(_ room: RoomID) throws(StoreError) -> Bool {
    commit()
    return try store.claim(room)
  }

  func release(_ room: RoomID) {
    commit()
    store.release(room)
  }

  func holds(_ room: RoomID) -> Bool { store.holds(room) }
}
