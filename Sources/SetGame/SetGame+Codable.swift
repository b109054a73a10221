import CardTableCore
import ChoiceTable

// The wire forms of Set's vocabulary (docs/ENGINE.md "set").

extension SetGame.Options: Codable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case mode, matchBonus, mismatchPenalty, costToChoose, refill, twoPlayer, players
    case computer, computerLevel, opponent
  }

  /// The members added after `players`, whose names older refusals do not list.
  static let laterMembers: Set<String> = ["computer", "computerLevel", "opponent"]

  /// Every member is optional and unknown ones are refused; `mode` is accepted only as 3;
  /// `players` names a race's players, `computer` those the computer plays, at
  /// `computerLevel` (`relaxed`, `steady` or `sharp`); `opponent` (`none` or a level) is a
  /// race of you against Ray.
  public init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownMembers(CodingKeys.self, unlisted: Self.laterMembers)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let range = MatchScoring.range
    _ = try container.decode(
      Int.self, forKey: .mode, in: SetGame.mode...SetGame.mode, default: SetGame.mode)
    self.init(
      scoring: MatchScoring(
        matchBonus: try container.decode(Int.self, forKey: .matchBonus, in: range, default: 4),
        mismatchPenalty: try container.decode(
          Int.self, forKey: .mismatchPenalty, in: range, default: 2),
        costToChoose: try container.decode(Int.self, forKey: .costToChoose, in: range, default: 1)
      ),
      refill: try container.decode(Bool.self, forKey: .refill, default: false),
      twoPlayer: try container.decode(Bool.self, forKey: .twoPlayer, default: false))
    if container.contains(.players), try !container.decodeNil(forKey: .players) {
      guard let names = try? container.decode([String].self, forKey: .players) else {
        throw InputError.invalid(member: "players", expected: "an array of names")
      }
      players = names.map { PlayerID($0) }
    }
    if container.contains(.computer), try !container.decodeNil(forKey: .computer) {
      guard let names = try? container.decode([String].self, forKey: .computer) else {
        throw InputError.invalid(member: "computer", expected: "an array of names")
      }
      computer = Set(names.map { PlayerID($0) })
    }
    if let level = try container.decodeChoice(SetGame.ComputerLevel.self, forKey: .computerLevel) {
      computerLevel = level
    }
    if let opponent = try container.decodeChoice(
      SetGame.ComputerLevel.self, forKey: .opponent, none: "none")
    {
      guard players == [.solo], computer.isEmpty, !twoPlayer else {
        throw InputError.refused(
          code: "invalid-options",
          message:
            "An opponent is for a game alone; a table names its computer players in computer.")
      }
      players = [.solo, SetGame.computerNames[0]]
      computer = [SetGame.computerNames[0]]
      computerLevel = opponent
    }
  }

  /// The settings, and a race's players; a given deck travels beside the options (`new`'s
  /// `deck`), not in them.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(scoring.matchBonus, forKey: .matchBonus)
    try container.encode(scoring.mismatchPenalty, forKey: .mismatchPenalty)
    try container.encode(scoring.costToChoose, forKey: .costToChoose)
    try container.encode(refill, forKey: .refill)
    try container.encode(twoPlayer, forKey: .twoPlayer)
    if players != [.solo] { try container.encode(players, forKey: .players) }
    if !computer.isEmpty {
      try container.encode(players.filter(computer.contains), forKey: .computer)
      try container.encode(computerLevel, forKey: .computerLevel)
    }
  }
}

extension SetGame.Reason: Codable {
  enum CodingKeys: String, CodingKey {
    case text, number, symbol, shading, color
  }

  /// `{"text":"number same, …","number":"same","symbol":"different",…}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(text, forKey: .text)
    try container.encode(number, forKey: .number)
    try container.encode(symbol, forKey: .symbol)
    try container.encode(shading, forKey: .shading)
    try container.encode(color, forKey: .color)
  }

  /// Reads the four agreements; the text follows from them.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      number: try container.decode(SetGame.Agreement.self, forKey: .number),
      symbol: try container.decode(SetGame.Agreement.self, forKey: .symbol),
      shading: try container.decode(SetGame.Agreement.self, forKey: .shading),
      color: try container.decode(SetGame.Agreement.self, forKey: .color))
  }
}
