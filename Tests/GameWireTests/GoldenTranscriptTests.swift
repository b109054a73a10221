import CardTableTesting
import GameWire
import Testing

/// The engine console's contract, pinned: 3,240 commands across all five games (scripts/golden.py)
/// and the reply to each, byte for byte.
///
/// Recorded before the wire was derived from the types, and re-recorded (same commands) when
/// later deals got keyed seeds (``LaterSeeds``): the replies that changed then were exactly the
/// Matchismo and Set *Deal*s and everything after them in their game, Snap!'s rounds after the
/// first, and two seeds now read as asked (`"seed":"7"`, `"seed":9.007199254740993e15`); and
/// again when a restart after a *Deal* went on with the later seeds instead of drawing the same
/// deal again (223 replies, every one after such a restart); and when Concentration began to
/// take no card for a second after a match (RULES §7: 66 replies, all in Concentration games —
/// a flip straight after a match is now `pair-pending`, and `advance` across the second reports
/// `ready`), and when its time came to start with the first card turned (`began` in the
/// header: 213 replies, all in Concentration games); and (same commands, replies only) when
/// `began` came to name a later *Deal* too and Set's game-over refusal to say *sets* (40
/// replies: 39 gain `began`, 1 says "No sets left").
@Suite struct GoldenTranscriptTests {
  @Test func everyReplyIsTheRecordedOneByteForByte() throws {
    let console = EngineConsole(newSeed: { 0 })
    for (number, line) in try Golden.lines("engine.jsonl.gz").enumerated() {
      let record = try JSON(parsing: line)
      let input = try #require(record["in"]?.stringValue)
      let expected = try #require(record["out"]?.stringValue)
      let reply = console.reply(to: input)
      #expect(reply == expected, "line \(number): \(input)")
      if reply != expected { return }
    }
  }
}
