import CardTableCore

// The wire forms of Memory's and Concentration's vocabulary (docs/ENGINE.md "memory").

extension MemoryGame.Options: Codable {
  enum MemoryKeys: String, CodingKey, CaseIterable {
    case difficulty, players, computer, computerLevel, opponent
  }

  /// The members added after `difficulty`, whose names older refusals do not list.
  static let laterMembers: Set<String> = ["players", "computer", "computerLevel", "opponent"]

  /// Reads Memory's `{"difficulty":"hard","players":["Ann","Ray"],"computer":["Ray"],
  /// "computerLevel":"perfect"}` (Concentration has no `difficulty`); which variant is read
  /// from the decoder's ``CodingUserInfoKey/gameName`` (Memory unless it says
  /// `concentration`). `opponent` (`none` or a level) is the game alone against one computer
  /// player: `{"opponent":"good"}` seats you and Ray, Ray played by the computer.
  ///
  /// NB: a refused member's message names the members there were before `players`, whose
  /// words the golden transcript pins.
  public init(from decoder: any Decoder) throws {
    let variant: MemoryGame.Variant =
      decoder.userInfo[.gameName] as? String == "concentration" ? .concentration : .memory
    self.init(variant: variant)
    if variant == .concentration {
      let container = try decoder.container(keyedBy: MemberKey.self)
      if let unknown = container.allKeys.first(where: {
        !Self.laterMembers.contains($0.stringValue)
      }) {
        throw InputError.unknownMember(unknown.stringValue, allowed: [])
      }
    } else {
      try decoder.rejectUnknownMembers(MemoryKeys.self, unlisted: Self.laterMembers)
    }
    let container = try decoder.container(keyedBy: MemoryKeys.self)
    func names(_ key: MemoryKeys) throws -> [PlayerID]? {
      guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
      guard let names = try? container.decode([String].self, forKey: key) else {
        throw InputError.invalid(member: key.stringValue, expected: "an array of names")
      }
      return names.map { PlayerID($0) }
    }
    if let players = try names(.players) { self.players = players }
    if let computer = try names(.computer) { self.computer = Set(computer) }
    if let level = try container.decodeChoice(MemoryGame.ComputerLevel.self, forKey: .computerLevel)
    {
      computerLevel = level
    }
    if let opponent = try container.decodeChoice(
      MemoryGame.ComputerLevel.self, forKey: .opponent, none: "none")
    {
      guard players == [.solo], computer.isEmpty else {
        throw InputError.refused(
          code: "invalid-options",
          message:
            "An opponent is for a game alone; a table names its computer players in computer.")
      }
      let computerName = MemoryGame.computerNames[0]
      players = [.solo, computerName]
      computer = [computerName]
      computerLevel = opponent
    }
    guard variant == .memory, container.contains(.difficulty),
      try !container.decodeNil(forKey: .difficulty)
    else {
      return
    }
    let names = MemoryGame.Difficulty.allCases.map(\.rawValue)
    guard let name = try? container.decode(String.self, forKey: .difficulty),
      let difficulty = MemoryGame.Difficulty(rawValue: name)
    else {
      throw InputError.unknownName(member: "difficulty", value: nil, expected: names)
    }
    self.difficulty = difficulty
  }

  /// Memory's difficulty (Concentration has none), the players unless the game is the one
  /// player's of old, and the computer players (in seat order) with their level when there
  /// are any.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: MemoryKeys.self)
    if variant == .memory { try container.encode(difficulty, forKey: .difficulty) }
    if players != [.solo] { try container.encode(players, forKey: .players) }
    if !computer.isEmpty {
      try container.encode(players.filter(computer.contains), forKey: .computer)
      try container.encode(computerLevel, forKey: .computerLevel)
    }
  }
}
