import GameWire
import Testing

@Suite struct SetGameWireTests {
  /// A table whose only set is positions 0, 1, 2, and three more cards in the deck.
  let deck = [
    "oval:red:solid:1", "oval:green:solid:1", "oval:purple:solid:1", "diamond:red:solid:1",
    "diamond:green:solid:1", "squiggle:red:solid:1", "squiggle:green:solid:1",
    "diamond:red:striped:1", "diamond:green:striped:1", "squiggle:red:striped:1",
    "squiggle:green:striped:1", "oval:red:striped:2", "diamond:purple:open:3",
    "squiggle:purple:open:3", "oval:green:open:3",
  ]

  func new(_ options: String = "{}") -> String {
    let cards = deck.map { "\"\($0)\"" }.joined(separator: ",")
    return #"{"cmd":"new","game":"set","options":"# + options + #","deck":["# + cards
      + #"],"seed":3}"#
  }

  @Test func aSetLeavesTheTableForFound() throws {
    let answers = try replies(
      new(), #"{"cmd":"act","action":{"type":"choose","card":0}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":1}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":2}}"#)
    let first = answers[0]["state"]!
    #expect(first["table"]?.arrayValue?.count == 12 && first["deckCount"] == 3)
    #expect(first["mode"] == 3)
    let state = answers[3]["state"]!
    #expect(state["table"]?.arrayValue?.count == 9)
    #expect(state["table"]?.arrayValue?.first?["card"] == "diamond:red:solid:1")
    #expect(state["found"] == ["oval:red:solid:1", "oval:green:solid:1", "oval:purple:solid:1"])
    #expect(state["score"] == 13)
    #expect(
      state["status"]
        == "Matched oval:red:solid:1 oval:green:solid:1 oval:purple:solid:1 for 16 points.")
    let types = answers[3]["events"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
    #expect(types == ["chosen", "matched", "removed"])
  }

  @Test func plusThreeChargesWhenASetShowsAndAppendsAtTheEnd() throws {
    let answers = try replies(
      new(), #"{"cmd":"act","action":{"type":"dealThree"}}"#,
      #"{"cmd":"act","action":{"type":"dealThree"}}"#)
    let state = answers[1]["state"]!
    #expect(state["score"] == -6)
    #expect(state["deckCount"] == 0)
    #expect(state["table"]?.arrayValue?[12]["card"] == "diamond:purple:open:3")
    #expect(answers[1]["events"]?.arrayValue?.first?["charge"] == 6)
    #expect(answers[2]["error"]?["code"] == "deck-empty")
  }

  @Test func hintRepliesWithTheFirstSet() throws {
    let console = EngineConsole()
    _ = console.reply(to: new())
    #expect(console.reply(to: #"{"cmd":"hint"}"#) == #"{"ok":true,"cards":[0,1,2]}"#)
  }

  @Test func twoPlayersSeeTheirScoresAndTheTurn() throws {
    let answers = try replies(
      new(#"{"twoPlayer":true}"#), #"{"cmd":"act","action":{"type":"choose","card":3}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":4}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":6}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":0},"player":"P1"}"#)
    #expect(answers[0]["state"]?["current"] == "P1")
    let state = answers[3]["state"]!
    #expect(state["players"] == [["player": "P1", "score": -5], ["player": "P2", "score": 0]])
    #expect(state["current"] == "P2")
    #expect(answers[4]["error"]?["code"] == "not-your-turn")
  }

  @Test func setModeAndBadOptionsAreRefused() throws {
    let answers = try replies(
      new(), #"{"cmd":"act","action":{"type":"setMode","mode":2}}"#,
      #"{"cmd":"new","game":"set","options":{"refill":3},"seed":1}"#,
      #"{"cmd":"new","game":"set","options":{"refill":true},"seed":1}"#)
    #expect(answers[1]["error"]?["code"] == "mode-fixed")
    #expect(answers[2]["error"]?["code"] == "bad-request")
    #expect(answers[3]["state"]?["settings"]?["refill"] == true)
    #expect(answers[3]["state"]?["deckCount"] == 69)
  }
}
