import CardTableCore
import GameServer
import GameWire
import Testing

@testable import GameStore

/// A real SQLite store whose writes the test watches: every transaction's changes are kept,
/// and `gate` runs before each is written — to look at what was sent by then, or to refuse it.
final class WatchedStore: GameStore {
  let store: SQLiteStore
  /// The changes of each transaction of rooms' changes, in order.
  private(set) var transactions: [[RoomChange]] = []
  var gate: ([RoomChange]) throws(StoreError) -> Void = { _ in }

  init(_ store: SQLiteStore) { self.store = store }

  var path: String { store.path }

  func save(_ change: RoomChange) throws(StoreError) { try save([change]) }

  func save(_ changes: [RoomChange]) throws(StoreError) {
    try gate(changes)
    try store.save(changes)
    transactions.append(changes)
  }

  func player(_ token: PlayerToken, at now: Int64) throws(StoreError) -> PlayerRecord {
    try store.player(token, at: now)
  }
  func players() throws(StoreError) -> [PlayerRecord] { try store.players() }
  func saveSettings(_ settings: String, of player: PlayerKey) throws(StoreError) {
    try store.saveSettings(settings, of: player)
  }
  func createRoom(_ room: NewRoom) throws(StoreError) { try store.createRoom(room) }
  func room(_ id: RoomID) throws(StoreError) -> RoomRecord? { try store.room(id) }
  func room(code: String) throws(StoreError) -> RoomID? { try store.room(code: code) }
  func publicTables(limit: Int) throws(StoreError) -> [TableSummary] {
    try store.publicTables(limit: limit)
  }
  func openRooms(of player: PlayerKey, limit: Int) throws(StoreError) -> [RoomSummary] {
    try store.openRooms(of: player, limit: limit)
  }
  func results(in room: RoomID) throws(StoreError) -> [ResultRecord] {
    try store.results(in: room)
  }
  func results(of player: PlayerKey, game: String?) throws(StoreError) -> [ResultRecord] {
    try store.results(of: player, game: game)
  }
  func ratings(of player: PlayerKey) throws(StoreError) -> [RatingSummary] {
    try store.ratings(of: player)
  }
  func publicID(of player: PlayerKey, new: String) throws(StoreError) -> String {
    try store.publicID(of: player, new: new)
  }
  func player(publicID: String) throws(StoreError) -> PlayerRecord? {
    try store.player(publicID: publicID)
  }
  func keepTransfer(_ transfer: TransferRecord, now: Int64) throws(StoreError) {
    try store.keepTransfer(transfer, now: now)
  }
  func takeTransfer(_ code: [UInt8], now: Int64) throws(StoreError) -> [UInt8]? {
    try store.takeTransfer(code, now: now)
  }
  func chat(in room: RoomID, last limit: Int?) throws(StoreError) -> [ChatRecord] {
    try store.chat(in: room, last: limit)
  }
  func matches(in room: RoomID) throws(StoreError) -> [(
    match: MatchRecord, actions: [ActionRecord]
  )] { try store.matches(in: room) }
  func idleRooms(before time: Int64, limit: Int) throws(StoreError) -> [RoomID] {
    try store.idleRooms(before: time, limit: limit)
  }
  func check() throws(StoreError) { try store.check() }
}

/// Group commit (docs/ARCHITECTURE.md): the moves of one turn of the host's loop are saved in
/// one transaction at ``GameServer/endOfTurn()``, and only then told.
@Suite struct GroupCommitTests {
  private let clients = (1...4).map { ClientID(UInt64($0)) }

