import CardTableCore
import GameServer
import GameWire
import Testing

private let ann = ClientID(1)
private let bob = ClientID(2)

/// The names people give themselves (docs/PROTOCOL.md "Names"), through `settings` and a
/// lobby's `rename`, as a client sends them.
@Suite struct NameTests {
  /// What `settings` answers a name with: the name kept, or the error's code.
  private func settle(_ name: String) throws -> String {
    let test = try TestServer()
    test.hello(ann)
    let request: JSON = ["cmd": "settings", "settings": ["name": .string(name)]]
    let answer = test.send(request.text, from: ann)
    if let code = errorCode(answer) { return code }
    return answer.last?["settings"]?["name"]?.stringValue ?? "(none)"
  }

  @Test(arguments: [
    ("Ann", "Ann"), ("  Ann Lee  ", "Ann Lee"), ("Zoë", "Zoë"),
    // NB: Vietnamese written decomposed: two marks on one letter.
    ("Nguye\u{302}\u{303}n", "Nguye\u{302}\u{303}n"), ("李小龙", "李小龙"), ("سارا", "سارا"),
    ("👨‍👩‍👧‍👦 family", "👨‍👩‍👧‍👦 family"), ("🇳🇱 Sanne", "🇳🇱 Sanne"),
    (String(repeating: "é", count: 24), String(repeating: "é", count: 24)),
  ])
  func namesOfEveryScriptAreKept(name: String, kept: String) throws {
    #expect(try settle(name) == kept)
  }

  @Test(arguments: [
    // NB: one letter and 5,000 accents is one character of 10 KB, drawn across the header.
    ("A" + String(repeating: "\u{301}", count: 5_000), "name-too-long"),
    ("A\u{301}\u{300}\u{302}\u{303}\u{304}", "name-marks"),
    (String(repeating: "x", count: 25), "name-too-long"),
    (String(repeating: "😀", count: 25), "name-too-long"),
    ("Ann\u{202E}X", "name-bidi"), ("\u{2067}Ann", "name-bidi"), ("Ann\u{200F}", "name-bidi"),
    ("Ann\nBob", "name-control"), ("Ann\u{0}", "name-control"), ("Ann\tLee", "name-control"),
    ("\u{1B}[31mAnn", "name-control"), ("Ann\u{85}Lee", "name-control"),
    ("", "name-empty"), ("   ", "name-empty"), ("\u{200B}\u{200B}", "name-empty"),
    ("\u{200D}\u{FEFF}\u{2060}", "name-empty"), ("\u{3164}", "name-empty"),
  ])
  func badNamesAreRefusedWithTheirOwnCode(name: String, code: String) throws {
    #expect(try settle(name) == code)
  }

  @Test func aNameOfEveryLimitSaysWhatTheLimitIs() throws {
    let test = try TestServer()
    test.hello(ann)
    let long: JSON = [
      "cmd": "settings", "settings": ["name": .string(String(repeating: "x", count: 30))],
    ]
    let refused = test.send(long.text, from: ann).first { $0["type"] == "error" }
    #expect(refused?["error"]?["message"] == "A name may hold at most 24 characters and 96 bytes.")
  }

  @Test func aSeatedGuestRenamesThemselvesInTheLobbyAndTheNameIsKept() throws {
    let test = try TestServer()
    test.hello(ann)
    test.send(#"{"cmd":"settings","settings":{"name":"Ann"}}"#, from: ann)
    let room = test.newRoomCode(ann, #"{"cmd":"host","game":"snap"}"#)
    test.hello(bob)
    let joined = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: bob)
    #expect(joined.last?["seats"]?.arrayValue?.map { $0["name"] } == ["Ann", "Player 2"])
    let before = test.host.sent.count
    let renamed = test.send(#"{"cmd":"rename","name":" Bob ","id":3}"#, from: bob)
    #expect(renamed.last?["type"] == "table" && renamed.last?["reply"] == 3)
    #expect(renamed.last?["seats"]?.arrayValue?.map { $0["name"] } == ["Ann", "Bob"])
    let seen = test.sent(to: ann, since: before).last
    #expect(seen?["seats"]?.arrayValue?.map { $0["name"] } == ["Ann", "Bob"], "the host sees it")
    let settings = test.send(#"{"cmd":"settings"}"#, from: bob)
    #expect(settings.last?["settings"]?["name"] == "Bob", "kept for the next table")

    #expect(errorCode(test.send(#"{"cmd":"rename","name":"Ann"}"#, from: bob)) == "name-taken")
    #expect(
      errorCode(test.send(#"{"cmd":"rename","name":"B\u202Eob"}"#, from: bob)) == "name-bidi")
    #expect(errorCode(test.send(#"{"cmd":"rename"}"#, from: bob)) == "bad-request")
    let host = test.send(#"{"cmd":"rename","name":"Annie"}"#, from: ann)
    #expect(host.last?["seats"]?.arrayValue?.map { $0["name"] } == ["Annie", "Bob"])

    test.send(#"{"cmd":"start"}"#, from: ann)
    #expect(
      errorCode(test.send(#"{"cmd":"rename","name":"Robert"}"#, from: bob)) == "already-started")
    let state = try #require(update(test.send(#"{"cmd":"state"}"#, from: bob)))
    let names = state["view"]?["players"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
    #expect(Set(names ?? []) == ["Annie", "Bob"], "the game seats the names of the lobby")
  }

  @Test func aWatcherOrASoloGameCannotRename() throws {
    let test = try TestServer()
    test.hello(ann)
    test.newRoom(ann, #"{"cmd":"new","game":"memory"}"#)
    #expect(errorCode(test.send(#"{"cmd":"rename","name":"Ann"}"#, from: ann)) == "not-a-table")
    let room = test.newRoomCode(ann, #"{"cmd":"host","game":"snap"}"#)
    test.send(#"{"cmd":"seat","computer":true}"#, from: ann)
    test.send(#"{"cmd":"start"}"#, from: ann)
    test.hello(bob)
    test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: bob)
    #expect(errorCode(test.send(#"{"cmd":"rename","name":"Bob"}"#, from: bob)) == "not-seated")
  }
}
