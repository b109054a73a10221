import CardTableCore
import GameWire
import MemoryGame
import Testing

@Suite struct MemoryTurnsWireTests {
  /// Memory's Easy board with pairs at 0–1, 2–3, …, for Ann and Bob.
  let new =
    #"{"cmd":"new","game":"memory","options":{"players":["Ann","Bob"]},"seed":1,"#
    + #""deck":["A♥","A♥","K♠","K♠","2♦","2♦","3♣","3♣","Q♥","Q♥","J♠","J♠"]}"#

  @Test func aGameInTurnsShowsThePlayersTheTurnAndWhoseTurnItIs() throws {
    let answers = try replies(
      new, #"{"cmd":"act","action":{"type":"flip","card":0,"player":"Bob"}}"#,
      #"{"cmd":"act","action":{"type":"flip","card":0,"player":"Ann"}}"#,
      #"{"cmd":"act","action":{"type":"flip","card":2,"player":"Ann"}}"#,
      #"{"cmd":"advance","seconds":2}"#, #"{"cmd":"view","player":"Bob"}"#,
      #"{"cmd":"act","action":{"type":"leave","player":"Ann"}}"#)
    let state = try #require(answers[0]["state"])
    #expect(
      state["players"] == [
        ["player": "Ann", "pairs": 0, "left": false], ["player": "Bob", "pairs": 0, "left": false],
      ])
    #expect(state["turn"] == "Ann")
    #expect(state["status"] == "Ann's turn. Pairs: Ann 0, Bob 0")
    #expect(answers[1]["error"]?["code"] == "not-your-turn")
    #expect(answers[1]["error"]?["message"] == "It is Ann's turn.")
    #expect(
      answers[4]["events"] == [
        ["type": "turnedDown", "cards": [0, 2]], ["type": "turnPassed", "to": "Bob"],
      ])
    #expect(answers[5]["view"]?["status"] == "Your turn. Pairs: Ann 0, Bob 0")
    #expect(answers[5]["view"]?["turn"] == "Bob")
    #expect(answers[6]["events"] == [["type": "left", "player": "Ann"]])
    #expect(answers[6]["state"]?["players"]?.arrayValue?.first?["left"] == true)
  }

  @Test func theStatusNamesEveryPlayersPairsAndWhoLeftToEachViewer() throws {
    let three =
      #"{"cmd":"new","game":"memory","options":{"players":["Ann","Bob","Cy"]},"seed":1,"#
      + #""deck":["A♥","A♥","K♠","K♠","2♦","2♦","3♣","3♣","Q♥","Q♥","J♠","J♠"]}"#
    let answers = try replies(
      three, #"{"cmd":"act","action":{"type":"flip","card":0,"player":"Ann"}}"#,
      #"{"cmd":"act","action":{"type":"flip","card":1,"player":"Ann"}}"#,
      #"{"cmd":"advance","seconds":1}"#,
      #"{"cmd":"act","action":{"type":"leave","player":"Bob"}}"#,
      #"{"cmd":"view","player":"Ann"}"#, #"{"cmd":"view","player":"Cy"}"#)
    #expect(answers[4]["state"]?["status"] == "Ann's turn. Pairs: Ann 1, Bob 0 (left), Cy 0")
    #expect(answers[5]["view"]?["status"] == "Your turn. Pairs: Ann 1, Bob 0 (left), Cy 0")
    #expect(answers[6]["view"]?["status"] == "Ann's turn. Pairs: Ann 1, Bob 0 (left), Cy 0")
  }

  @Test func theEndNamesTheWinnerAndNobodyIsOnTurn() throws {
    var lines = [new]
    for pair in [0, 2, 4, 6, 8, 10] {
      lines.append(#"{"cmd":"act","action":{"type":"flip","card":\#(pair),"player":"Ann"}}"#)
      lines.append(#"{"cmd":"act","action":{"type":"flip","card":\#(pair + 1),"player":"Ann"}}"#)
      lines.append(#"{"cmd":"advance","seconds":1}"#)
    }
    lines.append(#"{"cmd":"results"}"#)
    let answers = try converse(lines)
    let state = try #require(answers[answers.count - 2]["state"])
    #expect(state["over"] == true && state["title"] == "Game over", "the referee is no winner")
    #expect(state["status"] == "Ann wins with 6 pairs!")
    #expect(state["turn"] == .null)
    #expect(
      state["result"]?["players"] == [
        ["player": "Ann", "score": 6], ["player": "Bob", "score": 0],
      ])
    #expect(state["result"]?["winner"] == "Ann")
    #expect(state["result"]?["options"] == "difficulty easy, players 2")
  }

  @Test func aGameAloneWritesNothingNew() throws {
    let session = try GameCatalog.start(NewGame(game: "memory", seed: 4))
    let state = session.stateJSON()
    #expect(state["players"] == nil && state["turn"] == nil)
    #expect(session.viewJSON(for: .player(.solo))["players"] == nil)
    #expect(session.deal == ["options": ["difficulty": "easy"]])
    let concentration = try GameCatalog.start(NewGame(game: "concentration", seed: 4))
    #expect(concentration.deal == ["options": [:]])
  }

  @Test func concentrationTakesPlayersAndTheOlderRefusalsKeepTheirWords() throws {
    let answers = try replies(
      #"{"cmd":"new","game":"concentration","options":{"players":["Ann","Bob","Cy"]},"seed":2}"#,
      #"{"cmd":"new","game":"concentration","options":{"difficulty":"easy"}}"#,
      #"{"cmd":"new","game":"memory","options":{"size":3}}"#,
      #"{"cmd":"new","game":"memory","options":{"players":"Ann"}}"#,
      #"{"cmd":"new","game":"memory","options":{"players":["Ann","Ann"]}}"#)
    #expect(answers[0]["state"]?["turn"] == "Ann")
    #expect(
      answers[1]["error"]?["message"]
        == #"concentration options: unknown field "difficulty"; there are none."#)
    #expect(
      answers[2]["error"]?["message"]
        == #"memory options: unknown field "size"; expected difficulty."#)
    #expect(
      answers[3]["error"]?["message"]
        == #"memory options: "players" must be an array of names, not "Ann"."#)
    #expect(answers[4]["error"]?["code"] == "invalid-options")
  }

  @Test(arguments: [
    MemoryGame.Options(variant: .memory, difficulty: .hard, players: ["Ann", "Bob"]),
    MemoryGame.Options(variant: .memory, difficulty: .medium),
    MemoryGame.Options(variant: .concentration, players: ["Ann", "Bob", "Cy", "Di"]),
  ])
  func optionsReadBackWhatTheyWrite(options: MemoryGame.Options) throws {
    let json = try WireEncoder().json(of: options)
    var decoder = WireDecoder()
    decoder.userInfo[.gameName] = options.variant.rawValue
    #expect(try decoder.decode(MemoryGame.Options.self, from: json) == options)
  }

  @Test(arguments: [
    MemoryGame.Action.flip(3), .leave,
  ])
  func actionsReadBackWhatTheyWrite(action: MemoryGame.Action) throws {
    let json = try WireEncoder().json(of: action)
    #expect(try WireDecoder().decode(MemoryGame.Action.self, from: json) == action)
  }

  /// Each event of the arguments below as the wire writes it (docs/ENGINE.md "memory"); the golden transcripts
  /// pin them in whole games.
  static let documentedMemoryGameEvents: Set<String> = [
    #"{"type":"finished","score":3,"moves":9}"#,
    #"{"type":"flipped","card":2,"face":"A♥"}"#,
    #"{"type":"left","player":"Ann"}"#,
    #"{"type":"matched","cards":[0,1]}"#,
    #"{"type":"turnPassed","to":"Bob"}"#,
  ]

  @Test(arguments: [
    MemoryGame.Event.turnPassed(to: "Bob"), .left("Ann"),
    .flipped(index: 2, card: PlayingCard(.ace, .hearts)),
    .matched(0, 1), .finished(score: 3, moves: 9),
  ])
  func eventsAreWrittenAsDocumented(event: MemoryGame.Event) throws {
    let text = try WireEncoder().text(of: event)
    #expect(Self.documentedMemoryGameEvents.contains(text), "\(text)")
  }
}
