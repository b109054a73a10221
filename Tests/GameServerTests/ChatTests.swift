import CardTableCore
import GameServer
import GameStore
import GameWire
import Testing

private let ann = ClientID(1)
private let bob = ClientID(2)
private let zoe = ClientID(3)

/// Ann hosts a Snap! table that Bob joins, Ann starts it, and Zoe watches; returns the room.
@discardableResult
private func snapTable(_ test: TestServer, start: Bool = true) -> String {
  for (client, name) in [(ann, "Ann"), (bob, "Bob"), (zoe, "Zoe")] {
    test.hello(client)
    test.send(#"{"cmd":"settings","settings":{"name":"\#(name)"}}"#, from: client)
  }
  let room = test.newRoomCode(ann, #"{"cmd":"host","game":"snap"}"#)
  test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: bob)
  if start { test.send(#"{"cmd":"start"}"#, from: ann) }
  test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: zoe)
  return room
}

/// The chat lines `client` was sent since `index`.
private func lines(_ test: TestServer, _ client: ClientID, since index: Int = 0) -> [JSON] {
  test.sent(to: client, since: index).filter { $0["type"] == "chat" }.flatMap {
    $0["lines"]?.arrayValue ?? []
  }
}

private func say(_ text: String) -> String {
  (["cmd": "say", "text": .string(text)] as JSON).text
}

@Suite struct ChatTests {
  @Test func playersAndWatchersWriteAndEveryoneSeesWhoWroteWhat() throws {
    let test = try TestServer()
    snapTable(test)
    let start = test.host.sent.count
    let written = test.send(#"{"cmd":"say","text":"  good luck!  ","id":4}"#, from: ann, at: 1)
    #expect(written.map { $0["type"] } == ["chat"])
    #expect(written[0]["reply"] == 4)
    #expect(
      written[0]["lines"]
        == [
          [
            "index": 0, "at": 1_800_000_000_000, "name": "Ann", "seat": 0, "text": "good luck!",
            "you": true,
          ]
        ]
    )
    test.send(#"{"cmd":"say","reaction":"snap"}"#, from: bob, at: 2)
    // NB: markup is text like any other: the server keeps it as written, clients show it so.
    test.send(say("<b>hi</b>\u{7}\nthere"), from: zoe, at: 3)
    for client in [ann, bob, zoe] {
      let seen = lines(test, client, since: start)
      #expect(seen.map { $0["name"] } == ["Ann", "Bob", "Zoe"])
      #expect(seen.map { $0["index"] } == [0, 1, 2])
      #expect(seen[1]["reaction"] == "snap" && seen[1]["text"] == nil && seen[1]["seat"] == 1)
      #expect(seen[2]["watcher"] == true && seen[2]["seat"] == nil)
      #expect(seen[2]["text"] == "<b>hi</b>  there", "control characters become spaces")
      #expect(seen.compactMap { $0["you"] }.count == 1, "only one's own line is marked")
      #expect(test.sent(to: client, since: start).filter { $0["reply"] != nil }.count <= 1)
    }
    #expect(lines(test, zoe, since: start).last?["you"] == true)
  }

  @Test func badLinesAreRefusedWithTheirReasonAndNothingIsShown() throws {
    let test = try TestServer()
    snapTable(test)
    let start = test.host.sent.count
    #expect(errorCode(test.send(say("   "), from: ann)) == "bad-request")
    #expect(errorCode(test.send(#"{"cmd":"say"}"#, from: ann)) == "bad-request")
    #expect(errorCode(test.send(#"{"cmd":"say","text":7}"#, from: ann)) == "bad-request")
    #expect(
      errorCode(test.send(#"{"cmd":"say","text":"hi","reaction":"gg"}"#, from: ann))
        == "bad-request")
    #expect(errorCode(test.send(#"{"cmd":"say","reaction":"boo"}"#, from: ann)) == "bad-request")
    #expect(
      errorCode(test.send(say(String(repeating: "é", count: 201)), from: ann)) == "message-too-long"
    )
    #expect(test.send(say(String(repeating: "é", count: 200)), from: ann).first?["type"] == "chat")
    #expect(lines(test, bob, since: start).count == 1)
    // NB: a room of one is no table.
    let solo = ClientID(9)
    test.hello(solo)
    test.newRoom(solo, #"{"cmd":"new","game":"memory"}"#)
    #expect(errorCode(test.send(say("hello?"), from: solo)) == "not-a-table")
  }

  @Test func aPlayerWritesAtMostFiveLinesInTenSeconds() throws {
    let test = try TestServer()
    snapTable(test)
    for second in 0..<5 {
      #expect(
        test.send(say("line \(second)"), from: bob, at: Double(second)).first?["type"] == "chat")
    }
    #expect(errorCode(test.send(say("one more"), from: bob, at: 9.9)) == "too-many-messages")
    #expect(test.send(say("Ann may"), from: ann, at: 9.9).first?["type"] == "chat", "per player")
    #expect(test.send(say("now I may"), from: bob, at: 10.0).first?["type"] == "chat")
    #expect(lines(test, zoe).map { $0["text"] }.last == "now I may")
  }

  @Test func theHostTurnsWatchersChatOffAndItStaysOffAfterARestart() throws {
    let test = try TestServer()
    let room = snapTable(test)
    #expect(
      errorCode(test.send(#"{"cmd":"chat-settings","watchers":false}"#, from: bob))
        == "not-the-host")
    #expect(errorCode(test.send(#"{"cmd":"chat-settings"}"#, from: ann)) == "bad-request")
    let start = test.host.sent.count
    let off = test.send(#"{"cmd":"chat-settings","watchers":false,"id":1}"#, from: ann)
    #expect(off.last?["type"] == "table" && off.last?["watcherChat"] == false)
    #expect(off.last?["reply"] == 1)
    for client in [bob, zoe] {
      #expect(test.sent(to: client, since: start).last?["watcherChat"] == false)
    }
    #expect(errorCode(test.send(say("let me talk"), from: zoe)) == "chat-off")
    #expect(test.send(say("players still may"), from: bob).first?["type"] == "chat")

    try test.restart()
    for client in [ann, zoe] {
      test.hello(client, token: test.tokens[client])
      let opened = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: client)
      #expect(opened.first { $0["type"] == "table" }?["watcherChat"] == false)
    }
    #expect(errorCode(test.send(say("still off?"), from: zoe)) == "chat-off")
    let on = test.send(#"{"cmd":"chat-settings","watchers":true}"#, from: ann)
    #expect(on.last?["type"] == "table" && on.last?["watcherChat"] == nil)
    #expect(test.send(say("thanks"), from: zoe).first?["type"] == "chat")
  }

  @Test func aMutedPlayersLinesAreNoLongerShownToWhoMutedThem() throws {
    let test = try TestServer()
    let room = snapTable(test)
    test.send(say("before"), from: ann)
    test.send(say("hi all"), from: bob)
    #expect(errorCode(test.send(#"{"cmd":"mute","name":"Nobody"}"#, from: bob)) == "no-such-player")
    #expect(errorCode(test.send(#"{"cmd":"mute","name":"Bob"}"#, from: bob)) == "bad-request")
    let muted = test.send(#"{"cmd":"mute","name":"Ann","id":2}"#, from: bob)
    #expect(muted.map { $0["type"] } == ["table"])
    #expect(muted[0]["muted"] == ["Ann"] && muted[0]["reply"] == 2)
    let start = test.host.sent.count
    test.send(say("can you hear me?"), from: ann)
    #expect(lines(test, bob, since: start).isEmpty)
    #expect(lines(test, zoe, since: start).count == 1, "only Bob muted Ann")
    // NB: a watcher is muted by the name of their lines.
    test.send(say("hello from the stands"), from: zoe)
    test.send(#"{"cmd":"mute","name":"Zoe"}"#, from: bob)
    // NB: the history Bob is shown on coming back leaves them out too.
    test.send(#"{"cmd":"leave"}"#, from: bob)
    let back = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: bob)
    let history = try #require(back.first { $0["type"] == "chat" })
    #expect(history["history"] == true)
    #expect(history["lines"]?.arrayValue?.isEmpty == false)
    #expect(history["lines"]?.arrayValue?.allSatisfy { $0["name"] == "Bob" } ?? true)
    #expect(back.first { $0["type"] == "table" }?["muted"] == ["Ann", "Zoe"])
    let unmuted = test.send(#"{"cmd":"unmute","name":"Ann"}"#, from: bob)
    #expect(unmuted[0]["muted"] == ["Zoe"])
    let again = test.host.sent.count
    test.send(say("and now?"), from: ann)
    #expect(lines(test, bob, since: again).map { $0["text"] } == ["and now?"])
  }

  @Test func theChatIsKeptWithTheRoomShownOnEnteringAndExported() throws {
    let test = try TestServer()
    let room = snapTable(test, start: false)
    // NB: the lobby has its chat too, and it goes on into the game.
    test.send(say("ready when you are"), from: bob, at: 0)
    test.send(#"{"cmd":"start"}"#, from: ann)
    for second in 0..<60 {
      let client = second % 2 == 0 ? ann : bob
      test.send(say("line \(second)"), from: client, at: Double(second) * 3)
    }
    try test.restart()
    test.hello(zoe, token: test.tokens[zoe])
    let opened = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: zoe, at: 500)
    #expect(opened.map { $0["type"] } == ["joined", "table", "chat", "update"])
    let history = try #require(opened[2]["lines"]?.arrayValue)
    #expect(history.count == 50, "the latest fifty")
    #expect(history.first?["index"] == 11 && history.last?["text"] == "line 59")
    let next = test.send(say("still here"), from: zoe, at: 501)
    #expect(next.first?["lines"]?.arrayValue?.first?["index"] == 61, "numbered on after a restart")

    let id = try #require(RoomID(rawValue: room))
    let file = try #require(try SaveFile(room: id, in: test.store, at: test.wall))
    #expect(file.chat.count == 62)
    #expect(
      file.chat.first == [
        "index": 0, "at": 1_800_000_000_000, "name": "Bob", "seat": 1, "text": "ready when you are",
      ])
    // NB: Zoe came while the table was in its lobby, so she took a seat.
    #expect(file.chat.last?["seat"] == 2 && file.chat.last?["name"] == "Zoe")
    #expect(try SaveFile(json: file.json) == file, "the chat is read back from the file")
    // NB: a table without chat writes no `chat` member, so older readers read it as before.
    let quiet = try TestServer()
    let other = try #require(RoomID(rawValue: snapTable(quiet)))
    let unsaid = try #require(try SaveFile(room: other, in: quiet.store, at: 0))
    #expect(unsaid.chat.isEmpty && unsaid.json["chat"] == nil)
  }

  @Test func aLineTheStoreCannotKeepIsRefusedAndNobodySeesIt() throws {
    var watched: WatchedStore?
    let test = try TestServer { store in
      let store = WatchedStore(store)
      watched = store
      return store
    }
    let room = snapTable(test)
    let store = try #require(watched)
    let start = test.host.sent.count
    store.gate = { changes throws(StoreError) in
      if changes.contains(where: { !$0.chat.isEmpty }) {
        throw .unavailable(path: "test", reason: "disk gone")
      }
    }
    #expect(errorCode(test.send(say("lost?"), from: bob)) == "storage-unavailable")
    #expect(lines(test, ann, since: start).isEmpty && lines(test, zoe, since: start).isEmpty)
    store.gate = { _ in }
    let kept = test.send(say("kept"), from: bob, at: 1)
    #expect(
      kept.first?["lines"]?.arrayValue?.first?["index"] == 0, "the refused line took no place")
    let id = try #require(RoomID(rawValue: room))
    #expect(try test.store.chat(in: id, last: nil).map(\.text) == ["kept"])
  }
}
