import CardTableCore

/// The ``GameStore`` that keeps everything in this process's memory and nothing anywhere else:
/// `cardtable serve --in-memory` (a demo, a classroom, a server whose games need not outlive
/// it), and the baseline that measures what keeping games costs (docs/PERFORMANCE.md).
///
/// It keeps the contract the other stores keep (``StoreContractTests`` runs on it too): every
/// change is checked whole before any of it is applied, so that a refused change, or a refused
/// batch of a group commit, leaves nothing behind. Used from one thread at a time.
public final class MemoryStore: GameStore {
  /// Where the games are kept, for messages.
  public let path = "memory"

  /// A room as kept: what ``RoomRecord`` reads, with every match and its chat.
  struct Room {
    var owner: PlayerKey
    var game: String
    var status: RoomStatus
    var created: Int64
    var updated: Int64
    /// The ordinal of the current match.
    var current: Int
    var table: TableRecord?
    /// The matches by ordinal, each with its log.
    var matches: [Int: (match: MatchRecord, actions: [ActionRecord])] = [:]
    /// The room's results (at a table one per seated player and game), in the order written.
    var results: [ResultRecord] = []
    var chat: [ChatRecord] = []

    /// When the room last changed: its last change saved, or its current match's last action
    /// when that is later (the contract's `updated`, ``RoomRecord/updated``).
    var lastChange: Int64 { max(updated, matches[current]?.actions.last?.at ?? updated) }

    /// What a checked change does to the room itself (its results and ratings are the
    /// store's to file).
    mutating func apply(_ change: RoomChange) {
      if let match = change.newMatch { matches[match.ordinal] = (match, []) }
      if !change.actions.isEmpty { matches[change.ordinal]?.actions += change.actions }
      chat += change.chat
      status = change.status
      updated = change.at
      current = change.ordinal
      if let new = change.table {
        // NB: a table keeps the code it was created with.
        table = TableRecord(
          code: table?.code ?? new.code, phase: new.phase, isPublic: new.isPublic,
          options: new.options, seats: new.seats, watcherChat: new.watcherChat)
      }
    }
  }

  struct Player {
    var record: PlayerRecord
    var publicID: String?
    /// Their results, in the order they were written.
    var results: [ResultRecord] = []
    var ratings: [RatingRecord] = []
    /// How many rooms they own (``players()`` lists those with one).
    var rooms = 0
  }

  private var rooms: [RoomID: Room] = [:]
  private var people: [PlayerKey: Player] = [:]
  private var tokens: [[UInt8]: PlayerKey] = [:]
  private var publicIDs: [String: PlayerKey] = [:]
  private var codes: [String: RoomID] = [:]
  private var transfers: [[UInt8]: TransferRecord] = [:]
  private var nextPlayer: Int64 = 1

  public init() {}

  // MARK: Players

  public func player(_ token: PlayerToken, at now: Int64) throws(StoreError) -> PlayerRecord {
    let hash = token.hash
    if let key = tokens[hash], let player = people[key] { return player.record }
    let record = PlayerRecord(key: PlayerKey(rawValue: nextPlayer), settings: "{}", created: now)
    nextPlayer += 1
    tokens[hash] = record.key
    people[record.key] = Player(record: record)
    return record
  }

  public func players() throws(StoreError) -> [PlayerRecord] {
    people.values.filter { $0.rooms > 0 }.map(\.record).sorted {
      ($0.created, $0.key.rawValue) < ($1.created, $1.key.rawValue)
    }
  }

  public func saveSettings(_ settings: String, of player: PlayerKey) throws(StoreError) {
    people[player]?.record.settings = settings
  }

  public func publicID(of player: PlayerKey, new: String) throws(StoreError) -> String {
    guard people[player] != nil else { return new }
    if let kept = people[player]?.publicID { return kept }
    people[player]?.publicID = new
    publicIDs[new] = player
    return new
  }

  public func player(publicID: String) throws(StoreError) -> PlayerRecord? {
    publicIDs[publicID].flatMap { people[$0]?.record }
  }

