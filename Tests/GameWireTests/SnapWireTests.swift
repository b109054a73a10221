import CardTableCore
import GameWire
import SnapGame
import Testing

/// Sends one line to the console and parses its reply.
private func send(_ console: EngineConsole, _ line: String) throws -> JSON {
  try JSON(parsing: console.reply(to: line))
}

/// The `type` and `result` of each event of a reply, e.g. `["snap:correct", "pileWon"]`.
private func eventKinds(_ reply: JSON) -> [String] {
  (reply["events"]?.arrayValue ?? []).map { event in
    let type = event["type"]?.stringValue ?? "?"
    return event["result"]?.stringValue.map { "\(type):\($0)" } ?? type
  }
}

private func player(_ name: String, in body: JSON?) -> JSON? {
  body?["players"]?.arrayValue?.first { $0["name"]?.stringValue == name }
}

/// The standard deck with 7♠ and 7♥ dealt last, so that with Bob starting, Bob's first card
/// is 7♠ and Ann's is 7♥.
private let sevensLast: [String] = {
  var deck = PlayingCard.standardDeck
  deck.swapAt(6, 50)
  deck.swapAt(19, 51)
  return deck.map(\.description)
}()

@Suite struct SnapWireTests {
  @Test func snapIsInTheCatalog() throws {
    let reply = try send(EngineConsole(), #"{"cmd":"games"}"#)
    #expect(reply["games"]?.arrayValue?.contains("snap") == true)
  }

  @Test func theDefaultTableIsTheSinglePlayerGame() throws {
    let console = EngineConsole()
    let reply = try send(console, #"{"cmd":"new","game":"snap","seed":3}"#)
    let state = try #require(reply["state"])
    #expect(state["phase"] == "dealing")
    #expect(state["status"] == "Dealing...")
    #expect(state["active"] == .null)
    #expect(state["over"] == false)
    let players = try #require(state["players"]?.arrayValue)
    #expect(players.map { $0["name"] } == ["You", "Ray", "Lucy", "Steve"])
    #expect(players.map { $0["seat"] } == ["bottom", "left", "top", "right"])
    #expect(players.map { $0["computer"] } == [false, true, true, true])
    #expect(players.map { $0["closed"]?.arrayValue?.count } == [13, 13, 13, 13])
    #expect(players.map { $0["open"] } == [[], [], [], []])
    #expect(players.map { $0["gamesWon"] } == [0, 0, 0, 0])
    // NB: the computer players play on their own once time moves.
    let played = try send(console, #"{"cmd":"advance","seconds":30}"#)
    #expect(eventKinds(played).contains("turned"))
  }

  @Test func aTwoPlayerGameOverTheConsole() throws {
    let console = EngineConsole()
    let deck = JSON(sevensLast).text
    let new = try send(
      console,
      #"{"cmd":"new","game":"snap","seed":1,"options":{"players":["Ann","Bob"],"starting":"Bob"},"deck":"#
        + deck + "}")
    #expect(new["ok"] == true)
    #expect(player("Bob", in: new["state"])?["seat"] == "top")
    #expect(player("Bob", in: new["state"])?["closed"]?.arrayValue?.last == "7♠")

    #expect(eventKinds(try send(console, #"{"cmd":"advance","seconds":5.2}"#)) == ["activated"])
    let early = try send(console, #"{"cmd":"act","action":{"type":"turn","player":"Ann"}}"#)
    #expect(early["ok"] == false)
    #expect(early["error"]?["code"] == "not-your-turn")

    let bob = try send(console, #"{"cmd":"act","action":{"type":"turn","player":"Bob"}}"#)
    #expect(bob["events"] == [["type": "turned", "player": "Bob", "card": "7♠"]])
    #expect(bob["state"]?["active"] == "Bob")
    _ = try send(console, #"{"cmd":"advance","seconds":0.5}"#)
    let ann = try send(console, #"{"cmd":"act","action":{"type":"turn","player":"Ann"}}"#)
    #expect(player("Ann", in: ann["state"])?["open"] == ["7♥"])

    let call = try send(console, #"{"cmd":"act","action":{"type":"snap","player":"Ann"}}"#)
    #expect(
      call["events"] == [
        ["type": "snap", "player": "Ann", "result": "correct", "matching": ["Ann", "Bob"]]
      ])
    #expect(call["state"]?["status"] == "*** Match! ***")
    let late = try send(console, #"{"cmd":"act","action":{"type":"snap","player":"Bob"}}"#)
    #expect(late["events"] == [["type": "snap", "player": "Bob", "result": "tooLate"]])

    let moved = try send(console, #"{"cmd":"advance","seconds":1}"#)
    #expect(eventKinds(moved) == ["pileWon", "pileWon"])
    #expect(moved["events"]?.arrayValue?.first?["cards"] == ["7♥"])
    let annView = try send(console, #"{"cmd":"view","player":"Ann"}"#)["view"]
    let bobView = try send(console, #"{"cmd":"view","player":"Bob"}"#)["view"]
    #expect(annView?["status"] == "You Receive Cards")
    #expect(bobView?["status"] == "Ann Receives Cards")
    #expect(player("Ann", in: bobView)?["closed"] == nil)
    #expect(player("Ann", in: bobView)?["closedCount"] == 27)
    #expect(player("Bob", in: bobView)?["position"] == "bottom")

    #expect(eventKinds(try send(console, #"{"cmd":"advance","seconds":1}"#)) == ["activated"])
    _ = try send(console, #"{"cmd":"act","action":{"type":"turn","player":"Bob"}}"#)
    let wrong = try send(console, #"{"cmd":"act","action":{"type":"snap","player":"Bob"}}"#)
    #expect(wrong["events"] == [["type": "snap", "player": "Bob", "result": "wrong"]])
    #expect(wrong["state"]?["status"] == "No Match!")
    let paid = try send(console, #"{"cmd":"advance","seconds":1}"#)
    #expect(eventKinds(paid) == ["paid"])
    #expect(paid["events"]?.arrayValue?.first?["card"]?.stringValue != nil)
    #expect(paid["state"]?["status"] == "Bob Must Pay")

    let left = try send(console, #"{"cmd":"act","action":{"type":"leave","player":"Bob"}}"#)
    #expect(eventKinds(left) == ["left", "roundWon", "gameOver"])
    #expect(left["state"]?["over"] == true)
    #expect(left["state"]?["status"] == "** Winner: Ann **")
    #expect(player("Ann", in: left["state"])?["gamesWon"] == 1)
    let refused = try send(console, #"{"cmd":"act","action":{"type":"nextRound","player":"Ann"}}"#)
    #expect(refused["error"]?["code"] == "game-over")
  }

  @Test func badTablesAndActionsAreRefusedWithCodes() throws {
    let console = EngineConsole()
    let one = try send(console, #"{"cmd":"new","game":"snap","options":{"players":["Ann"]}}"#)
    #expect(one["error"]?["code"] == "invalid-options")
    let typo = try send(console, #"{"cmd":"new","game":"snap","options":{"player":["Ann"]}}"#)
    #expect(typo["error"]?["code"] == "bad-request")
    let stranger = try send(
      console, #"{"cmd":"new","game":"snap","options":{"players":["A","B"],"computer":["C"]}}"#)
    #expect(stranger["error"]?["code"] == "invalid-options")
    let short = try send(console, #"{"cmd":"new","game":"snap","deck":["A♠"]}"#)
    #expect(short["error"]?["code"] == "invalid-deck")
    _ = try send(console, #"{"cmd":"new","game":"snap","seed":5}"#)
    let unknown = try send(console, #"{"cmd":"act","action":{"type":"flip","player":"You"}}"#)
    #expect(unknown["error"]?["code"] == "bad-request")
    let dealing = try send(console, #"{"cmd":"act","action":{"type":"snap","player":"You"}}"#)
    #expect(dealing["error"]?["code"] == "not-playing")
    let guest = try send(console, #"{"cmd":"act","action":{"type":"nextRound","player":"Ray"}}"#)
    #expect(guest["error"]?["code"] == "not-host")
    let hostLeaves = try send(console, #"{"cmd":"act","action":{"type":"leave","player":"You"}}"#)
    #expect(eventKinds(hostLeaves) == ["left", "gameOver"])
    #expect(hostLeaves["events"]?.arrayValue?.last?["reason"] == "hostLeft")
  }
}

@Suite struct SnapStartingPlayerWireTests {
  @Test func theViewNamesTheStartingPlayerOfTheFirstRound() throws {
    let replies = try converse([
      #"{"cmd":"new","game":"snap","options":{"players":["You","Ray","Lucy","Steve"],"computer":["Ray","Lucy","Steve"],"starting":"Lucy"}}"#,
      #"{"cmd":"view","player":"You"}"#,
    ])
    #expect(replies[0]["state"]?["starting"] == "Lucy")
    #expect(replies[1]["view"]?["starting"] == "Lucy")
  }
}

@Suite struct SnapActionPlayerWireTests {
  @Test(arguments: [#"5"#, #"null"#, #"["You"]"#])
  func aPlayerThatIsNotANameIsRefused(player: String) throws {
    let replies = try converse([
      #"{"cmd":"new","game":"snap","seed":5}"#, #"{"cmd":"advance","seconds":6}"#,
      #"{"cmd":"act","action":{"type":"snap","player":\#(player)}}"#,
    ])
    #expect(replies[2]["ok"] == false)
    #expect(replies[2]["error"]?["code"] == "bad-request")
    #expect(replies[2]["state"] == replies[1]["state"])
  }

  @Test(arguments: [
    (#"{"players":[" ","  "]}"#, "invalid-options"),
    (#"{"players":["A","B"]}"#, "invalid-deck"),
  ])
  func blankNamesAndRepeatedCardsAreRefusedWithAReason(options: String, code: String) throws {
    let deck = Array(repeating: #""A♠""#, count: 52).joined(separator: ",")
    let line =
      code == "invalid-deck"
      ? #"{"cmd":"new","game":"snap","options":\#(options),"deck":[\#(deck)]}"#
      : #"{"cmd":"new","game":"snap","options":\#(options)}"#
    let reply = try converse([line])[0]
    #expect(reply["error"]?["code"]?.stringValue == code)
    if code == "invalid-deck" {
      #expect(
        reply["error"]?["message"] == "Snap! deals all 52 cards, each once; A♠ appears twice.")
    }
  }
}

@Suite struct SnapComputerSpeedWireTests {
  @Test func theSpeedIsAnOptionTheStateTheViewAndTheRecordNameWhenItIsNotTheOriginal() throws {
    let replies = try converse([
      #"{"cmd":"new","game":"snap","seed":3,"options":{"computerSpeed":"sharp"}}"#,
      #"{"cmd":"view","player":"You"}"#,
    ])
    #expect(replies[0]["state"]?["computerSpeed"] == "sharp")
    #expect(replies[1]["view"]?["computerSpeed"] == "sharp")
    let session = try GameCatalog.start(
      NewGame(game: "snap", options: ["computerSpeed": "quick"], seed: 3))
    #expect(session.deal["options"]?["computerSpeed"] == "quick")
    #expect(session.abandon())
    let record = try #require(session.loggedResults(from: 0, for: .solo).first)
    #expect(
      record.options == "round 1; players You, Ray, Lucy, Steve; computer Ray, Lucy, Steve; "
        + "computerSpeed quick")
    #expect(
      GameCatalog.describe(game: "snap", options: record.options)?.category
        == "players You, Ray, Lucy, Steve; computer Ray, Lucy, Steve; computerSpeed quick")
  }

  @Test func theOriginalSpeedWritesNothingNew() throws {
    for options: JSON in [[:], ["computerSpeed": "original"]] {
      let session = try GameCatalog.start(NewGame(game: "snap", options: options, seed: 3))
      #expect(session.stateJSON()["computerSpeed"] == nil)
      #expect(session.viewJSON(for: .player(.solo))["computerSpeed"] == nil)
      #expect(
        session.deal == [
          "options": [
            "players": ["You", "Ray", "Lucy", "Steve"], "computer": ["Ray", "Lucy", "Steve"],
          ]
        ])
      #expect(session.abandon())
      #expect(
        session.loggedResults(from: 0, for: .solo).first?.options
          == "round 1; players You, Ray, Lucy, Steve; computer Ray, Lucy, Steve")
    }
  }

  @Test func anUnknownSpeedIsRefusedNamingTheSpeeds() throws {
    let reply = try converse([
      #"{"cmd":"new","game":"snap","options":{"computerSpeed":"fast"}}"#
    ])[0]
    #expect(reply["error"]?["code"] == "bad-request")
    #expect(
      reply["error"]?["message"]
        == #"snap options: "computerSpeed" must be "relaxed", "original", "quick" or "sharp", not "fast"."#
    )
  }

  @Test(arguments: SnapGame.ComputerSpeed.allCases)
  func theOptionsReadBackWhatTheyWrite(speed: SnapGame.ComputerSpeed) throws {
    let options = SnapGame.Options(
      players: ["Ann", "Bob", "Cy"], computer: ["Cy"], starting: "Bob", computerSpeed: speed)
    let json = try WireEncoder().json(of: options)
    #expect(try WireDecoder().decode(SnapGame.Options.self, from: json) == options)
    #expect((json["computerSpeed"] == nil) == (speed == .original))
    let settings = SnapGame.Settings(
      round: 2, players: ["Ann", "Bob", "Cy"], computer: ["Cy"], computerSpeed: speed)
    #expect(SnapGame.Settings(game: "snap", summary: settings.summary) == settings)
  }
}
