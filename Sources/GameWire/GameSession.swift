import CardTableCore

/// Events of one accepted action or timer run, ready to be written for any viewer.
public struct EventBatch: Sendable {
  private let render: @Sendable (Viewer) -> [JSON]
  /// How many events happened (before redaction).
  public let count: Int

  init<G: WireGame>(_ events: [G.Event], of game: G.Type) {
    count = events.count
    render = { viewer in events.compactMap { G.redact($0, for: viewer) }.map(G.encode(event:)) }
  }

  /// The events as `viewer` may see them.
  public func json(for viewer: Viewer) -> [JSON] { render(viewer) }

  private init() {
    count = 0
    render = { _ in [] }
  }

  /// No events: the reply to a command that changed nothing.
  public static let empty = EventBatch()
}

/// A running match of any game, driven with JSON: what the engine console, a room and a saved
/// game hold without knowing which game it is.
public protocol GameSession: AnyObject {
  /// The wire name of the game, e.g. `concentration`.
  var game: String { get }
  var seed: UInt64 { get }
  /// The options as given on the wire (for results and saved games).
  var optionsJSON: JSON { get }
  var version: Int { get }
  var clock: Double { get }
  var isOver: Bool { get }
  var nextDue: Double? { get }
  /// Every game of the match that has ended or was abandoned, timed on its clock.
  var results: [GameResult] { get }

  /// The full state, as the referee sees it, headed by `game`, `seed` and `version`.
  func state() -> JSON
  /// What `viewer` may see, headed by `game` and `version`.
  func view(for viewer: Viewer) -> JSON
  /// Applies an action object; `player` overrides the action's own player when given.
  func perform(_ action: JSON, as player: PlayerID?) throws(WireError) -> EventBatch
  /// Moves the match clock forward, running due timers.
  func advance(by seconds: Double) -> EventBatch
  /// A game-specific command, or nil when the game has none of that name.
  func command(_ name: String, _ request: JSON) throws(WireError) -> JSON?
  /// A fresh match of the same deal: same game, options and seed.
  func restart() -> any GameSession
}

/// The ``GameSession`` of one game type.
final class LiveSession<G: WireGame>: GameSession {
  let game: String
  let optionsJSON: JSON
  private let deckJSON: [String]?
  private(set) var match: Match<G>

  init(game: String, options: JSON, deck: [String]?, match: Match<G>) {
    self.game = game
    self.optionsJSON = options
    self.deckJSON = deck
    self.match = match
  }

  var seed: UInt64 { match.seed }
  var version: Int { match.version }
  var clock: Double { match.clock }
  var isOver: Bool { match.isOver }
  var nextDue: Double? { match.nextDue }
  var results: [GameResult] { G.results(of: match) }

  /// The referee's state; games that keep results add `result` (the game just finished) and
  /// `resultCount` (how many games of the match have ended; `{"cmd":"results"}` lists them).
  func state() -> JSON {
    var body = G.encode(state: match.state)
    if G.keepsResults {
      // NB: only the newest record is written: a match of many deals would otherwise write
      // every record into every reply.
      let results = G.results(of: match)
      if match.isOver, let last = results.last, last.ending == .finished {
        body = body.setting("result", to: last.json)
      }
      body = body.setting("resultCount", to: JSON(results.count))
    }
    return header(body, seed: match.seed)
  }

  func view(for viewer: Viewer) -> JSON {
    header(G.encode(view: G.view(of: match.state, for: viewer)))
  }

  private func header(_ body: JSON, seed: UInt64? = nil) -> JSON {
    guard case .object(let members) = body else { return body }
    var head: [(String, JSON)] = [("game", .string(game))]
    if let seed { head.append(("seed", JSON(seed))) }
    head += [("version", JSON(match.version)), ("clock", JSON(match.clock))]
    let names = Set(head.map(\.0))
    return .object(head + members.filter { key, _ in !names.contains(key) })
  }

  func perform(_ action: JSON, as player: PlayerID?) throws(WireError) -> EventBatch {
    let decoded = try G.action(from: action)
    do {
      let events = try match.perform(decoded.action, by: player ?? decoded.player)
      return EventBatch(events, of: G.self)
    } catch {
      throw WireError(error)
    }
  }

  func advance(by seconds: Double) -> EventBatch {
    EventBatch(match.advance(by: seconds), of: G.self)
  }

  func command(_ name: String, _ request: JSON) throws(WireError) -> JSON? {
    try G.command(name, request, in: &match)
  }

  func restart() -> any GameSession {
    let (options, seed) = G.restartPoint(of: match)
    // NB: these options and this seed dealt the current game already, so they deal again.
    let fresh = try! Match<G>(options: options, seed: seed)
    return LiveSession(game: game, options: optionsJSON, deck: deckJSON, match: fresh)
  }
}
