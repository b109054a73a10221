import CardTableCore
import GameServer
import GameWire
import Testing

private let ann = ClientID(1)
private let bob = ClientID(2)
private let cat = ClientID(3)
private let dan = ClientID(4)

private let easyDeck = #"["A♥","A♥","K♠","K♠","2♦","2♦","3♣","3♣","Q♥","Q♥","J♠","J♠"]"#

private func flip(_ card: Int) -> String {
  #"{"cmd":"act","action":{"type":"flip","card":\#(card)}}"#
}

/// Ann hosts an easy Memory table dealt with every pair side by side, `guests` join, Ann
/// starts; returns the room.
@discardableResult
private func memoryTable(_ test: TestServer, guests: [(ClientID, String)]) -> String {
  for (client, name) in [(ann, "Ann")] + guests {
    test.hello(client)
    test.send(#"{"cmd":"settings","settings":{"name":"\#(name)"}}"#, from: client)
  }
  let room = test.newRoomCode(
    ann, #"{"cmd":"host","game":"memory","seed":1,"deck":\#(easyDeck)}"#)
  for (client, _) in guests { test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: client) }
  test.send(#"{"cmd":"start"}"#, from: ann)
  return room
}

/// Ann finds all six pairs in turn from `time`: the game is over; returns the time after.
@discardableResult
private func annWinsEverything(_ test: TestServer, from time: Double = 1) -> Double {
  var now = time
  for pair in 0..<6 {
    test.send(flip(2 * pair), from: ann, at: now)
    test.send(flip(2 * pair + 1), from: ann, at: now + 0.1)
    now += 1.2
    while let wake = test.host.wake, wake <= now { test.host.fire(test.server, at: wake) }
  }
  return now
}

private func lastTable(_ test: TestServer, _ client: ClientID, since index: Int = 0) -> JSON? {
  test.sent(to: client, since: index).last { $0["type"] == "table" }
}

@Suite struct RematchTests {
  @Test func everyoneAcceptingDealsTheSameSeatsAgainAndTheWinsAddUp() throws {
    let test = try TestServer()
    let room = memoryTable(test, guests: [(bob, "Bob"), (cat, "Cat")])
    #expect(errorCode(test.send(#"{"cmd":"rematch"}"#, from: bob, at: 0.5)) == "game-not-over")
    let before = test.host.sent.count
    let end = annWinsEverything(test)
    let over = try #require(lastTable(test, bob, since: before))
    #expect(over["phase"] == "over")
    #expect(over["wins"] == ["Ann": 1, "Bob": 0, "Cat": 0])
    #expect(over["rematch"] == nil)
    // NB: a watcher has no seat to deal again.
    test.hello(dan)
    test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: dan)
    #expect(errorCode(test.send(#"{"cmd":"rematch"}"#, from: dan, at: end)) == "watching")
    let asked = test.send(#"{"cmd":"rematch","id":7}"#, from: bob, at: end)
    #expect(asked.last?["reply"] == 7 && asked.last?["rematch"] == [1])
    #expect(lastTable(test, ann, since: before)?["rematch"] == [1])
    test.send(#"{"cmd":"rematch"}"#, from: cat, at: end)
    let dealt = test.send(#"{"cmd":"rematch"}"#, from: ann, at: end + 1)
    #expect(dealt.map { $0["type"] } == ["table", "update"])
    #expect(dealt[0]["phase"] == "playing" && dealt[0]["rematch"] == nil)
    #expect(dealt[0]["seats"]?.arrayValue?.map { $0["name"] } == ["Ann", "Bob", "Cat"])
    let view = try #require(dealt[1]["view"])
    #expect(view["pairsFound"] == 0 && view["turn"] == "Ann" && dealt[1]["version"] == 0)
    #expect(lastUpdate(test, dan)?["version"] == 0, "the watcher sees the new deal")
    // NB: a rematch is a new deal, not the practice deck again.
    let faces = try #require(dealt[1]["view"]?["board"]?.arrayValue).count
    #expect(faces == 12)
    let results = test.send(#"{"cmd":"results"}"#, from: ann, at: end + 2)
    #expect(results.last?["results"]?.arrayValue?.count == 1, "one game ended so far")
  }

  @Test func whoeverGoesFreesTheSeatAndTheOthersPlayOn() throws {
    let test = try TestServer()
    let room = memoryTable(test, guests: [(bob, "Bob"), (cat, "Cat")])
    let end = annWinsEverything(test)
    test.send(#"{"cmd":"rematch"}"#, from: ann, at: end)
    test.send(#"{"cmd":"rematch"}"#, from: bob, at: end)
    #expect(lastTable(test, ann)?["phase"] == "over", "Cat is still waited for")
    let before = test.host.sent.count
    test.send(#"{"cmd":"leave"}"#, from: cat, at: end + 1)
    let table = try #require(lastTable(test, ann, since: before))
    #expect(table["phase"] == "playing")
    #expect(table["seats"]?.arrayValue?.map { $0["name"] } == ["Ann", "Bob"])
    #expect(table["wins"] == ["Ann": 1, "Bob": 0])
    #expect(lastUpdate(test, bob, since: before)?["view"]?["players"]?.arrayValue?.count == 2)
    // NB: the wins are the store's: a server started again on the same data still counts them.
    try test.restart()
    test.hello(ann, token: test.tokens[ann])
    let reopened = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: ann, at: end + 2)
    #expect(reopened.first { $0["type"] == "table" }?["wins"] == ["Ann": 1, "Bob": 0])
  }

  @Test func aRematchNeedsTwoSeatsAndComputersAlwaysAccept() throws {
    let test = try TestServer()
    memoryTable(test, guests: [(bob, "Bob")])
    let end = annWinsEverything(test)
    test.send(#"{"cmd":"rematch"}"#, from: ann, at: end)
    // NB: Bob going leaves Ann alone: no rematch, and she is told why.
    test.send(#"{"cmd":"leave"}"#, from: bob, at: end + 1)
    #expect(lastTable(test, ann)?["phase"] == "over")
    #expect(
      errorCode(test.send(#"{"cmd":"rematch"}"#, from: ann, at: end + 2)) == "too-few-players")

    let withRay = try TestServer()
    withRay.hello(ann)
    _ = withRay.newRoomCode(ann, #"{"cmd":"host","game":"memory","seed":1,"deck":\#(easyDeck)}"#)
    withRay.send(#"{"cmd":"seat","computer":true}"#, from: ann)
    withRay.send(#"{"cmd":"start"}"#, from: ann)
    let over = annWinsEverything(withRay)
    #expect(lastTable(withRay, ann)?["phase"] == "over")
    let dealt = withRay.send(#"{"cmd":"rematch"}"#, from: ann, at: over)
    #expect(dealt.first?["phase"] == "playing", "Ray accepts by himself")
    #expect(dealt.first?["seats"]?.arrayValue?.map { $0["computer"] } == [false, true])
  }
}
