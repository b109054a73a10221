import CardTableCore
import GameStore
import GameWire

// The player's own records: rooms, high scores, statistics and settings.

extension GameServer {
  // MARK: The player's records

  func listRooms(for client: ClientID, reply: JSON?) throws(WireError) {
    let owner = try player(of: client)
    let rooms: [RoomSummary]
    do {
      rooms = try store.openRooms(of: owner.key, limit: Self.listedRooms)
    } catch {
      log("cardtable: could not list rooms: \(error)")
      throw .storageUnavailable
    }
    let list = rooms.map { room in
      let deal = (try? JSON(parsing: room.options)) ?? [:]
      return RoomsBody.Listing(
        room: room.id.rawValue, game: room.game, options: deal["options"] ?? [:],
        version: room.version, created: room.created, updated: room.updated)
    }
    send(Answer(cmd: "rooms", body: RoomsBody(rooms: list), reply: reply), to: client)
  }

  func scores(_ request: JSON, for client: ClientID, reply: JSON?) throws(WireError) {
    let owner = try player(of: client)
    let game = request["game"]?.stringValue
    if let game, !GameCatalog.names.contains(game) { throw .unknownGame(game) }
    let sortName = request["sort"]?.stringValue ?? ScoreSort.date.rawValue
    guard let sort = ScoreSort(rawValue: sortName) else {
      throw .badRequest(
        "scores: \"sort\" must be one of \(ScoreSort.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(sortName)\"."
      )
    }
    let results = try records(of: owner, game: game)
    let order = { (result: ResultRecord) in
      GameCatalog.describe(game: result.game, options: result.options)?.order ?? .none
    }
    let entries = HighScores.list(results, sort: sort, order: order, limit: Self.listedScores)
    let better: String? =
      switch game.flatMap({ GameCatalog.scoreOrder(of: $0) }) {
      case .higherIsBetter?: "higher"
      case .lowerIsBetter?: "lower"
      default: nil
      }
    let list = entries.map { entry in
      let result = entry.result
      return ScoresBody.Listing(
        game: result.game, options: result.options, score: result.score, moves: result.moves,
        start: result.start, end: result.end, duration: result.duration,
        room: result.room.rawValue, marks: entry.marks.map(\.rawValue))
    }
    let body = ScoresBody(game: game, sort: sort.rawValue, better: better, scores: list)
    send(Answer(cmd: "scores", body: body, reply: reply), to: client)
  }

  func statistics(for client: ClientID, reply: JSON?) throws(WireError) {
    let owner = try player(of: client)
    let body = StatsBody(
      stats: statisticsRows(try records(of: owner, game: nil)),
      ratings: try ratingRows(of: owner.key))
    send(Answer(cmd: "stats", body: body, reply: reply), to: client)
  }

  /// The statistics of `results`, a row per game and category.
  func statisticsRows(_ results: [ResultRecord]) -> [StatsBody.Row] {
    HighScores.statistics(results) { result in
      GameCatalog.describe(game: result.game, options: result.options)
        ?? (result.options, .none)
    }.map { row in
      StatsBody.Row(
        game: row.game, options: row.options, played: row.played, won: row.won,
        bestScore: row.bestScore, bestTime: row.bestTime, streak: row.streak,
        bestStreak: row.bestStreak)
    }
  }

  func ratingRows(of player: PlayerKey) throws(WireError) -> [RatingRow] {
    do {
      return try store.ratings(of: player).map(RatingRow.init)
    } catch {
      log("cardtable: could not read ratings: \(error)")
      throw .storageUnavailable
    }
  }

  func records(of owner: PlayerRecord, game: String?) throws(WireError) -> [ResultRecord] {
    do {
      return try store.results(of: owner.key, game: game)
    } catch {
      log("cardtable: could not read results: \(error)")
      throw .storageUnavailable
    }
  }

  func settings(_ request: JSON, for client: ClientID, reply: JSON?) throws(WireError) {
    var owner = try player(of: client)
    var settings = (try? JSON(parsing: owner.settings)) ?? [:]
    if let given = request["settings"], given != .null {
      settings = try PlayerSettings.merge(given, into: settings)
      do {
        try store.saveSettings(settings.text, of: owner.key)
      } catch {
        log("cardtable: could not save settings: \(error)")
        throw .storageUnavailable
      }
      owner.settings = settings.text
      connections[client]?.player = owner
    }
    send(Answer(cmd: "settings", body: SettingsBody(settings: settings), reply: reply), to: client)
  }
}
