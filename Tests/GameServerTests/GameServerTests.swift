import GameServer
import GameWire
import Synchronization
import Testing

/// Records what the server sends, and lets a test wait for a number of messages.
final class RecordingTransport: Transport {
  private let sent = Mutex<[(ClientID, String)]>([])

  func send(_ text: String, to client: ClientID) {
    sent.withLock { $0.append((client, text)) }
  }

  func messages(to client: ClientID) -> [JSON] {
    sent.withLock { $0.filter { $0.0 == client }.compactMap { try? JSON(parsing: $0.1) } }
  }

  /// Waits (yielding, bounded) until `client` has received `count` messages.
  func waitFor(_ count: Int, to client: ClientID) async -> [JSON] {
    for _ in 0..<2_000 where messages(to: client).count < count {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return messages(to: client)
  }
}

@Suite struct GameServerTests {
  @Test func eachClientHasItsOwnRoomAndMessagesStayInOrder() async throws {
    let transport = RecordingTransport()
    let server = GameServer(transport: transport, newSeed: { 5 })
    let (a, b) = (ClientID(1), ClientID(2))
    server.connected(a)
    server.connected(b)
    server.received(#"{"cmd":"new","game":"memory"}"#, from: a)
    for index in 0..<2 {
      server.received(
        #"{"cmd":"act","action":{"type":"flip","card":\#(index)},"id":\#(index)}"#, from: a)
    }
    server.received(#"{"cmd":"state"}"#, from: b)
    let toA = await transport.waitFor(4, to: a)
    let toB = await transport.waitFor(2, to: b)
    // NB: the pair's timer may already have pushed a fifth message; the first four are fixed.
    #expect(toA.prefix(4).map { $0["type"] } == ["welcome", "update", "update", "update"])
    #expect(toA[2]["reply"] == 0 && toA[3]["reply"] == 1)
    #expect(toA[3]["version"] == 2)
    #expect(toB[1]["error"]?["code"] == "no-game")
    #expect(server.roomCount == 2)
    server.disconnected(a)
    #expect(server.roomCount == 1)
    server.shutdown()
    #expect(server.roomCount == 0)
  }

  @Test func refusedMessagesAreExplainedToTheClient() async {
    let transport = RecordingTransport()
    let server = GameServer(transport: transport)
    server.refused(ClientID(9), reason: .tooLarge(bytes: 70_000, limit: 65_536))
    server.refused(ClientID(9), reason: .tooFast)
    let sent = transport.messages(to: ClientID(9))
    #expect(sent.map { $0["error"]?["code"] } == ["too-large", "too-fast"])
  }

  @Test func aClientThatVanishesMidGameCostsNothing() async {
    let transport = RecordingTransport()
    let server = GameServer(transport: transport)
    let client = ClientID(3)
    server.connected(client)
    server.received(#"{"cmd":"new","game":"memory"}"#, from: client)
    server.received(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: client)
    server.disconnected(client)
    server.received(#"{"cmd":"state"}"#, from: client)
    #expect(server.roomCount == 0)
  }
}
