import CardTableCore

/// Where rooms, their games, results and players' settings are kept (docs/STORAGE.md).
///
/// A room is its game's options, seed and secret plus every accepted action in order; it is
/// rebuilt by replaying them through the rules. Every method either does all it says or, when
/// it throws, nothing: a change is one transaction. ``SQLiteStore`` keeps one process's games in
/// a file; ``PostgresStore`` lets several processes share one database, each room run by one
/// of them at a time: the one holding its lease (``claim(_:)``).
public protocol GameStore: AnyObject {
  /// Where the games are kept, for messages: a file, or a database's address without its
  /// password.
  var path: String { get }

  /// The player holding `token`, created (with empty settings) the first time it is seen.
  func player(_ token: PlayerToken, at now: Int64) throws(StoreError) -> PlayerRecord

  /// Every player who has a room, in the order they were first seen.
  func players() throws(StoreError) -> [PlayerRecord]

  /// Replaces the settings (a JSON object's text) of `player`.
  func saveSettings(_ settings: String, of player: PlayerKey) throws(StoreError)

  /// Creates a room with its first match and whatever that match's deal already did.
  func createRoom(_ room: NewRoom) throws(StoreError)

  /// The room as it stands: its current match, that match's actions, the count of its results,
  /// and its table when several share it.
  func room(_ id: RoomID) throws(StoreError) -> RoomRecord?

  /// The room of the table whose code is `code` (a ``TableCode``'s text), if any.
  func room(code: String) throws(StoreError) -> RoomID?

  /// The public tables still in their lobby, newest first.
  func publicTables(limit: Int) throws(StoreError) -> [TableSummary]

  /// Saves what happened in a room since it was last saved, all or nothing.
  func save(_ change: RoomChange) throws(StoreError)

  /// Saves the changes of several rooms (a room's may follow each other) in one transaction:
  /// all of them, in order, or none — the group commit of one turn of the server's loop.
  func save(_ changes: [RoomChange]) throws(StoreError)

  /// The rooms `player` owns or has a seat at that are not finished or abandoned, most recently
  /// changed first.
  func openRooms(of player: PlayerKey, limit: Int) throws(StoreError) -> [RoomSummary]

  /// Every game that ended in a room, oldest first (one result each, whoever it was for).
  func results(in room: RoomID) throws(StoreError) -> [ResultRecord]

  /// Every result kept for `player` (of one game, or all), in the order they ended.
  func results(of player: PlayerKey, game: String?) throws(StoreError) -> [ResultRecord]

  /// Every match of a room with all its actions, oldest first (for export).
  /// The room's chat lines in order: the last `limit` (every one when nil).
  func chat(in room: RoomID, last limit: Int?) throws(StoreError) -> [ChatRecord]

  /// The player's ratings, per game and category, most recently played first.
  func ratings(of player: PlayerKey) throws(StoreError) -> [RatingSummary]

  /// The id the player's page is found by (`/players/ID`): the one kept, else `new`, kept now.
  func publicID(of player: PlayerKey, new: String) throws(StoreError) -> String

  /// The player a public id names, if any.
  func player(publicID: String) throws(StoreError) -> PlayerRecord?

  /// Keeps a transfer code for `player` (docs/PROTOCOL.md `transfer`), replacing their last,
  /// and forgets the codes out of time: the code's hash, the player's token sealed with the
  /// code, and until when it can be used (milliseconds since 1970).
  func keepTransfer(_ transfer: TransferRecord, now: Int64) throws(StoreError)

  /// Uses the transfer code whose hash is `code`: when it is kept and in time it is gone, and
  /// its sealed token is returned; else nil.
  func takeTransfer(_ code: [UInt8], now: Int64) throws(StoreError) -> [UInt8]?

  func matches(in room: RoomID) throws(StoreError) -> [(
    match: MatchRecord, actions: [ActionRecord]
  )]

  /// The rooms still being played whose last change is older than `time`.
  func idleRooms(before time: Int64, limit: Int) throws(StoreError) -> [RoomID]

  /// Reads from the store, as `/healthz` asks: throws when it cannot be reached.
  func check() throws(StoreError)

