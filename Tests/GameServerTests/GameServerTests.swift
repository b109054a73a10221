import GameServer
import GameWire
import Testing

/// Records what the server sends and the timer it asks for; the test is the clock.
final class RecordingHost: ServerHost {
  private(set) var sent: [(ClientID, String)] = []
  /// The wake time the server asked for last.
  private(set) var wake: Double?

  func send(_ message: UnsafeRawBufferPointer, to client: ClientID) {
    sent.append((client, String(decoding: message, as: UTF8.self)))
  }

  func wake(at time: Double?) { wake = time }

  /// The timer fires, as a real one does: once, then it is no longer set.
  func fire(_ server: GameServer, at time: Double) {
    wake = nil
    server.wake(at: time)
  }

  func messages(to client: ClientID) -> [JSON] {
    sent.filter { $0.0 == client }.compactMap { try? JSON(parsing: $0.1) }
  }
}

@Suite struct GameServerTests {
  @Test func eachClientHasItsOwnRoomAndEveryMessageIsAnsweredInItsOwnCall() throws {
    let host = RecordingHost()
    let server = GameServer(host: host, newSeed: { 5 })
    let (a, b) = (ClientID(1), ClientID(2))
    server.connected(a)
    server.connected(b)
    server.received(#"{"cmd":"new","game":"memory"}"#, from: a, at: 0)
    for index in 0..<2 {
      server.received(
        #"{"cmd":"act","action":{"type":"flip","card":\#(index)},"id":\#(index)}"#, from: a, at: 1)
      #expect(
        host.messages(to: a).last?["reply"] == JSON(index), "answered before the call returns")
    }
    server.received(#"{"cmd":"state"}"#, from: b, at: 1)
    let toA = host.messages(to: a)
    #expect(toA.map { $0["type"] } == ["welcome", "update", "update", "update"])
    #expect(toA[3]["version"] == 2)
    #expect(host.messages(to: b)[1]["error"]?["code"] == "no-game")
    #expect(server.roomCount == 2)
    server.disconnected(a)
    #expect(server.roomCount == 1)
    server.shutdown()
    #expect(server.roomCount == 0)
  }

  @Test func theHostKeepsOneTimerForTheEarliestRoom() throws {
    let host = RecordingHost()
    let server = GameServer(host: host, newSeed: { 5 })
    let deck = #"["A♥","A♥","K♠","K♠","2♦","2♦","3♣","3♣","Q♥","Q♥","J♠","J♠"]"#
    for client in [ClientID(1), ClientID(2)] {
      server.connected(client)
      server.received(#"{"cmd":"new","game":"memory","deck":\#(deck)}"#, from: client, at: 0)
    }
    #expect(host.wake == nil)
    // A mismatch in room 2 at t=10 (turns back at 12), a match in room 1 at t=11 (leaves at 12).
    server.received(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: ClientID(2), at: 10)
    server.received(#"{"cmd":"act","action":{"type":"flip","card":2}}"#, from: ClientID(2), at: 10)
    #expect(host.wake == 12)
    server.received(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: ClientID(1), at: 11)
    server.received(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: ClientID(1), at: 11)
    #expect(host.wake == 12)
    host.fire(server, at: 12)
    #expect(
      host.messages(to: ClientID(1)).last?["events"] == [["type": "removed", "cards": [0, 1]]])
    #expect(
      host.messages(to: ClientID(2)).last?["events"] == [["type": "turnedDown", "cards": [0, 2]]])
    #expect(host.wake == nil)
  }

  @Test func aRoomThatClosedNeverWakes() throws {
    let host = RecordingHost()
    let server = GameServer(host: host, newSeed: { 5 })
    let client = ClientID(3)
    server.connected(client)
    server.received(#"{"cmd":"new","game":"memory"}"#, from: client, at: 0)
    server.received(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: client, at: 0)
    server.received(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: client, at: 0)
    #expect(host.wake != nil)
    server.disconnected(client)
    #expect(host.wake == nil, "the closed room's timer is dropped")
    let sent = host.sent.count
    host.fire(server, at: 100)
    server.received(#"{"cmd":"state"}"#, from: client, at: 100)
    #expect(host.sent.count == sent, "work for a closed connection is dropped")
    #expect(server.roomCount == 0)
  }

  @Test func refusedMessagesAreExplainedToTheClient() {
    let host = RecordingHost()
    let server = GameServer(host: host)
    server.refused(ClientID(9), reason: .tooLarge(bytes: 70_000, limit: 65_536))
    server.refused(ClientID(9), reason: .tooFast)
    server.refused(ClientID(9), reason: .notText)
    let sent = host.messages(to: ClientID(9))
    #expect(sent.map { $0["error"]?["code"] } == ["too-large", "too-fast", "bad-request"])
  }
}
