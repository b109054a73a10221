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

  /// Every game as the clients offer it, in menu order (``WireGame/catalog``).
  public static let entries: [GameInfo] = games.flatMap { $0.catalog }

  /// Every wire name, e.g. `memory`, `concentration`.
  public static let names: [String] = games.flatMap { $0.wireNames }

  /// The entry of the game named `name`, if there is one.
  public static func info(_ name: String) -> GameInfo? {
    entries.first { $0.name == name }
  }

  /// Every game-specific command name, e.g. `hint`.
  public static let commandNames: Set<String> = Set(games.flatMap { $0.commandNames })

  /// Starts the match that `request` asks for; its later deals take their seeds from `later`,
  /// by default from the seed (``LaterSeeds/init(seed:)``).
  ///
  /// - Throws: `unknown-game`, `bad-request` for bad options, `invalid-deck`, or the game's
  ///   own refusal.
  public static func start(_ request: NewGame, later: LaterSeeds? = nil) throws(WireError)
    -> any GameSession
  {
    try start(rules(of: request.game), request, later: later)
  }

  /// Rebuilds a stored match: deals it again from `deal` (``GameSession/deal``), `seed` and
  /// `later`, and replays `log` through the rules, which check every move again. The timers'
  /// entries are not taken from the log but run again, and must come out as logged.
  ///
  /// - Throws: `unknown-game`; the deal's own refusal; `replay-failed` naming the first entry
  ///   of the log the rules refuse or that came out otherwise.
  public static func restore(
    game: String, deal: JSON, seed: UInt64, later: LaterSeeds, log: [LoggedAction]
  ) throws(WireError) -> any GameSession {
    try restore(rules(of: game), game: game, deal: deal, seed: seed, later: later, log: log)
  }

  /// The category (``RecordSettings/category``) and score order of a record's settings, read
  /// from its game and `options` summary; nil when they name no settings of a known game.
  public static func describe(game: String, options: String) -> (
    category: String, order: ScoreOrder
  )? {
    guard let rules = try? rules(of: game) else { return nil }
    return describe(rules, game: game, options: options)
  }

  /// Which way the scores of `game` are better; nil for a game the catalog does not know.
  public static func scoreOrder(of game: String) -> ScoreOrder? {
    guard let rules = try? rules(of: game) else { return nil }
    return rules.scoreOrder(of: game)
  }

  /// Seconds a room of `game` waits, when woken from the store, before its clock runs again
  /// (``WireGame/resumeCountdown``).
  public static func resumeCountdown(of game: String) -> Double {
    (try? rules(of: game))?.resumeCountdown ?? 0
  }

  /// How many seats a table of `game` has, computer players' included
  /// (``WireGame/seatRange``).
  ///
  /// - Throws: `unknown-game`.
  public static func seatRange(of game: String) throws(WireError) -> ClosedRange<Int> {
    try rules(of: game).seatRange
  }

  /// Whether computer players may fill a table of `game` (``WireGame/takesComputerPlayers``).
  ///
  /// - Throws: `unknown-game`.
  public static func takesComputerPlayers(_ game: String) throws(WireError) -> Bool {
    try rules(of: game).takesComputerPlayers
  }

  /// The receipt of a claim at a table of `game` refused with `code` because another call was
  /// decided first (``WireGame/tooLateReceipt(refusedWith:firstFinder:)``).
  public static func tooLateReceipt(
    refusedWith code: String, firstFinder: PlayerID?, of game: String
  ) -> CallReceipt? {
    (try? rules(of: game))?.tooLateReceipt(refusedWith: code, firstFinder: firstFinder)
  }

  /// `options` of `game` with its seated players and computer players put in
  /// (``WireGame/options(_:seating:computers:)``).
  ///
  /// - Throws: `unknown-game`, or `bad-request` for a seating the game does not take.
  public static func options(
    _ options: JSON, of game: String, seating players: [PlayerID], computers: [PlayerID] = []
  ) throws(WireError) -> JSON {
    try rules(of: game).options(options, seating: players, computers: computers)
  }

  /// Checks `options` as `new` would for `game`.
  ///
  /// - Throws: `unknown-game`, or `bad-request` naming what is wrong.
  public static func checkOptions(_ options: JSON, of game: String) throws(WireError) {
    try check(rules(of: game), options, game: game)
  }

  private static func check<G: WireGame>(_ rules: G.Type, _ options: JSON, game: String)
    throws(WireError)
  {
    _ = try G.options(named: game, from: options)
  }

  private static func rules(of game: String) throws(WireError) -> any WireGame.Type {
    guard let rules = games.first(where: { $0.wireNames.contains(game) }) else {
      throw .unknownGame(game)
    }
    return rules
  }

  private static func describe<G: WireGame>(_ rules: G.Type, game: String, options: String) -> (
    category: String, order: ScoreOrder
  )? {
    guard let settings = G.Settings(game: game, summary: options) else { return nil }
    return (settings.category, settings.scoreOrder)
  }

  private static func start<G: WireGame>(
    _ rules: G.Type, _ request: NewGame, later: LaterSeeds?
  ) throws(WireError) -> any GameSession {
    var options = try G.options(named: request.game, from: request.options ?? [:])
    if let deck = request.deck { options = try G.options(options, deck: deck) }
    do {
      let match = try Match<G>(options: options, seed: request.seed, later: later)
      return LiveSession(game: request.game, match: match)
    } catch {
      throw WireError(error)
    }
  }

  private static func restore<G: WireGame>(
    _ rules: G.Type, game: String, deal: JSON, seed: UInt64, later: LaterSeeds,
    log: [LoggedAction]
  ) throws(WireError) -> any GameSession {
    var options = try G.options(named: game, from: deal["options"] ?? [:])
    if let deck = deal["deck"]?.arrayValue?.compactMap(\.stringValue) {
      options = try G.options(options, deck: deck)
    }
    var match: Match<G>
    do {
      match = try Match<G>(options: options, seed: seed, later: later)
    } catch {
      throw WireError(error)
    }
    let decoder = WireDecoder()
    for (index, entry) in log.enumerated() where !entry.automatic {
      match.advance(to: entry.time)
      let action: G.Action
      do {
        action = try decoder.decode(G.Action.self, from: entry.action)
      } catch {
        throw .replayFailed(index: index, "\(entry.action.text) is not an action of \(game)")
      }
      do {
        try match.perform(action, by: entry.player)
      } catch {
        throw .replayFailed(
          index: index, "the rules refuse \(entry.action.text) (\(error.code): \(error.message))")
      }
    }
    if let last = log.last { match.advance(to: last.time) }
    let session = LiveSession(game: game, match: match)
    let replayed = session.loggedActions(from: 0)
    if let index = zip(replayed, log).enumerated().first(where: { $0.element.0 != $0.element.1 })?
      .offset
    {
      throw .replayFailed(index: index, "the replayed action differs from the stored one")
    }
    guard replayed.count == log.count else {
      throw .replayFailed(
        index: min(replayed.count, log.count),
        "the replay has \(replayed.count) actions, the store \(log.count)")
    }
    return session
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
    if let member = request["today"], member != .null {
      guard request["seed"] == nil || request["seed"] == .null else {
        throw .badRequest("new: \"today\" deals today's seed; give it or \"seed\", not both.")
      }
      guard let date = member.stringValue else {
        throw .badRequest("new: \"today\" must be a date such as \"2026-12-01\".")
      }
      seed = try TodaysDeal.seed(of: game, on: date)
      seedChosen = true
    } else if let member = request["seed"], member != .null {
      // NB: a seed may come as a decimal string: JavaScript's numbers are exact only to 2^53.
      guard let seed = member.uint64Value ?? member.stringValue.flatMap(Self.decimalSeed) else {
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

  /// A seed written as a decimal string: digits only, `0` … `18446744073709551615`.
  static func decimalSeed(_ text: String) -> UInt64? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return UInt64(text)
  }
}
