import CardTableCore
import Testing

/// A game of several timers at once, for the match's timers: `set` asks the referee to chime
/// after a delay under the tag's key; `cancel` drops the tag's timer.
enum ChimeGame: GameRules {
  struct Options: Sendable, Equatable {}
  struct State: Sendable, Equatable {}
  enum Action: Sendable, Equatable {
    case set(Int, after: Double)
    case cancel(Int)
    case chime(Int)
  }
  enum Event: Sendable, Equatable {
    case chimed(Int)
  }
  enum RuleViolation: Refusal {
    case onlyTheRefereeChimes

    var code: String { "not-allowed" }
    var message: String { "refused" }
  }
  enum TimerKey: Hashable, Sendable { case tag(Int) }
  typealias Settings = Int
  typealias View = Int

  static func deal(_ options: Options, seed: UInt64, later: LaterSeeds) throws(RuleViolation)
    -> State
  {
    State()
  }

  static func apply(
    _ action: Action, by player: PlayerID, to state: inout State,
    into outcome: inout Outcome<ChimeGame>
  ) throws(RuleViolation) {
    switch action {
    case .set(let tag, let delay):
      outcome.scheduled.append(Scheduled(after: delay, .chime(tag), key: .tag(tag)))
    case .cancel(let tag):
      outcome.cancelled.append(.tag(tag))
    case .chime(let tag):
      guard player == .referee else { throw .onlyTheRefereeChimes }
      outcome.events.append(.chimed(tag))
    }
  }

  static func view(of state: State, for viewer: Viewer) -> Int { 0 }
  static func isOver(_ state: State) -> Bool { false }
  static func abandonedRecord(of state: State) -> GameRecord<Int>? { nil }
}

/// The match keeps one timer inline and the others in an array (`Match.Timers`); where a timer
/// is kept never changes when it runs.
@Suite struct MatchTimersTests {
  private func match(setting timers: [(tag: Int, delay: Double)]) throws -> Match<ChimeGame> {
    var match = try Match<ChimeGame>(options: .init(), seed: 1)
    for timer in timers { try match.perform(.set(timer.tag, after: timer.delay), by: .solo) }
    return match
  }

  private func tags(_ match: Match<ChimeGame>) -> [ChimeGame.Action] {
    match.timers.map(\.scheduled.action)
  }

  @Test func timersDueTogetherRunInTheOrderTheyWereSetWhereverTheyAreKept() throws {
    var match = try match(setting: [(1, 1), (2, 3), (3, 3)])
    // NB: the first timer, kept inline, runs; the next one set takes its place, due with the
    // two set before it.
    #expect(match.advance(by: 1.5) == [.chimed(1)])
    try match.perform(.set(4, after: 1.5), by: .solo)
    #expect(tags(match) == [.chime(2), .chime(3), .chime(4)])
    #expect(match.nextDue == 3)
    #expect(match.advance(by: 10) == [.chimed(2), .chimed(3), .chimed(4)])
    #expect(match.timers.isEmpty && match.nextDue == nil)
  }

  @Test func theEarliestRunsFirstWhicheverWasSetFirst() throws {
    var match = try match(setting: [(1, 3), (2, 2), (3, 1), (4, 2)])
    #expect(match.nextDue == 1)
    #expect(match.advance(by: 2.5) == [.chimed(3), .chimed(2), .chimed(4)])
    #expect(tags(match) == [.chime(1)])
    #expect(match.advance(by: 1) == [.chimed(1)])
  }

  @Test func cancellingDropsATimerKeptInlineAndOnesInTheArray() throws {
    var match = try match(setting: [(1, 1), (2, 2), (3, 3)])
    try match.perform(.cancel(1), by: .solo)
    try match.perform(.cancel(3), by: .solo)
    #expect(tags(match) == [.chime(2)])
    #expect(match.nextDue == 2)
    #expect(match.advance(by: 10) == [.chimed(2)])
  }

  @Test func runningTheTimersStepByStepRunsThemAsOneAdvanceDoes() throws {
    let settings = [(1, 2.0), (2, 1.0), (3, 2.0), (4, 0.5), (5, 1.0)]
    var whole = try match(setting: settings)
    var stepped = try match(setting: settings)
    let all = whole.advance(by: 5)
    var events: [ChimeGame.Event] = []
    while let due = stepped.nextDue { events += stepped.advance(to: due) }
    #expect(all == [.chimed(4), .chimed(2), .chimed(5), .chimed(1), .chimed(3)])
    #expect(events == Array(all))
    #expect(whole.log == stepped.log)
  }
}
