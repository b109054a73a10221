import CardTableCore

/// A game's JSON vocabulary: its options are `Codable`, its actions ``WireChoice``s, its events
/// ``WireEncodable``, and its views are written as a `WireView` with the rule book's texts. The engine console, the WebSocket
/// protocol and saved games all use it.
public protocol WireGame: GameRules
where
  Options: Codable, Action: WireChoice, Event: WireEncodable, Settings: RecordSettings,
  WireView.Source == View
{
  /// What one viewer sees, as the wire writes it: the engine's view with its texts.
  associatedtype WireView: WireViewType

  /// The names this game answers to on the wire, e.g. `["memory", "concentration"]`: its
  /// catalog's (by default).
  static var wireNames: [String] { get }

  /// Seconds a room of this game waits, when woken from the store, before its clock runs
  /// again: 0, or a real-time game's moment to get ready (Snap!).
  static var resumeCountdown: Double { get }

  /// Which way the scores of the game named `game` are better.
  static func scoreOrder(of game: String) -> ScoreOrder

  /// Whether the match in `state` has ended for good (by default: the game is over).
  static func isFinished(_ state: State) -> Bool

  /// What the game's actions are called in an error: `Matchismo` (knows "choose", …).
  static var actionsTitle: String { get }

  /// Whether an action object's `player` names who performs it (Set's `P1`/`P2`, Snap!'s
  /// seats); games of one player ignore the member.
  static var actionsNamePlayer: Bool { get }

  /// How many seats a table of this game has, computer players' included: Memory and
  /// Concentration 1…4, Matchismo 1…1, Set 1…4, Snap! 2…4 (its single player sits with
  /// computer players).
  static var seatRange: ClosedRange<Int> { get }

  /// Whether computer players may fill the seats people leave empty (Snap!, Memory and
  /// Concentration).
  static var takesComputerPlayers: Bool { get }

  /// The entries the clients offer of this game, one per wire name (``GameInfo``): title,
  /// options, seats, how it plays at a table, help and sounds.
  static var catalog: [GameInfo] { get }

  /// What a table learns from `event`, as the referee sees it: a call or claim decided, a
  /// claim found first, the cards calls are about changed (docs/PROTOCOL.md `receipt`).
  /// Appended in order to `notes`; by default nothing.
  static func tableNotes(of event: Event, into notes: inout [TableNote])

  /// The receipt of a claim the rules refused with `code` because another player's call was
  /// decided first (Set's `card-matched`), naming that player when known; nil for any other
  /// refusal (by default all).
  static func tooLateReceipt(refusedWith code: String, firstFinder: PlayerID?) -> CallReceipt?

  /// The game's options JSON with the seated `players` (host first) and `computers` put in,
  /// so that a room deals a table of its seated players; each then acts as themself
  /// (``GameSession/perform(_:as:)``).
  ///
  /// One seated player plays the game alone, as without seating: the options come back
  /// without `players`.
  ///
  /// - Throws: `bad-request` when the options are not an object, the seats do not fit
  ///   ``seatRange``, the game takes no computer players, or a name is blank or seated twice.
  static func options(_ options: JSON, seating players: [PlayerID], computers: [PlayerID])
    throws(WireError) -> JSON

  /// `options` with the cards of `new`'s `deck` (texts) laid out instead of a shuffle.
  static func options(_ options: Options, deck: [String]) throws(WireError) -> Options

  /// The texts of the deck `options` lay out instead of a shuffle, if any.
  static func deck(of options: Options) -> [String]?

  /// The game-specific commands ``command(_:_:in:)`` answers, e.g. `["hint"]`.
  static var commandNames: [String] { get }

  /// Answers a game-specific command such as `hint`; nil when the game has no such command.
  static func command(_ name: String, _ request: JSON, in match: inout Match<Self>)
    throws(WireError) -> JSON?

  /// The options and seed that deal the current game again (RULES §6 "restart the same
  /// deal"): the match's own unless the game was dealt anew within the match.
  static func restartPoint(of match: Match<Self>) -> (
    options: Options, seed: UInt64, later: LaterSeeds
  )
}

/// A view as the wire writes it, made from the engine's view and the texts that a session
/// keeps written (see ``TextCache``); its members are declared once (``WireObject``).
public protocol WireViewType: WireObject, Equatable, Sendable {
  associatedtype Source
  /// What the session keeps between messages to write this view faster; ``NoCache`` when
  /// nothing is worth keeping.
  associatedtype Cache: ViewCache = NoCache
  init(_ view: Source, cache: inout Cache)
}

/// Texts a session keeps from one message to the next.
public protocol ViewCache: Sendable {
  init()
}

/// Nothing kept.
public struct NoCache: ViewCache {
  public init() {}
}

