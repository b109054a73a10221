import CardTableCore
import GameServer
import GameWire
import Testing

private let ann = ClientID(1)
private let bob = ClientID(2)
private let cat = ClientID(3)

/// Ann hosts a table of `game` with `deal` (members of `host`), Bob joins by the code; returns
/// the room after Ann started it.
@discardableResult
private func twoAt(_ test: TestServer, _ game: String, _ deal: String) -> String {
  for (client, name) in [(ann, "Ann"), (bob, "Bob")] {
    test.hello(client)
    test.send(#"{"cmd":"settings","settings":{"name":"\#(name)"}}"#, from: client)
  }
  let room = test.newRoomCode(ann, #"{"cmd":"host","game":"\#(game)",\#(deal)}"#)
  test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: bob)
  test.send(#"{"cmd":"start"}"#, from: ann)
  return room
}

/// A Set table whose only set is 0, 1, 2 (oval, red/green/purple, solid, one).
private let setDeal =
  #""seed":3,"deck":["oval:red:solid:1","oval:green:solid:1","oval:purple:solid:1","#
  + #""diamond:red:solid:1","diamond:green:solid:1","squiggle:red:solid:1","#
  + #""squiggle:green:solid:1","diamond:red:striped:1","diamond:green:striped:1","#
  + #""squiggle:red:striped:1","squiggle:green:striped:1","oval:red:striped:2","#
  + #""diamond:purple:open:3","squiggle:purple:open:3","oval:green:open:3"]"#

private func choose(_ card: Int, _ face: String) -> String {
  #"{"cmd":"act","action":{"type":"choose","card":\#(card),"face":"\#(face)"}}"#
}

/// Set races and Memory in turns at a table, over the protocol (docs/ENGINE.md has their
/// rules; the engine's own tests play them through).
@Suite struct TablesOfEveryGameTests {
  @Test func aSetRaceScoresTheFirstClaimAndTellsTheSecondItWasTooLate() throws {
    let test = try TestServer()
    twoAt(test, "set", setDeal)
    let view = try #require(lastUpdate(test, bob)?["view"])
    #expect(view["players"]?.arrayValue?.map { $0["player"] } == ["Ann", "Bob"])
    for client in [ann, bob] {
      test.send(choose(0, "oval:red:solid:1"), from: client, at: 1)
      test.send(choose(1, "oval:green:solid:1"), from: client, at: 1)
    }
    let before = test.host.sent.count
    // NB: both claims in the same instant; the room decides in the order it received them.
    test.send(choose(2, "oval:purple:solid:1"), from: ann, at: 4.5)
    let late = test.send(choose(2, "oval:purple:solid:1"), from: bob, at: 4.5)
    #expect(errorCode(late) == "card-matched")
    let receipts = test.sent(to: ann, since: before).filter { $0["type"] == "receipt" }
    #expect(receipts.map { $0["player"] } == ["Ann", "Bob"])
    #expect(receipts.map { $0["result"] } == ["correct", "tooLate"])
    #expect(receipts.first?["after"]?.doubleValue == 4.5, "seconds since the table was dealt")
    #expect(receipts.last?["reason"] == "Ann claimed that set first")
    #expect(receipts.last?["after"]?.doubleValue == 0, "the table changed with Ann's set")
    let scores = lastUpdate(test, bob)?["view"]?["players"]?.arrayValue?.map { $0["score"] }
    #expect(scores?.count == 2)
    #expect(scores?[0] != scores?[1], "the finder scored; the one too late did not")
    #expect(
      lastUpdate(test, bob)?["view"]?["score"] == scores?[1], "each sees their own score only")
  }

  @Test func aWrongClaimCostsItsPlayerAndSaysWhy() throws {
    let test = try TestServer()
    twoAt(test, "set", setDeal)
    test.send(choose(0, "oval:red:solid:1"), from: bob, at: 1)
    test.send(choose(3, "diamond:red:solid:1"), from: bob, at: 1)
    let before = test.host.sent.count
    test.send(choose(4, "diamond:green:solid:1"), from: bob, at: 2)
    let receipt = test.sent(to: ann, since: before).first { $0["type"] == "receipt" }
    #expect(receipt?["player"] == "Bob" && receipt?["result"] == "wrong")
    #expect(receipt?["reason"] == "those three cards are not a set")
    let players = lastUpdate(test, ann)?["view"]?["players"]?.arrayValue ?? []
    #expect(
      (players.first { $0["player"] == "Bob" }?["score"]?.intValue ?? 0)
        < (players.first { $0["player"] == "Ann" }?["score"]?.intValue ?? 0))
  }

  @Test func eachSetRacerSeesOnlyTheirOwnSelection() throws {
    let test = try TestServer()
    let room = twoAt(test, "set", setDeal)
    test.send(choose(5, "squiggle:red:solid:1"), from: ann)
    let mine = lastUpdate(test, ann)?["view"]?["table"]?.arrayValue ?? []
    let theirs = lastUpdate(test, bob)?["view"]?["table"]?.arrayValue ?? []
    #expect(mine.indices.filter { mine[$0]["chosen"] == true } == [5])
    #expect(theirs.allSatisfy { $0["chosen"] != true })
    test.hello(cat)
    let watching = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: cat)
    #expect(watching.first?["role"] == "watcher")
    let table = update(watching)?["view"]?["table"]?.arrayValue ?? []
    #expect(table.allSatisfy { $0["chosen"] != true })
  }

  @Test func memoryInTurnsKeepsTheTurnOnAMatchAndPassesItOnAMiss() throws {
    let test = try TestServer()
    twoAt(
      test, "memory",
      #""seed":1,"deck":["A♥","A♥","K♠","K♠","2♦","2♦","3♣","3♣","Q♥","Q♥","J♠","J♠"]"#)
    let flip = { (card: Int) in #"{"cmd":"act","action":{"type":"flip","card":\#(card)}}"# }
    #expect(errorCode(test.send(flip(0), from: bob, at: 1)) == "not-your-turn")
    test.send(flip(0), from: ann, at: 1)
    test.send(flip(1), from: ann, at: 2)
    #expect(lastUpdate(test, bob)?["view"]?["turn"] == "Ann", "a match keeps the turn")
    test.send(flip(2), from: ann, at: 3)
    test.send(flip(4), from: ann, at: 4)
    while let wake = test.host.wake, wake <= 10 { test.host.fire(test.server, at: wake) }
    let view = lastUpdate(test, bob)?["view"]
    #expect(view?["turn"] == "Bob", "a miss passes it once the cards are turned down")
    #expect(view?["status"] == "Your turn. Pairs: Ann 1, Bob 0")
    #expect(lastUpdate(test, ann)?["view"]?["status"] == "Bob's turn. Pairs: Ann 1, Bob 0")
    #expect(errorCode(test.send(flip(3), from: ann, at: 11)) == "not-your-turn")
    test.send(flip(3), from: bob, at: 11)
    #expect(lastUpdate(test, ann)?["view"]?["board"]?.arrayValue?[3]["card"] == "K♠")
  }

  @Test func aPlayerLeavingMemoryInTurnsPassesTheTurnOn() throws {
    let test = try TestServer()
    twoAt(test, "concentration", #""seed":2"#)
    test.send(#"{"cmd":"leave"}"#, from: ann, at: 1)
    let view = lastUpdate(test, bob)?["view"]
    #expect(view?["players"]?.arrayValue?.first?["left"] == true)
    #expect(view?["turn"] != "Ann")
  }

  @Test func matchismoAndTwoPlayerSetAreNotTables() throws {
    let test = try TestServer()
    test.hello(ann)
    #expect(
      errorCode(test.send(#"{"cmd":"host","game":"matchismo"}"#, from: ann)) == "single-player")
    #expect(
      errorCode(
        test.send(#"{"cmd":"host","game":"set","options":{"twoPlayer":true}}"#, from: ann))
        == "bad-request")
  }
}
