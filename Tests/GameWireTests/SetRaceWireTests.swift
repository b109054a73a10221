import CardTableCore
import GameWire
import SetGame
import Testing

@Suite struct SetRaceWireTests {
  /// A table whose only set is 0, 1, 2 (the deck of ``SetGameWireTests``).
  let deck = SetGameWireTests().deck

  func session(_ options: JSON = ["players": ["Ann", "Bob"]]) throws -> any GameSession {
    try GameCatalog.start(NewGame(game: "set", options: options, seed: 3, deck: deck))
  }

  func choose(_ card: Int, _ session: any GameSession, as player: PlayerID) throws -> EventBatch {
    try session.perform(["type": "choose", "card": JSON(card)], as: player)
  }

  @Test func eachViewerSeesTheirOwnSelectionAndOnlyHowManyTheOthersChose() throws {
    let race = try session()
    _ = try choose(0, race, as: "Ann")
    let bob = try choose(4, race, as: "Bob")
    #expect(
      bob.json(for: .player("Bob")) == [
        [
          "type": "selected", "player": "Bob", "card": 4, "face": "diamond:green:solid:1",
          "count": 1,
        ]
      ])
    #expect(bob.json(for: .player("Ann")) == [["type": "selected", "player": "Bob", "count": 1]])
    let ann = race.viewJSON(for: .player("Ann"))
    #expect(ann["viewer"] == "Ann")
    #expect(ann["table"]?.arrayValue?.map { $0["chosen"] }.firstIndex(of: true) == 0)
    #expect(ann["table"]?.arrayValue?.filter { $0["chosen"] == true }.count == 1)
    #expect(
      ann["players"] == [
        ["player": "Ann", "score": -1, "chosen": 1, "askedForThree": false, "left": false],
        ["player": "Bob", "score": -1, "chosen": 1, "askedForThree": false, "left": false],
      ])
    #expect(ann["current"] == nil && ann["gameSeed"] == .null)
    let referee = race.stateJSON()
    #expect(referee["players"]?.arrayValue?.map { $0["selection"] } == [[0], [4]])
  }

  @Test func aFoundSetIsEveryonesToSeeWithItsFinder() throws {
    let race = try session()
    _ = try choose(0, race, as: "Ann")
    _ = try choose(1, race, as: "Ann")
    _ = try choose(0, race, as: "Bob")
    let found = try choose(2, race, as: "Ann")
    let seen = found.json(for: .player("Bob"))
    #expect(seen.map { $0["type"] } == ["selected", "matched", "deselected", "removed"])
    #expect(seen[1]["player"] == "Ann" && seen[1]["points"] == 16)
    #expect(seen[2] == ["type": "deselected", "player": "Bob", "card": 0, "count": 0])
    #expect(
      found.json(for: .player("Ann"))[2] == ["type": "deselected", "player": "Bob", "count": 0])
    let view = race.viewJSON(for: .player("Bob"))
    #expect(
      view["status"]
        == "Ann: Matched oval:red:solid:1 oval:green:solid:1 oval:purple:solid:1 for 16 points.")
    #expect(view["history"]?.arrayValue?.count == 1)
    #expect(
      throws: WireError(
        code: "card-matched", message: "oval:purple:solid:1 has already been matched.")
    ) {
      try race.perform(["type": "choose", "card": 2, "face": "oval:purple:solid:1"], as: "Bob")
    }
  }

  @Test func plusThreeByAgreementOnTheWire() throws {
    let race = try session()
    let asked = try race.perform(["type": "dealThree"], as: "Ann")
    #expect(
      asked.json(for: .player("Bob")) == [
        ["type": "askedForThree", "player": "Ann", "waiting": ["Bob"]]
      ])
    #expect(
      race.viewJSON(for: .player("Bob"))["players"]?.arrayValue?.first?["askedForThree"] == true)
    let dealt = try race.perform(["type": "dealThree"], as: "Bob")
    #expect(dealt.json(for: .player("Ann")).last?["charge"] == 0)
    #expect(race.viewJSON(for: .player("Ann"))["deckCount"] == 0)
    let left = try race.perform(["type": "leave"], as: "Bob")
    #expect(left.json(for: .player("Ann")) == [["type": "left", "player": "Bob"]])
    #expect(throws: WireError(code: "not-in-a-race", message: "Hints are not given in a race.")) {
      try race.perform(["type": "hint"], as: "Ann")
    }
  }

  @Test func theConsoleRacesWithNamedPlayers() throws {
    let cards = deck.map { "\"\($0)\"" }.joined(separator: ",")
    let answers = try replies(
      #"{"cmd":"new","game":"set","options":{"players":["Ann","Bob"]},"deck":["# + cards
        + #"],"seed":3}"#,
      #"{"cmd":"act","action":{"type":"choose","card":0,"player":"Bob"}}"#,
      #"{"cmd":"act","action":{"type":"choose","card":0}}"#,
      #"{"cmd":"new","game":"set","options":{"players":["Ann","Bob"],"twoPlayer":true}}"#)
    #expect(answers[1]["state"]?["players"]?.arrayValue?.last?["chosen"] == 1)
    #expect(answers[2]["error"]?["code"] == "not-a-player")
    #expect(answers[3]["error"]?["code"] == "invalid-options")
  }

  @Test func aGameAloneWritesNothingNew() throws {
    let alone = try session([:])
    let state = alone.stateJSON()
    #expect(state["players"] == nil && state["viewer"] == nil)
    #expect(alone.deal["options"]?["players"] == nil)
    let events = try choose(0, alone, as: .solo)
    #expect(
      events.json(for: .player(.solo)) == [
        ["type": "chosen", "card": 0, "face": "oval:red:solid:1"]
      ])
  }

  @Test(arguments: [
    SetGame.Options(players: ["Ann", "Bob", "Cy"]), SetGame.Options(refill: true),
    SetGame.Options(twoPlayer: true),
  ])
  func optionsReadBackWhatTheyWrite(options: SetGame.Options) throws {
    let json = try WireEncoder().json(of: options)
    #expect(try WireDecoder().decode(SetGame.Options.self, from: json) == options)
  }

  @Test(arguments: [
    SetGame.Action.choose(3), .chooseCard(SetCard.fullDeck[7], at: 3), .dealThree, .deal, .hint,
    .leave,
  ])
  func actionsReadBackWhatTheyWrite(action: SetGame.Action) throws {
    let json = try WireEncoder().json(of: action)
    #expect(try WireDecoder().decode(SetGame.Action.self, from: json) == action)
  }

  /// Each event of the arguments below as the wire writes it (docs/ENGINE.md "set"); the golden transcripts
  /// pin them in whole games.
  static let documentedSetGameEvents: Set<String> = [
    #"{"type":"askedForThree","player":"Ann","waiting":["Bob"]}"#,
    #"{"type":"deselected","player":"Bob","card":4,"count":0}"#,
    #"{"type":"deselected","player":"Bob","count":1}"#,
    #"{"type":"left","player":"Cy"}"#,
    #"{"type":"matched","player":"Ann","cards":[0,1,2],"faces":["diamond:red:solid:1","diamond:green:solid:1","diamond:purple:solid:1"],"points":16,"reason":{"text":"number same, symbol same, shading same, color different","number":"same","symbol":"same","shading":"same","color":"different"}}"#,
    #"{"type":"mismatched","cards":[0,1,2],"penalty":2}"#,
    #"{"type":"mismatched","player":"Bob","cards":[1,4,5],"penalty":2}"#,
    #"{"type":"selected","player":"Ann","card":2,"face":"diamond:green:solid:1","count":2}"#,
    #"{"type":"selected","player":"Ann","count":1}"#,
  ]

  @Test(arguments: [
    SetGame.Event.selected(by: "Ann", index: 2, card: SetCard.fullDeck[1], count: 2),
    .selected(by: "Ann", index: nil, card: nil, count: 1),
    .deselected(by: "Bob", index: 4, count: 0),
    .deselected(by: "Bob", index: nil, count: 1),
    .found(
      by: "Ann", cards: [0, 1, 2], faces: Array(SetCard.fullDeck.prefix(3)), points: 16,
      reason: SetGame.Rule.reason(Hand<SetCard>(SetCard.fullDeck.prefix(3)))),
    .missed(by: "Bob", cards: [1, 4, 5], penalty: 2), .askedForThree(by: "Ann", waiting: ["Bob"]),
    .left("Cy"), .mismatched(cards: [0, 1, 2], penalty: 2),
  ])
  func eventsAreWrittenAsDocumented(event: SetGame.Event) throws {
    let text = try WireEncoder().text(of: event)
    #expect(Self.documentedSetGameEvents.contains(text), "\(text)")
  }
}
