import CardTableCore

/// One line of a table's chat, as the store keeps it with the room (docs/STORAGE.md "chat").
public struct ChatRecord: Sendable, Equatable {
  /// Its place among the room's lines (0 first).
  public var index: Int
  /// Milliseconds since 1970 when it was written.
  public var at: Int64
  /// Who wrote it (kept so that a mute outlives a restart of the server; never exported).
  public var player: PlayerKey
  /// The name it was written under: a seat's, or a watcher's own.
  public var name: String
  /// The seat its writer sat in, or nil for a watcher.
  public var seat: Int?
  /// What it says: a line of text, or the name of a quick reaction (``kind``).
  public var text: String
  public var kind: Kind

  /// A line of text, or one of the fixed quick reactions.
  public enum Kind: String, Sendable, Equatable {
    case text
    case reaction
  }

  public init(
    index: Int, at: Int64, player: PlayerKey, name: String, seat: Int?, text: String,
    kind: Kind = .text
  ) {
    self.index = index
    self.at = at
    self.player = player
    self.name = name
    self.seat = seat
    self.text = text
    self.kind = kind
  }
}

/// How one rated game moved one player's rating (docs/RATINGS.md), kept with the game's
/// results.
public struct RatingRecord: Sendable, Equatable {
  public var room: RoomID
  /// The result it belongs to: its place among the room's results.
  public var index: Int
  public var player: PlayerKey
  public var game: String
  /// What the rating is kept per: the game's ``RecordSettings/ratingMode`` (e.g.
  /// `difficulty easy, players 2`).
  public var category: String
  /// The rating before the game, and the change the game made.
  public var was: Double
  public var change: Double
  /// Milliseconds since 1970 when the game ended.
  public var at: Int64

  public init(
    room: RoomID, index: Int, player: PlayerKey, game: String, category: String, was: Double,
    change: Double, at: Int64
  ) {
    self.room = room
    self.index = index
    self.player = player
    self.game = game
    self.category = category
    self.was = was
    self.change = change
    self.at = at
  }
}

/// A player's rating in one game and category, as the store adds it up.
public struct RatingSummary: Sendable, Equatable {
  public var game: String
  public var category: String
  public var rating: Rating
  /// Milliseconds since 1970 when its latest game ended.
  public var last: Int64

  public init(game: String, category: String, rating: Rating, last: Int64) {
    self.game = game
    self.category = category
    self.rating = rating
    self.last = last
  }
}

/// A transfer code waiting to be used, as the store keeps it: never the code itself, and the
/// token only sealed with the code, so that neither can be read from the database.
public struct TransferRecord: Sendable, Equatable {
  /// The code's hash.
  public var code: [UInt8]
  public var player: PlayerKey
  /// The player's token, sealed with the code.
  public var sealed: [UInt8]
  /// Milliseconds since 1970 until which it can be used.
  public var expires: Int64

  public init(code: [UInt8], player: PlayerKey, sealed: [UInt8], expires: Int64) {
    self.code = code
    self.player = player
    self.sealed = sealed
    self.expires = expires
  }
}

extension TransferRecord {
  /// The hash a code is kept and found by.
  public static func hash(code: String) -> [UInt8] {
    SHA256.hash(Array("cardtable transfer code \(code)".utf8))
  }

  /// `token` sealed with `code`: its characters under a pad made from the code, used once (a
  /// code is used once, and a new one is made for every transfer).
  public static func seal(_ token: PlayerToken, code: String) -> [UInt8] {
    zip(Array(token.rawValue.utf8), pad(code)).map { $0 ^ $1 }
  }

  /// The token `sealed` holds, opened with `code`; nil when it is no token.
  public static func open(_ sealed: [UInt8], code: String) -> PlayerToken? {
    let bytes = zip(sealed, pad(code)).map { $0 ^ $1 }
    return PlayerToken(rawValue: String(decoding: bytes, as: UTF8.self))
  }

  private static func pad(_ code: String) -> [UInt8] {
    SHA256.hash(Array("cardtable transfer seal \(code)".utf8))
  }
}
