import CardTableCore
import GameServer
import GameStore
import GameWire

#if canImport(Glibc)
  import Glibc
#endif

/// `cardtable stats`: every player's statistics, as a table or as JSON.
enum Stats {
  static func run(data: String?, json: Bool) -> Int32 {
    let store: any GameStore
    switch DataDirectory.open(data, readOnly: true) {
    case .success(let opened): store = opened
    case .failure(let failure): return failure.report("stats")
    }
    var tables: [(player: PlayerRecord, stats: [Statistics], ratings: [RatingSummary])] = []
    do throws(StoreError) {
      for player in try store.players() {
        let stats = statistics(try store.results(of: player.key, game: nil))
        if !stats.isEmpty { tables.append((player, stats, try store.ratings(of: player.key))) }
      }
    } catch {
      printError("stats: \(error)")
      return error.exitCode
    }
    if json {
      let players: [JSON] = tables.map { player, stats, ratings in
        [
          "player": JSON(player.key.rawValue), "name": name(of: player).map(JSON.string) ?? .null,
          "stats": .array(stats.map(Self.json)),
          "ratings": .array(
            ratings.map { summary in
              [
                "game": .string(summary.game), "options": .string(summary.category),
                "rating": JSON(summary.rating.shown), "games": JSON(summary.rating.games),
                "provisional": JSON(summary.rating.isProvisional),
              ]
            }),
        ]
      }
      print(JSON.object([("players", .array(players))]).text)
      return 0
    }
    guard !tables.isEmpty else {
      print(
        "No games that count have ended yet in \(store.path) (practice games and replays do not count)."
      )
      return 0
    }
    for (number, (player, stats, ratings)) in tables.enumerated() {
      if number > 0 { print("") }
      print(name(of: player) ?? "Player \(player.key.rawValue)")
      print(table(stats, ratings: ratings))
    }
    return 0
  }

  /// A player's statistics from their results.
  static func statistics(_ results: [ResultRecord]) -> [Statistics] {
    HighScores.statistics(results) { result in
      GameCatalog.describe(game: result.game, options: result.options) ?? (result.options, .none)
    }
  }

  static func json(_ row: Statistics) -> JSON {
    [
      "game": .string(row.game), "options": .string(row.options), "played": JSON(row.played),
      "won": JSON(row.won), "bestScore": row.bestScore.map { JSON($0) } ?? .null,
      "bestTime": row.bestTime.map { JSON($0) } ?? .null, "streak": JSON(row.streak),
      "bestStreak": JSON(row.bestStreak),
    ]
  }

  /// The statistics as a text table with aligned columns; a rating marked `?` is provisional
  /// (docs/RATINGS.md).
  static func table(_ rows: [Statistics], ratings: [RatingSummary] = []) -> String {
    let header = [
      "Game", "Setting", "Played", "Won", "Best score", "Best time", "Streak", "Best streak",
    ]
    let cells = rows.map { row in
      [
        row.game, row.options, String(row.played), String(row.won),
        row.bestScore.map(String.init) ?? "–", row.bestTime.map { seconds($0) } ?? "–",
        String(row.streak), String(row.bestStreak),
      ]
    }
    let stats = aligned([header] + cells)
    guard !ratings.isEmpty else { return stats }
    let rated = ratings.map { summary in
      [
        summary.game, summary.category,
        "\(summary.rating.shown)\(summary.rating.isProvisional ? "?" : "")",
        String(summary.rating.games),
      ]
    }
    return stats + "\n\n" + aligned([["Game", "Rated as", "Rating", "Games"]] + rated)
  }

  /// Rows of cells in aligned columns: the first two (words) to the left, numbers to the right.
  private static func aligned(_ all: [[String]]) -> String {
    guard let header = all.first else { return "" }
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    return all.map { line in
      line.enumerated().map { column, text in
        // NB: numbers align right, words left.
        let pad = String(repeating: " ", count: widths[column] - text.count)
        return column < 2 ? text + pad : pad + text
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }.joined(separator: "\n")
  }

  /// `45s`, or `1m 05s` from a minute on.
  static func seconds(_ value: Double) -> String {
    let whole = Int(value.rounded())
    guard whole >= 60 else { return "\(whole)s" }
    let rest = whole % 60
    return "\(whole / 60)m \(rest < 10 ? "0" : "")\(rest)s"
  }

  private static func name(of player: PlayerRecord) -> String? {
    (try? JSON(parsing: player.settings))?["name"]?.stringValue
  }
}

/// `cardtable export ROOM`: the room as a save file (docs/SAVEFILE.md).
enum Export {
  static func run(room text: String, data: String?, output: String?) -> Int32 {
    guard let id = RoomID(rawValue: text) else {
      printError("export: \"\(text)\" is not a room id (16 letters, digits, - or _).")
      return 2
    }
    let store: any GameStore
    switch DataDirectory.open(data, readOnly: true) {
    case .success(let opened): store = opened
    case .failure(let failure): return failure.report("export")
    }
    let file: SaveFile
    do {
      guard let made = try SaveFile(room: id, in: store, at: GameServerClock.now()) else {
        printError("export: there is no room \(id) in \(store.path).")
        return 1
      }
      file = made
    } catch {
      printError("export: \(error)")
      return error.exitCode
    }
    let text = file.json.text + "\n"
    guard let output else {
      print(text, terminator: "")
      return 0
    }
    guard writeFile(output, text) else {
      printError("export: cannot write \(output): \(String(cString: strerror(errno))).")
      return 1
    }
    return 0
  }

  private static func writeFile(_ path: String, _ text: String) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    var text = text
    let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
    return fclose(file) == 0 && written == text.utf8.count
  }
}

/// `cardtable verify FILE`: replays a save file and says whether it holds.
enum Verify {
  static func run(file path: String) -> Int32 {
    guard let bytes = readTextFile(path) else {
      printError("verify: cannot read \(path): \(String(cString: strerror(errno))).")
      return 1
    }
    let file: SaveFile
    do {
      file = try SaveFile(json: try JSON(parsing: bytes))
    } catch let error as JSONSyntaxError {
      printError("verify: \(path) is not JSON: \(error).")
      return 1
    } catch {
      printError("verify: \(path): \(error).")
      return 1
    }
    let verdict = file.verify()
    if let failure = verdict.failure {
      print("\(path): NOT VALID — \(failure)\(failure.hasSuffix(".") ? "" : ".")")
      return 1
    }
    let matches = file.matches.count
    print(
      "\(path): valid — \(matches) \(matches == 1 ? "match" : "matches"), \(verdict.moves) moves, every move legal; \(verdict.results) \(verdict.results == 1 ? "result" : "results") as recorded."
    )
    return 0
  }

}

/// The wall clock, for the records the commands write.
enum GameServerClock {
  static func now() -> Int64 { GameServer.millisecondsSince1970() }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