  /// A server with group commit on a watched store, and one Memory room for each client.
  private func fourRooms() throws -> (TestServer, WatchedStore, rooms: [String]) {
    var watched: WatchedStore?
    let test = try TestServer(configuration: GameServer.Configuration(groupCommit: true)) {
      store in
      let store = WatchedStore(store)
      watched = store
      return store
    }
    let rooms = clients.map { client in
      test.hello(client)
      return test.newRoom(client, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    }
    test.server.endOfTurn()
    return (test, try #require(watched), rooms)
  }

  @discardableResult
  private func flip(_ card: Int, _ test: TestServer, from client: ClientID, id: Int) -> [JSON] {
    test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(card)},"id":\#(id)}"#, from: client)
  }

  @Test func theMovesOfSeveralRoomsInOneTurnAreOneTransactionAndToldOnlyAfterIt() throws {
    let (test, store, rooms) = try fourRooms()
    let before = store.transactions.count
    let start = test.host.sent.count
    for (index, client) in clients.enumerated() {
      #expect(flip(0, test, from: client, id: index).isEmpty, "nothing is told before the commit")
    }
    // NB: a second move of a room in the same turn follows its first in the same transaction.
    #expect(flip(1, test, from: clients[0], id: 9).isEmpty)
    #expect(store.transactions.count == before, "nothing is written before the turn ends")

    var sentAtCommit: Int?
    store.gate = { _ in sentAtCommit = test.host.sent.count }
    test.server.endOfTurn()
    #expect(sentAtCommit == start, "no update was sent before the transaction was written")
    let batch = try #require(store.transactions.last)
    #expect(store.transactions.count == before + 1)
    #expect(batch.map(\.room.rawValue) == [rooms[0], rooms[1], rooms[2], rooms[3], rooms[0]])
    #expect(batch.map(\.actions.count) == [1, 1, 1, 1, 1])
    for (index, client) in clients.enumerated() {
      let told = test.sent(to: client, since: start)
      let versions = told.compactMap { $0["version"]?.intValue }
      #expect(versions == (index == 0 ? [1, 2] : [1]))
      #expect(told.first?["reply"] == JSON(index))
    }
    #expect(test.server.counters.groupCommits >= 1)
    #expect(test.server.counters.actions == 5)
  }

  @Test func aRefusedCommitRefusesEveryMoveOfItAndKeepsNone() throws {
    let (test, store, _) = try fourRooms()
    let start = test.host.sent.count
    for (index, client) in clients.enumerated() { flip(0, test, from: client, id: index) }
    // NB: a read of the room in memory waits with the move before it.
    test.send(#"{"cmd":"state","id":"s"}"#, from: clients[1])
    store.gate = { _ throws(StoreError) in throw .unavailable(path: "test", reason: "disk gone") }
    test.server.endOfTurn()
    for (index, client) in clients.enumerated() {
      let told = test.sent(to: client, since: start)
      #expect(told.allSatisfy { $0["type"] == "error" }, "no update of a refused move: \(told)")
      let refusals = told.map { $0["error"]?["code"]?.stringValue }
      #expect(refusals == Array(repeating: "storage-unavailable", count: index == 1 ? 2 : 1))
      #expect(told.map { $0["reply"] } == (index == 1 ? [JSON(1), "s"] : [JSON(index)]))
    }
    #expect(test.server.counters.actions == 0)
    #expect(test.server.counters.refusals["storage-unavailable"] == 5)

    // The games are as the store has them: the same moves are accepted again.
    store.gate = { _ in }
    let again = test.host.sent.count
    for (index, client) in clients.enumerated() { flip(0, test, from: client, id: index) }
    test.server.endOfTurn()
    for client in clients {
      #expect(update(test.sent(to: client, since: again))?["version"] == 1)
    }
    // A crash now loses nothing told: the restarted server has every move.
    try test.restart()
    let reopened = test.host.sent.count
    test.hello(clients[0], token: test.tokens[clients[0]])
    let rooms = test.send(#"{"cmd":"rooms"}"#, from: clients[0])
    #expect(rooms.last?["rooms"]?.arrayValue?.first?["version"] == 1, "\(rooms)")
    #expect(test.sent(to: clients[0], since: reopened).count >= 2)
  }

  @Test func anythingElseCommitsWhatWaitsFirst() throws {
    let (test, store, _) = try fourRooms()
    let before = store.transactions.count
    flip(0, test, from: clients[0], id: 1)
    // NB: the room list reads the store: it sees the move, and is answered after its update.
    let listed = test.send(#"{"cmd":"rooms","id":2}"#, from: clients[0])
    #expect(store.transactions.count == before + 1)
    #expect(listed.map { $0["reply"] } == [JSON(1), JSON(2)])
    #expect(listed.last?["rooms"]?.arrayValue?.first?["version"] == 1)
    // A restart is saved at once, after what waited.
    flip(0, test, from: clients[1], id: 3)
    let restarted = test.send(#"{"cmd":"restart","id":4}"#, from: clients[2])
    #expect(update(restarted)?["version"] == 0)
    #expect(store.transactions.count == before + 3)
    #expect(
      store.transactions.suffix(2).map { $0.map { $0.newMatch != nil } } == [[false], [true]])
    #expect(update(test.sent(to: clients[1], since: 0))?["version"] == 1)
  }

  @Test func aTimerOfATurnWaitsForItsCommitToo() throws {
    let (test, store, _) = try fourRooms()
    flip(0, test, from: clients[0], id: 1)
    flip(2, test, from: clients[0], id: 2)
    test.server.endOfTurn()
    let before = store.transactions.count
    let start = test.host.sent.count
    // The mismatched pair turns down 2 s later: on the timer, staged like a move.
    test.host.fire(test.server, at: 2.5)
    #expect(test.sent(to: clients[0], since: start).isEmpty)
    test.server.endOfTurn()
    #expect(store.transactions.count == before + 1)
    let turned = test.sent(to: clients[0], since: start)
    #expect(turned.first?["events"]?.arrayValue?.first?["type"] == "turnedDown")
  }

  @Test func aTimerWhoseCommitIsRefusedRunsAgainASecondLater() throws {
    let (test, store, _) = try fourRooms()
    flip(0, test, from: clients[0], id: 1)
    flip(2, test, from: clients[0], id: 2)
    test.server.endOfTurn()
    store.gate = { _ throws(StoreError) in throw .full(path: "test") }
    let start = test.host.sent.count
    test.host.fire(test.server, at: 2.5)
    test.server.endOfTurn()
    #expect(test.sent(to: clients[0], since: start).isEmpty, "nobody hears of a refused timer")
    let wake = try #require(test.host.wake)
    #expect(wake >= 3.5 && wake < 4, "tried again a second later, not in a loop: \(wake)")
    store.gate = { _ in }
    test.host.fire(test.server, at: wake)
    test.server.endOfTurn()
    let turned = test.sent(to: clients[0], since: start)
    #expect(turned.first?["events"]?.arrayValue?.first?["type"] == "turnedDown")
  }

  @Test func withoutGroupCommitEachMoveIsWrittenAndToldAtOnce() throws {
    var watched: WatchedStore?
    let test = try TestServer { store in
      let store = WatchedStore(store)
      watched = store
      return store
    }
    let store = try #require(watched)
    test.hello(clients[0])
    test.newRoom(clients[0], #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    let before = store.transactions.count
    #expect(update(flip(0, test, from: clients[0], id: 1))?["version"] == 1)
    #expect(update(flip(1, test, from: clients[0], id: 2))?["version"] == 2)
    #expect(store.transactions.count == before + 2)
    #expect(test.server.counters.groupCommits == 0)
  }
}
