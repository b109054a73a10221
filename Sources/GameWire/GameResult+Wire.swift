import CardTableCore

extension GameRecord {
  /// `{"game":…,"options":…,"seed":…,"score":…,"moves":…,"ending":…}`, with `players` when the
  /// game had several and `winner` when one won.
  public var json: JSON {
    var members: [(String, JSON)] = [
      ("game", .string(game)), ("options", .string(options)), ("seed", JSON(seed)),
      ("score", JSON(score)),
    ]
    if !players.isEmpty { members.append(("players", playersJSON(players))) }
    members += [("moves", JSON(moves)), ("ending", .string(ending.rawValue))]
    if let winner { members.append(("winner", .string(winner.rawValue))) }
    return .object(members)
  }
}

extension GameResult {
  /// The record's members plus `start`, `end` and `duration` in seconds on the match clock.
  public var json: JSON {
    record.json.setting("start", to: JSON(start)).setting("end", to: JSON(end))
      .setting("duration", to: JSON(duration))
  }
}

/// `[{"player":"P1","score":3}, …]`.
func playersJSON(_ players: [PlayerScore]) -> JSON {
  .array(players.map { ["player": .string($0.player.rawValue), "score": JSON($0.score)] })
}
