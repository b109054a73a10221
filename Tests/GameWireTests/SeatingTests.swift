import CardTableCore
import GameWire
import Testing

@Suite struct SeatingTests {
  @Test(arguments: [
    ("memory", 1...4, true), ("concentration", 1...4, true), ("matchismo", 1...1, false),
    ("set", 1...4, true), ("snap", 2...4, true),
  ])
  func everyGameSaysHowManySitAtItsTable(game: String, seats: ClosedRange<Int>, computers: Bool)
    throws
  {
    #expect(try GameCatalog.seatRange(of: game) == seats)
    #expect(try GameCatalog.takesComputerPlayers(game) == computers)
  }

  @Test func seatedPlayersArePutInTheOptions() throws {
    #expect(
      try GameCatalog.options(["difficulty": "hard"], of: "memory", seating: ["Ann", "Bob"])
        == ["difficulty": "hard", "players": ["Ann", "Bob"]])
    #expect(
      try GameCatalog.options(.null, of: "concentration", seating: ["Ann", "Bob", "Cy"])
        == ["players": ["Ann", "Bob", "Cy"]])
    #expect(
      try GameCatalog.options(["refill": true], of: "set", seating: ["Ann", "Bob"])
        == ["refill": true, "players": ["Ann", "Bob"]])
    #expect(
      try GameCatalog.options(
        ["computerSpeed": "quick", "players": ["X", "Y"]], of: "snap", seating: ["Ann", "Bob"],
        computers: ["Ray"])
        == ["computerSpeed": "quick", "players": ["Ann", "Bob", "Ray"], "computer": ["Ray"]])
    // NB: a table's computer players are seated by name; a game alone's opponent goes.
    #expect(
      try GameCatalog.options(
        ["difficulty": "hard", "computerLevel": "perfect", "opponent": "good"], of: "memory",
        seating: ["Ann"], computers: ["Ray", "Lucy"])
        == [
          "difficulty": "hard", "computerLevel": "perfect", "players": ["Ann", "Ray", "Lucy"],
          "computer": ["Ray", "Lucy"],
        ])
    #expect(
      try GameCatalog.options(
        ["computerLevel": "sharp"], of: "set", seating: ["Ann"], computers: ["Ray"])
        == ["computerLevel": "sharp", "players": ["Ann", "Ray"], "computer": ["Ray"]])
    #expect(throws: WireError.self) {
      try GameCatalog.options(
        ["twoPlayer": true], of: "set", seating: ["Ann"], computers: ["Ray"])
    }
    let table = try GameCatalog.start(
      NewGame(
        game: "concentration",
        options: try GameCatalog.options(
          ["computerLevel": "forgetful"], of: "concentration", seating: ["Ann"],
          computers: ["Ray"]),
        seed: 5))
    let players = table.viewJSON(for: .player("Ann"))["players"]
    #expect(
      players?.text == #"[{"player":"Ann","pairs":0,"left":false},"#
        + #"{"player":"Ray","pairs":0,"left":false,"computer":true}]"#)
    #expect(table.viewJSON(for: .player("Ann"))["computerLevel"] == "forgetful")
  }

  @Test(arguments: ["memory", "concentration", "matchismo", "set"])
  func onePlayerPlaysTheGameAlone(game: String) throws {
    // NB: a game of several players takes out the players of old; Matchismo has none.
    let given: JSON = game == "matchismo" ? [:] : ["players": ["Old", "Older"]]
    let options = try GameCatalog.options(given, of: game, seating: ["Ann"])
    #expect(options == [:])
    let alone = try GameCatalog.start(NewGame(game: game, options: options, seed: 5))
    let usual = try GameCatalog.start(NewGame(game: game, seed: 5))
    #expect(alone.stateJSON() == usual.stateJSON())
    #expect(alone.deal == usual.deal)
  }

  @Test(
    arguments: [
      (
        "memory", ["A", "B", "C", "D", "E"], [],
        "Seats for Memory and Concentration: 1 to 4 players, computer players included, not 5."
      ),
      ("matchismo", ["Ann", "Bob"], [], "Seats for Matchismo: 1 to 1 players, not 2."),
      ("matchismo", ["Ann"], ["Ray"], "No computer players play Matchismo."),
      ("snap", ["Ann"], [], "Seats for Snap!: 2 to 4 players, computer players included, not 1."),
      (
        "snap", ["Ann", "Bob", "Cy"], ["Ray", "Lucy"],
        "Seats for Snap!: 2 to 4 players, computer players included, not 5."
      ),
      ("snap", [], ["Ray", "Lucy"], "A table needs a player to seat."),
      ("set", ["Ann", "Ann"], [], "Ann is seated twice."),
      ("set", ["Ann", " "], [], "\" \" cannot be a player's name."),
    ] as [(String, [PlayerID], [PlayerID], String)])
  func seatingsTheGameDoesNotTakeAreRefused(
    game: String, players: [PlayerID], computers: [PlayerID], message: String
  ) {
    #expect(throws: WireError(code: "bad-request", message: message)) {
      try GameCatalog.options([:], of: game, seating: players, computers: computers)
    }
  }

  @Test func aRaceIsNotTwoPlayerSetAndOptionsMustBeAnObject() {
    #expect(throws: WireError.self) {
      try GameCatalog.options(["twoPlayer": true], of: "set", seating: ["Ann", "Bob"])
    }
    #expect(
      throws: WireError(
        code: "bad-request", message: "Options to seat must be an object, not array.")
    ) {
      try GameCatalog.options([1], of: "memory", seating: ["Ann"])
    }
  }

  /// A room passes the seat's player to `perform(_:as:)`; the action names none.
  @Test func eachSeatActsAsItsPlayer() throws {
    let memory = try seated("memory", ["Ann", "Bob"])
    #expect(throws: WireError.self) { try memory.perform(["type": "flip", "card": 0], as: "Bob") }
    #expect(try memory.perform(["type": "flip", "card": 0], as: "Ann").count == 1)
    #expect(throws: WireError.self) { try memory.perform(["type": "flip", "card": 1], as: .solo) }

    let concentration = try seated("concentration", ["Ann", "Bob"])
    #expect(try concentration.perform(["type": "flip", "card": 0], as: "Ann").count == 1)
    #expect(try concentration.perform(["type": "leave"], as: "Bob").count == 1)

    let set = try seated("set", ["Ann", "Bob", "Cy"])
    #expect(try set.perform(["type": "choose", "card": 1], as: "Cy").count == 1)
    #expect(try set.perform(["type": "dealThree"], as: "Bob").count == 1)
    #expect(throws: WireError.self) { try set.perform(["type": "choose", "card": 1], as: "Dee") }

    let snap = try seated("snap", ["Ann", "Bob"], computers: ["Ray"], ["starting": "Bob"])
    _ = snap.advance(by: 5.2)
    #expect(throws: WireError.self) { try snap.perform(["type": "turn"], as: "Ann") }
    #expect(try snap.perform(["type": "turn"], as: "Bob").count == 1)
    #expect(try snap.perform(["type": "snap"], as: "Ann").count == 1)

    let matchismo = try seated("matchismo", ["Ann"])
    #expect(try matchismo.perform(["type": "choose", "card": 0], as: "Ann").count == 1)
  }

  private func seated(
    _ game: String, _ players: [PlayerID], computers: [PlayerID] = [], _ options: JSON = [:]
  ) throws -> any GameSession {
    let options = try GameCatalog.options(
      options, of: game, seating: players, computers: computers)
    return try GameCatalog.start(NewGame(game: game, options: options, seed: 11))
  }
}
