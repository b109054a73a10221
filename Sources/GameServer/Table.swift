import CardTableCore
import GameStore
import GameWire

/// A room several players share: its join code, its seats and who sits in them.
///
/// While ``phase`` is `lobby` players come and go and the host seats computer players; at the
/// start the game is dealt for the seats in order, and from then on each seat plays as its
/// name and sees its own view.
struct Table: Sendable {
  /// One seat: the player in it (none for a computer player), the name the game knows, and
  /// since when its player has had no connection open (the grace period runs from then).
  struct Seat: Sendable, Equatable {
    var player: PlayerKey?
    var name: PlayerID
    var computer: Bool
    var absentSince: Double?
    /// The player left (by their own choice or at the end of the grace period).
    var left = false
    /// The person's rating in the table's game and category, once it is dealt.
    var rating: Rating?
  }

  var code: TableCode
  var phase: TablePhase
  var isPublic: Bool
  /// What the host asked for: `{"options":{...}}` with the `seed` and `deck` of a practice
  /// table when given; the players are put in at the start.
  var options: JSON
  var seats: [Seat]
  /// The game's fewest and most seats.
  var seatRange: ClosedRange<Int>
  var takesComputers: Bool
  /// The seats that accepted a rematch of the game just over (kept in memory only: a table
  /// woken from the store asks again).
  var rematch: Set<Int> = []
  /// The games each name won at this table across its rematches; nil until one has finished.
  var wins: [String: Int]?
  /// Whether watchers may write in the table's chat (the host can turn it off).
  var watcherChat = true

  /// The names computer players take, in order (RULES §5.1's single-player table).
  static let computerNames: [PlayerID] = ["Ray", "Lucy", "Steve"]
  /// How long a seated player may be gone before the table makes them leave.
  static let gracePeriod = 30.0
  /// The most watchers a table (or a room) takes.
  static let watcherLimit = 50

  /// The host's seat: the first.
  var host: Seat? { seats.first }

  /// The seat index of `player`, if they sit at the table (and have not left).
  func seat(of player: PlayerKey?) -> Int? {
    guard let player else { return nil }
    return seats.firstIndex { $0.player == player && !$0.left }
  }

  /// A name for a new player at the table: their own (`settings.name`) when no other seat has
  /// it, else with a number; `Player N` when they have none.
  func name(for wanted: String?) -> PlayerID {
    let taken = Set(seats.map(\.name.rawValue))
    let base = wanted.map { $0.trimmingSpaces() }.flatMap { $0.isEmpty ? nil : $0 }
    if let base, !taken.contains(base), base != PlayerID.referee.rawValue { return PlayerID(base) }
    let stem = base ?? "Player"
    var number = base == nil ? seats.count + 1 : 2
    while taken.contains("\(stem) \(number)") { number += 1 }
    return PlayerID("\(stem) \(number)")
  }

  /// The record the store keeps.
  var record: TableRecord {
    TableRecord(
      code: code.rawValue, phase: phase, isPublic: isPublic, options: options.text,
      seats: seats.enumerated().map { index, seat in
        SeatRecord(
          seat: index, player: seat.left ? nil : seat.player, name: seat.name.rawValue,
          computer: seat.computer)
      }, watcherChat: watcherChat)
  }

  /// The table the store kept.
  init?(_ record: TableRecord, game: String) {
    guard let code = TableCode(rawValue: record.code) else { return nil }
    self.code = code
    phase = record.phase
    isPublic = record.isPublic
    options = (try? JSON(parsing: record.options)) ?? [:]
    watcherChat = record.watcherChat
    seats = record.seats.map { seat in
      Seat(
        player: seat.player, name: PlayerID(seat.name), computer: seat.computer,
        left: seat.player == nil && !seat.computer)
    }
    seatRange = (try? GameCatalog.seatRange(of: game)) ?? 1...1
    takesComputers = (try? GameCatalog.takesComputerPlayers(game)) ?? false
  }

  init(
    code: TableCode, game: String, options: JSON, isPublic: Bool, host: PlayerKey, name: PlayerID
  ) {
    self.code = code
    phase = .lobby
    self.isPublic = isPublic
    self.options = options
    seats = [Seat(player: host, name: name, computer: false)]
    seatRange = (try? GameCatalog.seatRange(of: game)) ?? 1...1
    takesComputers = (try? GameCatalog.takesComputerPlayers(game)) ?? false
  }

  /// The fewest seats a table starts with: a table is for playing together, so two, or the
  /// game's own least.
  var fewestSeats: Int { max(2, seatRange.lowerBound) }

  /// The `table` message for a client who is `you` (nil: a watcher).
  func message(
    room: RoomID, game: String, you: Int?, watchers: Int, over: Bool,
    connected: (Int) -> Bool
  ) -> JSON {
    let list: [JSON] = seats.enumerated().map { index, seat in
      var entry: JSON = [
        "seat": JSON(index), "name": .string(seat.name.rawValue), "computer": JSON(seat.computer),
        "connected": JSON(seat.computer || connected(index)), "left": JSON(seat.left),
      ]
      if let rating = seat.rating {
        entry = entry.setting("rating", to: JSON(rating.shown))
        if rating.isProvisional { entry = entry.setting("provisional", to: true) }
      }
      if index == you { entry = entry.setting("you", to: true) }
      return entry
    }
    let phaseName: String =
      switch phase {
      case .lobby: "lobby"
      case .playing: over ? "over" : "playing"
      }
    var message: JSON = [
      "type": "table", "room": .string(room.rawValue), "code": .string(code.description),
      "game": .string(game), "phase": .string(phaseName), "host": 0, "seats": .array(list),
      "minSeats": JSON(fewestSeats), "maxSeats": JSON(seatRange.upperBound),
      "public": JSON(isPublic), "watchers": JSON(watchers),
    ]
    // NB: only once they mean something, so that a table's first game reads as before.
    if let wins {
      let names = seats.filter { !$0.left }.map(\.name.rawValue)
      message = message.setting(
        "wins", to: .object(names.map { ($0, JSON(wins[$0] ?? 0)) }))
    }
    if !watcherChat { message = message.setting("watcherChat", to: false) }
    if over, !rematch.isEmpty {
      message = message.setting("rematch", to: .array(rematch.sorted().map { JSON($0) }))
    }
    return message
  }
}

extension String {
  func trimmingSpaces() -> String {
    var text = Substring(self)
    while text.first?.isWhitespace == true { text.removeFirst() }
    while text.last?.isWhitespace == true { text.removeLast() }
    return String(text)
  }
}

extension PlayerID {
  /// Who a watcher of a table looks through: no seat, so no card of anyone's.
  static let spectator = PlayerID("\u{1}watcher")
}
