import GameServer
import GameStore
import GameWire
import Testing

private let me = ClientID(1)

/// What `/metrics` and `/healthz` read: the server's counters and the measured store.
@Suite struct MetricsTests {
  @Test func theServerCountsConnectionsMessagesActionsTimersAndRefusals() throws {
    let test = try TestServer()
    test.connect(me)
    test.newRoom(me, #"{"cmd":"new","game":"memory","seed":1}"#)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me, at: 1)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me, at: 1)
    test.send(#"{"cmd":"dance"}"#, from: me, at: 1)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: me, at: 2)
    while let wake = test.host.wake, wake <= 10 { test.host.fire(test.server, at: wake) }
    let counters = test.server.counters
    #expect(counters.connections == 1)
    #expect(counters.messages == 5)
    #expect(counters.actions == 2)
    #expect(counters.timers == 1, "the pair turned down or removed")
    #expect(counters.refusals == ["card-face-up": 1, "unknown-command": 1])
    #expect(test.server.roomCount == 1 && test.server.tableCount == 0)
  }

  @Test func aMeasuredStoreTimesItsCallsAndIsUnhealthyWhileWritesFail() throws {
    let test = try TestServer()
    test.connect(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"matchismo","seed":1}"#)
    var now = 0.0
    let measured = MeasuredStore(
      test.store,
      clock: {
        now += 0.25
        return now
      })
    #expect(measured.healthy)
    #expect(measured.reads.calls == 0, "the health check is not counted as a game's read")
    _ = try measured.players()
    #expect(measured.reads == MeasuredStore.Tally(calls: 1, seconds: 0.25, failures: 0))
    try test.fillDisk(true, room: room)
    let owner = try test.store.player(PlayerToken.random(), at: 0).key
    #expect(throws: StoreError.self) {
      // NB: settings of 200 kB need pages the full disk does not have.
      try measured.saveSettings(String(repeating: "x", count: 200_000), of: owner)
    }
    #expect(measured.writes.calls == 1 && measured.writes.failures == 1)
    #expect(!measured.healthy, "a store that cannot write is not healthy")
    guard case .full = measured.problem else {
      Issue.record("the reason is the full disk, not \(String(describing: measured.problem))")
      return
    }
    _ = try measured.players()
    #expect(!measured.healthy, "a read that goes through does not make the writes healthy")
    try test.fillDisk(false, room: room)
    try measured.saveSettings("{}", of: owner)
    #expect(measured.healthy, "healthy again once a write goes through")
  }
}
