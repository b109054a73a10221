import CardTableCore
import GameServer
import GameStore
import GameWire
import Testing

/// The games a room is played as in the replay tests: the `new` message and a random move.
enum ReplayTable: String, CaseIterable, Sendable {
  case memoryEasy, memoryHard, concentration, matchismo2, matchismo3, set, setTwoPlayer, snap

  func new(seed: UInt64) -> String {
    let game: String
    switch self {
    case .memoryEasy: game = #""game":"memory","options":{"difficulty":"easy"}"#
    case .memoryHard: game = #""game":"memory","options":{"difficulty":"hard"}"#
    case .concentration: game = #""game":"concentration""#
    case .matchismo2: game = #""game":"matchismo","options":{"cards":12}"#
    case .matchismo3: game = #""game":"matchismo","options":{"cards":12,"mode":3}"#
    case .set: game = #""game":"set""#
    case .setTwoPlayer: game = #""game":"set","options":{"twoPlayer":true}"#
    case .snap: game = #""game":"snap""#
    }
    return #"{"cmd":"new",\#(game),"seed":\#(seed)}"#
  }

  /// A move a player might make now: mostly legal, sometimes refused.
  func move(_ random: inout SplitMix64) -> String {
    func act(_ action: String) -> String { #"{"cmd":"act","action":\#(action)}"# }
    switch self {
    case .memoryEasy: return act(#"{"type":"flip","card":\#(random.nextInt(below: 12))}"#)
    case .memoryHard: return act(#"{"type":"flip","card":\#(random.nextInt(below: 32))}"#)
    case .concentration: return act(#"{"type":"flip","card":\#(random.nextInt(below: 52))}"#)
    case .matchismo2, .matchismo3:
      switch random.nextInt(below: 20) {
      case 0: return act(#"{"type":"deal"}"#)
      case 1: return #"{"cmd":"hint"}"#
      default: return act(#"{"type":"choose","card":\#(random.nextInt(below: 12))}"#)
      }
    case .set, .setTwoPlayer:
      // NB: at one table the two players take turns; a move names no player and is the
      // current player's.
      switch random.nextInt(below: 25) {
      case 0: return act(#"{"type":"dealThree"}"#)
      case 1: return #"{"cmd":"hint"}"#
      case 2: return act(#"{"type":"deal"}"#)
      default: return act(#"{"type":"choose","card":\#(random.nextInt(below: 15))}"#)
      }
    case .snap:
      return act(
        random.nextInt(below: 3) == 0
          ? #"{"type":"snap","player":"You"}"# : #"{"type":"turn","player":"You"}"#)
    }
  }
}

@Suite struct ReplayTests {
  /// A game's view without its clock, which stands still while a room is put away.
  static func withoutClock(_ view: JSON?) -> JSON? {
    view?.removing("clock")
  }

  @Test(arguments: ReplayTable.allCases)
  func aStoredRoomReplaysToTheLiveGameAndItsSaveFileVerifies(table: ReplayTable) throws {
    for seed in UInt64(0)..<40 {
      let test = try TestServer()
      let me = ClientID(1)
      let token = test.hello(me)
      let room = test.newRoom(me, table.new(seed: seed))
      var random = SplitMix64(seed: seed &* 31 &+ 7)
      var now = 0.0
      for _ in 0..<70 {
        now += random.nextUnit() * 1.2
        while let wake = test.host.wake, wake <= now { test.host.fire(test.server, at: wake) }
        test.send(table.move(&random), from: me, at: now)
      }
      let live = try #require(update(test.send(#"{"cmd":"state"}"#, from: me, at: now)))

      let id = try #require(RoomID(rawValue: room))
      let file = try #require(try SaveFile(room: id, in: test.store, at: test.wall))
      let verdict = file.verify()
      #expect(verdict.failure == nil, "\(table) seed \(seed)")
      #expect(verdict.moves == live["version"]?.intValue)
      let reread = try SaveFile(json: try JSON(parsing: file.json.text))
      #expect(reread == file)

      try test.restart()
      test.hello(me, token: token, at: now + 100)
      let back = try #require(
        update(test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: me, at: now + 100)))
      #expect(back["version"] == live["version"], "\(table) seed \(seed)")
      #expect(
        Self.withoutClock(back["view"]) == Self.withoutClock(live["view"]), "\(table) seed \(seed)")
      let results = test.send(#"{"cmd":"results"}"#, from: me, at: now + 100)
      #expect(results.first?["results"]?.arrayValue?.count == file.matches.first?.results.count)
    }
  }

  @Test func aTamperedSaveFileNamesTheFirstBadMove() throws {
    let test = try TestServer()
    let me = ClientID(1)
    test.connect(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"memory","deck":\#(pairedDeck)}"#)
    for card in [0, 1, 2, 4] {
      test.send(
        #"{"cmd":"act","action":{"type":"flip","card":\#(card)}}"#, from: me, at: 3 * Double(card))
    }
    let id = try #require(RoomID(rawValue: room))
    var file = try #require(try SaveFile(room: id, in: test.store, at: 0))
    #expect(file.verify().failure == nil)
    // NB: flipping card 0 again, a card that has left the board.
    file.matches[0].log[3].action.action = ["type": "flip", "card": 0]
    let failure = try #require(file.verify().failure)
    #expect(failure.hasPrefix("match 1: Move 4 of the log"))
    #expect(failure.contains("removed"))
  }

  @Test func aSaveFileWhoseResultWasAlteredIsCaught() throws {
    let test = try TestServer()
    let me = ClientID(1)
    test.connect(me)
    let room = test.newRoom(me, #"{"cmd":"new","game":"matchismo","seed":3,"options":{"cards":4}}"#)
    for card in 0..<4 {
      test.send(#"{"cmd":"act","action":{"type":"choose","card":\#(card)}}"#, from: me)
    }
    test.send(#"{"cmd":"act","action":{"type":"deal"}}"#, from: me)
    let id = try #require(RoomID(rawValue: room))
    var file = try #require(try SaveFile(room: id, in: test.store, at: 0))
    #expect(file.verify().failure == nil)
    let recorded = try #require(file.matches[0].results.first)
    file.matches[0].results[0] = recorded.setting("score", to: 999)
    #expect(file.verify().failure?.contains("result 1 is recorded as") == true)
  }
}
