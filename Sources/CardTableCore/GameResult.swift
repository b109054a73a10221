/// How a game came to its end.
public enum GameEnding: String, Sendable, Equatable {
  /// The rules declared the game over.
  case finished
  /// The player dealt a new game before this one was over.
  case abandoned
}

/// One player's score in a game with several scores (two-player Set's `P1` and `P2`).
public struct PlayerScore: Sendable, Equatable {
  public var player: PlayerID
  public var score: Int

  public init(player: PlayerID, score: Int) {
    self.player = player
    self.score = score
  }
}

/// The rules' account of one ended game: everything a result holds but the times.
///
/// The rules never read a clock, so they name the actions of the match log that dealt and ended
/// the game; ``GameResult`` reads their times from the log (DESIGN "Time is data").
public struct GameRecord: Sendable, Equatable {
  /// The game's wire name, e.g. `matchismo`.
  public var game: String
  /// The options in a short text, e.g. `cards 24, mode 2, matchBonus 4`.
  public var options: String
  /// The seed that shuffled this game's deck: dealing it again gives the same game.
  public var seed: UInt64
  public var score: Int
  /// Each player's score when a game has several; empty for one player.
  public var players: [PlayerScore]
  /// The player's moves in this game (choices and deals of more cards; cards turned in Snap!).
  public var moves: Int
  /// Who won, in a game of several players that has a winner (a Snap! round).
  public var winner: PlayerID?
  public var ending: GameEnding
  /// Index in the match log of the action that dealt this game; nil for the match's own deal.
  public var dealtBy: Int?
  /// Index in the match log of the action that ended this game; nil when the game was over
  /// as soon as it was dealt (a table without a single match).
  public var endedBy: Int?

  public init(
    game: String, options: String, seed: UInt64, score: Int, players: [PlayerScore] = [],
    moves: Int, ending: GameEnding, winner: PlayerID? = nil, dealtBy: Int?, endedBy: Int?
  ) {
    self.game = game
    self.options = options
    self.seed = seed
    self.score = score
    self.players = players
    self.moves = moves
    self.ending = ending
    self.winner = winner
    self.dealtBy = dealtBy
    self.endedBy = endedBy
  }
}

/// One finished or abandoned game as a store keeps it: the record timed on the host's clock.
public struct GameResult: Sendable, Equatable {
  public var record: GameRecord
  /// Seconds on the match clock when the game was dealt.
  public var start: Double
  /// Seconds on the match clock when the game ended.
  public var end: Double

  public init(record: GameRecord, start: Double, end: Double) {
    self.record = record
    self.start = start
    self.end = end
  }

  public var game: String { record.game }
  public var options: String { record.options }
  public var seed: UInt64 { record.seed }
  public var score: Int { record.score }
  public var moves: Int { record.moves }
  public var ending: GameEnding { record.ending }
  /// Seconds from the deal to the end.
  public var duration: Double { end - start }
}

/// Rules that keep a record of every game their match finished or abandoned.
public protocol RecordsResults: GameRules {
  /// The ended games of `state`, oldest first.
  static func records(of state: State) -> [GameRecord]
}

/// Counts the accepted actions of a match so that a game's rules can name, in a
/// ``GameRecord``, the log entries that dealt and ended each game.
public struct ResultLedger: Sendable, Equatable {
  /// Actions accepted so far in the match: the log index of the next one.
  public private(set) var actions = 0
  /// The log index of the action that dealt the current game; nil for the match's deal.
  public private(set) var dealtBy: Int?
  /// The player's moves in the current game.
  public var moves = 0
  /// Every ended game, oldest first.
  public private(set) var records: [GameRecord] = []

  public init() {}

  /// Notes one more accepted action; call it once per accepted action, after the rules.
  public mutating func accept() { actions += 1 }

  /// Records the current game as ended by the action being accepted now — or, with `atDeal`,
  /// by its own deal, when the table it dealt is already over — and returns the record.
  public mutating func close(
    game: String, options: String, seed: UInt64, score: Int, players: [PlayerScore] = [],
    ending: GameEnding, winner: PlayerID? = nil, atDeal: Bool = false
  ) -> GameRecord {
    let record = GameRecord(
      game: game, options: options, seed: seed, score: score, players: players, moves: moves,
      ending: ending, winner: winner, dealtBy: dealtBy, endedBy: atDeal ? dealtBy : actions)
    records.append(record)
    return record
  }

  /// Starts a new game dealt by the action being accepted now.
  public mutating func startGame() {
    dealtBy = actions
    moves = 0
  }
}

extension Match where Rules: RecordsResults {
  /// Every game of this match that has ended, timed on the match clock, oldest first.
  public var results: [GameResult] {
    Rules.records(of: state).map { record in
      func time(_ index: Int) -> Double { log.indices.contains(index) ? log[index].time : clock }
      let start = record.dealtBy.map(time) ?? 0
      return GameResult(record: record, start: start, end: record.endedBy.map(time) ?? start)
    }
  }
}
