import CardTableCore
import GameStore
import GameWire

extension SaveFile {
  /// The save file of a room as `store` has it (docs/SAVEFILE.md), exported at `now`
  /// (milliseconds since 1970), or nil when there is no such room.
  public init?(room id: RoomID, in store: any GameStore, at now: Int64) throws(StoreError) {
    guard let room = try store.room(id) else { return nil }
    let results = try store.results(in: id)
    let matches = try store.matches(in: id)
    let last = matches.last?.match.ordinal
    let chat = room.table == nil ? [] : try store.chat(in: id, last: nil)
    self.init(
      room: id.rawValue, game: room.game, status: room.status.rawValue,
      created: room.created, exported: now,
      matches: matches.map { match, actions in
        SaveFile.Match(
          game: match.game, deal: (try? JSON(parsing: match.options)) ?? [:], seed: match.seed,
          later: match.laterSeeds,
          practice: match.seedChosen || (try? JSON(parsing: match.options))?["deck"] != nil,
          replay: match.replay,
          started: match.started,
          log: actions.map { action in
            (
              LoggedAction(
                time: action.time, player: PlayerID(action.player), automatic: action.automatic,
                action: (try? JSON(parsing: action.action)) ?? [:]), action.at
            )
          },
          results: results.filter { $0.ordinal == match.ordinal }.map {
            (try? JSON(parsing: $0.record)) ?? .null
          },
          abandoned: room.status == .abandoned && match.ordinal == last)
      }, chat: chat.map { TableChat.json($0, for: nil) })
  }
}
