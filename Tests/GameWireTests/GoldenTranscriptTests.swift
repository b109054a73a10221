import CardTableTesting
import GameWire
import Testing

/// The engine console's contract, pinned: 3,240 commands across all five games, recorded with
/// the console before the wire was derived from the types (scripts/golden.py), and the reply
/// to each, byte for byte.
@Suite struct GoldenTranscriptTests {
  /// Inputs whose reply changed on purpose, with the reason (docs/ENGINE.md says so too).
  static let fixes: [String: String] = [
    #"{"cmd":"new","game":"memory","seed":9.007199254740993e15}"#:
      "a seed is read exactly: 9.007199254740993e15 is the whole number 9007199254740993"
  ]

  @Test func everyReplyIsTheRecordedOneByteForByte() throws {
    let console = EngineConsole(newSeed: { 0 })
    var fixed = 0
    for (number, line) in try Golden.lines("engine.jsonl.gz").enumerated() {
      let record = try JSON(parsing: line)
      let input = try #require(record["in"]?.stringValue)
      let expected = try #require(record["out"]?.stringValue)
      let reply = console.reply(to: input)
      if Self.fixes[input] != nil {
        #expect(reply != expected, "line \(number): the fix is in place")
        fixed += 1
        continue
      }
      #expect(reply == expected, "line \(number): \(input)")
      if reply != expected { return }
    }
    #expect(fixed == Self.fixes.count)
  }
}
