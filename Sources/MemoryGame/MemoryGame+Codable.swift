import CardTableCore

// The wire forms of Memory's and Concentration's vocabulary (docs/ENGINE.md "memory").

extension MemoryGame.Options: Codable {
  enum MemoryKeys: String, CodingKey, CaseIterable {
    case difficulty, players
  }

  /// Reads Memory's `{"difficulty":"hard","players":["Ann","Bob"]}` (Concentration has only
  /// `players`); which variant is read from the decoder's ``CodingUserInfoKey/gameName``
  /// (Memory unless it says `concentration`).
  ///
  /// NB: a refused member's message names the members there were before `players`, whose
  /// words the golden transcript pins.
  public init(from decoder: any Decoder) throws {
    let variant: MemoryGame.Variant =
      decoder.userInfo[.gameName] as? String == "concentration" ? .concentration : .memory
    self.init(variant: variant)
    if variant == .concentration {
      let container = try decoder.container(keyedBy: MemberKey.self)
      if let unknown = container.allKeys.first(where: { $0.stringValue != "players" }) {
        throw InputError.unknownMember(unknown.stringValue, allowed: [])
      }
    } else {
      try decoder.rejectUnknownMembers(MemoryKeys.self, unlisted: ["players"])
    }
    let container = try decoder.container(keyedBy: MemoryKeys.self)
    if container.contains(.players), try !container.decodeNil(forKey: .players) {
      guard let names = try? container.decode([String].self, forKey: .players) else {
        throw InputError.invalid(member: "players", expected: "an array of names")
      }
      players = names.map { PlayerID($0) }
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

  /// Memory's difficulty (Concentration has none), and the players unless the game is the
  /// one player's of old.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: MemoryKeys.self)
    if variant == .memory { try container.encode(difficulty, forKey: .difficulty) }
    if players != [.solo] { try container.encode(players, forKey: .players) }
  }
}

extension MemoryGame.Action: Codable {
  enum CodingKeys: String, CodingKey {
    case type, card
  }

  /// The action types, as the wire names them.
  public static let typeNames = ["flip", "leave"]

  /// `{"type":"flip","card":3}` or `{"type":"leave"}`; the timer's `resolve` is not the
  /// player's to send.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let type = try container.decode(String.self, forKey: .type)
    switch type {
    case "flip": self = .flip(try container.decode(Int.self, forKey: .card))
    case "leave": self = .leave
    default:
      throw InputError.unknownName(member: "type", value: type, expected: Self.typeNames)
    }
  }

  /// `{"type":"flip","card":3}`, `{"type":"resolve"}` or `{"type":"leave"}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .flip(let card):
      try container.encode("flip", forKey: .type)
      try container.encode(card, forKey: .card)
    case .resolve:
      try container.encode("resolve", forKey: .type)
    case .leave:
      try container.encode("leave", forKey: .type)
    }
  }
}

extension MemoryGame.Event: Encodable {
  enum CodingKeys: String, CodingKey {
    case type, card, face, cards, score, moves, to, player
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .flipped(let index, let card):
      try container.encode("flipped", forKey: .type)
      try container.encode(index, forKey: .card)
      try container.encode(card, forKey: .face)
    case .matched(let a, let b): try encodePair("matched", a, b, into: &container)
    case .mismatched(let a, let b): try encodePair("mismatched", a, b, into: &container)
    case .removed(let a, let b): try encodePair("removed", a, b, into: &container)
    case .turnedDown(let a, let b): try encodePair("turnedDown", a, b, into: &container)
    case .ready: try container.encode("ready", forKey: .type)
    case .finished(let score, let moves):
      try container.encode("finished", forKey: .type)
      try container.encode(score, forKey: .score)
      try container.encode(moves, forKey: .moves)
    case .turnPassed(let player):
      try container.encode("turnPassed", forKey: .type)
      try container.encode(player, forKey: .to)
    case .left(let player):
      try container.encode("left", forKey: .type)
      try container.encode(player, forKey: .player)
    }
  }

  private func encodePair(
    _ type: String, _ a: Int, _ b: Int, into container: inout KeyedEncodingContainer<CodingKeys>
  ) throws {
    try container.encode(type, forKey: .type)
    try container.encode(Hand(a, b), forKey: .cards)
  }
}
