import CardTableCore
import ChoiceTable

// The wire forms of Matchismo's vocabulary (docs/ENGINE.md "matchismo").

extension MatchingGame.Options: Codable {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case cards, mode, matchBonus, mismatchPenalty, costToChoose
  }

  /// Every member is optional; unknown members are refused, so a misspelt one is noticed.
  public init(from decoder: any Decoder) throws {
    try decoder.rejectUnknownMembers(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let range = MatchScoring.range
    self.init(
      cards: try container.decode(
        Int.self, forKey: .cards, in: MatchingGame.cardRange, default: MatchingGame.defaultCards),
      mode: try container.decode(Int.self, forKey: .mode, in: MatchingGame.modes, default: 2),
      scoring: MatchScoring(
        matchBonus: try container.decode(Int.self, forKey: .matchBonus, in: range, default: 4),
        mismatchPenalty: try container.decode(
          Int.self, forKey: .mismatchPenalty, in: range, default: 2),
        costToChoose: try container.decode(Int.self, forKey: .costToChoose, in: range, default: 1)
      ))
  }

  /// The settings; a given deck travels beside the options (`new`'s `deck`), not in them.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(cards, forKey: .cards)
    try container.encode(mode, forKey: .mode)
    try container.encode(scoring.matchBonus, forKey: .matchBonus)
    try container.encode(scoring.mismatchPenalty, forKey: .mismatchPenalty)
    try container.encode(scoring.costToChoose, forKey: .costToChoose)
  }
}

extension MatchingGame.PairMatch: Codable {
  enum CodingKeys: String, CodingKey {
    case cards, same
  }

  /// `{"cards":["A♥","A♠"],"same":"rank"}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Hand(first, second), forKey: .cards)
    try container.encode(kind, forKey: .same)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let cards = try container.decode(Hand<PlayingCard>.self, forKey: .cards)
    guard cards.count == 2 else {
      throw DecodingError.dataCorruptedError(
        forKey: .cards, in: container, debugDescription: "A pair names two cards.")
    }
    self.init(
      first: cards[0], second: cards[1],
      kind: try container.decode(Kind.self, forKey: .same))
  }
}

extension MatchingGame.Reason: Codable {
  enum CodingKeys: String, CodingKey {
    case text, pairs
  }

  /// `{"text":"A♥ A♠ same rank","pairs":[{"cards":["A♥","A♠"],"same":"rank"}]}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(text, forKey: .text)
    try container.encode(pairs, forKey: .pairs)
  }

  /// Reads the pairs; the text follows from them.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(pairs: try container.decode([MatchingGame.PairMatch].self, forKey: .pairs))
  }
}
