import CardTableCore
import CardTableTesting
import Foundation
import GameWire
import Testing

@testable import MemoryGame

/// A game alone that the computer plays at `level` on a board of `pairs` pairs: Memory's own
/// boards for 6 and 12, and (reached past the options, which stop at 16) 26 different cards
/// twice.
private func computerGame(pairs: Int, level: MemoryGame.ComputerLevel, seed: UInt64) throws
  -> MemoryGame.State
{
  let difficulty: MemoryGame.Difficulty = pairs == 6 ? .easy : pairs == 12 ? .medium : .hard
  var state = try MemoryGame.deal(
    MemoryGame.Options(
      difficulty: difficulty, players: ["Ray"], computer: ["Ray"], computerLevel: level),
    seed: seed, later: LaterSeeds(seed: seed))
  if pairs != difficulty.pairs {
    var random = SplitMix64(seed: seed)
    let cards = Array(random.shuffled(PlayingCard.standardDeck).prefix(pairs))
    state.board = random.shuffled(cards + cards).map(MemoryGame.Position.init(card:))
    state.rows = (state.board.count + state.columns - 1) / state.columns
  }
  return state
}

/// Runs `state` to its end the way a match's clock does: the opening's timers, then always the
/// timer due first (in the order set on a tie), each applied by the player it names, its
/// outcome's cancellations and timers taken in. `forgetting` empties the computer's memory
/// after every action: a player who remembers nothing.
private func playOut(_ state: inout MemoryGame.State, forgetting: Bool = false) throws -> Int {
  var pending: [(due: Double, order: Int, timer: Scheduled<MemoryGame>)] = []
  var clock = 0.0
  var order = 0
  func take(_ outcome: Outcome<MemoryGame>) {
    pending.removeAll { outcome.cancelled.contains($0.timer.key) }
    for timer in outcome.scheduled {
      pending.append((clock + timer.delay, order, timer))
      order += 1
    }
  }
  var opening = Outcome<MemoryGame>()
  MemoryGame.opening(state, into: &opening)
  take(opening)
  while !MemoryGame.isOver(state) {
    let next = try #require(
      pending.indices.min {
        (pending[$0].due, pending[$0].order) < (pending[$1].due, pending[$1].order)
      })
    let (due, _, timer) = pending.remove(at: next)
    clock = due
    var outcome = Outcome<MemoryGame>()
    try MemoryGame.apply(timer.action, by: timer.player, to: &state, into: &outcome)
    take(outcome)
    if forgetting { state.memories = state.memories.map { _ in [:] } }
    #expect(state.moves < 10_000, "the computer player never finishes")
  }
  return state.moves
}

/// The mean moves of `games` seeded games.
private func meanMoves(
  pairs: Int, level: MemoryGame.ComputerLevel, games: Int, forgetting: Bool = false
) throws -> Double {
  var total = 0
  for seed in 1...UInt64(games) {
    var state = try computerGame(pairs: pairs, level: level, seed: seed)
    total += try playOut(&state, forgetting: forgetting)
  }
  return Double(total) / Double(games)
}

@Suite struct ComputerPlayerTests {
  /// Velleman & Warrington (2013): the optimal strategy's expected moves for `n` pairs,
  /// (3 − 2 ln 2)·n + 7/8 − 2 ln 2 (≈ 1.61·n − 0.51). The exact expectations (by dynamic
  /// programming over the known and unknown cards) are 9.1625, 18.8498 and 41.4435 moves for
  /// 6, 12 and 26 pairs, within 0.1 % of it.
  @Test(arguments: [6, 12, 26]) func thePerfectComputerPlaysTheOptimalStrategy(pairs: Int) throws {
    let n = Double(pairs)
    let expected = (3 - 2 * log(2.0)) * n + 7.0 / 8 - 2 * log(2.0)
    let mean = try meanMoves(pairs: pairs, level: .perfect, games: 2_000)
    #expect(abs(mean - expected) / expected < 0.01, "mean \(mean) moves, expected \(expected)")
  }

  /// With nothing kept, every move is two cards at random: 1 + 3 + … + (2n − 1) = n² moves.
  @Test func aComputerThatRemembersNothingNeedsAboutNSquaredMoves() throws {
    let mean = try meanMoves(pairs: 6, level: .perfect, games: 2_000, forgetting: true)
    #expect(abs(mean - 36) / 36 < 0.03, "mean \(mean) moves, expected 36")
  }

