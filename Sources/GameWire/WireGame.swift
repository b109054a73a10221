import CardTableCore

/// A game's JSON vocabulary: how options and actions are read and how state, views and events
/// are written. The engine console, the WebSocket protocol and saved games all use it.
public protocol WireGame: GameRules {
  /// The names this game answers to on the wire, e.g. `["memory", "concentration"]`.
  static var wireNames: [String] { get }

  /// Reads the options of `{"cmd":"new"}`: `options` (may be absent) and `deck` (card texts).
  static func options(named game: String, from options: JSON?, deck: [String]?)
    throws(WireError) -> Options

  /// Reads an action object such as `{"type":"flip","card":3}` and who performs it.
  static func action(from json: JSON) throws(WireError) -> (action: Action, player: PlayerID)

  /// The wire name of the game that `state` plays (one of ``wireNames``).
  static func wireName(of state: State) -> String

  /// The full state, as the referee sees it.
  static func encode(state: State) -> JSON

  /// What one viewer sees.
  static func encode(view: View) -> JSON

  static func encode(event: Event) -> JSON

  /// The game-specific commands ``command(_:_:in:)`` answers, e.g. `["hint"]`.
  static var commandNames: [String] { get }

  /// Answers a game-specific command such as `hint`; nil when the game has no such command.
  static func command(_ name: String, _ request: JSON, in match: inout Match<Self>)
    throws(WireError) -> JSON?

  /// The ended games of `match`, timed on its clock; empty for games that keep no records.
  static func results(of match: Match<Self>) -> [GameResult]

  /// Whether the game keeps a record of each ended game (``results(of:)``).
  static var keepsResults: Bool { get }

  /// The options and seed that deal the current game again (RULES §6 "restart the same
  /// deal"): the match's own unless the game was dealt anew within the match.
  static func restartPoint(of match: Match<Self>) -> (options: Options, seed: UInt64)
}

extension WireGame {
  public static var commandNames: [String] { [] }

  public static func command(_ name: String, _ request: JSON, in match: inout Match<Self>)
    throws(WireError) -> JSON?
  {
    nil
  }

  public static func results(of match: Match<Self>) -> [GameResult] { [] }
  public static var keepsResults: Bool { false }

  public static func restartPoint(of match: Match<Self>) -> (options: Options, seed: UInt64) {
    (match.options, match.seed)
  }

  /// Reads every text of a `deck` list with `parse`, naming the first one that is not a card.
  public static func cards<Card>(_ texts: [String], _ parse: (String) -> Card?) throws(WireError)
    -> [Card]
  {
    var cards: [Card] = []
    cards.reserveCapacity(texts.count)
    for (index, text) in texts.enumerated() {
      guard let card = parse(text) else {
        throw WireError(
          code: "invalid-deck",
          message: "Deck entry \(index) \"\(text)\" is not a card of this game.")
      }
      cards.append(card)
    }
    return cards
  }
}

extension WireGame where Self: RecordsResults {
  public static func results(of match: Match<Self>) -> [GameResult] { match.results }
  public static var keepsResults: Bool { true }
}

extension PlayingCard {
  public var json: JSON { .string(description) }
}

extension SetCard {
  public var json: JSON { .string(description) }
}
