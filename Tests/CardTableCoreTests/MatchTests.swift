import CardTableCore
import CardTableTesting
import Testing

/// A tiny game for testing the match machinery: press a button; a press schedules a bell
/// one second later that cancels any earlier bell; the game ends at `limit` bells, and a
/// `redeal` starts a new game (recording the old one as abandoned).
enum BellGame: GameRules {
  struct Options: Sendable, Equatable { var limit = 3 }
  struct State: Sendable, Equatable {
    var presses = 0
    var bells = 0
    var limit: Int
    var draws: [Int] = []
    var random: SplitMix64
  }
  enum Action: Sendable, Equatable {
    case press
    case ring
    case redeal
  }
  enum Event: Sendable, Equatable {
    case pressed(Int)
    case rang(Int)
  }
  enum RuleViolation: Refusal {
    case gameOver
    case onlyTheRefereeRings

    var code: String { self == .gameOver ? "game-over" : "not-allowed" }
    var message: String { "refused" }
  }
  enum TimerKey: Hashable, Sendable { case bell }
  /// A record names the bell limit.
  typealias Settings = Int
  typealias View = Int

  static func deal(_ options: Options, seed: UInt64, later: LaterSeeds) throws(RuleViolation)
    -> State
  {
    State(limit: options.limit, random: SplitMix64(seed: seed))
  }

  static func abandonedRecord(of state: State) -> GameRecord<Int>? {
    state.bells < state.limit ? record(state, .abandoned) : nil
  }

  static func opening(_ state: State, into outcome: inout Outcome<BellGame>) {
    if state.limit == 0 { outcome.marks.append(.ended(record(state, .finished))) }
  }

  static func apply(
    _ action: Action, by player: PlayerID, to state: inout State,
    into outcome: inout Outcome<BellGame>
  ) throws(RuleViolation) {
    switch action {
    case .redeal:
      if state.bells < state.limit { outcome.marks.append(.ended(record(state, .abandoned))) }
      state.presses = 0
      state.bells = 0
      outcome.marks.append(.dealt)
      return
    default:
      break
    }
    guard state.bells < state.limit else { throw .gameOver }
    switch action {
    case .press:
      state.presses += 1
      state.draws.append(state.random.nextInt(below: 100))
      outcome.events.append(.pressed(state.presses))
      outcome.scheduled.append(Scheduled(after: 1.0, .ring, key: .bell))
      outcome.cancelled.append(.bell)
    case .ring:
      guard player == .referee else { throw .onlyTheRefereeRings }
      state.bells += 1
      outcome.events.append(.rang(state.bells))
      if state.bells == state.limit { outcome.marks.append(.ended(record(state, .finished))) }
    case .redeal:
      break
    }
  }

  static func record(_ state: State, _ ending: GameEnding) -> GameRecord<Int> {
    GameRecord(
      settings: state.limit, seed: 0, score: state.bells, moves: state.presses, ending: ending)
  }

  static func view(of state: State, for viewer: Viewer) -> Int { state.bells }
  static func isOver(_ state: State) -> Bool { state.bells >= state.limit }
}

@Suite struct MatchTests {
  @Test func acceptedActionsAreLoggedWithTheirTimeAndBumpTheVersion() throws {
    var match = try Match<BellGame>(options: .init(), seed: 1)
    #expect(try match.perform(.press, by: .solo) == [.pressed(1)])
    #expect(match.version == 1)
    #expect(match.nextDue == 1.0)
    #expect(match.advance(by: 0.5) == [])
    #expect(match.advance(by: 0.5) == [.rang(1)])
    #expect(match.version == 2)
    #expect(match.log.map(\.automatic) == [false, true])
    #expect(match.log.map(\.time) == [0, 1.0])
    #expect(match.nextDue == nil)
  }

