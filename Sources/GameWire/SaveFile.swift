import CardTableCore

/// A room written out as one JSON document (docs/SAVEFILE.md), and its verification: every
/// match is dealt again and its log replayed through the rules, which check every move; the
/// results the replay gives must be the ones recorded.
public struct SaveFile: Sendable, Equatable {
  /// The format's name and version, the file's first members.
  public static let format = "cardtable-save"
  public static let version = 1

  /// One match of the room: its deal, its log and what it recorded.
  public struct Match: Sendable, Equatable {
    public var game: String
    /// `{"options":{...}}`, with `"deck":[...]` when a deck was given (``GameSession/deal``).
    public var deal: JSON
    public var seed: UInt64
    /// Where the match's later deals take their seeds (``LaterSeeds``): its key is the match's
    /// secret.
    public var later: LaterSeeds
    /// Dealt from a seed the player chose.
    public var practice: Bool
    /// A restart of a deal the player had seen.
    public var replay: Bool
    /// Milliseconds since 1970.
    public var started: Int64
    /// The accepted actions in order, each with the wall time (ms) it was accepted.
    public var log: [(action: LoggedAction, at: Int64)]
    /// The results recorded, as `results` writes them.
    public var results: [JSON]
    /// Whether the match ended by being abandoned for good (its last result then records it).
    public var abandoned: Bool

    public init(
      game: String, deal: JSON, seed: UInt64, later: LaterSeeds, practice: Bool,
      replay: Bool, started: Int64, log: [(action: LoggedAction, at: Int64)], results: [JSON],
      abandoned: Bool
    ) {
      self.game = game
      self.deal = deal
      self.seed = seed
      self.later = later
      self.practice = practice
      self.replay = replay
      self.started = started
      self.log = log
      self.results = results
      self.abandoned = abandoned
    }

    public static func == (a: Match, b: Match) -> Bool {
      a.game == b.game && a.deal == b.deal && a.seed == b.seed && a.later == b.later
        && a.practice == b.practice && a.replay == b.replay && a.started == b.started
        && a.log.map(\.action) == b.log.map(\.action) && a.log.map(\.at) == b.log.map(\.at)
        && a.results == b.results && a.abandoned == b.abandoned
    }
  }

  public var room: String
  public var game: String
  /// `playing`, `over` or `abandoned`.
  public var status: String
  /// Milliseconds since 1970.
  public var created: Int64
  public var exported: Int64
  public var matches: [Match]
  /// A table's chat, line by line as docs/PROTOCOL.md "Table chat" writes them (who wrote,
  /// when, and what); empty for a room that is no table or had no chat.
  public var chat: [JSON]

  public init(
    room: String, game: String, status: String, created: Int64, exported: Int64,
    matches: [Match], chat: [JSON] = []
  ) {
    self.room = room
    self.game = game
    self.status = status
    self.created = created
    self.exported = exported
    self.matches = matches
    self.chat = chat
  }

  // MARK: JSON

  /// The file's JSON. 64-bit numbers (seeds, keys) are decimal strings, so that any JSON
  /// reader keeps them exact.
  public var json: JSON {
    let file: JSON = [
      "format": .string(Self.format), "version": JSON(Self.version), "room": .string(room),
      "game": .string(game), "status": .string(status), "created": JSON(created),
      "exported": JSON(exported),
      "matches": .array(
        matches.map { match in
          [
            "game": .string(match.game), "deal": match.deal, "seed": .string(String(match.seed)),
            "laterKey": JSON([String(match.later.key.0), String(match.later.key.1)]),
            "laterDrawn": JSON(match.later.drawn),
            "practice": JSON(match.practice), "replay": JSON(match.replay),
            "started": JSON(match.started), "abandoned": JSON(match.abandoned),
            "log": .array(
              match.log.map { entry in
                [
                  "time": JSON(entry.action.time), "at": JSON(entry.at),
                  "player": .string(entry.action.player.rawValue),
                  "automatic": JSON(entry.action.automatic), "action": entry.action.action,
                ]
              }),
            "results": .array(match.results),
          ]
        }),
    ]
    return chat.isEmpty ? file : file.setting("chat", to: .array(chat))
  }

