import CardTableTesting
import GameServer
import GameWire
import Testing

/// The WebSocket protocol's messages, pinned: the 2,580 calls of 48 tables of every game that
/// pinned the protocol before rooms were kept (`rooms.jsonl.gz`, scripts/golden.py `--rooms`),
/// played on today's server, and every message each call sent, byte for byte, with the host's
/// next wake (`server.jsonl.gz`).
///
/// Each recorded client is a connection of its own that says `hello` when it joins. The
/// transcript was recorded with this test (`CARDTABLE_RECORD_GOLDEN=1 swift test --filter
/// GoldenRoomTests`) when rooms came in; its updates were then compared with the old ones: they
/// differ only by the later deals' keyed seeds and the messages rooms added. Re-recorded when a
/// restart came to record the game it replaces as abandoned (6 calls, each after a restart),
/// and when Concentration began to take no card for a second after a match (RULES §7: 65 calls
/// of the Concentration tables — flips in that second refused `pair-pending` and what followed
/// — and the host's next wake of the calls around them), then when its time came to start with
/// the first card (`began`: 115 calls, each with a Concentration update); and when `began` came
/// to name a later *Deal* too (230 calls, each with a Matchismo, Set or Snap! update after a
/// deal in the match) and Set's refill choices were described for its help (96 `welcome`s), and
/// when Memory, Concentration and Set came to take computer players (the same 96 `welcome`s).
@Suite struct GoldenRoomTests {
  @Test func everyMessageIsTheRecordedOneByteForByte() throws {
    let test = try TestServer()
    // NB: the recording's server drew seeds from one counter for every room.
    test.nextSeed = 1000
    var recorded: [String] = []
    let expected = Golden.recording ? [] : try Golden.lines("server.jsonl.gz")
    for (number, line) in try Golden.lines("rooms.jsonl.gz").enumerated() {
      let call = try #require(try JSON(parsing: line)["in"])
      let before = test.host.sent.count
      if let client = call["join"]?.uint64Value {
        test.hello(ClientID(client))
      } else if let client = call["leave"]?.uint64Value {
        test.server.disconnected(ClientID(client))
      } else if let time = call["wake"]?.doubleValue {
        test.host.fire(test.server, at: time)
      } else {
        let text = try #require(call["text"]?.stringValue)
        let client = try #require(call["c"]?.uint64Value)
        if text.contains(#""cmd":"new""#) { test.nextSeed += 7919 }
        test.server.received(text, from: ClientID(client), at: try #require(call["t"]?.doubleValue))
      }
      let out: [JSON] = test.host.sent[before...].map { client, text in
        [JSON(client.rawValue), .string(text)]
      }
      let result = JSON.object([
        ("out", .array(out)), ("wake", test.host.wake.map { JSON($0) } ?? .null),
      ])
      if Golden.recording {
        recorded.append(result.text)
        continue
      }
      #expect(number < expected.count)
      guard number < expected.count else { return }
      #expect(result.text == expected[number], "call \(number): \(call.text)")
      if result.text != expected[number] { return }
    }
    if Golden.recording { try Golden.write(recorded, to: "server.jsonl.gz") }
  }
}
