/// A store that counts and times every call of another, for `/metrics` and `/healthz`
/// (docs/DEPLOY.md "Health and metrics").
///
/// Used from one thread, the one the game server runs on.
public final class MeasuredStore: GameStore {
  /// Calls of one kind: how many, how long they took together, how many failed.
  public struct Tally: Sendable, Equatable {
    public var calls = 0
    public var seconds = 0.0
    public var failures = 0

    public init(calls: Int = 0, seconds: Double = 0, failures: Int = 0) {
      (self.calls, self.seconds, self.failures) = (calls, seconds, failures)
    }
  }

  public let store: any GameStore
  public var path: String { store.path }
  /// Reads and writes.
  public private(set) var reads = Tally()
  public private(set) var writes = Tally()
  /// Why the latest write failed (cleared by the next that succeeds), and the same of reads.
  public private(set) var writeFailure: StoreError?
  public private(set) var readFailure: StoreError?
  private let clock: () -> Double

  /// - Parameters:
  ///   - store: the store measured.
  ///   - clock: monotonic seconds.
  public init(_ store: any GameStore, clock: @escaping () -> Double) {
    self.store = store
    self.clock = clock
  }

  private func read<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    do {
      let value = try timed(&reads, body)
      readFailure = nil
      return value
    } catch {
      readFailure = error
      throw error
    }
  }

  private func write<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    do {
      let value = try timed(&writes, body)
      writeFailure = nil
      return value
    } catch {
      // NB: another server running a room is how several instances share it, not a failure.
      if case .leaseLost = error {} else { writeFailure = error }
      throw error
    }
  }

  private func timed<T>(_ tally: inout Tally, _ body: () throws(StoreError) -> T)
    throws(StoreError) -> T
  {
    let start = clock()
    defer {
      tally.calls += 1
      tally.seconds += clock() - start
    }
    do {
      return try body()
    } catch {
      tally.failures += 1
      throw error
    }
  }

  public func player(_ token: PlayerToken, at now: Int64) throws(StoreError) -> PlayerRecord {
    try write { () throws(StoreError) in try store.player(token, at: now) }
  }

  public func players() throws(StoreError) -> [PlayerRecord] {
    try read { () throws(StoreError) in try store.players() }
  }

  public func saveSettings(_ settings: String, of player: PlayerKey) throws(StoreError) {
    try write { () throws(StoreError) in try store.saveSettings(settings, of: player) }
  }

  public func createRoom(_ room: NewRoom) throws(StoreError) {
    try write { () throws(StoreError) in try store.createRoom(room) }
  }

  public func room(_ id: RoomID) throws(StoreError) -> RoomRecord? {
    try read { () throws(StoreError) in try store.room(id) }
  }

  public func room(code: String) throws(StoreError) -> RoomID? {
    try read { () throws(StoreError) in try store.room(code: code) }
  }

  public func publicTables(limit: Int) throws(StoreError) -> [TableSummary] {
    try read { () throws(StoreError) in try store.publicTables(limit: limit) }
  }

  public func save(_ change: RoomChange) throws(StoreError) {
    try write { () throws(StoreError) in try store.save(change) }
  }

  public func save(_ changes: [RoomChange]) throws(StoreError) {
    try write { () throws(StoreError) in try store.save(changes) }
  }

  public func openRooms(of player: PlayerKey, limit: Int) throws(StoreError) -> [RoomSummary] {
    try read { () throws(StoreError) in try store.openRooms(of: player, limit: limit) }
  }

  public func results(in room: RoomID) throws(StoreError) -> [ResultRecord] {
    try read { () throws(StoreError) in try store.results(in: room) }
  }

  public func results(of player: PlayerKey, game: String?) throws(StoreError) -> [ResultRecord] {
    try read { () throws(StoreError) in try store.results(of: player, game: game) }
  }

  public func ratings(of player: PlayerKey) throws(StoreError) -> [RatingSummary] {
    try read { () throws(StoreError) in try store.ratings(of: player) }
  }

  public func publicID(of player: PlayerKey, new: String) throws(StoreError) -> String {
    try read { () throws(StoreError) in try store.publicID(of: player, new: new) }
  }

  public func player(publicID: String) throws(StoreError) -> PlayerRecord? {
    try read { () throws(StoreError) in try store.player(publicID: publicID) }
  }

  public func keepTransfer(_ transfer: TransferRecord, now: Int64) throws(StoreError) {
    try read { () throws(StoreError) in try store.keepTransfer(transfer, now: now) }
  }

  public func takeTransfer(_ code: [UInt8], now: Int64) throws(StoreError) -> [UInt8]? {
    try read { () throws(StoreError) in try store.takeTransfer(code, now: now) }
  }

  public func chat(in room: RoomID, last limit: Int?) throws(StoreError) -> [ChatRecord] {
    try read { () throws(StoreError) in try store.chat(in: room, last: limit) }
  }

  public func matches(in room: RoomID) throws(StoreError) -> [(
    match: MatchRecord, actions: [ActionRecord]
  )] {
    try read { () throws(StoreError) in try store.matches(in: room) }
  }

  public func idleRooms(before time: Int64, limit: Int) throws(StoreError) -> [RoomID] {
    try read { () throws(StoreError) in try store.idleRooms(before: time, limit: limit) }
  }

  public func check() throws(StoreError) {
    try read { () throws(StoreError) in try store.check() }
  }

  public func claim(_ room: RoomID) throws(StoreError) -> Bool {
    try write { () throws(StoreError) in try store.claim(room) }
  }

  public func release(_ room: RoomID) { store.release(room) }

  public func holds(_ room: RoomID) -> Bool { store.holds(room) }

  /// Whether the store answers and its latest write and read went through.
  public var healthy: Bool { problem == nil }

  /// Why the store is not healthy, for `/healthz`: the latest write's or read's failure, or
  /// the health check's own; nil when it is healthy.
  public var problem: StoreError? {
    if let writeFailure { return writeFailure }
    do {
      // NB: not through `read`, which would clear the failure of a real read.
      try store.check()
    } catch {
      return error
    }
    return readFailure
  }
}
