import GameWire
import Testing

/// Contract cases found in review: records, secrets and options at the edges of the rules.
@Suite struct MatchingRecordTests {
  @Test func aGameOverAtItsDealIsRecordedEndingAtTheDeal() throws {
    let reply = try converse([
      #"{"cmd":"new","game":"matchismo","deck":["A♥","K♣"],"options":{"cards":2}}"#,
      #"{"cmd":"results"}"#,
    ])
    let state = try #require(reply[0]["state"])
    #expect(state["over"] == true)
    #expect(state["resultCount"] == 1)
    #expect(state["result"]?["ending"] == "finished")
    #expect(state["result"]?["duration"] == 0)
    #expect(reply[1]["results"]?.arrayValue?.count == 1)
  }

  @Test func aSetDeckWithoutASetIsAGameOverAtItsDeal() throws {
    let deck = [
      "diamond:red:solid:1", "diamond:red:solid:2", "diamond:red:striped:1",
      "diamond:red:striped:2", "diamond:green:solid:1", "diamond:green:solid:2",
      "diamond:green:striped:1", "diamond:green:striped:2", "squiggle:red:solid:1",
      "squiggle:red:solid:2", "squiggle:red:striped:1", "squiggle:red:striped:2",
    ].map { "\"\($0)\"" }.joined(separator: ",")
    let state = try converse([#"{"cmd":"new","game":"set","deck":[\#(deck)]}"#])[0]["state"]
    #expect(state?["over"] == true)
    #expect(state?["resultCount"] == 1)
  }

  @Test func theModeCannotReopenAFinishedGame() throws {
    let replies = try converse([
      #"{"cmd":"new","game":"matchismo","seed":1,"options":{"cards":2,"mode":3}}"#,
      #"{"cmd":"act","action":{"type":"setMode","mode":2}}"#,
    ])
    #expect(replies[0]["state"]?["over"] == true)
    #expect(replies[1]["error"]?["code"] == "game-over")
    #expect(replies[1]["state"] == replies[0]["state"])
  }

  @Test func aModeInWhichNothingMatchesEndsTheGameWithARecord() throws {
    let replies = try converse([
      #"{"cmd":"new","game":"matchismo","deck":["A♥","A♠"],"options":{"cards":2}}"#,
      #"{"cmd":"hint"}"#, #"{"cmd":"act","action":{"type":"setMode","mode":3}}"#,
    ])
    #expect(replies[1]["cards"] == [0, 1])
    let events = replies[2]["events"]?.arrayValue?.map { $0["type"] }
    #expect(events == ["modeSet", "gameOver"])
    let state = try #require(replies[2]["state"])
    #expect(state["over"] == true)
    #expect(state["hint"] == [], "a 2-card hint means nothing in 3-card mode")
    #expect(state["result"]?["options"]?.stringValue?.contains("mode 3") == true)
  }

  @Test func stateNamesOnlyTheNewestRecordAndResultsListsThemAll() throws {
    var lines = [#"{"cmd":"new","game":"matchismo","seed":4}"#]
    lines += Array(repeating: #"{"cmd":"act","action":{"type":"deal"}}"#, count: 3)
    lines.append(#"{"cmd":"results"}"#)
    let replies = try converse(lines)
    #expect(replies[3]["state"]?["resultCount"] == 3)
    #expect(replies[3]["state"]?["results"] == nil)
    let results = try #require(replies[4]["results"]?.arrayValue)
    #expect(results.map { $0["ending"] } == ["abandoned", "abandoned", "abandoned"])
  }
}

@Suite struct MatchingSecretTests {
  @Test(arguments: ["matchismo", "set"])
  func playersNeverLearnTheDealsSeed(game: String) throws {
    let console = EngineConsole(newSeed: { 77 })
    _ = console.reply(to: #"{"cmd":"new","game":"\#(game)"}"#)
    let dealt = try JSON(parsing: console.reply(to: #"{"cmd":"act","action":{"type":"deal"}}"#))
    #expect(dealt["state"]?["gameSeed"]?.uint64Value != nil, "the referee sees it")
    #expect(dealt["events"]?.arrayValue?.first?["seed"]?.uint64Value != nil)
    let view = try JSON(parsing: console.reply(to: #"{"cmd":"view","player":"You"}"#))["view"]
    #expect(view?["gameSeed"] == .null)
  }
}

@Suite struct TwoPlayerSetWireTests {
  @Test func anActionNamingThePlayerWhoseTurnItIsNotIsRefused() throws {
    let replies = try converse([
      #"{"cmd":"new","game":"set","seed":3,"options":{"twoPlayer":true}}"#,
      #"{"cmd":"act","action":{"type":"dealThree","player":"P2"}}"#,
      #"{"cmd":"act","action":{"type":"dealThree","player":7}}"#,
    ])
    #expect(replies[0]["state"]?["current"] == "P1")
    #expect(replies[1]["ok"] == false)
    #expect(replies[1]["error"]?["code"] == "not-your-turn")
    #expect(replies[2]["error"]?["code"] == "bad-request")
  }
}

@Suite struct MemoryOptionTests {
  @Test func concentrationHasNoOptions() throws {
    let reply = try converse([
      #"{"cmd":"new","game":"concentration","options":{"difficulty":"hard"}}"#
    ])[0]
    #expect(reply["error"]?["code"] == "bad-request")
    #expect(
      reply["error"]?["message"]
        == "concentration options: unknown field \"difficulty\"; there are none.")
  }

  @Test func aNullDifficultyMeansTheDefault() throws {
    let reply = try converse([
      #"{"cmd":"new","game":"memory","options":{"difficulty":null}}"#
    ])[0]
    #expect(reply["state"]?["board"]?.arrayValue?.count == 12)
  }
}

@Suite struct RestartTheSameDealTests {
  @Test(arguments: ["matchismo", "set"])
  func restartDealsTheCurrentDealAgainNotTheMatchsFirst(game: String) throws {
    let replies = try converse([
      #"{"cmd":"new","game":"\#(game)","seed":4}"#, #"{"cmd":"act","action":{"type":"deal"}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":0}}"#, #"{"cmd":"restart"}"#,
    ])
    let dealt = try #require(replies[1]["state"])
    let restarted = try #require(replies[3]["state"])
    #expect(restarted["table"] == dealt["table"])
    #expect(restarted["table"] != replies[0]["state"]?["table"])
    #expect(restarted["score"] == 0 && restarted["flips"] == 0)
  }

  @Test func restartKeepsMatchismosCurrentMode() throws {
    let replies = try converse([
      #"{"cmd":"new","game":"matchismo","seed":4}"#,
      #"{"cmd":"act","action":{"type":"setMode","mode":3}}"#, #"{"cmd":"restart"}"#,
    ])
    #expect(replies[2]["state"]?["mode"] == 3)
    #expect(replies[2]["state"]?["table"] == replies[0]["state"]?["table"])
  }
}
