import CardTableCore

/// How the high scores are listed (RULES §1.5).
public enum ScoreSort: String, Sendable, CaseIterable {
  /// Newest first.
  case date
  /// Best first, as the game counts better; ties newest first.
  case score
  /// Shortest first; ties newest first.
  case duration
}

/// What an entry of the high scores stands out for among those listed.
public enum ScoreMark: String, Sendable, CaseIterable {
  case lowest, highest, shortest, longest
}

/// What a game bettered among the player's earlier ones (``HighScores/newBests(of:among:describe:)``).
public enum RecordBest: String, Sendable, CaseIterable {
  case score, time
}

/// One line of the high scores: a finished game and its marks.
public struct ScoreEntry: Sendable, Equatable {
  public var result: ResultRecord
  public var marks: [ScoreMark]

  public init(result: ResultRecord, marks: [ScoreMark]) {
    self.result = result
    self.marks = marks
  }
}

/// The high scores and statistics, worked out from the results a store keeps.
///
/// Only games that count (neither practice from a chosen seed nor a replay after a restart)
/// enter them. Which way a score is better is the game's own (``ScoreOrder``), read from each
/// result's settings by `order`.
public enum HighScores {
  /// The finished games among `results`, sorted, at most `limit`, each with its marks; `order`
  /// says which way the scores of a game are better.
  public static func list(
    _ results: [ResultRecord], sort: ScoreSort, order: (ResultRecord) -> ScoreOrder,
    limit: Int = 200
  ) -> [ScoreEntry] {
    let finished = results.filter { $0.counts && $0.ending == .finished }
    let newestFirst: (ResultRecord, ResultRecord) -> Bool = {
      ($0.end, $0.room.rawValue, $0.index) > ($1.end, $1.room.rawValue, $1.index)
    }
    let sorted: [ResultRecord]
    switch sort {
    case .date:
      sorted = finished.sorted(by: newestFirst)
    case .score:
      // NB: scores of different games do not compare: a list of several is sorted by game,
      // then best first as each game counts.
      sorted = finished.sorted { a, b in
        if a.game != b.game { return a.game < b.game }
        let scoring = order(a)
        if a.score != b.score, scoring != .none { return scoring.isBetter(a.score, than: b.score) }
        return newestFirst(a, b)
      }
    case .duration:
      sorted = finished.sorted { a, b in
        a.duration != b.duration ? a.duration < b.duration : newestFirst(a, b)
      }
    }
    let listed = Array(sorted.prefix(limit))
    let scores = listed.map(\.score)
    let durations = listed.map(\.duration)
    // NB: a mark is worth showing only when the entries differ.
    let (lowest, highest) = (scores.min(), scores.max())
    let (shortest, longest) = (durations.min(), durations.max())
    return listed.map { result in
      var marks: [ScoreMark] = []
      if lowest != highest {
        if result.score == lowest { marks.append(.lowest) }
        if result.score == highest { marks.append(.highest) }
      }
      if shortest != longest {
        if result.duration == shortest { marks.append(.shortest) }
        if result.duration == longest { marks.append(.longest) }
      }
      return ScoreEntry(result: result, marks: marks)
    }
  }

  /// What `result` bettered: the player's best score and shortest time among their earlier
  /// games of the same game and category that were won and count. Empty when `result` was
  /// not won, does not count, or is the first of its kind (nothing to better).
  ///
  /// - Parameters:
  ///   - result: the game to look at.
  ///   - results: the player's results in the order they ended, `result` among them (those
  ///     after it and other players' are passed over).
  ///   - describe: the category and score order of a result's settings.
  /// - Returns: what it bettered, score first.
  public static func newBests(
    of result: ResultRecord, among results: [ResultRecord],
    describe: (ResultRecord) -> (category: String, order: ScoreOrder)
  ) -> [RecordBest] {
    guard result.counts, result.won else { return [] }
    // NB: by place in the store's order (by `end`), so that a game never betters itself.
    let place = results.firstIndex { $0.room == result.room && $0.index == result.index }
    let (category, order) = describe(result)
    let earlier = results[..<(place ?? results.endIndex)].filter { other in
      other.player == result.player && other.game == result.game && other.counts && other.won
        && describe(other).category == category
    }
    guard !earlier.isEmpty else { return [] }
    var bests: [RecordBest] = []
    if order != .none, earlier.allSatisfy({ order.isBetter(result.score, than: $0.score) }) {
      bests.append(.score)
    }
    if earlier.allSatisfy({ result.duration < $0.duration }) { bests.append(.time) }
    return bests
  }

  /// Statistics per game and category (``RecordSettings/category``), in the order each was
  /// first played.
  ///
  /// - Parameters:
  ///   - results: a player's results in the order they ended.
  ///   - describe: the category and score order of a result's settings.
  /// - Returns: a row per game and category.
  public static func statistics(
    _ results: [ResultRecord], describe: (ResultRecord) -> (category: String, order: ScoreOrder)
  ) -> [Statistics] {
    var table: [Statistics] = []
    var rows: [String: Int] = [:]
    for result in results.sorted(by: { ($0.end, $0.index) < ($1.end, $1.index) })
    where result.counts {
      let (category, order) = describe(result)
      let key = result.game + "\u{0}" + category
      let row: Int
      if let known = rows[key] {
        row = known
      } else {
        row = table.count
        rows[key] = row
        table.append(Statistics(game: result.game, options: category, order: order))
      }
      table[row].add(result)
    }
    return table
  }
}

/// How a player has done at one game and setting.
public struct Statistics: Sendable, Equatable {
  public var game: String
  /// The setting, e.g. `difficulty easy` (``RecordSettings/category``).
  public var options: String
  /// Games played to their end or given up.
  public var played = 0
  public var won = 0
  /// The best score of a game won; nil when the game keeps no score or none was won.
  public var bestScore: Int?
  /// The shortest game won, in seconds.
  public var bestTime: Double?
  /// Games won in a row, up to the latest.
  public var streak = 0
  public var bestStreak = 0
  let order: ScoreOrder

  public init(game: String, options: String, order: ScoreOrder) {
    self.game = game
    self.options = options
    self.order = order
  }

  mutating func add(_ result: ResultRecord) {
    played += 1
    guard result.won else {
      streak = 0
      return
    }
    won += 1
    streak += 1
    bestStreak = max(bestStreak, streak)
    if order != .none, bestScore.map({ order.isBetter(result.score, than: $0) }) ?? true {
      bestScore = result.score
    }
    bestTime = min(bestTime ?? result.duration, result.duration)
  }
}