  public func ratings(of player: PlayerKey) throws(StoreError) -> [RatingSummary] {
    var totals:
      [String: (game: String, category: String, change: Double, games: Int, last: Int64)] =
        [:]
    for rating in people[player]?.ratings ?? [] {
      let key = rating.game + "\u{0}" + rating.category
      var total = totals[key] ?? (rating.game, rating.category, 0, 0, rating.at)
      total.change += rating.change
      total.games += 1
      total.last = max(total.last, rating.at)
      totals[key] = total
    }
    return totals.values.sorted {
      ($1.last, $0.game, $0.category) < ($0.last, $1.game, $1.category)
    }.map {
      RatingSummary(
        game: $0.game, category: $0.category,
        rating: Rating(value: Rating.initial + $0.change, games: $0.games), last: $0.last)
    }
  }

  public func keepTransfer(_ transfer: TransferRecord, now: Int64) throws(StoreError) {
    transfers = transfers.filter { $0.value.player != transfer.player && $0.value.expires > now }
    transfers[transfer.code] = transfer
  }

  public func takeTransfer(_ code: [UInt8], now: Int64) throws(StoreError) -> [UInt8]? {
    guard let transfer = transfers[code], transfer.expires > now else { return nil }
    transfers[code] = nil
    return transfer.sealed
  }

  // MARK: Rooms

  public func createRoom(_ new: NewRoom) throws(StoreError) {
    guard rooms[new.id] == nil else { throw refused("room \(new.id) exists already") }
    guard people[new.owner] != nil else { throw refused("no player \(new.owner.rawValue)") }
    if let code = new.table?.code, codes[code] != nil {
      throw refused("a table with code \(code) exists already")
    }
    var room = Room(
      owner: new.owner, game: new.game, status: new.status, created: new.created,
      updated: new.created, current: new.match?.ordinal ?? 0, table: new.table)
    if let match = new.match { room.matches[match.ordinal] = (match, []) }
    rooms[new.id] = room
    if let code = new.table?.code { codes[code] = new.id }
    people[new.owner]?.rooms += 1
    let change = RoomChange(
      room: new.id, ordinal: new.match?.ordinal ?? 0, actions: new.actions, results: new.results,
      status: new.status, at: new.created)
    do {
      try save([change])
    } catch {
      rooms[new.id] = nil
      if let code = new.table?.code { codes[code] = nil }
      people[new.owner]?.rooms -= 1
      throw error
    }
  }

  public func room(_ id: RoomID) throws(StoreError) -> RoomRecord? {
    guard let room = rooms[id] else { return nil }
    let current = room.matches[room.current]
    guard current != nil || room.table?.phase == .lobby else { return nil }
    return RoomRecord(
      id: id, owner: room.owner, game: room.game, status: room.status, created: room.created,
      updated: room.lastChange, match: current?.match, table: room.table,
      actions: current?.actions ?? [], resultCount: Set(room.results.map(\.index)).count)
  }

  public func room(code: String) throws(StoreError) -> RoomID? { codes[code] }

  public func publicTables(limit: Int) throws(StoreError) -> [TableSummary] {
    let listed = rooms.filter { _, room in
      room.status == .playing && room.table?.phase == .lobby && room.table?.isPublic == true
    }
    return listed.sorted {
      ($1.value.created, $0.key.rawValue) < ($0.value.created, $1.key.rawValue)
    }.prefix(max(limit, 0)).compactMap { id, room in
      room.table.map { TableSummary(room: id, game: room.game, table: $0, created: room.created) }
    }
  }

  public func save(_ change: RoomChange) throws(StoreError) {
    try save([change])
  }

