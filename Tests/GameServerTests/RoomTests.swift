import CardTableCore
import GameServer
import GameStore
import GameWire
import MemoryGame
import Testing

private let me = ClientID(1)
private let tab = ClientID(2)
private let stranger = ClientID(3)

@Suite struct RoomTests {
  @Test func aClientIsWelcomedAndGivenATokenThatFindsItAgain() throws {
    let test = try TestServer()
    let welcome = test.connect(me)
    #expect(welcome.map { $0["type"] } == ["welcome"])
    #expect(welcome[0]["protocol"] == 2)
    #expect(welcome[0]["games"]?.arrayValue?.contains("memory") == true)
    let hello = test.send(#"{"cmd":"hello","id":1}"#, from: me)
    #expect(hello.map { $0["type"] } == ["hello"])
    #expect(hello[0]["reply"] == 1)
    let token = try #require(hello[0]["token"]?.stringValue)
    #expect(token.count == 22)
    #expect(hello[0]["settings"] == [:])
    test.send(#"{"cmd":"settings","settings":{"name":"Ann"}}"#, from: me)
    test.connect(tab)
    let again = test.send(#"{"cmd":"hello","token":"\#(token)"}"#, from: tab)
    #expect(again[0]["token"]?.stringValue == token)
    #expect(again[0]["settings"] == ["name": "Ann"])
    let fresh = test.send(#"{"cmd":"hello","token":"not a token"}"#, from: stranger)
    #expect(fresh.isEmpty, "a client that has not connected is not served")
    test.connect(stranger)
    let other = test.send(#"{"cmd":"hello","token":"not a token"}"#, from: stranger)
    #expect(other[0]["token"]?.stringValue != token)
  }

  @Test func newDealsInANewRoomAndAnswersWithJoinedThenTheUpdate() throws {
    let test = try TestServer()
    test.connect(me)
    let replies = test.send(
      #"{"cmd":"new","game":"memory","options":{"difficulty":"easy"},"seed":42,"id":7}"#, from: me,
      at: 10)
    #expect(replies.map { $0["type"] } == ["hello", "joined", "update"])
    let joined = replies[1]
    #expect(joined["role"] == "player")
    #expect(joined["status"] == "playing")
    #expect(joined["countdown"] == 0)
    #expect(joined["game"] == "memory")
    #expect(joined["room"]?.stringValue?.count == 16)
    let update = replies[2]
    #expect(update["reply"] == 7)
    #expect(update["seed"] == 42)
    #expect(update["version"] == 0)
    let board = try #require(update["view"]?["board"]?.arrayValue)
    #expect(board.count == 12)
    #expect(board.allSatisfy { $0["card"] == .null })
    let rooms = test.send(#"{"cmd":"rooms"}"#, from: me)
    #expect(rooms[0]["rooms"]?.arrayValue?.first?["room"] == joined["room"])
    #expect(rooms[0]["rooms"]?.arrayValue?.first?["options"] == ["difficulty": "easy"])
  }

  @Test func aSeedMayBeADecimalStringAndIsReadExactly() throws {
    let test = try TestServer()
    test.connect(me)
    let replies = test.send(
      #"{"cmd":"new","game":"memory","seed":"18446744073709551615"}"#, from: me)
    #expect(update(replies)?["seed"] == JSON(UInt64.max))
    let bad = test.send(#"{"cmd":"new","game":"memory","seed":"12x"}"#, from: me)
    #expect(errorCode(bad) == "bad-request")
  }

  @Test func timersFireOnTheHostClockAndArePushedUnasked() throws {
    let test = try TestServer()
    test.connect(me)
    test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#, at: 100)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me, at: 101)
    let flip = test.send(#"{"cmd":"act","action":{"type":"flip","card":2}}"#, from: me, at: 102)
    #expect(update(flip)?["events"]?.arrayValue?.last?["type"] == "mismatched")
    #expect(test.host.wake == 104)
    #expect(test.fire(at: 103.5, for: me).isEmpty)
    let pushed = test.fire(at: 104, for: me)
    #expect(pushed.count == 1)
    #expect(pushed[0]["events"] == [["type": "turnedDown", "cards": [0, 2]]])
    #expect(pushed[0]["reply"] == nil)
  }

  @Test func anActionAfterADueTimerSeesTheTimerFirst() throws {
    let test = try TestServer()
    test.connect(me)
    test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: me)
    let late = test.send(#"{"cmd":"act","action":{"type":"flip","card":2}}"#, from: me, at: 5)
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
    (#"{"cmd":"open","room":"AAAAAAAAAAAAAAAA"}"#, "no-such-room"),
    (#"{"cmd":"open","room":"../etc"}"#, "no-such-room"), (#"{"cmd":"open"}"#, "bad-request"),
    (#"{"cmd":"view-at","version":9}"#, "bad-request"),
    (#"{"cmd":"scores","sort":"luck"}"#, "bad-request"),
    (#"{"cmd":"settings","settings":{"colour":"red"}}"#, "bad-request"),
  ])
  func badMessagesGetAnErrorAndTheGameGoesOn(text: String, code: String) throws {
    let test = try TestServer()
    test.connect(me)
    test.newRoom(me, #"{"cmd":"new","game":"memory"}"#)
    let before = test.send(#"{"cmd":"state"}"#, from: me)
    let error = test.send(text, from: me)
    #expect(error.count == 1)
    #expect(errorCode(error) == code)
    #expect(test.send(#"{"cmd":"state"}"#, from: me) == before)
  }

  @Test func actingBeforeAnyGameIsRefused() throws {
    let test = try TestServer()
    test.connect(me)
    let reply = test.send(#"{"cmd":"act","action":{"type":"flip","card":0},"id":"x"}"#, from: me)
    #expect(reply == [["type": "error", "error": WireError.noGame.json, "reply": "x"]])
  }

  @Test func aSeedTheServerPickedStaysSecretUntilTheGameIsOver() throws {
    let test = try TestServer()
    test.nextSeed = 42
    test.connect(me)
    let dealt = test.send(#"{"cmd":"new","game":"memory"}"#, from: me)
    #expect(update(dealt)?["seed"] == .null)
    let board = try MemoryGame.deal(.memory(.easy), seed: 42).board.map(\.card)
    var last: [JSON] = []
    var now = 0.0
    for (first, second) in pairs(board) {
      now += 2
      test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(first)}}"#, from: me, at: now)
      last = test.send(
        #"{"cmd":"act","action":{"type":"flip","card":\#(second)}}"#, from: me, at: now)
    }
    #expect(update(last)?["seed"] == .null)
    let over = test.fire(at: now + 1, for: me)
    #expect(over.last?["view"]?["over"] == true)
    #expect(over.last?["seed"] == 42)
  }

  @Test func aWonGameSaysWhatItBetteredAmongThePlayersEarlierOnes() throws {
    let test = try TestServer()
    test.hello(me)
    var now = 0.0
    var room = ""
    /// Wins a Memory game dealt by the server, with `mistakes` mismatches first, one pair a
    /// `pace` seconds; returns its results' `best`.
    func win(seed: UInt64, mistakes: Int, pace: Double) -> JSON? {
      test.nextSeed = seed
      room = test.newRoom(me, #"{"cmd":"new","game":"memory"}"#, at: now)
      let found = pairs((try? MemoryGame.deal(.memory(.easy), seed: seed))?.board.map(\.card) ?? [])
      for _ in 0..<mistakes {
        now += pace
        test.send(
          #"{"cmd":"act","action":{"type":"flip","card":\#(found[0].0)}}"#, from: me, at: now)
        test.send(
          #"{"cmd":"act","action":{"type":"flip","card":\#(found[1].0)}}"#, from: me, at: now)
        now += 3
        test.fire(at: now, for: me)
      }
      for (first, second) in found {
        now += pace
        test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(first)}}"#, from: me, at: now)
        test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(second)}}"#, from: me, at: now)
      }
      now += 2
      test.wall += 60_000
      test.fire(at: now, for: me)
      let results = test.send(#"{"cmd":"results"}"#, from: me, at: now)[0]["results"]
      #expect(results?.arrayValue?.last?["ending"] == "finished")
      return results?.arrayValue?.last?["best"]
    }
    #expect(win(seed: 7, mistakes: 2, pace: 3) == nil, "the first: nothing to better")
    #expect(win(seed: 8, mistakes: 1, pace: 2) == ["score", "time"])
    #expect(win(seed: 9, mistakes: 0, pace: 4) == ["score"], "fewer mistakes, but slower")
    #expect(win(seed: 10, mistakes: 0, pace: 1) == ["time"], "as few mistakes: not better")
    #expect(win(seed: 11, mistakes: 3, pace: 5) == nil)
    test.hello(stranger)
    test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: stranger, at: now)
    let watched = test.send(#"{"cmd":"results"}"#, from: stranger, at: now)[0]["results"]
    #expect(watched?.arrayValue?.count == 1)
    #expect(watched?.arrayValue?.first?["best"] == nil, "a watcher's bests are not the owner's")
  }

  @Test func restartDealsTheSameGameAgainInTheSameRoomAsAReplay() throws {
    let test = try TestServer()
    test.connect(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"concentration"}"#)
    let first = test.send(#"{"cmd":"state"}"#, from: me)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me, at: 1)
    let again = test.send(#"{"cmd":"restart"}"#, from: me, at: 2)
    #expect(again.map { $0["type"] } == ["update"])
    #expect(again[0]["view"]?["board"] == update(first)?["view"]?["board"])
    #expect(again[0]["version"] == 0)
    let rooms = test.send(#"{"cmd":"rooms"}"#, from: me)
    #expect(rooms[0]["rooms"]?.arrayValue?.map { $0["room"] } == [JSON(room)])
    let matches = try test.store.matches(in: try #require(RoomID(rawValue: room)))
    #expect(matches.map(\.match.replay) == [false, true])
  }

  /// The server tells the store when a room's status may have changed, and only then is it
  /// written: a game played to its end is over in the store, and leaves the player's list.
  @Test func aFinishedGameIsOverInTheStore() throws {
    let test = try TestServer()
    test.connect(me)
    let room = try #require(
      RoomID(rawValue: test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)))
    for first in stride(from: 0, to: 12, by: 2) {
      test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(first)}}"#, from: me, at: 1)
      #expect(try test.store.room(room)?.status == .playing)
      test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(first + 1)}}"#, from: me, at: 1)
      test.fire(at: Double(first) + 10, for: me)
    }
    #expect(try test.store.room(room)?.status == .over)
    #expect(test.send(#"{"cmd":"rooms"}"#, from: me)[0]["rooms"] == [])
  }

  @Test func aRestartRecordsTheGameItReplacesAsAbandonedAndTheReplayCountsForNothing() throws {
    let test = try TestServer()
    test.connect(me)
    test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me)
    test.send(#"{"cmd":"restart"}"#, from: me, at: 1)
    let results = test.send(#"{"cmd":"results"}"#, from: me, at: 1)[0]["results"]?.arrayValue
    #expect(results?.map { $0["ending"] } == ["abandoned"])
    for first in stride(from: 0, to: 12, by: 2) {
      test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(first)}}"#, from: me, at: 2)
      test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(first + 1)}}"#, from: me, at: 2)
      test.fire(at: Double(first) + 10, for: me)
    }
    let after = test.send(#"{"cmd":"results"}"#, from: me, at: 30)[0]["results"]?.arrayValue
    #expect(after?.map { $0["ending"] } == ["abandoned", "finished"])
    #expect(test.send(#"{"cmd":"scores"}"#, from: me, at: 30)[0]["scores"] == [], "a replay")
  }

  @Test func watchersMayReadTheHistoryAndEveryEarlierTable() throws {
    let test = try TestServer()
    test.hello(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"matchismo","seed":4}"#)
    test.send(#"{"cmd":"act","action":{"type":"choose","card":0}}"#, from: me)
    test.hello(stranger)
    test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: stranger)
    let history = test.send(#"{"cmd":"history"}"#, from: stranger)
    #expect(history[0]["entries"]?.arrayValue?.map { $0["version"] } == [1])
    let earlier = test.send(#"{"cmd":"view-at","version":0}"#, from: stranger)
    #expect(earlier[0]["view"]?["flips"] == 0)
  }

  @Test func aSecondTabOfThePlayerPlaysTheSameGameAndBothSeeEveryMove() throws {
    let test = try TestServer()
    let token = test.hello(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    test.hello(tab, token: token)
    let opened = test.send(#"{"cmd":"open","room":"\#(room)","id":3}"#, from: tab)
    #expect(opened.map { $0["type"] } == ["joined", "update"])
    #expect(opened[0]["role"] == "player")
    #expect(opened[1]["reply"] == 3)
    let before = test.host.sent.count
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0},"id":4}"#, from: tab)
    let toMe = test.sent(to: me, since: before)
    #expect(toMe.count == 1)
    #expect(toMe[0]["version"] == 1)
    #expect(toMe[0]["reply"] == nil, "the reply goes to the tab that asked")
    #expect(test.server.roomCount == 1)
  }

  @Test func aLinkOpenedWithoutTheTokenWatchesWithTheSameSecretsHidden() throws {
    let test = try TestServer()
    test.hello(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me)
    test.hello(stranger)
    let watching = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: stranger)
    #expect(watching[0]["role"] == "watcher")
    let mine = test.send(#"{"cmd":"state"}"#, from: me)
    #expect(watching[1]["view"] == update(mine)?["view"])
    #expect(
      watching[1]["view"]?["board"]?.arrayValue?[1]["card"] == .null, "face-down stays hidden")
    for text in [
      #"{"cmd":"act","action":{"type":"flip","card":1}}"#, #"{"cmd":"restart"}"#,
      #"{"cmd":"abandon"}"#,
    ] {
      #expect(errorCode(test.send(text, from: stranger)) == "watching")
    }
    #expect(update(test.send(#"{"cmd":"state"}"#, from: me))?["version"] == 1)
    let pushed = test.host.sent.count
    test.send(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: me)
    #expect(update(test.sent(to: stranger, since: pushed))?["version"] == 2, "watchers see moves")
  }

  @Test func aReloadFindsTheGameWhereItWasAndItsClockStoodStillMeanwhile() throws {
    let test = try TestServer()
    let token = test.hello(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me, at: 0.5)
    let mismatch = test.send(#"{"cmd":"act","action":{"type":"flip","card":2}}"#, from: me, at: 1)
    test.server.disconnected(me)
    #expect(test.server.roomCount == 0, "a room nobody has open is put away")
    #expect(test.host.wake == 3_600, "only the hourly look for idle rooms is left")
    test.hello(tab, token: token, at: 100)
    let back = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: tab, at: 100)
    #expect(update(back)?["version"] == 2)
    #expect(update(back)?["view"] == update(mismatch)?["view"], "as it was")
    // NB: the mismatch showed for 0 of its 2 s before the page went; it turns down 2 s after.
    #expect(test.host.wake == 102)
    let turned = test.fire(at: 102, for: tab)
    #expect(turned.last?["events"] == [["type": "turnedDown", "cards": [0, 2]]])
  }

  @Test func aKilledServerResumesEveryRoomAtItsLastAcknowledgedAction() throws {
    let test = try TestServer()
    let token = test.hello(me)
    let memory = test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me, at: 1)
    let last = test.send(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: me, at: 1)
    try test.restart()
    test.hello(me, token: token, at: 50)
    let back = test.send(#"{"cmd":"open","room":"\#(memory)"}"#, from: me, at: 50)
    #expect(update(back)?["version"] == 2)
    #expect(update(back)?["view"]?["board"] == update(last)?["view"]?["board"])
    let removed = test.fire(at: 51, for: me)
    #expect(removed.last?["events"] == [["type": "removed", "cards": [0, 1]]])
  }

  @Test func aSnapRoomWokenFromTheStoreCountsDownBeforeItsClockRuns() throws {
    let test = try TestServer()
    let token = test.hello(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"snap","seed":3}"#)
    // NB: the dealing pause is 5.2 s; by 6 s the game is under way.
    test.fire(at: 6, for: me)
    let before = update(test.send(#"{"cmd":"state"}"#, from: me, at: 6))
    test.server.disconnected(me)
    test.hello(tab, token: token, at: 60)
    let back = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: tab, at: 60)
    #expect(back[0]["countdown"] == 3)
    #expect(update(back)?["version"] == before?["version"])
    let early = test.send(
      #"{"cmd":"act","action":{"type":"snap","player":"You"}}"#, from: tab, at: 61)
    #expect(errorCode(early) == "resuming")
    #expect((test.host.wake ?? 0) >= 63)
  }

  @Test func todaysDealIsTheServersDateAndPractice() throws {
    let test = try TestServer()
    test.connect(me)
    let dealt = test.send(#"{"cmd":"new","game":"memory","today":true}"#, from: me)
    // NB: the test's wall clock stands at 1,800,000,000,000 ms: 2027-01-15 (UTC).
    let seed = try TodaysDeal.seed(of: "memory", on: "2027-01-15")
    #expect(update(dealt)?["seed"]?.uint64Value == seed, "a seed anyone can compute is shown")
    let other = ClientID(2)
    test.connect(other)
    let again = test.send(#"{"cmd":"new","game":"memory","today":true}"#, from: other)
    #expect(update(again)?["seed"] == update(dealt)?["seed"], "the same deal for everyone")
    #expect(update(dealt)?["today"] == "2027-01-15", "the update names the day")
    #expect(update(test.send(#"{"cmd":"state"}"#, from: me))?["today"] == "2027-01-15")
    test.wall += 86_400_000
    let tomorrow = test.send(#"{"cmd":"new","game":"memory","today":true}"#, from: other)
    #expect(update(tomorrow)?["seed"] != update(dealt)?["seed"])
    #expect(update(tomorrow)?["today"] == "2027-01-16")
    let chosen = test.send(#"{"cmd":"new","game":"memory","seed":\#(seed)}"#, from: other)
    #expect(update(chosen)?["today"] == nil, "yesterday's deal, by its seed, is not today's")
    let plain = test.send(#"{"cmd":"new","game":"memory","seed":5}"#, from: other)
    #expect(update(plain)?["today"] == nil, "any other deal is not today's")
  }

  @Test func aFullDiskRefusesTheMoveAndKeepsTheGameAsSaved() throws {
    let test = try TestServer()
    test.connect(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"matchismo","seed":1}"#)
    let before = test.send(#"{"cmd":"state"}"#, from: me)
    try test.fillDisk(true, room: room)
    let refused = test.send(#"{"cmd":"act","action":{"type":"choose","card":0},"id":1}"#, from: me)
    #expect(errorCode(refused) == "storage-unavailable")
    #expect(refused.count == 1, "nothing else was sent")
    let held = test.send(#"{"cmd":"state"}"#, from: me)
    #expect(held == before)
    try test.fillDisk(false, room: room)
    let version = try #require(update(held)?["version"]?.intValue)
    let again = test.send(#"{"cmd":"act","action":{"type":"choose","card":23}}"#, from: me)
    #expect(update(again)?["version"] == JSON(version + 1))
    #expect(update(before)?["version"] == 0)
  }

  @Test func aTimerWhoseSaveFailsRunsAgainOnceTheDiskHasRoom() throws {
    let test = try TestServer()
    test.connect(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":2}}"#, from: me)
    try test.fillDisk(true, room: room)
    let pushed = test.fire(at: 2, for: me)
    #expect(pushed.isEmpty)
    let wake = try #require(test.host.wake)
    #expect(wake >= 3, "retried a second later, not in a loop")
    try test.fillDisk(false, room: room)
    let turned = test.fire(at: wake, for: me)
    #expect(turned.last?["events"] == [["type": "turnedDown", "cards": [0, 2]]])
  }

  @Test func aMoveWhileATimerCannotBeSavedSaysTheDiskIsFullNotThatCardsArePending() throws {
    let test = try TestServer()
    test.connect(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":2}}"#, from: me)
    try test.fillDisk(true, room: room)
    #expect(test.fire(at: 2, for: me).isEmpty)
    let flip = #"{"cmd":"act","action":{"type":"flip","card":4},"id":7}"#
    let refused = test.send(flip, from: me, at: 2.5)
    let error = try #require(refused.first { $0["type"] == "error" })
    #expect(error["error"]?["code"] == "storage-unavailable")
    let message = try #require(error["error"]?["message"]?.stringValue)
    #expect(message.contains("disk is full") && message.contains("when space returns"))
    #expect(error["reply"] == 7)
    let state = test.send(#"{"cmd":"state"}"#, from: me, at: 2.5)
    #expect(update(state)?["version"] == 2, "reading goes on; the two cards are still up")
    try test.fillDisk(false, room: room)
    let played = test.send(flip, from: me, at: 3)
    #expect(errorCode(played) == nil)
    let events = played.compactMap { $0["events"] }
    #expect(events.contains([["type": "turnedDown", "cards": [0, 2]]]), "the timer ran first")
    #expect(update(played)?["version"] == 4)
  }

  @Test func abandoningRecordsTheGameAndClosesTheRoom() throws {
    let test = try TestServer()
    test.hello(me)
    test.hello(stranger)
    let room = test.newRoom(me, #"{"cmd":"new","game":"memory"}"#)
    test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: stranger)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me)
    let before = test.host.sent.count
    let answer = test.send(#"{"cmd":"abandon","id":5}"#, from: me)
    #expect(answer.map { $0["type"] } == ["answer", "closed"])
    #expect(answer[0]["reply"] == 5)
    #expect(test.sent(to: stranger, since: before).map { $0["type"] } == ["closed"])
    #expect(
      errorCode(test.send(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: me))
        == "room-closed")
    #expect(test.send(#"{"cmd":"rooms"}"#, from: me)[0]["rooms"] == [])
    let results = test.send(#"{"cmd":"results"}"#, from: me)[0]["results"]?.arrayValue
    #expect(results?.map { $0["ending"] } == ["abandoned"])
    let stats = test.send(#"{"cmd":"stats"}"#, from: me)[0]["stats"]?.arrayValue
    #expect(stats?.first?["played"] == 1)
    #expect(stats?.first?["won"] == 0)
  }

  @Test func roomsUntouchedForTheKeepingTimeAreClosedAsAbandoned() throws {
    let test = try TestServer(configuration: .init(keepDays: 30))
    test.hello(me)
    let old = test.newRoom(me, #"{"cmd":"new","game":"matchismo"}"#)
    test.send(#"{"cmd":"act","action":{"type":"choose","card":0}}"#, from: me)
    test.server.disconnected(me)
    test.wall += 31 * 86_400_000
    test.hello(tab)
    let recent = test.newRoom(tab, #"{"cmd":"new","game":"memory"}"#)
    test.server.disconnected(tab)
    #expect(test.server.closeIdleRooms(at: 0) == 1)
    let oldID = try #require(RoomID(rawValue: old))
    #expect(try test.store.room(oldID)?.status == .abandoned)
    #expect(try test.store.results(in: oldID).map(\.ending) == [.abandoned])
    let recentID = try #require(RoomID(rawValue: recent))
    #expect(try test.store.room(recentID)?.status == .playing)
  }

  @Test func settingsAreCheckedAndKeptPerPlayer() throws {
    let test = try TestServer()
    let token = test.hello(me)
    let saved = test.send(
      #"{"cmd":"settings","settings":{"name":"Ann","matchismo":{"cards":12,"mode":3}}}"#, from: me)
    #expect(saved[0]["settings"] == ["name": "Ann", "matchismo": ["cards": 12, "mode": 3]])
    for (bad, code) in [
      (#"{"name":"   "}"#, "name-empty"),
      (#"{"name":"a name that is far too long for a seat"}"#, "name-too-long"),
      (#"{"name":7}"#, "bad-request"), (#"{"matchismo":{"cards":99}}"#, "bad-request"),
      (#"{"set":{"colour":1}}"#, "bad-request"), (#"[1]"#, "bad-request"),
    ] {
      #expect(errorCode(test.send(#"{"cmd":"settings","settings":\#(bad)}"#, from: me)) == code)
    }
    test.send(#"{"cmd":"settings","settings":{"name":null}}"#, from: me)
    test.hello(tab, token: token)
    let read = test.send(#"{"cmd":"settings"}"#, from: tab)
    #expect(read[0]["settings"] == ["matchismo": ["cards": 12, "mode": 3]])
  }

  @Test func viewAtShowsTheTableAsItWasAfterEachMove() throws {
    let test = try TestServer()
    test.connect(me)
    test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    var views: [JSON] = [update(test.send(#"{"cmd":"state"}"#, from: me))?["view"] ?? .null]
    for card in [0, 2] {
      views.append(
        update(test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(card)}}"#, from: me))?[
          "view"] ?? .null)
    }
    for (version, view) in views.enumerated() {
      let answer = test.send(#"{"cmd":"view-at","version":\#(version)}"#, from: me)
      #expect(answer[0]["version"] == JSON(version))
      #expect(answer[0]["view"]?["board"] == view["board"], "version \(version)")
    }
  }

  @Test func historyNamesTheVersionOfEveryEntry() throws {
    let test = try TestServer()
    test.connect(me)
    test.newRoom(me, #"{"cmd":"new","game":"matchismo","seed":4}"#)
    for card in [0, 1, 2, 3] {
      test.send(#"{"cmd":"act","action":{"type":"choose","card":\#(card)}}"#, from: me)
    }
    let history = test.send(#"{"cmd":"history"}"#, from: me)
    let entries = try #require(history[0]["entries"]?.arrayValue)
    let view = update(test.send(#"{"cmd":"state"}"#, from: me))?["view"]
    #expect(entries.map { $0["text"] } == view?["history"]?.arrayValue)
    #expect(entries.map { $0["version"] } == [1, 2, 3, 4])
  }

  @Test func theHostKeepsOneTimerForTheEarliestRoom() throws {
    let test = try TestServer()
    for client in [ClientID(1), ClientID(2)] {
      test.connect(client)
      test.newRoom(client, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    }
    // A mismatch in room 2 at t=10 (turns back at 12), a match in room 1 at t=11 (leaves at 12).
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: ClientID(2), at: 10)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":2}}"#, from: ClientID(2), at: 10)
    #expect(test.host.wake == 12)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: ClientID(1), at: 11)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: ClientID(1), at: 11)
    #expect(test.host.wake == 12)
    test.host.fire(test.server, at: 12)
    #expect(
      test.host.messages(to: ClientID(1)).last?["events"] == [
        ["type": "removed", "cards": [0, 1]]
      ])
    #expect(
      test.host.messages(to: ClientID(2)).last?["events"]
        == [["type": "turnedDown", "cards": [0, 2]]])
  }

  @Test func workForAClientThatLeftIsDropped() throws {
    let test = try TestServer()
    test.connect(me)
    test.newRoom(me, #"{"cmd":"new","game":"memory"}"#)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":0}}"#, from: me)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":1}}"#, from: me)
    #expect(test.host.wake != nil)
    test.server.disconnected(me)
    let sent = test.host.sent.count
    test.host.fire(test.server, at: 100)
    test.server.received(#"{"cmd":"state"}"#, from: me, at: 100)
    #expect(test.host.sent.count == sent)
    #expect(test.server.roomCount == 0)
  }

  @Test func refusedMessagesAreExplainedToTheClient() throws {
    let test = try TestServer()
    test.server.refused(ClientID(9), reason: .tooLarge(bytes: 70_000, limit: 65_536))
    test.server.refused(ClientID(9), reason: .tooFast)
    test.server.refused(ClientID(9), reason: .notText)
    let sent = test.host.messages(to: ClientID(9))
    #expect(sent.map { $0["error"]?["code"] } == ["too-large", "too-fast", "bad-request"])
  }
}

/// The board's pairs as index pairs, in the order their first card lies.
func pairs(_ board: [PlayingCard]) -> [(Int, Int)] {
  var seen: [PlayingCard: Int] = [:]
  var found: [(Int, Int)] = []
  for (index, card) in board.enumerated() {
    if let first = seen[card] { found.append((first, index)) } else { seen[card] = index }
  }
  return found
}
