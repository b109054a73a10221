import CardTableCore

// The wire forms of Snap!'s vocabulary (docs/ENGINE.md "snap").

extension SnapGame.Options: Codable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case players, computer, starting, computerSpeed
  }

  /// Reads `players` (names, host first), `computer` (names), `starting` (a name) and
  /// `computerSpeed` (`relaxed`, `original`, `quick` or `sharp`); absent members keep the
  /// single-player game's: you against Ray, Lucy and Steve at the original speed. Naming
  /// `players` without `computer` seats no computer player.
  public init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownMembers(CodingKeys.self, unlisted: ["computerSpeed"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func names(_ key: CodingKeys) throws -> [PlayerID]? {
      guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
      guard let names = try? container.decode([String].self, forKey: key) else {
        throw InputError.invalid(member: key.stringValue, expected: "an array of names")
      }
      return names.map { PlayerID($0) }
    }
    self = .singlePlayer
    if let players = try names(.players) {
      self.players = players
      computer = []
    }
    if let computer = try names(.computer) { self.computer = Set(computer) }
    if container.contains(.starting), try !container.decodeNil(forKey: .starting) {
      guard let name = try? container.decode(String.self, forKey: .starting) else {
        throw InputError.invalid(member: "starting", expected: "a player's name")
      }
      starting = PlayerID(name)
    }
    if let speed = try container.decodeChoice(SnapGame.ComputerSpeed.self, forKey: .computerSpeed) {
      computerSpeed = speed
    }
  }

  /// The players, the computer's (in seat order), the starting player and the computer's
  /// speed unless it is the original; a given deck travels beside the options (`new`'s
  /// `deck`), not in them.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(players, forKey: .players)
    try container.encode(players.filter(computer.contains), forKey: .computer)
    try container.encodeIfPresent(starting, forKey: .starting)
    if computerSpeed != .original { try container.encode(computerSpeed, forKey: .computerSpeed) }
  }
}

extension SnapGame.SnapResult {
  /// `correct`, `tooLate` or `wrong`.
  public var name: String {
    switch self {
    case .correct: "correct"
    case .tooLate: "tooLate"
    case .wrong: "wrong"
    }
  }
}

extension SnapGame.Transfer: Codable {
  enum CodingKeys: String, CodingKey {
    case to, card
  }

  /// `{"to":"You","card":"2♦"}`, `card` null when redacted.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(to, forKey: .to)
    try container.encode(card, forKey: .card)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      to: try container.decode(PlayerID.self, forKey: .to),
      card: try container.decodeIfPresent(PlayingCard.self, forKey: .card))
  }
}
