import CardTableCore
import GameServer
import GameStore
import GameWire
import Testing

private let ann = ClientID(1)
private let bob = ClientID(2)
private let cat = ClientID(3)

/// Ann hosts an easy Memory table (`extra` adds to `host`), `guests` join, Ann starts; returns
/// the room.
private func memoryTable(
  _ test: TestServer, guests: [(ClientID, String)] = [(bob, "Bob")], extra: String = "",
  computer: Bool = false
) -> String {
  for (client, name) in [(ann, "Ann")] + guests {
    test.hello(client, token: test.tokens[client])
    test.send(#"{"cmd":"settings","settings":{"name":"\#(name)"}}"#, from: client)
  }
  let room = test.newRoomCode(
    ann, #"{"cmd":"host","game":"memory","options":{"difficulty":"easy"}\#(extra)}"#)
  for (client, _) in guests { test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: client) }
  if computer { test.send(#"{"cmd":"seat","computer":true}"#, from: ann) }
  test.send(#"{"cmd":"start"}"#, from: ann)
  return room
}

/// The pairs of the room's current deal, read from the store's match as the referee sees it.
private func pairs(_ test: TestServer, room: String) throws -> [(Int, Int)] {
  let id = try #require(RoomID(rawValue: room))
  let match = try #require(try test.store.room(id)?.match)
  let session = try GameCatalog.restore(
    game: match.game, deal: try JSON(parsing: match.options), seed: match.seed,
    later: match.laterSeeds, log: [])
  let board = try #require(session.stateJSON()["board"]?.arrayValue)
  var first: [String: Int] = [:]
  var found: [(Int, Int)] = []
  for (index, card) in board.enumerated() {
    let face = card["card"]?.stringValue ?? ""
    if let other = first[face] { found.append((other, index)) } else { first[face] = index }
  }
  return found
}

/// Ann finds every pair from `time` on (a match keeps the turn); returns the time after.
@discardableResult
private func annFindsEveryPair(_ test: TestServer, room: String, from time: Double = 1) throws
  -> Double
{
  var now = time
  for (a, b) in try pairs(test, room: room) {
    test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(a)}}"#, from: ann, at: now)
    test.send(#"{"cmd":"act","action":{"type":"flip","card":\#(b)}}"#, from: ann, at: now + 0.1)
    now += 1.2
    while let wake = test.host.wake, wake <= now { test.host.fire(test.server, at: wake) }
  }
  return now
}

private func lastTable(_ test: TestServer, _ client: ClientID) -> JSON? {
  test.sent(to: client, since: 0).last { $0["type"] == "table" }
}

private func seatRatings(_ table: JSON?) -> [JSON?] {
  table?["seats"]?.arrayValue?.map { $0["rating"] } ?? []
}

@Suite struct RatingServerTests {
  @Test func aGameBetweenPeopleMovesBothRatingsAndTheSeatsShowThem() throws {
    let test = try TestServer()
    let room = memoryTable(test)
    let dealt = try #require(lastTable(test, ann))
    #expect(seatRatings(dealt) == [1500, 1500], "everyone starts at 1500")
    #expect(dealt["seats"]?.arrayValue?.allSatisfy { $0["provisional"] == true } == true)
    let end = try annFindsEveryPair(test, room: room)
    let over = try #require(lastTable(test, bob))
    #expect(over["phase"] == "over")
    #expect(seatRatings(over) == [1520, 1480], "two equals, provisional: ±K/2 = 20")

    let stats = test.send(#"{"cmd":"stats"}"#, from: bob, at: end)
    #expect(
      stats.last?["ratings"]
        == [
          [
            "game": "memory", "options": "difficulty easy, players 2", "rating": 1480, "games": 1,
            "provisional": true,
          ]
        ])
    // NB: the rematch deals again with the ratings as they now are, and the next game goes on
    // from them; a server started again on the same data still has them.
    test.send(#"{"cmd":"rematch"}"#, from: ann, at: end)
    test.send(#"{"cmd":"rematch"}"#, from: bob, at: end)
    #expect(seatRatings(lastTable(test, ann)) == [1520, 1480])
    try annFindsEveryPair(test, room: room, from: end + 1)
    let second = seatRatings(lastTable(test, ann)).compactMap { $0?.intValue }
    #expect(
      second.count == 2 && second[0] > 1520 && second[0] < 1540 && second[0] + second[1] == 3000)
    try test.restart()
    test.hello(ann, token: test.tokens[ann])
    let reopened = test.send(#"{"cmd":"open","room":"\#(room)"}"#, from: ann, at: 100)
    #expect(
      seatRatings(reopened.first { $0["type"] == "table" }).compactMap(\.?.intValue) == second)
    #expect(
      test.send(#"{"cmd":"stats"}"#, from: ann, at: 100).last?["ratings"]?.arrayValue?.first?[
        "games"] == 2)
  }

  @Test func gamesWithAComputerOrFromAChosenDealAreUnrated() throws {
    let withRay = try TestServer()
    let room = memoryTable(withRay, computer: true)
    #expect(lastTable(withRay, ann)?["seats"]?.arrayValue?.last?["rating"] == nil, "Ray has none")
    // NB: Ann finds every pair before Ray's first turn: a mismatch would pass the turn to Bob.
    let end = try annFindsEveryPair(withRay, room: room)
    #expect(lastTable(withRay, ann)?["phase"] == "over")
    #expect(seatRatings(lastTable(withRay, ann)).prefix(2) == [1500, 1500])
    #expect(withRay.send(#"{"cmd":"stats"}"#, from: ann, at: end).last?["ratings"] == [])

    let practice = try TestServer()
    let chosen = memoryTable(practice, extra: #","seed":42"#)
    try annFindsEveryPair(practice, room: chosen)
    #expect(lastTable(practice, ann)?["phase"] == "over")
    #expect(seatRatings(lastTable(practice, ann)) == [1500, 1500])
    #expect(practice.send(#"{"cmd":"stats"}"#, from: bob).last?["ratings"] == [])
  }

  @Test func aPlayersPageIsShownOnlyWhenTheyChooseSo() throws {
    let test = try TestServer()
    let room = memoryTable(test)
    try annFindsEveryPair(test, room: room)
    let own = try #require(test.send(#"{"cmd":"profile"}"#, from: ann).last)
    #expect(own["type"] == "answer" && own["you"] == true && own["public"] == false)
    #expect(own["name"] == "Ann")
    let id = try #require(own["player"]?.stringValue)
    #expect(test.send(#"{"cmd":"profile"}"#, from: ann).last?["player"]?.stringValue == id, "kept")
    let asked = #"{"cmd":"profile","player":"\#(id)"}"#
    #expect(errorCode(test.send(asked, from: bob)) == "no-such-player", "not shown yet")
    #expect(
      errorCode(test.send(#"{"cmd":"profile","player":"NOBODYHERE000000"}"#, from: bob))
        == "no-such-player")
    #expect(
      errorCode(test.send(#"{"cmd":"settings","settings":{"profile":"yes"}}"#, from: ann))
        == "bad-request")
    test.send(#"{"cmd":"settings","settings":{"profile":true}}"#, from: ann)
    let page = try #require(test.send(asked, from: bob).last)
    #expect(page["type"] == "answer" && page["you"] == false && page["public"] == true)
    #expect(page["name"] == "Ann" && page["player"]?.stringValue == id)
    #expect(page["ratings"]?.arrayValue?.first?["rating"] == 1520)
    #expect(page["stats"]?.arrayValue?.first?["won"] == 1)
    let recent = try #require(page["recent"]?.arrayValue)
    #expect(
      recent.count == 1 && recent.first?["room"]?.stringValue == room
        && recent.first?["won"] == true)
    // NB: a watcher who has never played has a page too, with nothing on it.
    test.hello(cat)
    let empty = try #require(test.send(#"{"cmd":"profile"}"#, from: cat).last)
    #expect(empty["ratings"] == [] && empty["recent"] == [] && empty["name"] == .null)
  }
}
