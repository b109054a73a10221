import CardTableCore
import GameStore
import GameWire

// A table's rematch (docs/PROTOCOL.md "Rematch"): at the end of its game the players at the
// table accept a new deal for the same seats; it is dealt once everyone still there has
// accepted (computer players always do), and the seats of those who went free up. The games
// each player won at the table are counted across its rematches.
extension GameServer {
  /// `rematch`: the seated player accepts a new deal of the table's game, once it is over.
  func rematch(_ room: Room, from client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    guard var table = room.table else {
      throw WireError(code: "not-a-table", message: "Only a table has a rematch.")
    }
    guard table.phase == .playing, room.session?.isFinished == true else {
      throw WireError(code: "game-not-over", message: "A rematch is offered once the game is over.")
    }
    guard let seat = table.seat(of: connections[client]?.player?.key) else { throw .watching }
    table.rematch.insert(seat)
    room.table = table
    if try !rematchIfAgreed(room, at: now, reply: (client, reply)) {
      broadcastTable(room, reply: (client, reply))
    }
  }

  /// The seats a rematch waits for: people still seated whose page is at the table.
  func rematchSeats(of room: Room) -> [Int] {
    guard let table = room.table else { return [] }
    return table.seats.indices.filter { index in
      let seat = table.seats[index]
      return !seat.left && !seat.computer
        && room.clients.contains { connections[$0]?.player?.key == seat.player }
    }
  }

  /// Deals the rematch when every person still at the table has accepted it (and two seats,
  /// computers included, remain); returns whether it did. Called when one accepts and when one
  /// goes.
  @discardableResult
  func rematchIfAgreed(_ room: Room, at now: Double, reply: (ClientID, JSON?)? = nil)
    throws(WireError) -> Bool
  {
    guard var table = room.table, table.phase == .playing, room.session?.isFinished == true,
      !table.rematch.isEmpty
    else { return false }
    let waitedFor = rematchSeats(of: room)
    guard !waitedFor.isEmpty, waitedFor.allSatisfy(table.rematch.contains) else { return false }
    let staying = table.seats.indices.filter { waitedFor.contains($0) || table.seats[$0].computer }
    guard staying.count >= table.fewestSeats else {
      throw WireError(
        code: "too-few-players",
        message: "\(room.game) needs at least \(table.fewestSeats) players for a rematch.")
    }
    // NB: whoever went frees the seat; the rest sit as before, the host first if still there.
    table.seats = staying.map { table.seats[$0] }
    table.rematch = []
    try deal(room, table, ordinal: room.ordinal + 1, from: reply?.0, reply: reply?.1, at: now)
    return true
  }

  /// The games won at `room`'s table so far, by name, from the store's results of its matches
  /// (nil when none has finished): each finished game once, whoever's result it is.
  func wins(at room: Room) -> [String: Int]? {
    guard let results = try? store.results(in: room.id) else { return room.table?.wins }
    var seen = Set<[Int]>()
    var wins: [String: Int]?
    for result in results where result.ending == .finished {
      guard seen.insert([result.ordinal, result.index]).inserted else { continue }
      wins = wins ?? [:]
      if let winner = result.winner { wins?[winner, default: 0] += 1 }
    }
    return wins
  }
}
