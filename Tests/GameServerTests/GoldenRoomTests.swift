import CardTableTesting
import GameServer
import GameWire
import Testing

/// The WebSocket protocol's messages, pinned: 2,580 calls into 48 rooms of every game,
/// recorded with the rooms before the wire was derived from the types (scripts/golden.py
/// `--rooms`), and every message each call sent, byte for byte, with the room's next wake.
@Suite struct GoldenRoomTests {
  @Test func everyMessageIsTheRecordedOneByteForByte() throws {
    // NB: the recording's server drew seeds from one counter for every room.
    nonisolated(unsafe) var seeds: UInt64 = 1000
    var rooms: [Int: RoomCore] = [:]
    for (number, line) in try Golden.lines("rooms.jsonl.gz").enumerated() {
      let record = try JSON(parsing: line)
      let call = try #require(record["in"])
      let id = try #require(call["room"]?.intValue)
      let room =
        rooms[id]
        ?? RoomCore(newSeed: {
          seeds += 7919
          return seeds
        })
      rooms[id] = room
      var sent: [Outgoing] = []
      if let client = call["join"]?.uint64Value {
        sent = room.join(ClientID(client))
      } else if let client = call["leave"]?.uint64Value {
        room.leave(ClientID(client))
      } else if let time = call["wake"]?.doubleValue {
        sent = room.wake(at: time)
      } else {
        let text = try #require(call["text"]?.stringValue)
        let client = try #require(call["c"]?.uint64Value)
        sent = room.receive(text, from: ClientID(client), at: try #require(call["t"]?.doubleValue))
      }
      let expected = try #require(record["out"]?.arrayValue).map { pair -> String in
        "\(pair.arrayValue?.first?.uint64Value ?? 0) \(pair.arrayValue?.last?.stringValue ?? "")"
      }
      let messages = sent.map { "\($0.client.rawValue) \($0.text)" }
      #expect(messages == expected, "call \(number): \(call.text)")
      #expect(room.nextWake.map { JSON($0) } ?? .null == record["wake"], "call \(number)")
      if messages != expected { return }
    }
  }
}
