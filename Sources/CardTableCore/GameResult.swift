/// How a game came to its end.
public enum GameEnding: String, Sendable, Equatable, Codable {
  /// The rules declared the game over.
  case finished
  /// The player dealt a new game before this one was over.
  case abandoned
}

/// One player's score in a game with several scores (two-player Set's `P1` and `P2`).
public struct PlayerScore: Sendable, Equatable, Codable {
  public var player: PlayerID
  public var score: Int

  public init(player: PlayerID, score: Int) {
    self.player = player
    self.score = score
  }
}

extension Array where Element == PlayerScore {
  /// The player with the highest score, or nil when two or more share it (or there is none).
  public var soleLeader: PlayerID? {
    guard let best = map(\.score).max() else { return nil }
    let leaders = filter { $0.score == best }
    return leaders.count == 1 ? leaders[0].player : nil
  }
}

/// Which way a game's scores are better (Memory counts mistakes; Matchismo counts points).
public enum ScoreOrder: String, Sendable, Equatable, Codable {
  case higherIsBetter = "higher"
  case lowerIsBetter = "lower"
  /// The game keeps no score worth comparing (Concentration, Snap!).
  case none

  /// Whether `a` is a better score than `b`; always false when scores are not compared.
  public func isBetter(_ a: Int, than b: Int) -> Bool {
    switch self {
    case .higherIsBetter: a > b
    case .lowerIsBetter: a < b
    case .none: false
    }
  }
}

/// The settings a record names: which game it was and how it was set up.
///
/// Each game's record settings say, in a short text, what a person comparing scores needs to
/// know (`difficulty easy`; `cards 24, mode 2, matchBonus 4, …`), and read that text back.
public protocol RecordSettings: Sendable, Equatable {
  /// The game's wire name, e.g. `matchismo`.
  var game: String { get }
  /// The settings in short, e.g. `cards 24, mode 2, matchBonus 4, mismatchPenalty 2, costToChoose 1`.
  var summary: String { get }
  /// Reads a record's game name and summary back; nil when they name other settings.
  init?(game: String, summary: String)
  /// The settings whose games are compared with one another in statistics and high scores
  /// (Memory's difficulty; Snap!'s table without its round), by default the whole summary.
  var category: String { get }
  /// What ratings are kept per (docs/RATINGS.md): by default the category; never a player's
  /// name (Snap!'s is its number of players).
  var ratingMode: String { get }
  /// Which way this game's scores are better.
  var scoreOrder: ScoreOrder { get }
}

extension RecordSettings {
  public var category: String { summary }
  public var ratingMode: String { category }
}

/// The rules' account of one ended game: who played it with which settings, how it scored and
/// how it ended. ``Match`` stamps it with the times and log indices of its deal and its end.
public struct GameRecord<Settings: Sendable & Equatable>: Sendable, Equatable {
  public var settings: Settings
  /// The seed that shuffled this game's deck: dealing it again gives the same game.
  public var seed: UInt64
  public var score: Int
  /// Each player's score when a game has several; empty for one player.
  public var players: [PlayerScore]
  /// The player's moves in this game (choices and deals of more cards; cards turned in Snap!).
  public var moves: Int
  public var ending: GameEnding
  /// Who won, in a game of several players that has a winner (a Snap! round).
  public var winner: PlayerID?

  public init(
    settings: Settings, seed: UInt64, score: Int, players: [PlayerScore] = [], moves: Int,
    ending: GameEnding, winner: PlayerID? = nil
  ) {
    self.settings = settings
    self.seed = seed
    self.score = score
    self.players = players
    self.moves = moves
    self.ending = ending
    self.winner = winner
  }
}

extension GameRecord {
  /// Whether `player` won it: finished with `player` the winner, or — in a game without a
  /// winner, of one player or two sharing a table — simply finished.
  public func isWin(for player: PlayerID) -> Bool {
    ending == .finished && (winner == nil || winner == player)
  }
}

extension GameRecord: Codable where Settings: RecordSettings {
  enum CodingKeys: String, CodingKey {
    case game, options, seed, score, players, moves, ending, winner
  }

  /// `{"game":…,"options":…,"seed":…,"score":…,"players":…,"moves":…,"ending":…,"winner":…}`;
  /// `players` only when the game had several, `winner` only when one won.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(settings.game, forKey: .game)
    try container.encode(settings.summary, forKey: .options)
    try container.encode(seed, forKey: .seed)
    try container.encode(score, forKey: .score)
    if !players.isEmpty { try container.encode(players, forKey: .players) }
    try container.encode(moves, forKey: .moves)
    try container.encode(ending, forKey: .ending)
    try container.encodeIfPresent(winner, forKey: .winner)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let game = try container.decode(String.self, forKey: .game)
    let summary = try container.decode(String.self, forKey: .options)
    guard let settings = Settings(game: game, summary: summary) else {
      throw DecodingError.dataCorruptedError(
        forKey: .options, in: container,
        debugDescription: "\"\(summary)\" are not settings of \(game).")
    }
    self.init(
      settings: settings, seed: try container.decode(UInt64.self, forKey: .seed),
      score: try container.decode(Int.self, forKey: .score),
      players: try container.decodeIfPresent([PlayerScore].self, forKey: .players) ?? [],
      moves: try container.decode(Int.self, forKey: .moves),
      ending: try container.decode(GameEnding.self, forKey: .ending),
      winner: try container.decodeIfPresent(PlayerID.self, forKey: .winner))
  }
}

/// One finished or abandoned game as a store keeps it: the rules' record, timed on the match
/// clock by ``Match``.
public struct GameResult<Settings: Sendable & Equatable>: Sendable, Equatable {
  public var record: GameRecord<Settings>
  /// Seconds on the match clock when the game was dealt.
  public var start: Double
  /// Seconds on the match clock when the game ended.
  public var end: Double
  /// The log index of the action that dealt the game; nil for the match's own deal.
  public var dealtBy: Int?
  /// The log index of the action that ended the game; nil when it was over at the match's deal.
  public var endedBy: Int?

  public init(
    record: GameRecord<Settings>, start: Double, end: Double, dealtBy: Int?, endedBy: Int?
  ) {
    self.record = record
    self.start = start
    self.end = end
    self.dealtBy = dealtBy
    self.endedBy = endedBy
  }

  /// Seconds from the deal to the end.
  public var duration: Double { end - start }
}

extension GameResult: Codable where Settings: RecordSettings {
  enum CodingKeys: String, CodingKey {
    case start, end, duration
  }

  /// The record's members, then `start`, `end` and `duration` in seconds on the match clock.
  public func encode(to encoder: any Encoder) throws {
    try record.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(start, forKey: .start)
    try container.encode(end, forKey: .end)
    try container.encode(duration, forKey: .duration)
  }

  /// Reads what ``encode(to:)`` wrote; the log indices are not on the wire and read as nil.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      record: try GameRecord(from: decoder),
      start: try container.decode(Double.self, forKey: .start),
      end: try container.decode(Double.self, forKey: .end), dealtBy: nil, endedBy: nil)
  }
}

extension GameResult {
  public var seed: UInt64 { record.seed }
  public var score: Int { record.score }
  public var moves: Int { record.moves }
  public var ending: GameEnding { record.ending }
}

extension GameResult where Settings: RecordSettings {
  /// The game's wire name.
  public var game: String { record.settings.game }
  /// The settings in short (``RecordSettings/summary``).
  public var options: String { record.settings.summary }
}
