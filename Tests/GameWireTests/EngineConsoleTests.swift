import GameWire
import Testing

/// Sends lines to a fresh console and returns the parsed replies.
func converse(_ lines: [String], seed: UInt64 = 99) throws -> [JSON] {
  let console = EngineConsole(newSeed: { seed })
  return try lines.map { try JSON(parsing: console.reply(to: $0)) }
}

@Suite struct EngineConsoleTests {
  @Test func hardMemoryDealsThirtyTwoPositionsWithEveryCardTwice() throws {
    let reply = try converse([
      #"{"cmd":"new","game":"memory","options":{"difficulty":"hard"},"seed":7}"#
    ])[0]
    #expect(reply["ok"] == true)
    let state = try #require(reply["state"])
    #expect(state["game"] == "memory")
    #expect(state["seed"]?.uint64Value == 7)
    #expect(state["over"] == false)
    let board = try #require(state["board"]?.arrayValue)
    #expect(board.count == 32)
    var counts: [String: Int] = [:]
    for position in board {
      counts[position["card"]?.stringValue ?? "?", default: 0] += 1
      #expect(position["faceUp"] == false)
      #expect(position["removed"] == false)
    }
    #expect(counts.count == 16 && counts.values.allSatisfy { $0 == 2 })
  }

  @Test func aGivenDeckIsTheBoardAndTheGameIsPlayableToTheWin() throws {
    let deck = #"["A♥","AH","K♠","KS","2♦","2D","3♣","3C","Q♥","QH","J♠","JS"]"#
    var lines = [#"{"cmd":"new","game":"memory","deck":\#(deck)}"#]
    lines.append(#"{"cmd":"act","action":{"type":"flip","card":0}}"#)
    lines.append(#"{"cmd":"act","action":{"type":"flip","card":2}}"#)
    lines.append(#"{"cmd":"advance","seconds":2.0}"#)
    for pair in stride(from: 0, to: 12, by: 2) {
      lines.append(#"{"cmd":"act","action":{"type":"flip","card":\#(pair)}}"#)
      lines.append(#"{"cmd":"act","action":{"type":"flip","card":\#(pair + 1)}}"#)
      lines.append(#"{"cmd":"advance","seconds":1.0}"#)
    }
    let replies = try converse(lines)
    #expect(replies.allSatisfy { $0["ok"] == true })
    #expect(replies[0]["state"]?["board"]?.arrayValue?.first?["card"] == "A♥")
    #expect(replies[0]["state"]?["seed"]?.uint64Value == 99)
    #expect(
      replies[2]["events"]
        == [
          ["type": "flipped", "card": 2, "face": "K♠"], ["type": "mismatched", "cards": [0, 2]],
        ])
    #expect(replies[3]["events"] == [["type": "turnedDown", "cards": [0, 2]]])
    let last = try #require(replies.last?["state"])
    #expect(last["over"] == true)
    #expect(last["score"] == 1)
    #expect(last["pairsFound"] == 6)
    #expect(last["status"] == "You won with score: 1!")
    #expect(last["title"] == "Great!")
  }

  @Test func concentrationStateHasMovesAndTilts() throws {
    let state = try converse([#"{"cmd":"new","game":"concentration","seed":3}"#])[0]["state"]
    #expect(state?["board"]?.arrayValue?.count == 52)
    #expect(state?["board"]?.arrayValue?.first?["matched"] == false)
    #expect(state?["moves"] == 0)
    #expect(state?["tilt"]?.arrayValue?.count == 52)
  }

  @Test(arguments: [
    ("not json", "invalid-json"), ("[1,2]", "bad-request"), (#"{"nocmd":1}"#, "bad-request"),
    (#"{"cmd":"dance"}"#, "unknown-command"),
    (#"{"cmd":"act","action":{"type":"flip","card":99}}"#, "no-such-card"),
    (#"{"cmd":"act","action":{"type":"jump"}}"#, "bad-request"),
    (#"{"cmd":"act","action":{"type":"flip","card":"three"}}"#, "bad-request"),
    (#"{"cmd":"act"}"#, "bad-request"), (#"{"cmd":"advance","seconds":-1}"#, "bad-request"),
    (#"{"cmd":"new","game":"poker"}"#, "unknown-game"),
    (#"{"cmd":"new","game":"memory","options":{"difficulty":"insane"}}"#, "bad-request"),
    (#"{"cmd":"new","game":"memory","options":{"dificulty":"easy"}}"#, "bad-request"),
    (#"{"cmd":"new","game":"memory","seed":-4}"#, "bad-request"),
    (#"{"cmd":"new","game":"memory","deck":["A♥","ZZ"]}"#, "invalid-deck"),
    (#"{"cmd":"new","game":"memory","deck":["A♥","A♥"]}"#, "invalid-deck"),
  ])
  func badLinesGetAClearErrorAndTheGameGoesOn(line: String, code: String) throws {
    let replies = try converse([
      #"{"cmd":"new","game":"memory","seed":1}"#, line, #"{"cmd":"state"}"#,
    ])
    #expect(replies[1]["ok"] == false)
    #expect(replies[1]["error"]?["code"]?.stringValue == code)
    #expect(replies[1]["error"]?["message"]?.stringValue?.isEmpty == false)
    #expect(replies[1]["state"] == replies[0]["state"])
    #expect(replies[2]["ok"] == true)
  }

  @Test func anAdvancePastTheLargestTimeIsRefusedAndTheClockStaysANumber() throws {
    let replies = try converse([
      #"{"cmd":"new","game":"memory","seed":1}"#, #"{"cmd":"advance","seconds":1e308}"#,
      #"{"cmd":"advance","seconds":1e308}"#, #"{"cmd":"state"}"#,
    ])
    #expect(replies[1]["ok"] == true)
    #expect(replies[2]["ok"] == false)
    #expect(replies[2]["error"]?["code"] == "bad-request")
    #expect(replies[3]["state"]?["clock"]?.doubleValue == 1e308)
  }

  @Test func commandsBeforeAnyGameSayHowToStartOne() throws {
    let reply = try converse([#"{"cmd":"state"}"#])[0]
    #expect(reply["ok"] == false)
    #expect(reply["error"]?["code"] == "no-game")
    #expect(reply["state"] == .null)
  }

  @Test func restartDealsTheSameBoardAgain() throws {
    let replies = try converse([
      #"{"cmd":"new","game":"memory","options":{"difficulty":"medium"}}"#,
      #"{"cmd":"act","action":{"type":"flip","card":0}}"#, #"{"cmd":"restart"}"#,
    ])
    #expect(replies[2]["state"] == replies[0]["state"])
  }

  @Test func aPlayersViewHidesFaceDownCards() throws {
    let replies = try converse([
      #"{"cmd":"new","game":"memory","seed":5}"#,
      #"{"cmd":"act","action":{"type":"flip","card":1}}"#, #"{"cmd":"view","player":"You"}"#,
    ])
    let board = try #require(replies[2]["view"]?["board"]?.arrayValue)
    #expect(board.map { $0["card"] != .null } == (0..<12).map { $0 == 1 })
  }
}
