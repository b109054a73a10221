/// A card of the standard 52-card deck.
///
/// Its text form is rank then suit glyph (`A♥`, `10♣`); parsing also accepts ASCII suit letters
/// (`AH`, `10C`, `QS`) and `T` for ten, in either case.
public struct PlayingCard: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The four suits, in the deck's order.
  public enum Suit: Int, CaseIterable, Sendable, Comparable {
    case spades
    case hearts
    case diamonds
    case clubs

    /// The suit's glyph: ♠ ♥ ♦ ♣.
    public var glyph: Character {
      switch self {
      case .spades: "♠"
      case .hearts: "♥"
      case .diamonds: "♦"
      case .clubs: "♣"
      }
    }

    /// The ASCII letter used by text input: S H D C.
    public var letter: Character {
      switch self {
      case .spades: "S"
      case .hearts: "H"
      case .diamonds: "D"
      case .clubs: "C"
      }
    }

    /// The English name, plural: `hearts`.
    public var name: String {
      switch self {
      case .spades: "spades"
      case .hearts: "hearts"
      case .diamonds: "diamonds"
      case .clubs: "clubs"
      }
    }

    /// Hearts and diamonds are red.
    public var isRed: Bool { self == .hearts || self == .diamonds }

    /// Reads a glyph (♠ ♥ ♦ ♣, or the outlined ♤ ♡ ♢ ♧) or an ASCII letter in either case.
    public init?(_ character: Character) {
      switch character {
      case "♠", "♤", "S", "s": self = .spades
      case "♥", "♡", "H", "h": self = .hearts
      case "♦", "♢", "D", "d": self = .diamonds
      case "♣", "♧", "C", "c": self = .clubs
      default: return nil
      }
    }

    public static func < (lhs: Suit, rhs: Suit) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// The thirteen ranks, ace (1) to king (13).
  public enum Rank: Int, CaseIterable, Sendable, Comparable {
    case ace = 1
    case two, three, four, five, six, seven, eight, nine, ten
    case jack, queen, king

    /// The rank as shown on the card: `A`, `2` … `10`, `J`, `Q`, `K`.
    public var symbol: String {
      switch self {
      case .ace: "A"
      case .jack: "J"
      case .queen: "Q"
      case .king: "K"
      default: String(rawValue)
      }
    }

    /// Reads `A`, `1`…`10`, `T`, `J`, `Q`, `K` in either case.
    public init?(symbol: Substring) {
      switch symbol.uppercased() {
      case "A", "1": self = .ace
      case "T": self = .ten
      case "J": self = .jack
      case "Q": self = .queen
      case "K": self = .king
      case let digits:
        guard let value = Int(digits), (2...10).contains(value) else { return nil }
        self.init(rawValue: value)
      }
    }

    public static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public var rank: Rank
  public var suit: Suit

  /// NB: written out so that other modules compare cards in place: the synthesized `==` is a
  /// call across modules, made for every pair a Memory game checks.
  @inlinable
  public static func == (lhs: PlayingCard, rhs: PlayingCard) -> Bool {
    lhs.rank == rhs.rank && lhs.suit == rhs.suit
  }

  public init(_ rank: Rank, _ suit: Suit) {
    self.rank = rank
    self.suit = suit
  }

  /// Parses a text form such as `A♥`, `10♣`, `AH`, `10c` or `qs`; surrounding spaces are ignored.
  public init?(_ text: some StringProtocol) {
    let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace)
    let characters = Array(trimmed.reversed())
    guard characters.count >= 2, let suit = Suit(characters[characters.count - 1]),
      let rank = Rank(symbol: Substring(String(characters.dropLast())))
    else { return nil }
    self.init(rank, suit)
  }

  /// The text form: `A♥`, `10♣` (looked up: no text is built per call).
  @inlinable public var description: String { PlayingCard.texts[deckIndex] }

  /// The text form of every card, by ``deckIndex``.
  public static let texts: [String] = standardDeck.map { $0.rank.symbol + String($0.suit.glyph) }

  /// The ASCII text form: `AH`, `10C`.
  public var ascii: String { rank.symbol + String(suit.letter) }

  /// The position of this card in ``standardDeck`` (suit-major), 0…51.
  @inlinable public var deckIndex: Int { suit.rawValue * 13 + rank.rawValue - 1 }

  /// The card at `deckIndex` in ``standardDeck``.
  @inlinable
  public init(deckIndex: Int) {
    precondition((0..<52).contains(deckIndex), "a deck has 52 cards")
    // NB: both raw values are in range by the precondition.
    self.init(Rank(rawValue: deckIndex % 13 + 1) ?? .ace, Suit(rawValue: deckIndex / 13) ?? .spades)
  }

  /// All 52 cards, spades first, each suit from ace to king.
  public static let standardDeck: [PlayingCard] = Suit.allCases.flatMap { suit in
    Rank.allCases.map { PlayingCard($0, suit) }
  }

  public static func < (lhs: PlayingCard, rhs: PlayingCard) -> Bool {
    lhs.deckIndex < rhs.deckIndex
  }
}

extension PlayingCard: Codable {
  /// A card is its text form on the wire: `"A♥"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Reads any text form ``init(_:)`` accepts: `"A♥"`, `"AH"`, `"10c"`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let card = PlayingCard(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\"\(text)\" is not a playing card.")
    }
    self = card
  }
}
