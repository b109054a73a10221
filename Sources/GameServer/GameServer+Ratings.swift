import CardTableCore
import GameStore
import GameWire

// Ratings (docs/RATINGS.md): a game finished at a table of people only, dealt neither from a
// chosen seed nor again, moves each player's Elo rating in that game and category; the seats
// show them, and the records and player pages list them.
extension GameServer {
  /// Rates the game that just finished at `room`'s table, when it counts: saves how it moved
  /// each seated person's rating and shows the new ones at the seats.
  func rate(_ room: Room) {
    guard let table = room.table, let session = room.session else { return }
    let people = table.seats.filter { !$0.computer && $0.player != nil }
    defer { refreshRatings(room) }
    // NB: a game with a computer player in it, or of fewer than two people, is unrated.
    guard people.count >= 2, !table.seats.contains(where: \.computer) else { return }
    guard let result = try? store.results(in: room.id).last, result.ending == .finished,
      !result.practice, !result.replay, let category = session.ratingMode
    else { return }
    let record = (try? JSON(parsing: result.record)) ?? [:]
    let scores = Dictionary(
      (record["players"]?.arrayValue ?? []).compactMap { entry -> (String, Double)? in
        guard let name = entry["player"]?.stringValue, let score = entry["score"]?.doubleValue
        else { return nil }
        return (name, score)
      }, uniquingKeysWith: { first, _ in first })
    let winner = record["winner"]?.stringValue
    var before: [Rating] = []
    for seat in people {
      guard let player = seat.player else { return }
      before.append(rating(of: player, game: result.game, category: category) ?? Rating())
    }
    // NB: the winner first, then by score; the same placing is a draw.
    let placings = people.map { seat in
      (seat.name.rawValue == winner ? 1e9 : 0) + (scores[seat.name.rawValue] ?? 0)
    }
    let changes = Rating.changes(Array(zip(before, placings)))
    let wall = wallClock()
    let records = people.indices.compactMap { index -> RatingRecord? in
      guard let player = people[index].player else { return nil }
      return RatingRecord(
        room: room.id, index: result.index, player: player, game: result.game,
        category: category, was: before[index].value, change: changes[index], at: wall)
    }
    do {
      try store.save(
        RoomChange(
          room: room.id, ordinal: room.ordinal, ratings: records, status: room.status, at: wall))
    } catch {
      // NB: the game and its result are kept; only its rating is lost, and said so.
      log("cardtable: could not rate the game of \(room.id): \(error)")
    }
  }

  /// Reads the ratings of the people at `room`'s table in its game and category, for the
  /// seats to show (none before the game is dealt).
  func refreshRatings(_ room: Room) {
    guard var table = room.table, let category = room.session?.ratingMode else { return }
    for index in table.seats.indices {
      guard !table.seats[index].computer, let player = table.seats[index].player else { continue }
      table.seats[index].rating =
        rating(of: player, game: room.game, category: category) ?? Rating()
    }
    room.table = table
  }

  /// `player`'s rating in `game` and `category`; nil before their first rated game there (or
  /// when the store cannot say).
  func rating(of player: PlayerKey, game: String, category: String) -> Rating? {
    (try? store.ratings(of: player))?.first { $0.game == game && $0.category == category }?
      .rating
  }
}
