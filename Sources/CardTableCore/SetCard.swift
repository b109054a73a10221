/// A card of the 81-card Set deck: number, symbol, shading and color, three values each.
///
/// Its text form is `symbol:color:shading:number`, e.g. `oval:red:solid:2`. The card is stored
/// as its position in ``fullDeck`` (one byte), so the set finder reads it without arithmetic.
public struct SetCard: Hashable, Sendable, Comparable, CustomStringConvertible {
  public enum Symbol: Int, CaseIterable, Sendable {
    case diamond, squiggle, oval

    public var name: String { ["diamond", "squiggle", "oval"][rawValue] }

    /// The glyph a text interface repeats `number` times: ■ ▲ ●.
    public var glyph: Character { ["■", "▲", "●"][rawValue] }

    /// The ASCII fallback glyph: ◆ ~ ● are not ASCII, so `D`, `~`, `O`.
    public var asciiGlyph: Character { ["D", "~", "O"][rawValue] }
  }

  public enum Shading: Int, CaseIterable, Sendable {
    case solid, striped, open

    public var name: String { ["solid", "striped", "open"][rawValue] }
  }

  public enum Color: Int, CaseIterable, Sendable {
    case red, green, purple

    public var name: String { ["red", "green", "purple"][rawValue] }
  }

  /// The position of this card in ``fullDeck``, 0…80: the base-3 digits of number − 1,
  /// symbol, shading and color, in that order.
  @usableFromInline let index: UInt8

  /// Creates the card at `deckIndex` in ``fullDeck``.
  @inlinable
  public init(deckIndex: Int) {
    precondition((0..<81).contains(deckIndex), "a Set deck has 81 cards")
    index = UInt8(deckIndex)
  }

  public init(number: Int, symbol: Symbol, shading: Shading, color: Color) {
    precondition((1...3).contains(number), "a Set card shows 1, 2 or 3 symbols")
    self.init(
      deckIndex: (((number - 1) * 3 + symbol.rawValue) * 3 + shading.rawValue) * 3 + color.rawValue)
  }

  /// The position of this card in ``fullDeck``, 0…80.
  @inlinable public var deckIndex: Int { Int(index) }

  /// 1, 2 or 3 symbols.
  public var number: Int { Int(index) / 27 + 1 }
  // NB: each digit is 0…2, so every raw value below exists.
  public var symbol: Symbol { Symbol(rawValue: Int(index) / 9 % 3) ?? .diamond }
  public var shading: Shading { Shading(rawValue: Int(index) / 3 % 3) ?? .solid }
  public var color: Color { Color(rawValue: Int(index) % 3) ?? .red }

  /// Parses `symbol:color:shading:number`, e.g. `oval:red:solid:2` (case-insensitive).
  public init?(_ text: some StringProtocol) {
    let parts = text.lowercased().split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 4,
      let symbol = Symbol.allCases.first(where: { $0.name == parts[0] }),
      let color = Color.allCases.first(where: { $0.name == parts[1] }),
      let shading = Shading.allCases.first(where: { $0.name == parts[2] }),
      let number = Int(parts[3]), (1...3).contains(number)
    else { return nil }
    self.init(number: number, symbol: symbol, shading: shading, color: color)
  }

  /// The text form, `symbol:color:shading:number` (looked up: no text is built per call).
  @inlinable public var description: String { SetCard.texts[deckIndex] }

  /// The text form of every card, by ``deckIndex``.
  public static let texts: [String] = fullDeck.map { card in
    "\(card.symbol.name):\(card.color.name):\(card.shading.name):\(card.number)"
  }

  /// The four attributes as values 0…2, in the order number, symbol, shading, color.
  public var attributes: [Int] { [number - 1, symbol.rawValue, shading.rawValue, color.rawValue] }

  /// All 81 cards, ordered by number, then symbol, shading and color.
  public static let fullDeck: [SetCard] = (0..<81).map(SetCard.init(deckIndex:))

  public static func < (lhs: SetCard, rhs: SetCard) -> Bool { lhs.index < rhs.index }
}

extension SetCard: Codable {
  /// A card is its text form on the wire: `"oval:red:solid:2"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Reads a text form as ``init(_:)`` does.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let card = SetCard(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\"\(text)\" is not a Set card.")
    }
    self = card
  }
}
