import CardTableCore
import MatchingGame
import MemoryGame
import SetGame
import SnapGame

/// Events of one accepted action or timer run, ready to be written for any viewer.
public struct EventBatch: Sendable {
  private let writeFor: @Sendable (Viewer, inout WireWriter) -> Void
  /// How many events happened (before redaction).
  public let count: Int
  /// What a table learns from the events (``WireGame/tableNotes(of:into:)``), in order.
  public let notes: [TableNote]

  init<G: WireGame>(_ events: OutcomeList<G.Event>, of game: G.Type) {
    count = events.count
    var notes: [TableNote] = []
    for event in events { G.tableNotes(of: event, into: &notes) }
    self.notes = notes
    writeFor = { viewer, writer in
      writer.array(events.lazy.compactMap { G.redact($0, for: viewer) })
    }
  }

  private init() {
    count = 0
    notes = []
    writeFor = { _, writer in writer.json { $0.raw("[]") } }
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
  public struct Shown: WireEncodable, Sendable {
    let batch: EventBatch
    let viewer: Viewer

    public func write(to writer: inout WireWriter) {
      batch.writeFor(viewer, &writer)
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
  /// Whether the match has ended for good: its game over with nothing left to deal (Snap!'s
  /// last round), as opposed to a game or round over that the players may follow with another.
  var isFinished: Bool { get }
  var nextDue: Double? { get }
  /// How many games of the match have ended or were abandoned.
  var resultCount: Int { get }
  /// What the current game's ratings are kept per (``RecordSettings/ratingMode``), or the last
  /// game's once the match has ended; nil for a game that keeps no records.
  var ratingMode: String? { get }

  /// The full state, as the referee sees it, headed by `game`, `seed`, `version` and `clock`;
  /// `result` (the game just finished) and `resultCount` at the end.
  var state: Headed { get }
  /// What `viewer` may see, headed by `game`, `version` and `clock`.
  func view(for viewer: Viewer) -> Headed
  /// Every game of the match that has ended or was abandoned, timed on its clock, oldest first.
  var results: any Encodable { get }

  /// Applies an action object; `player` overrides the action's own player when given.
  func perform(_ action: JSON, as player: PlayerID?) throws(WireError) -> EventBatch
  /// Moves the match clock forward, running due timers.
  func advance(by seconds: Double) -> EventBatch
  /// A game-specific command, or nil when the game has none of that name.
  func command(_ name: String, _ request: JSON) throws(WireError) -> JSON?
  /// A fresh match of the same deal: same game, options, seed and later seeds.
  func restart() throws(WireError) -> any GameSession

  /// What deals the match again with its seed: `{"options":{...}}`, with `"deck":[...]` when
  /// a deck was given (what ``GameCatalog/restore(game:deal:seed:later:log:)`` takes back).
  var deal: JSON { get }
  /// Where the match's later deals get their seeds.
  var laterSeeds: LaterSeeds { get }
  /// The log entries from `version` on as a store writes them: each action's JSON text,
  /// written once from the engine's value (``loggedActions(from:)`` reads them back).
  func loggedActionTexts(from version: Int) -> [LoggedActionText]
  /// The results from the `index`-th on, each with whether `player` won it.
  func loggedResults(from index: Int, for player: PlayerID) -> [LoggedResult]
  /// Takes the match back to what it was after its first `version` actions (the later ones
  /// are forgotten, their timers pending again).
  func rollback(to version: Int)
  /// Records the current game as abandoned, unless it has ended; returns whether it did.
  func abandon() -> Bool
  /// What `viewer` saw after the first `version` actions of the match, headed like ``view(for:)``.
  ///
  /// - Throws: `bad-request` for a version the match does not have.
  func view(at version: Int, for viewer: Viewer) throws(WireError) -> Headed
}

extension GameSession {
  /// The log entries from `version` on, with their actions as the engine writes them, read
  /// into ``JSON`` values: what replays and save files compare.
  public func loggedActions(from version: Int) -> [LoggedAction] {
    loggedActionTexts(from: version).map { entry in
      LoggedAction(
        time: entry.time, player: entry.player, automatic: entry.automatic,
        action: (try? JSON(parsing: entry.action)) ?? [:])
    }
  }
}

/// One accepted action as a store keeps it, the action as an `Action`: a ``JSON`` value
/// (``LoggedAction``) or its text (``LoggedActionText``).
public struct LoggedEntry<Action: Sendable & Equatable>: Sendable, Equatable {
  /// Seconds on the match clock.
  public var time: Double
  public var player: PlayerID
  /// Whether a timer performed it.
  public var automatic: Bool
  /// The action as the engine writes it, e.g. `{"type":"flip","card":3}`.
  public var action: Action

  public init(time: Double, player: PlayerID, automatic: Bool, action: Action) {
    self.time = time
    self.player = player
    self.automatic = automatic
    self.action = action
  }
}

/// One accepted action with its action as a ``JSON`` value, as replays and save files read it.
public typealias LoggedAction = LoggedEntry<JSON>

/// One accepted action with its action as JSON text, as the server stages it for the store.
///
/// NB: the server stages every accepted action as text. Made as a ``LoggedAction`` first, the
/// action was written, read back and written again: 8,600 instructions of a Snap! action's
/// 175,000 in `bench rooms` (callgrind).
public typealias LoggedActionText = LoggedEntry<String>

/// One ended game as a store keeps it: what the records index, and the whole record.
public struct LoggedResult: Sendable, Equatable {
  public var game: String
  /// The settings in short (the record's `options`).
  public var options: String
  public var seed: UInt64
  public var score: Int
  public var moves: Int
  public var ending: GameEnding
  public var winner: PlayerID?
  /// Whether the player asked about won it.
  public var won: Bool
  /// Seconds on the match clock.
  public var start: Double
  public var end: Double
  /// The log indices of the actions that dealt and ended it (nil: the match's deal; not ended
  /// by an action).
  public var dealtBy: Int?
  public var endedBy: Int?
  /// The result as `results` writes it.
  public var json: JSON
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
///
/// NB: a type of its own, not `any WireEncodable`: a view is written for every seat after
/// every move, and the existential boxed each one on the heap.
public struct Headed: WireEncodable {
  /// What a viewer sees, after the header: the members written once for the version, or the
  /// view to write now.
  enum Body {
    case written(EncodedMembers)
    case view(any WireObject)
  }

  var game: String
  var seed: UInt64?
  var version: Int
  var clock: Double
  /// When the game's time began, if later than the match's deal (Concentration's first card,
  /// a later *Deal*).
  var began: Double?
  var body: Body
  /// The game just finished and how many have ended (the state, not a view).
  var result: (any Encodable & Sendable)?
  var resultCount: Int?

  public func write(to writer: inout WireWriter) {
    writer.object { state in
      state.member("game", game)
      state.optional("seed", seed)
      state.member("version", version)
      state.member("clock", clock)
      state.optional("began", began)
      switch body {
      case .written(let members): state.splice(members)
      case .view(let view): state.members(of: view)
      }
      if let result { state.encodable("result", result) }
      state.optional("resultCount", resultCount)
    }
  }
}

/// The ``GameSession`` of one game type.
final class LiveSession<G: WireGame>: GameSession {
  let game: String
  // NB: a mutation that throws does not reach `didSet`: the match's refusals leave it as it
  // was (`Match.perform`), and a command notes what it changed even when it throws.
  private(set) var match: Match<G> {
    didSet { note() }
  }
  /// What the server reads of the match after every move, noted whenever the match changes.
  ///
  /// NB: plain stored values: read through `any GameSession`, each getter of the match was
  /// generic code that looked up `Match<G>`'s metadata first (some 330 instructions), about
  /// 20 times an action, 3 % of a Snap! action (callgrind, `bench rooms`). Before the getters
  /// were specialized, each reading copied the whole match (4–5 %).
  private(set) var version = 0
  private(set) var clock = 0.0
  private(set) var isOver = false
  private(set) var isFinished = false
  private(set) var nextDue: Double?
  private(set) var resultCount = 0
  /// When the current game's time began, if later than the match's deal: Concentration's
  /// first card, or the *Deal* that dealt it.
  private(set) var began: Double?
  /// The history texts written so far, shared by every viewer.
  private var cache = G.WireView.Cache()
  /// Each viewer's view body as last written, and the version it shows: a view changes only
  /// with the version, so repeated requests and every viewer of a broadcast reuse it.
  ///
  /// NB: a short list searched in order, not a dictionary: a table has a few viewers, and
  /// hashing the viewer's name to find and to keep each body was 2 % of the server's
  /// instructions for a Snap! action (callgrind, `bench rooms`).
  private var bodies: [(viewer: Viewer, version: Int, members: EncodedMembers)] = []
  /// The referee's, kept apart: the console writes only the referee's view, after every line.
  private var refereeBody: (version: Int, members: EncodedMembers)?
  /// How long the last body written was.
  private var lastBodySize = 0
  private let encoder = WireEncoder()
  /// The members of the current version's view that every player's and watcher's view shares.
  private let shared = SharedMembers()
  /// The most viewers whose bodies are kept; beyond them the oldest are forgotten.
  private static var keptBodies: Int { 8 }

  init(game: String, match: Match<G>) {
    self.game = game
    self.match = match
    // NB: an initializer's assignment does not reach `didSet`.
    note()
  }

  @_specialize(where G == MemoryGame)
  @_specialize(where G == MatchingGame)
  @_specialize(where G == SetGame)
  @_specialize(where G == SnapGame)
  private func note() {
    version = match.version
    clock = match.clock
    isOver = match.isOver
    isFinished = G.isFinished(match.state)
    nextDue = match.nextDue
    resultCount = match.resultCount
    began = Self.began(of: match)
  }

  var seed: UInt64 { match.seed }

  private static func began(of match: Match<G>) -> Double? {
    match.began ?? (match.gameStarted > 0 ? match.gameStarted : nil)
  }
  var ratingMode: String? {
    (G.abandonedRecord(of: match.state) ?? match.lastResult?.record)?.settings.ratingMode
  }

  var state: Headed {
    @_specialize(where G == MemoryGame)
    @_specialize(where G == MatchingGame)
    @_specialize(where G == SetGame)
    @_specialize(where G == SnapGame)
    get { headedState() }
  }

  @_specialize(where G == MemoryGame)
  @_specialize(where G == MatchingGame)
  @_specialize(where G == SetGame)
  @_specialize(where G == SnapGame)
  private func headedState() -> Headed {
    // NB: only the newest record is written: a match of many deals would otherwise write
    // every record into every reply.
    let last = match.lastResult
    let finished = match.isOver && last?.record.ending == .finished ? last : nil
    return Headed(
      game: game, seed: match.seed, version: match.version, clock: match.clock,
      began: Self.began(of: match), body: body(for: .referee), result: finished,
      resultCount: match.resultCount)
  }

  @_specialize(where G == MemoryGame)
  @_specialize(where G == MatchingGame)
  @_specialize(where G == SetGame)
  @_specialize(where G == SnapGame)
  func view(for viewer: Viewer) -> Headed {
    Headed(game: game, version: version, clock: clock, began: began, body: body(for: viewer))
  }

  /// What `viewer` sees, without the header, written once per version.
  @_specialize(where G == MemoryGame)
  @_specialize(where G == MatchingGame)
  @_specialize(where G == SetGame)
  @_specialize(where G == SnapGame)
  private func body(for viewer: Viewer) -> Headed.Body {
    let version = match.version
    let kept = viewer == .referee ? nil : bodies.firstIndex { $0.viewer == viewer }
    if viewer == .referee {
      if let written = refereeBody, written.version == version { return .written(written.members) }
    } else if let kept, bodies[kept].version == version {
      return .written(bodies[kept].members)
    }
    let view = G.WireView(G.view(of: match.state, for: viewer), cache: &cache)
    // NB: room for a body as long as the last one, so that the writer seldom grows.
    let written = try? EncodedMembers(view, capacity: lastBodySize + 64) { writer in
      try encoder.encode(view: view, of: version, for: viewer, sharing: shared, into: &writer)
    }
    guard let members = written else { return .view(view) }
    lastBodySize = members.bytes.count
    // NB: the body's members are its text without the opening brace.
    shared.keep(members.bytes, dropped: 1)
    if viewer == .referee {
      refereeBody = (version, members)
    } else if let kept {
      bodies[kept] = (viewer, version, members)
    } else {
      if bodies.count >= Self.keptBodies { bodies.removeAll() }
      bodies.append((viewer, version, members))
    }
    return .written(members)
  }

  var results: any Encodable { match.results }

  @_specialize(where G == MemoryGame)
  @_specialize(where G == MatchingGame)
  @_specialize(where G == SetGame)
  @_specialize(where G == SnapGame)
  func perform(_ action: JSON, as player: PlayerID?) throws(WireError) -> EventBatch {
    let decoded = try G.action(from: action)
    do {
      let events = try match.perform(decoded.action, by: player ?? decoded.player)
      return EventBatch(events, of: G.self)
    } catch {
      throw WireError(error)
    }
  }

  @_specialize(where G == MemoryGame)
  @_specialize(where G == MatchingGame)
  @_specialize(where G == SetGame)
  @_specialize(where G == SnapGame)
  func advance(by seconds: Double) -> EventBatch {
    EventBatch(match.advance(by: seconds), of: G.self)
  }

  func command(_ name: String, _ request: JSON) throws(WireError) -> JSON? {
    defer { note() }
    return try G.command(name, request, in: &match)
  }

  func restart() throws(WireError) -> any GameSession {
    let (options, seed, later) = G.restartPoint(of: match)
    do {
      return LiveSession(
        game: game, match: try Match<G>(options: options, seed: seed, later: later))
    } catch {
      throw WireError(error)
    }
  }

  var deal: JSON {
    var deal: JSON = ["options": (try? encoder.json(of: match.options)) ?? [:]]
    if let deck = G.deck(of: match.options) { deal = deal.setting("deck", to: JSON(deck)) }
    return deal
  }

  var laterSeeds: LaterSeeds { match.laterSeeds }

  @_specialize(where G == MemoryGame)
  @_specialize(where G == MatchingGame)
  @_specialize(where G == SetGame)
  @_specialize(where G == SnapGame)
  func loggedActionTexts(from version: Int) -> [LoggedActionText] {
    guard version < match.version else { return [] }
    var writer = JSONWriter()
    return (max(0, version)..<match.version).map { index in
      let entry = match.entry(at: index)
      writer.removeAll()
      // NB: as `loggedActions` writes an action it cannot encode: an empty object.
      let text = (try? encoder.encode(entry.action, into: &writer)).map { writer.string } ?? "{}"
      return LoggedActionText(
        time: entry.time, player: entry.player, automatic: entry.automatic, action: text)
    }
  }

  func loggedResults(from index: Int, for player: PlayerID) -> [LoggedResult] {
    let results = match.results
    guard index < results.count else { return [] }
    return results[max(0, index)...].map { result in
      LoggedResult(
        game: result.record.settings.game, options: result.record.settings.summary,
        seed: result.seed, score: result.score, moves: result.moves, ending: result.ending,
        winner: result.record.winner, won: result.record.isWin(for: player), start: result.start,
        end: result.end, dealtBy: result.dealtBy, endedBy: result.endedBy,
        json: (try? encoder.json(of: result)) ?? [:])
    }
  }

  func rollback(to version: Int) {
    // NB: also at the current version: that forgets a result `abandon` added.
    guard version <= match.version else { return }
    match = match.prefix(max(0, version))
    bodies.removeAll()
    refereeBody = nil
    shared.forget()
  }

  func abandon() -> Bool {
    match.abandon()
  }

  func view(at version: Int, for viewer: Viewer) throws(WireError) -> Headed {
    guard (0...match.version).contains(version) else {
      throw .badRequest(
        "view-at: \"version\" must be from 0 to \(match.version), the actions so far.")
    }
    let then = version == match.version ? match : match.prefix(version)
    var cache = G.WireView.Cache()
    let view = G.WireView(G.view(of: then.state, for: viewer), cache: &cache)
    return Headed(
      game: game, version: then.version, clock: then.clock, began: Self.began(of: then),
      body: .view(view))
  }
}
