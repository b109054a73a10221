import CardTableCore

/// Events of one accepted action or timer run, ready to be written for any viewer.
public struct EventBatch: Sendable {
  private let encodeFor: @Sendable (Viewer, any Encoder) throws -> Void
  /// How many events happened (before redaction).
  public let count: Int

  init<G: WireGame>(_ events: [G.Event], of game: G.Type) {
    count = events.count
    encodeFor = { viewer, encoder in
      var container = encoder.unkeyedContainer()
      for event in events {
        if let shown = G.redact(event, for: viewer) { try container.encode(shown) }
      }
    }
  }

  private init() {
    count = 0
    encodeFor = { _, encoder in _ = encoder.unkeyedContainer() }
  }

  /// No events: the reply to a command that changed nothing.
  public static let empty = EventBatch()

  /// The events as `viewer` may see them, as an array on the wire.
  public func shown(to viewer: Viewer) -> Shown { Shown(batch: self, viewer: viewer) }

  /// The events as `viewer` may see them, as ``JSON`` (for tests and tools).
  public func json(for viewer: Viewer) -> [JSON] {
    (try? WireEncoder().json(of: shown(to: viewer)).arrayValue) ?? []
  }

  /// A batch as one viewer sees it.
  public struct Shown: Encodable, Sendable {
    let batch: EventBatch
    let viewer: Viewer

    public func encode(to encoder: any Encoder) throws {
      try batch.encodeFor(viewer, encoder)
    }
  }
}

/// A running match of any game, driven with JSON: what the engine console, a room and a saved
/// game hold without knowing which game it is.
public protocol GameSession: AnyObject {
  /// The wire name of the game, e.g. `concentration`.
  var game: String { get }
  var seed: UInt64 { get }
  var version: Int { get }
  var clock: Double { get }
  var isOver: Bool { get }
  var nextDue: Double? { get }
  /// How many games of the match have ended or were abandoned.
  var resultCount: Int { get }

  /// The full state, as the referee sees it, headed by `game`, `seed`, `version` and `clock`;
  /// `result` (the game just finished) and `resultCount` at the end.
  var state: any Encodable { get }
  /// What `viewer` may see, headed by `game`, `version` and `clock`.
  func view(for viewer: Viewer) -> any Encodable
  /// Every game of the match that has ended or was abandoned, timed on its clock, oldest first.
  var results: any Encodable { get }

  /// Applies an action object; `player` overrides the action's own player when given.
  func perform(_ action: JSON, as player: PlayerID?) throws(WireError) -> EventBatch
  /// Moves the match clock forward, running due timers.
  func advance(by seconds: Double) -> EventBatch
  /// A game-specific command, or nil when the game has none of that name.
  func command(_ name: String, _ request: JSON) throws(WireError) -> JSON?
  /// A fresh match of the same deal: same game, options and seed.
  func restart() throws(WireError) -> any GameSession
}

extension GameSession {
  /// ``state`` as ``JSON``, for tests and tools.
  public func stateJSON() -> JSON { (try? WireEncoder().json(of: state)) ?? .null }

  /// ``view(for:)`` as ``JSON``, for tests and tools.
  public func viewJSON(for viewer: Viewer) -> JSON {
    (try? WireEncoder().json(of: view(for: viewer))) ?? .null
  }
}

/// A view or state with the members that say which match it is first.
struct Headed: Encodable {
  enum CodingKeys: String, CodingKey {
    case game, seed, version, clock, result, resultCount
  }

  var game: String
  var seed: UInt64?
  var version: Int
  var clock: Double
  var body: any Encodable
  /// The game just finished and how many have ended (the state, not a view).
  var result: (any Encodable & Sendable)?
  var resultCount: Int?

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(game, forKey: .game)
    try container.encodeIfPresent(seed, forKey: .seed)
    try container.encode(version, forKey: .version)
    try container.encode(clock, forKey: .clock)
    try body.encode(to: encoder)
    if let result { try container.encode(result, forKey: .result) }
    try container.encodeIfPresent(resultCount, forKey: .resultCount)
  }
}

/// The ``GameSession`` of one game type.
final class LiveSession<G: WireGame>: GameSession {
  let game: String
  private(set) var match: Match<G>
  /// The history texts written so far, shared by every viewer.
  private var cache = G.WireView.Cache()
  /// Each viewer's view body as last written, and the version it shows: a view changes only
  /// with the version, so repeated requests and every viewer of a broadcast reuse it.
  private var bodies: [Viewer: (version: Int, members: EncodedMembers)] = [:]
  private let encoder = WireEncoder()
  /// The most viewers whose bodies are kept; beyond them the oldest are forgotten.
  private static var keptBodies: Int { 8 }

  init(game: String, match: Match<G>) {
    self.game = game
    self.match = match
  }

  var seed: UInt64 { match.seed }
  var version: Int { match.version }
  var clock: Double { match.clock }
  var isOver: Bool { match.isOver }
  var nextDue: Double? { match.nextDue }
  var resultCount: Int { match.results.count }

  var state: any Encodable {
    // NB: only the newest record is written: a match of many deals would otherwise write
    // every record into every reply.
    let last = match.results.last
    let finished = match.isOver && last?.record.ending == .finished ? last : nil
    return Headed(
      game: game, seed: match.seed, version: match.version, clock: match.clock,
      body: body(for: .referee), result: finished, resultCount: match.results.count)
  }

  func view(for viewer: Viewer) -> any Encodable {
    Headed(game: game, version: match.version, clock: match.clock, body: body(for: viewer))
  }

  /// What `viewer` sees, without the header, written once per version.
  private func body(for viewer: Viewer) -> any Encodable {
    let version = match.version
    if let written = bodies[viewer], written.version == version { return written.members }
    let view = G.WireView(G.view(of: match.state, for: viewer), cache: &cache)
    guard let members = try? EncodedMembers(view, encoder: encoder) else { return view }
    if bodies.count >= Self.keptBodies, bodies[viewer] == nil { bodies.removeAll() }
    bodies[viewer] = (version, members)
    return members
  }

  var results: any Encodable { match.results }

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

  func restart() throws(WireError) -> any GameSession {
    let (options, seed) = G.restartPoint(of: match)
    do {
      return LiveSession(game: game, match: try Match<G>(options: options, seed: seed))
    } catch {
      throw WireError(error)
    }
  }
}
