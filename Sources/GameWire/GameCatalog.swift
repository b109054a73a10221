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
  public static var names: [String] { games.flatMap { $0.wireNames } }

  /// Every game-specific command name, e.g. `hint`.
  public static var commandNames: Set<String> { Set(games.flatMap { $0.commandNames }) }

  /// Starts a match of `game`.
  ///
  /// - Parameters:
  ///   - options: the game's options object, or nil for the defaults.
  ///   - deck: card texts that replace the shuffle, as each game documents.
  ///   - seed: the deal's seed.
  /// - Throws: `unknown-game`, `bad-request` for bad options, or the game's own refusal.
  public static func start(game: String, options: JSON?, deck: [String]?, seed: UInt64)
    throws(WireError) -> any GameSession
  {
    guard let rules = games.first(where: { $0.wireNames.contains(game) }) else {
      throw .unknownGame(game)
    }
    return try start(rules, game: game, options: options, deck: deck, seed: seed)
  }

  private static func start<G: WireGame>(
    _ rules: G.Type, game: String, options: JSON?, deck: [String]?, seed: UInt64
  ) throws(WireError) -> any GameSession {
    let decoded = try G.options(named: game, from: options, deck: deck)
    do {
      let match = try Match<G>(options: decoded, seed: seed)
      return LiveSession(game: game, options: options ?? [:], deck: deck, match: match)
    } catch {
      throw WireError(error)
    }
  }
}