  @Test func moreMemoryTakesFewerMoves() throws {
    let moves = try MemoryGame.ComputerLevel.allCases.map {
      try meanMoves(pairs: 12, level: $0, games: 400)
    }
    #expect(moves == moves.sorted(by: >), "forgetful, good, perfect: \(moves)")
    #expect(moves[0] > moves[2] * 1.3, "forgetful \(moves[0]), perfect \(moves[2])")
  }

  /// The computer keeps only cards that were shown face up where they were shown, and its
  /// seat's view, all it decides from, is the same whatever the unseen cards are.
  @Test func theComputerKnowsOnlyWhatItsSeatSaw() throws {
    var state = try computerGame(pairs: 12, level: .good, seed: 7)
    var seen: Set<[Int]> = []
    var pending = Outcome<MemoryGame>()
    MemoryGame.opening(state, into: &pending)
    var timers = pending.scheduled.array
    while !MemoryGame.isOver(state), !timers.isEmpty {
      let timer = timers.removeFirst()
      var outcome = Outcome<MemoryGame>()
      try MemoryGame.apply(timer.action, by: timer.player, to: &state, into: &outcome)
      for case .flipped(let index, let card) in outcome.events {
        seen.insert([index, card.deckIndex])
      }
      for (index, card) in state.memories[0] {
        #expect(seen.contains([index, card.deckIndex]), "Ray knows card \(index) unseen")
      }
      var scrambled = state
      let unseen = state.board.indices.filter {
        !state.board[$0].faceUp && !state.board[$0].removed && state.memories[0][$0] == nil
      }
      let cards = unseen.map { state.board[$0].card }
      for (index, card) in zip(unseen, cards.reversed()) { scrambled.board[index].card = card }
      #expect(
        MemoryGame.view(of: scrambled, for: .player("Ray"))
          == MemoryGame.view(of: state, for: .player("Ray")))
      timers.removeAll { outcome.cancelled.contains($0.key) }
      timers += outcome.scheduled.array
      timers.sort { ($0.action == .resolve ? 0 : 1) < ($1.action == .resolve ? 0 : 1) }
    }
    #expect(MemoryGame.isOver(state))
  }

  @Test func theChoiceTakesAKnownPairThenAKnownPartnerThenAnUnknownCard() {
    let board = ["A♥", "K♠", "A♥", "2♦", "K♠", "2♦"].map { playingCard($0) }
    var view = MemoryGame.view(
      of: try! MemoryGame.deal(
        MemoryGame.Options(
          difficulty: .easy,
          deck: board + ["3♣", "3♣", "Q♥", "Q♥", "J♠", "J♠"].map { playingCard($0) }),
        seed: 1, later: LaterSeeds(seed: 1)),
      for: .player(.solo))
    var random = SplitMix64(seed: 3)
    let memory: [Int: PlayingCard] = [1: board[1], 2: board[2], 4: board[4]]
    #expect(MemoryGame.computerChoice(in: view, remembering: memory, random: &random) == 1)
    view.board[0].faceUp = true
    view.board[0].card = board[0]
    #expect(MemoryGame.computerChoice(in: view, remembering: memory, random: &random) == 2)
    view.board[0].card = playingCard("3♣")
    for _ in 0..<50 {
      let choice = MemoryGame.computerChoice(in: view, remembering: memory, random: &random)
      #expect(choice.map { ![0, 1, 2, 4].contains($0) } == true, "\(String(describing: choice))")
    }
  }

  @Test func aComputerAtATablePlaysItsTurnsOnTheMatchClock() throws {
    var match = try Match<MemoryGame>(
      options: MemoryGame.Options(
        deck: easyDeck, players: ["Ann", "Ray"], computer: ["Ray"], computerLevel: .perfect),
      seed: 5)
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.flip(2), by: "Ann")
    match.advance(by: MemoryGame.memoryMismatchDelay)
    #expect(match.state.playerOnTurn == "Ray")
    expectRefused(.flip(4), by: "Ann", in: &match, .notYourTurn("Ray"))
    let before = match.version
    match.advance(by: MemoryGame.computerTurnPause + MemoryGame.computerTurnSpread)
    #expect(match.version == before + 1)
    let first = match.entry(at: before)
    #expect(first.player == "Ray" && first.automatic)
    match.advance(by: 2 * MemoryGame.computerSecondCardPause)
    let second = match.entry(at: before + 1)
    guard case .flip(let a) = first.action, case .flip(let b) = second.action else {
      Issue.record("Ray did not turn two cards: \(first.action), \(second.action)")
      return
    }
    // NB: Ray saw A♥ at 0 and K♠ at 2: a card turned from either pair finds its partner.
    if [1, 3].contains(a) { #expect(b == a - 1) }
    while !MemoryGame.isOver(match.state) {
      if match.state.playerOnTurn == "Ann", match.state.resolving == nil {
        let card = try #require(
          match.state.board.indices.first {
            !match.state.board[$0].removed && !match.state.board[$0].faceUp
          })
        try match.perform(.flip(card), by: "Ann")
      } else {
        match.advance(by: 3)
      }
    }
    #expect(match.state.players.map(\.pairs).reduce(0, +) == 6)
    #expect(match.replaying { _, _ in }.state == match.state)
  }

  @Test func aGameAloneThatTheComputerPlaysTakesNoOneElsesCards() throws {
    var match = try Match<MemoryGame>(
      options: MemoryGame.Options(players: ["Ray"], computer: ["Ray"]), seed: 2)
    expectRefused(.flip(0), by: .solo, in: &match, .notYourTurn("Ray"))
    match.advance(by: 1_000)
    #expect(MemoryGame.isOver(match.state))
    #expect(match.state.moves >= 6)
  }

  @Test func theLastPersonLeavingEndsTheGameTheComputerPlays() throws {
    var match = try Match<MemoryGame>(
      options: MemoryGame.Options(deck: easyDeck, players: ["Ann", "Ray"], computer: ["Ray"]),
      seed: 5)
    try match.perform(.flip(0), by: "Ann")
    try match.perform(.flip(2), by: "Ann")
    match.advance(by: MemoryGame.memoryMismatchDelay)
    #expect(match.state.playerOnTurn == "Ray")
    try match.perform(.leave, by: "Ann")
    #expect(match.state.deserted)
    let version = match.version
    match.advance(by: 100)
    #expect(match.version == version, "Ray played on for nobody")
  }

  @Test func optionsNameTheComputerPlayersAndTheirLevel() throws {
    func decode(_ json: String, _ game: String = "memory") throws -> MemoryGame.Options {
      let decoder = JSONDecoder()
      decoder.userInfo[.gameName] = game
      return try decoder.decode(MemoryGame.Options.self, from: Data(json.utf8))
    }
    let alone = try decode(#"{"opponent":"perfect"}"#)
    #expect(alone.players == [.solo, "Ray"] && alone.computer == ["Ray"])
    #expect(alone.computerLevel == .perfect)
    #expect(try decode(#"{"opponent":"none"}"#) == MemoryGame.Options())
    let table = try decode(
      #"{"players":["Ann","Lucy"],"computer":["Lucy"],"computerLevel":"forgetful"}"#,
      "concentration")
    #expect(table.variant == .concentration && table.computer == ["Lucy"])
    let encoded = String(decoding: try JSONEncoder().encode(table), as: UTF8.self)
    #expect(encoded.contains(#""computer":["Lucy"]"#) && encoded.contains(#""forgetful""#))
    #expect(throws: InputError.self) { try decode(#"{"computerLevel":"genius"}"#) }
    #expect(throws: InputError.self) { try decode(#"{"opponent":"good","players":["A","B"]}"#) }
    // NB: the refusal of an unknown member still names only the members of old.
    #expect(
      throws: InputError.unknownMember("speed", allowed: ["difficulty"]),
      performing: { try decode(#"{"speed":1}"#) })
    #expect(
      throws: MemoryGame.RuleViolation.invalidOptions(
        "Lucy plays for the computer but is not a player.")
    ) {
      try MemoryGame.deal(
        MemoryGame.Options(players: ["Ann", "Bob"], computer: ["Lucy"]), seed: 1,
        later: LaterSeeds(seed: 1))
    }
  }

  @Test func theWireMarksTheComputersSeatAndLevel() throws {
    let state = try MemoryGame.deal(
      MemoryGame.Options(players: ["Ann", "Ray"], computer: ["Ray"], computerLevel: .perfect),
      seed: 1, later: LaterSeeds(seed: 1))
    var cache = NoCache()
    let wire = MemoryGame.WireView(MemoryGame.view(of: state, for: .player("Ann")), cache: &cache)
    #expect(wire.players?.map(\.computer) == [nil, true])
    #expect(wire.computerLevel == .perfect)
    let people = try MemoryGame.deal(
      MemoryGame.Options(players: ["Ann", "Bob"]), seed: 1, later: LaterSeeds(seed: 1))
    let plain = MemoryGame.WireView(MemoryGame.view(of: people, for: .player("Ann")), cache: &cache)
    #expect(plain.players?.allSatisfy { $0.computer == nil } == true && plain.computerLevel == nil)
  }
}