  /// Takes the lease of `room`, the right to run it in this process and save its changes:
  /// false when another process holds it now. Taking a lease already held is true.
  ///
  /// A store only one process can open (SQLite's lock file) holds every lease.
  func claim(_ room: RoomID) throws(StoreError) -> Bool

  /// Gives up the lease of `room` (it left this process's memory).
  func release(_ room: RoomID)

  /// Whether this process still holds the lease of `room`: a store whose connection was lost
  /// holds none, and ``save(_:)`` refuses ``StoreError/leaseLost(path:room:)`` without one.
  func holds(_ room: RoomID) -> Bool
}

extension GameStore {
  public func claim(_ room: RoomID) throws(StoreError) -> Bool { true }
  public func release(_ room: RoomID) {}
  public func holds(_ room: RoomID) -> Bool { true }
}

/// Where a room stands.
public enum RoomStatus: String, Sendable, Equatable, CaseIterable {
  /// Its current game is not over.
  case playing
  /// Its current game is over (a Matchismo or Set *Deal* can make it `playing` again).
  case over
  /// Given up by its owner or closed after a long time untouched; read-only.
  case abandoned
}

/// A player the store knows.
public struct PlayerRecord: Sendable, Equatable {
  public var key: PlayerKey
  /// A JSON object's text.
  public var settings: String
  /// Milliseconds since 1970 when the player was first seen.
  public var created: Int64

  public init(key: PlayerKey, settings: String, created: Int64) {
    self.key = key
    self.settings = settings
    self.created = created
  }
}

/// One match of a room: a deal and the actions after it. A restart begins the next.
public struct MatchRecord: Sendable, Equatable {
  /// 0 for the room's first match, then 1, 2, … for each restart.
  public var ordinal: Int
  /// The wire name of the game, e.g. `concentration`.
  public var game: String
  /// The game's options as the engine writes them (a JSON object's text).
  public var options: String
  public var seed: UInt64
  /// Whether the player chose the seed: a practice game, kept out of high scores.
  public var seedChosen: Bool
  /// The secret key of the match's later deals (``LaterSeeds``), and how many of them were
  /// drawn before it began (a restart after a *Deal* goes on from there).
  public var laterKey: [UInt64]
  /// Whether the player had seen this deal before (a restart).
  public var replay: Bool
  /// Milliseconds since 1970 when it was dealt.
  public var started: Int64

  public init(
    ordinal: Int, game: String, options: String, seed: UInt64, seedChosen: Bool,
    laterKey: [UInt64], replay: Bool, started: Int64
  ) {
    self.ordinal = ordinal
    self.game = game
    self.options = options
    self.seed = seed
    self.seedChosen = seedChosen
    self.laterKey = laterKey
    self.replay = replay
    self.started = started
  }

