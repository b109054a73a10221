import CardTableCore
import MatchingGame
import MemoryGame
import SetGame
import SnapGame

/// Every game the wire knows, by name.
public enum GameCatalog {
  /// The games' rules, in menu order.
  public static let games: [any WireGame.Type] = [
    MemoryGame.self, MatchingGame.self, SetGame.self, SnapGame.self,
  ]

  /// Every wire name, e.g. `memory`, `concentration`.
  public static let names: [String] = games.flatMap { $0.wireNames }

  /// Every game-specific command name, e.g. `hint`.
  public static let commandNames: Set<String> = Set(games.flatMap { $0.commandNames })

  /// Starts the match that `request` asks for.
  ///
  /// - Throws: `unknown-game`, `bad-request` for bad options, `invalid-deck`, or the game's
  ///   own refusal.
  public static func start(_ request: NewGame) throws(WireError) -> any GameSession {
    guard let rules = games.first(where: { $0.wireNames.contains(request.game) }) else {
      throw .unknownGame(request.game)
    }
    return try start(rules, request)
  }

  private static func start<G: WireGame>(_ rules: G.Type, _ request: NewGame) throws(WireError)
    -> any GameSession
  {
    var options = try G.options(named: request.game, from: request.options ?? [:])
    if let deck = request.deck { options = try G.options(options, deck: deck) }
    do {
      let match = try Match<G>(options: options, seed: request.seed)
      return LiveSession(game: request.game, match: match)
    } catch {
      throw WireError(error)
    }
  }
}

/// A `new` command, as the engine console and the WebSocket protocol both read it:
/// `{"cmd":"new","game":G,"options":{...},"seed":N,"deck":[...]}`.
public struct NewGame: Sendable, Equatable {
  public var game: String
  /// The game's options object as sent; nil when absent or null (the game's defaults).
  public var options: JSON?
  public var seed: UInt64
  /// Whether the request chose the seed (a seed the server picked stays secret).
  public var seedChosen: Bool
  /// Card texts that replace the shuffle, as each game documents.
  public var deck: [String]?

  public init(
    game: String, options: JSON? = nil, seed: UInt64, seedChosen: Bool = true, deck: [String]? = nil
  ) {
    self.game = game
    self.options = options
    self.seed = seed
    self.seedChosen = seedChosen
    self.deck = deck
  }

  /// Reads a `new` command; `newSeed` picks the seed when the request gives none.
  public init(_ request: JSON, newSeed: () -> UInt64) throws(WireError) {
    game = try request.requiredString("game", in: "new")
    if let member = request["seed"], member != .null {
      guard let seed = member.uint64Value else {
        throw .badRequest(
          "new: \"seed\" must be a whole number from 0 to 2^64-1, not \(member.text).")
      }
      self.seed = seed
      seedChosen = true
    } else {
      seed = newSeed()
      seedChosen = false
    }
    if let member = request["deck"], member != .null {
      guard let list = member.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
        throw .badRequest("new: \"deck\" must be an array of card texts such as [\"A♥\",\"K♠\"].")
      }
      deck = list.compactMap(\.stringValue)
    }
    if let member = request["options"], member != .null { options = member }
  }
}