  @Test func theLogNamesWhoActedInEveryEntryAmongSeveralPlayers() throws {
    var match = try Match<BellGame>(options: .init(limit: 9), seed: 1)
    let (ann, bob) = (PlayerID("Ann"), PlayerID("Bob, who has a name longer than fifteen bytes"))
    for player in [ann, bob, bob, ann] {
      try match.perform(.press, by: player)
      match.advance(by: 1)
    }
    let names = [ann, .referee, bob, .referee, bob, .referee, ann, .referee]
    #expect(match.log.map(\.player) == names)
    #expect((0..<match.version).map { match.entry(at: $0) } == match.log)
    #expect(
      match.log.map(\.action) == [.press, .ring, .press, .ring, .press, .ring, .press, .ring])
  }

  @Test func aRefusedActionLeavesTheMatchUnchanged() throws {
    var match = try Match<BellGame>(options: .init(), seed: 1)
    try match.perform(.press, by: .solo)
    let before = (match.state, match.version, match.log, match.timers)
    #expect(throws: BellGame.RuleViolation.onlyTheRefereeRings) {
      try match.perform(.ring, by: .solo)
    }
    #expect(match.state == before.0)
    #expect(match.version == before.1)
    #expect(match.log == before.2)
    #expect(match.timers == before.3)
  }

  @Test func aCancelledTimerNeverFires() throws {
    var match = try Match<BellGame>(options: .init(), seed: 1)
    try match.perform(.press, by: .solo)
    match.advance(by: 0.9)
    try match.perform(.press, by: .solo)  // cancels the first bell, sets one at 1.9
    #expect(match.timers.count == 1)
    #expect(match.advance(to: 1.5) == [])
    #expect(match.advance(to: 2.0) == [.rang(1)])
    #expect(match.log.last?.time == 1.9)
  }

  @Test func runningTheTimersWithoutTheirEventsLeavesTheMatchAsAdvancingDoes() throws {
    var advanced = try Match<BellGame>(options: .init(limit: 4), seed: 3)
    var run = advanced
    for (time, player) in [(0.0, PlayerID.solo), (0.5, "Ann"), (2.0, "Ann"), (3.5, .solo)] {
      _ = advanced.advance(to: time)
      run.runTimers(until: time)
      try advanced.perform(.press, by: player)
      try run.perform(.press, by: player)
    }
    #expect(!advanced.advance(to: 9).isEmpty)
    run.runTimers(until: 9)
    #expect(run.log == advanced.log)
    #expect(run.state == advanced.state)
    #expect(run.clock == 9 && advanced.clock == 9)
    #expect(run.timers == advanced.timers)
    #expect(run.results == advanced.results)
  }

  @Test func theRefereesFollowUpIsTheSameWhetherNamedOrNot() throws {
    let unnamed = Scheduled<BellGame>(after: 1, .ring, key: .bell)
    let named = Scheduled<BellGame>(after: 1, .ring, by: .referee, key: .bell)
    #expect(unnamed.player == .referee)
    #expect(unnamed == named)
    #expect(unnamed != Scheduled<BellGame>(after: 1, .ring, by: "Ann", key: .bell))
    var renamed = unnamed
    renamed.player = "Ann"
    #expect(renamed == Scheduled<BellGame>(after: 1, .ring, by: "Ann", key: .bell))
    var match = try Match<BellGame>(options: .init(), seed: 1)
    try match.perform(.press, by: "Ann")
    #expect(match.timers.map(\.scheduled) == [unnamed])
  }

  @Test func aNameWrittenInTwoStringsIsOnePlayerInTheLog() throws {
    var match = try Match<BellGame>(options: .init(limit: 9), seed: 1)
    // NB: names longer than fifteen bytes live in separate heap strings, with other bits.
    let long = String(repeating: "Bob", count: 8)
    let first = PlayerID(long)
    let second = PlayerID(String(long.utf8.map { Character(Unicode.Scalar($0)) }))
    for player in [first, "Ann", second, first] {
      try match.perform(.press, by: player)
    }
    #expect(match.log.map(\.player) == [first, "Ann", first, first])
  }

  @Test func timersFireInDueOrderWithinOneAdvance() throws {
    var match = try Match<BellGame>(options: .init(limit: 10), seed: 1)
    try match.perform(.press, by: .solo)
    #expect(match.advance(by: 10) == [.rang(1)])
    #expect(match.clock == 10)
  }

  @Test func eachEndedGameIsStampedWithTheTimesAndLogIndicesOfItsDealAndItsEnd() throws {
    var match = try Match<BellGame>(options: .init(limit: 1), seed: 1)
    match.advance(by: 2)
    try match.perform(.press, by: .solo)
    match.advance(by: 1)
    #expect(match.results.count == 1)
    let first = try #require(match.results.first)
    #expect((first.start, first.end, first.dealtBy, first.endedBy) == (0, 3, nil, 1))
    #expect(first.record == GameRecord(settings: 1, seed: 0, score: 1, moves: 1, ending: .finished))
    match.advance(by: 4)
    try match.perform(.redeal, by: .solo)
    match.advance(by: 2)
    try match.perform(.press, by: .solo)
    try match.perform(.redeal, by: .solo)
    #expect(match.results.count == 2, "the first redeal ended nothing: the game was over")
    let abandoned = try #require(match.results.last)
    #expect((abandoned.start, abandoned.end, abandoned.dealtBy, abandoned.endedBy) == (7, 9, 2, 4))
    #expect(abandoned.ending == .abandoned)
    #expect(abandoned.duration == 2)
  }

  /// The first result is kept apart from the others (`Match._results`); none of that shows.
  @Test func theCountAndTheLastResultAreTheResultsOwn() throws {
    var match = try Match<BellGame>(options: .init(limit: 1), seed: 1)
    #expect(match.resultCount == 0 && match.lastResult == nil && match.results.isEmpty)
    for game in 1...4 {
      try match.perform(.press, by: .solo)
      match.advance(by: 1)
      #expect(match.resultCount == game && match.results.count == game)
      #expect(match.lastResult == match.results.last)
      #expect(match.results.map(\.endedBy) == Array(match.results.indices).map { 3 * $0 + 1 })
      try match.perform(.redeal, by: .solo)
    }
    #expect(match.abandon() && match.resultCount == 5)
    #expect(match.lastResult?.ending == .abandoned && match.lastResult == match.results.last)
  }

  @Test func aGameOverAtItsDealIsStampedAtTheDeal() throws {
    let match = try Match<BellGame>(options: .init(limit: 0), seed: 1)
    let result = try #require(match.results.first)
    #expect((result.start, result.end, result.dealtBy, result.endedBy) == (0, 0, nil, nil))
  }

  @Test func aRefusedActionLeavesTheWholeMatchAsItWas() throws {
    var match = try Match<BellGame>(options: .init(), seed: 1)
    try match.perform(.press, by: .solo)
    expectRefused(.ring, by: .solo, in: &match, .onlyTheRefereeRings)
  }

  @Test func replayRebuildsTheSameMatch() throws {
    var match = try Match<BellGame>(options: .init(), seed: 9)
    for step in 0..<6 {
      try match.perform(.press, by: .solo)
      match.advance(by: step.isMultiple(of: 2) ? 0.4 : 1.3)
    }
    let replayed = try Match<BellGame>.replay(options: .init(), seed: 9, log: match.log)
    #expect(replayed.state == match.state)
    #expect(replayed.log == match.log)
    #expect(replayed.version == match.version)
  }

  @Test func replayRefusesATamperedLog() throws {
    var match = try Match<BellGame>(options: .init(), seed: 9)
    try match.perform(.press, by: .solo)
    match.advance(by: 2)
    var log = match.log
    log.append(.init(time: 3, player: .solo, action: .ring, automatic: false))
    #expect(
      throws: ReplayError<BellGame.RuleViolation>.actionRefused(index: 2, .onlyTheRefereeRings)
    ) {
      try Match<BellGame>.replay(options: .init(), seed: 9, log: log)
    }
    var forged = match.log
    forged[1].time = 5
    #expect(throws: ReplayError<BellGame.RuleViolation>.diverged(index: 1)) {
      try Match<BellGame>.replay(options: .init(), seed: 9, log: forged)
    }
  }
}