  /// The later key as both stores keep it: each number's 8 bytes, most significant first.
  var storedLaterKey: [UInt8] {
    laterKey.flatMap { half in
      stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: half >> UInt64($0)) }
    }
  }

  /// The later key from the bytes a store keeps (``storedLaterKey``).
  static func laterKey(stored bytes: [UInt8]) -> [UInt64] {
    stride(from: 0, to: bytes.count - 7, by: 8).map { start in
      bytes[start..<start + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
  }

  /// The later deals' seeds, from the stored key.
  public var laterSeeds: LaterSeeds {
    let drawn = laterKey.count > 2 ? laterKey[2] : 0
    return LaterSeeds(key: (laterKey.first ?? 0, laterKey.dropFirst().first ?? 0), drawn: drawn)
  }
}

/// One accepted action of a match, as its log holds it.
public struct ActionRecord: Sendable, Equatable {
  /// Its position in the match's log (0 first): the version before it.
  public var index: Int
  /// Seconds on the match clock.
  public var time: Double
  /// Milliseconds since 1970 when it was accepted.
  public var at: Int64
  public var player: String
  /// Whether a timer performed it.
  public var automatic: Bool
  /// The action as the engine writes it (a JSON object's text).
  public var action: String

  public init(
    index: Int, time: Double, at: Int64, player: String, automatic: Bool, action: String
  ) {
    self.index = index
    self.time = time
    self.at = at
    self.player = player
    self.automatic = automatic
    self.action = action
  }
}

/// One game that ended in a room, as one player's result: finished or abandoned.
public struct ResultRecord: Sendable, Equatable {
  public var room: RoomID
  /// Whose result it is: the room's owner, or at a table each seated player.
  public var player: PlayerKey
  /// The match it was played in.
  public var ordinal: Int
  /// Its place among the room's results (0 first).
  public var index: Int
  public var game: String
  /// The settings in short, e.g. `difficulty easy` (the record's `options`).
  public var options: String
  public var seed: UInt64
  public var score: Int
  public var moves: Int
  public var ending: GameEnding
  public var winner: String?
  /// Whether the room's owner won it (finished it, in a game of one player).
  public var won: Bool
  /// Milliseconds since 1970 when it was dealt and when it ended.
  public var start: Int64
  public var end: Int64
  /// Seconds it was played, on the match clock (time away from the table does not count).
  public var duration: Double
  /// Dealt from a seed the player chose.
  public var practice: Bool
  /// Dealt again after the player had seen it.
  public var replay: Bool
  /// The result as the engine writes it (a JSON object's text).
  public var record: String

  public init(
    room: RoomID, player: PlayerKey, ordinal: Int, index: Int, game: String, options: String,
    seed: UInt64,
    score: Int, moves: Int, ending: GameEnding, winner: String?, won: Bool, start: Int64,
    end: Int64, duration: Double, practice: Bool, replay: Bool, record: String
  ) {
    self.room = room
    self.player = player
    self.ordinal = ordinal
    self.index = index
    self.game = game
    self.options = options
    self.seed = seed
    self.score = score
    self.moves = moves
    self.ending = ending
    self.winner = winner
    self.won = won
    self.start = start
    self.end = end
    self.duration = duration
    self.practice = practice
    self.replay = replay
    self.record = record
  }

  /// Whether it counts for high scores and statistics: neither practice nor a replay, nor a
  /// game over at its own deal (a tiny table with no match: finished without a move).
  public var counts: Bool { !practice && !replay && !(ending == .finished && moves == 0) }
}

/// A new room with its first match (none for a table still in its lobby).
public struct NewRoom: Sendable, Equatable {
  public var id: RoomID
  public var owner: PlayerKey
  /// The game's wire name.
  public var game: String
  public var match: MatchRecord?
  /// The table, when several players share the room.
  public var table: TableRecord?
  /// What the deal itself did (timers are not actions, so usually nothing).
  public var actions: [ActionRecord]
  public var results: [ResultRecord]
  public var status: RoomStatus
  /// Milliseconds since 1970.
  public var created: Int64

  public init(
    id: RoomID, owner: PlayerKey, game: String? = nil, match: MatchRecord?,
    table: TableRecord? = nil, actions: [ActionRecord] = [], results: [ResultRecord] = [],
    status: RoomStatus, created: Int64
  ) {
    self.id = id
    self.owner = owner
    self.game = game ?? match?.game ?? ""
    self.match = match
    self.table = table
    self.actions = actions
    self.results = results
    self.status = status
    self.created = created
  }
}

/// A room as the store has it: enough to rebuild it.
public struct RoomRecord: Sendable, Equatable {
  public var id: RoomID
  public var owner: PlayerKey
  public var game: String
  public var status: RoomStatus
  public var created: Int64
  /// When the room last changed (milliseconds since 1970): its last change saved, or its
  /// current match's last action when that is later.
  public var updated: Int64
  /// The current match and its actions in log order; none for a table still in its lobby.
  public var match: MatchRecord?
  /// The table, when several players share the room.
  public var table: TableRecord?
  public var actions: [ActionRecord]
  /// How many results the room has recorded.
  public var resultCount: Int

  public init(
    id: RoomID, owner: PlayerKey, game: String, status: RoomStatus, created: Int64,
    updated: Int64, match: MatchRecord?, table: TableRecord? = nil, actions: [ActionRecord],
    resultCount: Int
  ) {
    self.id = id
    self.owner = owner
    self.game = game
    self.status = status
    self.created = created
    self.updated = updated
    self.match = match
    self.table = table
    self.actions = actions
    self.resultCount = resultCount
  }
}

/// What changed in a room since it was last saved.
public struct RoomChange: Sendable, Equatable {
  public var room: RoomID
  /// The table as it now is (its seats and phase), when it changed.
  public var table: TableRecord?
  /// A match that begins now (a restart); the actions below then belong to it.
  public var newMatch: MatchRecord?
  /// The match the actions belong to.
  public var ordinal: Int
  /// Actions appended to that match's log, in order; the first one's index must be the count
  /// already stored.
  public var actions: [ActionRecord]
  public var results: [ResultRecord]
  /// Lines of the table's chat written since; the first one's index must be the count stored.
  public var chat: [ChatRecord]
  /// How the games that ended moved their players' ratings.
  public var ratings: [RatingRecord]
  public var status: RoomStatus
  /// Whether `status` may differ from the one stored: false when the writer knows it is the
  /// same, and a store may then leave it as it is (SQLite's statement that sets it).
  public var statusChanged: Bool
  /// Milliseconds since 1970.
  public var at: Int64

  public init(
    room: RoomID, table: TableRecord? = nil, newMatch: MatchRecord? = nil, ordinal: Int,
    actions: [ActionRecord] = [], results: [ResultRecord] = [], chat: [ChatRecord] = [],
    ratings: [RatingRecord] = [], status: RoomStatus, statusChanged: Bool = true, at: Int64
  ) {
    self.room = room
    self.table = table
    self.newMatch = newMatch
    self.ordinal = ordinal
    self.actions = actions
    self.results = results
    self.chat = chat
    self.ratings = ratings
    self.status = status
    self.statusChanged = statusChanged
    self.at = at
  }
}

/// A room in a player's list of unfinished games.
public struct RoomSummary: Sendable, Equatable {
  public var id: RoomID
  public var game: String
  /// The current match's options (a JSON object's text).
  public var options: String
  /// Actions in the current match.
  public var version: Int
  public var status: RoomStatus
  public var created: Int64
  /// When the room last changed (milliseconds since 1970): its last change saved, or its
  /// current match's last action when that is later.
  public var updated: Int64

  public init(
    id: RoomID, game: String, options: String, version: Int, status: RoomStatus, created: Int64,
    updated: Int64
  ) {
    self.id = id
    self.game = game
    self.options = options
    self.version = version
    self.status = status
    self.created = created
    self.updated = updated
  }
}

/// Where a table is: waiting for players, or dealt and played.
public enum TablePhase: String, Sendable, Equatable {
  case lobby
  case playing
}

/// One seat at a table.
public struct SeatRecord: Sendable, Equatable {
  public var seat: Int
  /// The player in it; nil for a computer player.
  public var player: PlayerKey?
  /// The name the game knows the seat by.
  public var name: String
  public var computer: Bool

  public init(seat: Int, player: PlayerKey?, name: String, computer: Bool) {
    self.seat = seat
    self.player = player
    self.name = name
    self.computer = computer
  }
}

/// A room several players share: its code, its lobby and its seats.
public struct TableRecord: Sendable, Equatable {
  /// The code players join by (``TableCode``'s text, e.g. `KXQ-4TP`).
  public var code: String
  public var phase: TablePhase
  /// Whether it is listed among the public tables while in its lobby.
  public var isPublic: Bool
  /// The options the host chose (a JSON object's text), before the players are put in.
  public var options: String
  /// The seats taken, in seat order.
  public var seats: [SeatRecord]
  /// Whether watchers may write in the table's chat (the host can turn it off).
  public var watcherChat: Bool

  public init(
    code: String, phase: TablePhase, isPublic: Bool, options: String, seats: [SeatRecord],
    watcherChat: Bool = true
  ) {
    self.code = code
    self.phase = phase
    self.isPublic = isPublic
    self.options = options
    self.seats = seats
    self.watcherChat = watcherChat
  }
}

/// A public table in the list that lobbies are found by.
public struct TableSummary: Sendable, Equatable {
  public var room: RoomID
  public var game: String
  public var table: TableRecord
  public var created: Int64

  public init(room: RoomID, game: String, table: TableRecord, created: Int64) {
    self.room = room
    self.game = game
    self.table = table
    self.created = created
  }
}
