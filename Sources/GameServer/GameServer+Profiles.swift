import CardTableCore
import GameStore
import GameWire

// Players' pages (docs/PROTOCOL.md `profile`): `/players/ID` shows a player's name, ratings,
// statistics and latest games — only when they chose to show it (their `profile` setting).
extension GameServer {
  /// How many of a player's latest games their page lists.
  static let profileGames = 20

  /// `profile`: the asker's own page (with the id others find it by), or the page of the player
  /// `player` names when they show it.
  func profile(_ request: JSON, for client: ClientID, reply: JSON?) throws(WireError) {
    let asker = try player(of: client)
    let wanted = request["player"].flatMap { $0 == .null ? nil : $0 }
    let (subject, id): (PlayerRecord, String)
    do {
      if let wanted {
        guard let text = wanted.stringValue, let found = try store.player(publicID: text) else {
          throw WireError.noSuchPlayer
        }
        (subject, id) = (found, text)
      } else {
        let own = try store.publicID(of: asker.key, new: RoomID.random(using: &random).rawValue)
        (subject, id) = (asker, own)
      }
    } catch let error as WireError {
      throw error
    } catch {
      log("cardtable: could not find a player's page: \(error)")
      throw .storageUnavailable
    }
    let settings = (try? JSON(parsing: subject.settings)) ?? [:]
    let shown = settings["profile"]?.boolValue == true
    let own = subject.key == asker.key
    // NB: a page not shown is refused as a page that does not exist: nobody learns whose it is.
    guard own || shown else { throw WireError.noSuchPlayer }
    let results = try records(of: subject, game: nil).filter(\.counts)
    let recent = results.suffix(Self.profileGames).reversed().map { result in
      ProfileBody.Game(
        room: result.room.rawValue, game: result.game, options: result.options, end: result.end,
        duration: result.duration, won: result.won, winner: result.winner, score: result.score)
    }
    let body = ProfileBody(
      player: id, name: Table.wanted(subject), public: shown, you: own,
      ratings: try ratingRows(of: subject.key), stats: statisticsRows(results),
      recent: Array(recent))
    send(Answer(cmd: "profile", body: body, reply: reply), to: client)
  }
}

extension WireError {
  static let noSuchPlayer = WireError(
    code: "no-such-player", message: "There is no player's page at this link.")
}