  /// Checks every change against the rooms as the ones before it leave them, then applies them
  /// all: a change the other stores' keys or constraints would refuse refuses the batch whole.
  public func save(_ changes: [RoomChange]) throws(StoreError) {
    var actionCounts: [RoomID: [Int: Int]] = [:]
    var chatCounts: [RoomID: Int] = [:]
    var newMatches: [RoomID: Set<Int>] = [:]
    var resultKeys: [RoomID: Set<[Int64]>] = [:]
    for change in changes {
      guard let room = rooms[change.room] else { throw refused("no room \(change.room)") }
      if let match = change.newMatch {
        guard room.matches[match.ordinal] == nil,
          newMatches[change.room, default: []].insert(match.ordinal).inserted
        else {
          throw refused("room \(change.room) has a match \(match.ordinal) already")
        }
        actionCounts[change.room, default: [:]][match.ordinal] = 0
      }
      if !change.actions.isEmpty {
        var count =
          actionCounts[change.room]?[change.ordinal] ?? room.matches[change.ordinal]?.actions.count
        guard count != nil else {
          throw refused("room \(change.room) has no match \(change.ordinal)")
        }
        for action in change.actions {
          guard action.index == count else {
            throw refused("action \(action.index) of room \(change.room) is not the next")
          }
          count? += 1
        }
        actionCounts[change.room, default: [:]][change.ordinal] = count
      }
      var chat = chatCounts[change.room] ?? room.chat.count
      for line in change.chat {
        guard line.index == chat else {
          throw refused("chat line \(line.index) of room \(change.room) is not the next")
        }
        chat += 1
      }
      chatCounts[change.room] = chat
      if !change.results.isEmpty {
        var keys =
          resultKeys[change.room]
          ?? Set(room.results.map { [Int64($0.index), $0.player.rawValue] })
        for result in change.results {
          guard result.room == change.room,
            keys.insert([Int64(result.index), result.player.rawValue]).inserted
          else {
            throw refused("result \(result.index) of room \(result.room) is kept already")
          }
        }
        resultKeys[change.room] = keys
      }
    }
    for change in changes { apply(change) }
  }

  /// One checked change.
  private func apply(_ change: RoomChange) {
    rooms[change.room]?.apply(change)
    for result in change.results {
      rooms[result.room]?.results.append(result)
      people[result.player]?.results.append(result)
    }
    for rating in change.ratings { people[rating.player]?.ratings.append(rating) }
  }

  public func openRooms(of player: PlayerKey, limit: Int) throws(StoreError) -> [RoomSummary] {
    let open = rooms.filter { _, room in
      room.status == .playing
        && (room.owner == player || room.table?.seats.contains { $0.player == player } == true)
    }
    return open.sorted {
      ($1.value.lastChange, $0.key.rawValue) < ($0.value.lastChange, $1.key.rawValue)
    }.prefix(max(limit, 0)).map { id, room in
      let current = room.matches[room.current]
      return RoomSummary(
        id: id, game: room.game,
        options: current?.match.options ?? #"{"options":\#(room.table?.options ?? "{}")}"#,
        version: current?.actions.count ?? 0, status: room.status, created: room.created,
        updated: room.lastChange)
    }
  }

  public func results(in room: RoomID) throws(StoreError) -> [ResultRecord] {
    // NB: at a table each game has a result per seated player; the lowest player's stands in.
    var first: [Int: ResultRecord] = [:]
    for result in rooms[room]?.results ?? [] {
      if let kept = first[result.index], kept.player.rawValue <= result.player.rawValue {
        continue
      }
      first[result.index] = result
    }
    return first.values.sorted { $0.index < $1.index }
  }

  public func results(of player: PlayerKey, game: String?) throws(StoreError) -> [ResultRecord] {
    (people[player]?.results ?? []).filter { game == nil || $0.game == game }.sorted {
      ($0.end, $0.room.rawValue, $0.index) < ($1.end, $1.room.rawValue, $1.index)
    }
  }

  public func chat(in room: RoomID, last limit: Int?) throws(StoreError) -> [ChatRecord] {
    let lines = rooms[room]?.chat ?? []
    guard let limit else { return lines }
    return Array(lines.suffix(max(limit, 0)))
  }

  public func matches(in room: RoomID) throws(StoreError) -> [(
    match: MatchRecord, actions: [ActionRecord]
  )] {
    guard let room = rooms[room] else { return [] }
    return room.matches.values.sorted { $0.match.ordinal < $1.match.ordinal }
  }

  public func idleRooms(before time: Int64, limit: Int) throws(StoreError) -> [RoomID] {
    rooms.filter { $0.value.status == .playing && $0.value.lastChange < time }
      .sorted { ($0.value.lastChange, $0.key.rawValue) < ($1.value.lastChange, $1.key.rawValue) }
      .prefix(max(limit, 0)).map(\.key)
  }

  public func check() throws(StoreError) {}

  /// A change the other stores' keys and constraints would refuse.
  private func refused(_ reason: String) -> StoreError {
    .failed(path: path, reason: reason)
  }
}
