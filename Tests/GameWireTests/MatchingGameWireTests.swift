import GameWire
import Testing

/// Sends each line to a fresh console and returns the parsed replies.
func replies(_ lines: String...) throws -> [JSON] {
  let console = EngineConsole(newSeed: { 5 })
  return try lines.map { try JSON(parsing: console.reply(to: $0)) }
}

@Suite struct MatchingGameWireTests {
  let new = #"{"cmd":"new","game":"matchismo","deck":["A♥","K♣","A♠","2♦"],"seed":1}"#

  @Test func choicesReportStatusHistoryAndScore() throws {
    let answers = try replies(
      new, #"{"cmd":"act","action":{"type":"choose","card":0}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":1}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":2}}"#)
    let state = answers[3]["state"]!
    #expect(answers[0]["state"]?["table"]?.arrayValue?.count == 4)
    #expect(answers[2]["state"]?["status"] == "A♥ K♣ don’t match! 2 point penalty!")
    #expect(answers[2]["events"]?.arrayValue?.last?["type"] == "mismatched")
    #expect(state["status"] == "K♣ A♠ don’t match! 2 point penalty!")
    #expect(
      state["history"]
        == ["A♥", "A♥ K♣ don’t match! 2 point penalty!", "K♣ A♠ don’t match! 2 point penalty!"])
    #expect(state["score"] == -7)
    #expect(state["flips"] == 3)
    #expect(state["mode"] == 2)
    #expect(state["over"] == false)
    #expect(
      state["table"]?.arrayValue?[2] == [
        "card": "A♠", "chosen": true, "matched": false, "hinted": false,
      ])
  }

  @Test func aMatchFillsFoundAndEndsTheGameWithAResult() throws {
    let answers = try replies(
      new, #"{"cmd":"act","action":{"type":"choose","card":2}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":0}}"#)
    let state = answers[2]["state"]!
    #expect(state["found"] == ["A♥", "A♠"])
    #expect(state["foundMatches"]?.arrayValue?.first?["reason"]?["text"] == "A♠ A♥ same rank")
    #expect(state["over"] == true)
    #expect(state["result"]?["score"] == 14)
    #expect(state["result"]?["moves"] == 2)
    #expect(state["result"]?["ending"] == "finished")
    let types = answers[2]["events"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
    #expect(types == ["chosen", "matched", "gameOver"])
  }

  @Test func hintRepliesWithTheCardsAndMarksThem() throws {
    let console = EngineConsole()
    _ = console.reply(to: new)
    #expect(console.reply(to: #"{"cmd":"hint"}"#) == #"{"ok":true,"cards":[0,2]}"#)
    let state = try JSON(parsing: console.reply(to: #"{"cmd":"state"}"#))["state"]!
    #expect(state["hint"] == [0, 2])
    _ = console.reply(to: #"{"cmd":"act","action":{"type":"choose","card":0}}"#)
    _ = console.reply(to: #"{"cmd":"act","action":{"type":"choose","card":2}}"#)
    #expect(console.reply(to: #"{"cmd":"hint"}"#) == #"{"ok":true,"cards":[]}"#)
  }

  @Test func theModeLocksAndDealUnlocksIt() throws {
    let answers = try replies(
      new, #"{"cmd":"act","action":{"type":"setMode","mode":3}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":0}}"#,
      #"{"cmd":"act","action":{"type":"setMode","mode":2}}"#,
      #"{"cmd":"act","action":{"type":"deal"}}"#,
      #"{"cmd":"act","action":{"type":"setMode","mode":2}}"#)
    #expect(answers[1]["state"]?["mode"] == 3)
    #expect(answers[3]["ok"] == false)
    #expect(answers[3]["error"]?["code"] == "mode-locked")
    #expect(answers[3]["state"]?["mode"] == 3)
    #expect(answers[4]["events"]?.arrayValue?.first?["abandoned"]?["ending"] == "abandoned")
    #expect(answers[4]["state"]?["table"]?.arrayValue?.count == 24)
    #expect(answers[5]["state"]?["mode"] == 2)
  }

  @Test func thePlayerViewHidesFaceDownCards() throws {
    let answers = try replies(
      new, #"{"cmd":"act","action":{"type":"choose","card":1}}"#,
      #"{"cmd":"view","player":"You"}"#)
    let table = answers[2]["view"]?["table"]?.arrayValue ?? []
    #expect(table.map { $0["card"] } == [.null, "K♣", .null, .null])
    #expect(answers[1]["state"]?["table"]?.arrayValue?[0]["card"] == "A♥")
  }

  @Test func optionsAreCheckedAndUsed() throws {
    let answers = try replies(
      #"{"cmd":"new","game":"matchismo","options":{"cards":53},"seed":1}"#,
      #"{"cmd":"new","game":"matchismo","options":{"colour":1},"seed":1}"#,
      #"{"cmd":"new","game":"matchismo","options":{"cards":10,"mode":3,"matchBonus":0},"seed":1}"#,
      #"{"cmd":"new","game":"matchismo","deck":["A♥","A♥"],"seed":1}"#)
    #expect(answers[0]["error"]?["code"] == "bad-request")
    #expect(answers[1]["error"]?["code"] == "bad-request")
    #expect(answers[2]["state"]?["table"]?.arrayValue?.count == 10)
    #expect(answers[2]["state"]?["deckCount"] == 42)
    #expect(answers[2]["state"]?["mode"] == 3)
    #expect(answers[2]["state"]?["settings"]?["matchBonus"] == 0)
    #expect(answers[3]["error"]?["code"] == "invalid-deck")
  }
}
