import CardTableCore
import GameStore
import GameWire

// The answers to commands (docs/PROTOCOL.md), each a type whose members are written in order.

/// `{"type":"answer","cmd":C,…the body's members…,"reply":R}`.
struct Answer<Body: Encodable>: Encodable {
  var cmd: String
  var body: Body
  var reply: JSON?

  func encode(to encoder: any Encoder) throws {
    var head = encoder.container(keyedBy: MemberKey.self)
    try head.encode("answer", forKey: MemberKey("type"))
    try head.encode(cmd, forKey: MemberKey("cmd"))
    // NB: the wire's encoder continues one object when asked for a container again.
    try body.encode(to: encoder)
    var tail = encoder.container(keyedBy: MemberKey.self)
    try tail.encodeIfPresent(reply, forKey: MemberKey("reply"))
  }
}

/// A game's own command's answer (`hint`, `history`, `deal`): the game's answer without `ok`.
struct GameAnswerBody: Encodable {
  var answer: JSON

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: MemberKey.self)
    for key in answer.keys ?? [] where key != "ok" {
      try container.encode(answer[key] ?? .null, forKey: MemberKey(key))
    }
  }
}

/// `results`: the room's results, as the store keeps them.
struct ResultsBody: Encodable {
  var results: [JSON]
}

/// `view-at`: the view this player had at a version.
struct ViewAtBody: Encodable {
  enum CodingKeys: String, CodingKey {
    case version, view
  }

  var version: Int
  var view: any Encodable

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(view, forKey: .view)
  }
}

/// `abandon`: the room abandoned.
struct AbandonBody: Encodable {
  var room: String
}

/// `rooms`: the player's unfinished rooms.
struct RoomsBody: Encodable {
  struct Listing: Encodable {
    var room: String
    var game: String
    var options: JSON
    var version: Int
    var created: Int64
    var updated: Int64
  }

  var rooms: [Listing]
}

/// `scores`: the high scores of a game (or of all), in the order asked.
struct ScoresBody: Encodable {
  struct Listing: Encodable {
    var game: String
    var options: String
    var score: Int
    var moves: Int
    var start: Int64
    var end: Int64
    var duration: Double
    var room: String
    var marks: [String]
  }

  @Nullable var game: String?
  var sort: String
  /// `higher` or `lower`; null for all games, or a game without scores.
  @Nullable var better: String?
  var scores: [Listing]
}

/// `stats`: per game and category, the player's statistics.
struct StatsBody: Encodable {
  struct Row: Encodable {
    var game: String
    var options: String
    var played: Int
    var won: Int
    @Nullable var bestScore: Int?
    @Nullable var bestTime: Double?
    var streak: Int
    var bestStreak: Int
  }

  var stats: [Row]
  /// The player's ratings, per game and category.
  var ratings: [RatingRow]
}

/// A rating as the records list it (docs/RATINGS.md).
struct RatingRow: Encodable {
  var game: String
  /// The category it is kept per, e.g. `difficulty easy`.
  var options: String
  var rating: Int
  var games: Int
  var provisional: Bool

  init(_ summary: RatingSummary) {
    game = summary.game
    options = summary.category
    rating = summary.rating.shown
    games = summary.rating.games
    provisional = summary.rating.isProvisional
  }
}

/// `profile`: a player's page — their name, ratings, statistics and latest games.
struct ProfileBody: Encodable {
  struct Game: Encodable {
    var room: String
    var game: String
    var options: String
    var end: Int64
    var duration: Double
    var won: Bool
    @Nullable var winner: String?
    var score: Int
  }

  var player: String
  @Nullable var name: String?
  /// Whether others may see it (the player's `profile` setting).
  var `public`: Bool
  /// Whether it is the asker's own page.
  var you: Bool
  var ratings: [RatingRow]
  var stats: [StatsBody.Row]
  var recent: [Game]
}

/// `settings`: all of the player's settings.
struct SettingsBody: Encodable {
  var settings: JSON
}

/// `tables`: the public tables in their lobbies.
struct TablesBody: Encodable {
  struct Listing: Encodable {
    var room: String
    var game: String
    var code: String
    var host: String
    var seats: Int
    var players: Int
  }

  var tables: [Listing]
}
