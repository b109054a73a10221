/// A card of the 81-card Set deck: number, symbol, shading and color, three values each.
///
/// Its text form is `symbol:color:shading:number`, e.g. `oval:red:solid:2`.
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

  /// 1, 2 or 3 symbols.
  public var number: Int
  public var symbol: Symbol
  public var shading: Shading
  public var color: Color

  public init(number: Int, symbol: Symbol, shading: Shading, color: Color) {
    precondition((1...3).contains(number), "a Set card shows 1, 2 or 3 symbols")
    self.number = number
    self.symbol = symbol
    self.shading = shading
    self.color = color
  }

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

  /// The text form: `symbol:color:shading:number`.
  public var description: String {
    "\(symbol.name):\(color.name):\(shading.name):\(number)"
  }

  /// The four attributes as values 0…2, in the order number, symbol, shading, color.
  public var attributes: [Int] { [number - 1, symbol.rawValue, shading.rawValue, color.rawValue] }

  /// The position of this card in ``fullDeck``, 0…80 (base-3 digits of ``attributes``).
  public var deckIndex: Int {
    ((((number - 1) * 3 + symbol.rawValue) * 3 + shading.rawValue) * 3) + color.rawValue
  }

  /// Creates the card at `deckIndex` in ``fullDeck``.
  public init(deckIndex: Int) {
    precondition((0..<81).contains(deckIndex), "a Set deck has 81 cards")
    self.init(
      number: deckIndex / 27 + 1, symbol: Symbol(rawValue: deckIndex / 9 % 3)!,
      shading: Shading(rawValue: deckIndex / 3 % 3)!, color: Color(rawValue: deckIndex % 3)!)
  }

  /// All 81 cards, ordered by number, then symbol, shading and color.
  public static let fullDeck: [SetCard] = (0..<81).map(SetCard.init(deckIndex:))

  public static func < (lhs: SetCard, rhs: SetCard) -> Bool { lhs.deckIndex < rhs.deckIndex }
}
