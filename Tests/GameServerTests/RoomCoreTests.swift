import GameServer
import GameWire
import Testing

private let me = ClientID(1)

/// A room with one client, the greeting already read.
private func room(seed: UInt64 = 42) -> RoomCore {
  let room = RoomCore(newSeed: { seed })
  _ = room.join(me)
  return room
}

private func messages(_ outgoing: [Outgoing]) -> [JSON] { outgoing.map(\.message) }

@Suite struct RoomCoreTests {
  @Test func aJoiningClientIsWelcomedWithTheGameList() {
    let room = RoomCore(newSeed: { 1 })
    let greeting = room.join(me)
    #expect(greeting.count == 1)
    #expect(greeting[0].message["type"] == "welcome")
    #expect(greeting[0].message["protocol"] == 1)
    #expect(greeting[0].message["games"]?.arrayValue?.contains("memory") == true)
  }

  @Test func newDealsAndSendsTheViewWithTheSeedAndTheReplyID() throws {
    let room = room(seed: 42)
    let reply = messages(
      room.receive(
        #"{"cmd":"new","game":"memory","options":{"difficulty":"easy"},"seed":42,"id":7}"#,
        from: me, at: 10))
    #expect(reply.count == 1)
    #expect(reply[0]["type"] == "update")
    #expect(reply[0]["reply"] == 7)
    #expect(reply[0]["seed"] == 42)
    #expect(reply[0]["version"] == 0)
    let board = try #require(reply[0]["view"]?["board"]?.arrayValue)
    #expect(board.count == 12)
    #expect(board.allSatisfy { $0["card"] == .null })
  }

  @Test func timersFireOnTheHostClockAndArePushedUnasked() throws {
    let room = room()
    let deck = #"["A♥","A♥","K♠","K♠","2♦","2♦","3♣","3♣","Q♥","Q♥","J♠","J♠"]"#
    _ = room.receive(#"{"cmd":"new","game":"memory","deck":\#(deck)}"#, from: me, at: 100)
    _ = room.receive(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me, at: 101)
    let flip = messages(
      room.receive(#"{"cmd":"act","action":{"type":"flip","card":2}}"#, from: me, at: 102))
    #expect(flip[0]["events"]?.arrayValue?.last?["type"] == "mismatched")
    #expect(room.nextWake == 104)
    #expect(room.wake(at: 103.5).isEmpty)
    let pushed = messages(room.wake(at: 104))
    #expect(pushed.count == 1)
    #expect(pushed[0]["events"] == [["type": "turnedDown", "cards": [0, 2]]])
    #expect(pushed[0]["reply"] == nil)
    #expect(room.nextWake == nil)
  }

  @Test func anActionAfterADueTimerSeesTheTimerFirst() throws {
    let room = room()
    let deck = #"["A♥","A♥","K♠","K♠","2♦","2♦","3♣","3♣","Q♥","Q♥","J♠","J♠"]"#
    _ = room.receive(#"{"cmd":"new","game":"memory","deck":\#(deck)}"#, from: me, at: 0)
    _ = room.receive(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me, at: 0)
    _ = room.receive(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: me, at: 0)
    let late = messages(
      room.receive(#"{"cmd":"act","action":{"type":"flip","card":2}}"#, from: me, at: 5))
    #expect(late.map { $0["type"] } == ["update", "update"])
    #expect(late[0]["events"] == [["type": "removed", "cards": [0, 1]]])
    #expect(late[1]["events"]?.arrayValue?.first?["type"] == "flipped")
  }

  @Test(arguments: [
    ("{oops", "invalid-json"), ("42", "bad-request"), (#"{"cmd":"fly"}"#, "unknown-command"),
    (#"{"cmd":"new","game":"chess"}"#, "unknown-game"),
    (#"{"cmd":"act","action":{"type":"flip","card":40}}"#, "no-such-card"),
    (#"{"cmd":"act","action":{"type":"flip","card":0,"player":"Ray"}}"#, "not-your-seat"),
    (#"{"cmd":"new","game":"memory","deck":[1,2]}"#, "bad-request"),
  ])
  func badMessagesGetAnErrorAndTheGameGoesOn(text: String, code: String) throws {
    let room = room()
    _ = room.receive(#"{"cmd":"new","game":"memory"}"#, from: me, at: 0)
    let before = messages(room.receive(#"{"cmd":"state"}"#, from: me, at: 0))
    let error = messages(room.receive(text, from: me, at: 0))
    #expect(error.count == 1)
    #expect(error[0]["type"] == "error")
    #expect(error[0]["error"]?["code"]?.stringValue == code)
    let after = messages(room.receive(#"{"cmd":"state"}"#, from: me, at: 0))
    #expect(after == before)
  }

  @Test func actingBeforeAnyGameIsRefused() {
    let room = room()
    let reply = messages(
      room.receive(#"{"cmd":"act","action":{"type":"flip","card":0},"id":"x"}"#, from: me, at: 0))
    #expect(reply == [["type": "error", "error": WireError.noGame.json, "reply": "x"]])
  }

  @Test func aSeedTheServerPickedStaysSecretUntilTheGameIsOver() throws {
    let room = room(seed: 42)
    let dealt = messages(room.receive(#"{"cmd":"new","game":"memory"}"#, from: me, at: 0))
    #expect(dealt[0]["seed"] == .null)
    let deck = #"["A♥","A♥","K♠","K♠","2♦","2♦","3♣","3♣","Q♥","Q♥","J♠","J♠"]"#
    _ = room.receive(#"{"cmd":"new","game":"memory","deck":\#(deck)}"#, from: me, at: 0)
    var last: [JSON] = []
    for card in 0..<12 {
      last = messages(
        room.receive(
          #"{"cmd":"act","action":{"type":"flip","card":\#(card)}}"#, from: me, at: Double(card)))
    }
    let over = messages(room.wake(at: 100))
    #expect(last.last?["seed"] == .null)
    #expect(over.last?["view"]?["over"] == true)
    #expect(over.last?["seed"] == 42)
  }

  @Test func restartDealsTheSameGameAgain() throws {
    let room = room()
    let first = messages(room.receive(#"{"cmd":"new","game":"concentration"}"#, from: me, at: 0))
    _ = room.receive(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me, at: 1)
    let again = messages(room.receive(#"{"cmd":"restart"}"#, from: me, at: 2))
    #expect(again[0]["view"] == first[0]["view"])
    #expect(again[0]["seed"] == first[0]["seed"])
  }
}