/// What a table learns from one event of its game (``WireGame/tableNotes(of:into:)``).
public enum TableNote: Sendable, Equatable {
  /// `player`'s call or claim was decided: the receipt everyone is told.
  case call(by: PlayerID, CallReceipt)
  /// `player` found what later claims on the same cards come too late for (Set's first set).
  case found(by: PlayerID)
  /// The cards calls are about changed, so that a receipt's `after` counts from now.
  case changed
}

/// What a table is told of a call or a claim: `correct`, `tooLate` or `wrong`, and why.
public struct CallReceipt: Sendable, Equatable {
  public var result: String
  public var reason: String

  public init(_ result: String, _ reason: String) {
    self.result = result
    self.reason = reason
  }
}

extension WireGame {
  public static var wireNames: [String] { catalog.map(\.name) }
  public static var takesComputerPlayers: Bool { false }
  public static func tableNotes(of event: Event, into notes: inout [TableNote]) {}
  public static func tooLateReceipt(refusedWith code: String, firstFinder: PlayerID?)
    -> CallReceipt?
  { nil }

  /// Checks a seating against ``seatRange`` and ``takesComputerPlayers``, and that
  /// `options` is an object (null reads as `{}`); returns the options.
  static func checkedSeating(_ options: JSON, players: [PlayerID], computers: [PlayerID])
    throws(WireError) -> JSON
  {
    let options = options == .null ? [:] : options
    guard options.keys != nil else {
      throw .badRequest("Options to seat must be an object, not \(options.typeName).")
    }
    guard takesComputerPlayers || computers.isEmpty else {
      throw .badRequest("No computer players play \(actionsTitle).")
    }
    guard !players.isEmpty else { throw .badRequest("A table needs a player to seat.") }
    let seats = players.count + computers.count
    guard seatRange.contains(seats) else {
      let what = takesComputerPlayers ? "players, computer players included" : "players"
      throw .badRequest(
        "Seats for \(actionsTitle): \(seatRange.lowerBound) to \(seatRange.upperBound) \(what), "
          + "not \(seats).")
    }
    var seen = Set<PlayerID>()
    for name in players + computers {
      guard !name.rawValue.allSatisfy(\.isWhitespace), name != .referee else {
        throw .badRequest("\"\(name)\" cannot be a player's name.")
      }
      guard seen.insert(name).inserted else {
        throw .badRequest("\(name) is seated twice.")
      }
    }
    return options
  }

  /// The seating of a game whose players all take part by name: `players` put in when two
  /// or more sit, taken out for one, who plays the game alone.
  static func seatingPlayers(_ options: JSON, _ players: [PlayerID], computers: [PlayerID])
    throws(WireError) -> JSON
  {
    let options = try checkedSeating(options, players: players, computers: computers)
    guard players.count > 1 else { return options.removing("players") }
    return options.setting("players", to: JSON(players.map(\.rawValue)))
  }

  /// The seating of a game whose computer players are named players too (Memory,
  /// Concentration, Set): `players` (people first) and `computer` put in when computers sit,
  /// else as ``seatingPlayers(_:_:computers:)``; a table has no `opponent`.
  static func seatingWithComputers(_ options: JSON, _ players: [PlayerID], computers: [PlayerID])
    throws(WireError) -> JSON
  {
    guard !computers.isEmpty else {
      return try seatingPlayers(options, players, computers: computers).removing("opponent")
    }
    return try checkedSeating(options, players: players, computers: computers)
      .removing("opponent")
      .setting("players", to: JSON((players + computers).map(\.rawValue)))
      .setting("computer", to: JSON(computers.map(\.rawValue)))
  }

  public static var actionsNamePlayer: Bool { false }
  public static var resumeCountdown: Double { 0 }
  public static func isFinished(_ state: State) -> Bool { isOver(state) }
  public static var commandNames: [String] { [] }

  public static func command(_ name: String, _ request: JSON, in match: inout Match<Self>)
    throws(WireError) -> JSON?
  {
    nil
  }

  public static func restartPoint(of match: Match<Self>) -> (
    options: Options, seed: UInt64, later: LaterSeeds
  ) {
    (match.options, match.seed, match.laterSeeds)
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

  /// Reads `json` as this game's options for the game named `game`.
  static func options(named game: String, from json: JSON) throws(WireError) -> Options {
    var decoder = WireDecoder()
    decoder.userInfo[.gameName] = game
    do {
      return try decoder.decode(Options.self, from: json)
    } catch {
      throw .reading(error, of: json, as: .options(game: game))
    }
  }

  /// Reads an action object and, for games whose actions name their player, who performs it.
  static func action(from json: JSON) throws(WireError) -> (action: Action, player: PlayerID) {
    let action: Action
    do {
      action = try Action(plain: json) ?? WireDecoder().decode(Action.self, from: json)
    } catch {
      throw .reading(error, of: json, as: .action(title: actionsTitle))
    }
    return (action, actionsNamePlayer ? try json.actionPlayer() : .solo)
  }
}

extension PlayingCard {
  public var json: JSON { .string(description) }
}

extension SetCard {
  public var json: JSON { .string(description) }
}