  /// Reads a save file.
  ///
  /// - Throws: ``SaveFileError`` naming the first member that is missing or wrong.
  public init(json: JSON) throws(SaveFileError) {
    guard json["format"]?.stringValue == Self.format else {
      throw SaveFileError(
        "this is not a CardTable save file (\"format\" is not \"\(Self.format)\")")
    }
    guard let version = json["version"]?.intValue else {
      throw SaveFileError("\"version\" is missing")
    }
    guard version <= Self.version else {
      throw SaveFileError(
        "the file is of version \(version), written by a newer CardTable (this one reads \(Self.version))"
      )
    }
    func string(_ value: JSON?, _ name: String) throws(SaveFileError) -> String {
      guard let text = value?.stringValue else {
        throw SaveFileError("\"\(name)\" must be a string")
      }
      return text
    }
    func integer(_ value: JSON?, _ name: String) throws(SaveFileError) -> Int64 {
      guard let number = value?.intValue.map(Int64.init) else {
        throw SaveFileError("\"\(name)\" must be a whole number")
      }
      return number
    }
    func unsigned(_ value: JSON?, _ name: String) throws(SaveFileError) -> UInt64 {
      guard let number = value?.stringValue.flatMap({ UInt64($0) }) ?? value?.uint64Value else {
        throw SaveFileError("\"\(name)\" must be a whole number from 0 to 2^64-1")
      }
      return number
    }
    room = try string(json["room"], "room")
    game = try string(json["game"], "game")
    status = try string(json["status"], "status")
    created = try integer(json["created"], "created")
    exported = try integer(json["exported"], "exported")
    guard let list = json["matches"]?.arrayValue else {
      throw SaveFileError("\"matches\" must be a list")
    }
    var matches: [Match] = []
    for (number, match) in list.enumerated() {
      let context = "match \(number + 1)"
      guard let key = match["laterKey"]?.arrayValue, key.count == 2 else {
        throw SaveFileError("\(context): \"laterKey\" must be a list of two numbers")
      }
      guard let entries = match["log"]?.arrayValue else {
        throw SaveFileError("\(context): \"log\" must be a list")
      }
      var log: [(action: LoggedAction, at: Int64)] = []
      for (index, entry) in entries.enumerated() {
        let position = "\(context), move \(index + 1)"
        guard let time = entry["time"]?.doubleValue, let automatic = entry["automatic"]?.boolValue,
          let action = entry["action"], action.keys != nil
        else {
          throw SaveFileError("\(position): needs \"time\", \"automatic\" and \"action\"")
        }
        let player = try string(entry["player"], "\(position): player")
        let at = try integer(entry["at"], "\(position): at")
        log.append(
          (
            LoggedAction(
              time: time, player: PlayerID(player), automatic: automatic, action: action), at
          ))
      }
      guard let deal = match["deal"], deal.keys != nil else {
        throw SaveFileError("\(context): \"deal\" must be an object")
      }
      matches.append(
        Match(
          game: try string(match["game"], "\(context): game"), deal: deal,
          seed: try unsigned(match["seed"], "\(context): seed"),
          later: LaterSeeds(
            key: (
              try unsigned(key[0], "\(context): laterKey"),
              try unsigned(key[1], "\(context): laterKey")
            ), drawn: match["laterDrawn"]?.uint64Value ?? 0
          ),
          practice: match["practice"]?.boolValue ?? false,
          replay: match["replay"]?.boolValue ?? false,
          started: try integer(match["started"], "\(context): started"), log: log,
          results: match["results"]?.arrayValue ?? [],
          abandoned: match["abandoned"]?.boolValue ?? false))
    }
    self.matches = matches
    guard let chat = json["chat"].map({ $0.arrayValue }) ?? [] else {
      throw SaveFileError("\"chat\" must be a list")
    }
    self.chat = chat
  }

  // MARK: Verifying

  /// What verifying a save file found.
  public struct Verdict: Sendable, Equatable {
    /// Moves replayed and checked, across the matches.
    public var moves: Int
    /// Results the replay gave, as recorded.
    public var results: Int
    /// The first thing wrong, or nil when everything held.
    public var failure: String?
  }

  /// Deals every match again, replays its log through the rules and compares the results.
  public func verify() -> Verdict {
    var verdict = Verdict(moves: 0, results: 0, failure: nil)
    for (number, match) in matches.enumerated() {
      let context = "match \(number + 1)"
      let session: any GameSession
      do {
        session = try GameCatalog.restore(
          game: match.game, deal: match.deal, seed: match.seed,
          later: match.later, log: match.log.map(\.action))
      } catch {
        verdict.failure = "\(context): \(error.message)"
        return verdict
      }
      verdict.moves += match.log.count
      if match.abandoned { _ = session.abandon() }
      let replayed = session.loggedResults(from: 0, for: .solo).map(\.json)
      for (index, (recorded, again)) in zip(match.results, replayed).enumerated()
      where recorded != again {
        verdict.failure =
          "\(context): result \(index + 1) is recorded as \(recorded.text), but the moves give \(again.text)"
        return verdict
      }
      guard match.results.count == replayed.count else {
        let recorded = match.results.count
        verdict.failure =
          "\(context): \(recorded) \(recorded == 1 ? "result is" : "results are") recorded, but the moves give \(replayed.count)"
        return verdict
      }
      verdict.results += replayed.count
    }
    return verdict
  }
}

/// A save file that cannot be read, and why.
public struct SaveFileError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
