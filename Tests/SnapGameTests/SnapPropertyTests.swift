import CardTableCore
import Testing

@testable import SnapGame

/// Four computer players, so that a seed plays a whole game on its own.
let fourComputers = Snap.Options(
  players: ["You", "Ray", "Lucy", "Steve"], computer: ["You", "Ray", "Lucy", "Steve"])

/// What `view` shows that `viewer` may not see: anything beyond the top of each open pile and
/// the piles' counts. Empty when the view keeps every secret.
func secrets(in view: Snap.View, of state: Snap.State, viewer: PlayerID) -> [String] {
  var found: [String] = []
  if view.matching != nil { found.append("\(viewer) sees the matching players") }
  for index in state.players.indices {
    let (seen, player) = (view.players[index], state.players[index])
    if seen.closed != nil { found.append("\(viewer) sees \(player.id)'s closed cards") }
    if seen.open != nil { found.append("\(viewer) sees under \(player.id)'s open top") }
    if seen.openTop != player.open.last { found.append("\(viewer) sees a wrong open top") }
    if seen.closedCount != player.closed.count || seen.openCount != player.open.count {
      found.append("\(viewer) sees wrong counts for \(player.id)")
    }
  }
  return found
}

/// What `event`, as `viewer` receives it, names that is not face up: only a turned card may be
/// named.
func secrets(in event: Snap.Event, viewer: PlayerID) -> [String] {
  switch event {
  case .pileWon(_, _, _, let cards) where cards != nil: ["\(viewer) learns a won pile"]
  case .paid(_, let transfer) where transfer.card != nil: ["\(viewer) learns a paid card"]
  case .left(_, let given) where given.contains(where: { $0.card != nil }):
    ["\(viewer) learns a leaver's cards"]
  default: []
  }
}

/// Whether the piles hold the 52 cards, each once.
func holdsEveryCardOnce(_ state: Snap.State) -> Bool {
  var seen: UInt64 = 0
  var count = 0
  for player in state.players {
    for card in player.closed { seen |= 1 << UInt64(card.deckIndex) }
    for card in player.open { seen |= 1 << UInt64(card.deckIndex) }
    count += player.cardCount
  }
  return count == 52 && seen == (1 << 52) - 1
}

/// Plays the seeded four-computer game for at most `cap` actions, checking after every timer
/// that the 52 cards are all in play once and that no view or redacted event shows a player a
/// card they may not see; then replays the log. Returns the problems found.
/// With `leaver`, that player leaves once the game has run `leaver.after` actions.
func playChecked(seed: UInt64, cap: Int, leaver: (id: PlayerID, after: Int)? = nil) throws -> (
  match: Match<Snap>, problems: [String]
) {
  var game = try Match<Snap>(options: fourComputers, seed: seed)
  let viewers = game.state.players.map(\.id)
  var problems: [String] = []
  var leaving = leaver
  while game.version < cap, let due = game.nextDue {
    let events: OutcomeList<Snap.Event>
    if let (id, after) = leaving, game.version >= after {
      events = try game.perform(.leave, by: id)
      leaving = nil
    } else {
      events = game.advance(to: due)
    }
    if !holdsEveryCardOnce(game.state) {
      problems.append("cards in play at version \(game.version): \(game.state.allCards)")
    }
    for viewer in viewers {
      problems += secrets(
        in: Snap.view(of: game.state, for: .player(viewer)), of: game.state, viewer: viewer)
      for event in events {
        if let seen = Snap.redact(event, for: .player(viewer)) {
          problems += secrets(in: seen, viewer: viewer)
        }
      }
    }
  }
  if !(game.version >= cap || game.isOver) { problems.append("stalled at \(game.version)") }
  let replayed = try Match<Snap>.replay(options: fourComputers, seed: seed, log: game.log)
  if replayed.state != game.state || replayed.log != game.log {
    problems.append("the replay differs")
  }
  return (game, problems)
}

@Suite struct SnapPropertyTests {
  /// Opening stretches of 1,000 seeded games: deals, turns, snaps of every kind.
  @Test(arguments: 0..<1_000)
  func seededComputerGamesKeepEveryCardSecretAndReplay(seed: Int) throws {
    let (_, problems) = try playChecked(seed: UInt64(seed), cap: 120)
    #expect(problems.isEmpty)
  }

  /// Whole rounds, with recycles, payments and a winner, checked just as closely.
  @Test(arguments: 1_000..<1_016)
  func seededComputerRoundsPlayToAWinnerKeepingEverySecret(seed: Int) throws {
    let (game, problems) = try playChecked(seed: UInt64(seed), cap: 20_000)
    #expect(problems.isEmpty)
    #expect(game.isOver)
    if let winner = game.state.winner {
      #expect(game.state[winner].cardCount == 52 && game.state[winner].gamesWon == 1)
      #expect(status(game.state, for: .referee) == "** Winner: \(winner) **")
    }
  }

  /// A guest leaving at any moment — dealing, a pause, their turn — loses no card and leaks none.
  @Test(arguments: 0..<60)
  func aGuestLeavingMidGameKeepsEveryCardInPlay(seed: Int) throws {
    let guests: [PlayerID] = ["Ray", "Lucy", "Steve"]
    let (game, problems) = try playChecked(
      seed: UInt64(seed), cap: 400, leaver: (guests[seed % 3], seed * 7 % 150))
    #expect(problems.isEmpty)
    #expect(game.state[guests[seed % 3]].hasLeft)
  }

  @Test func theSameSeedPlaysTheSameGame() throws {
    let first = try playChecked(seed: 42, cap: 2_000).match
    let second = try playChecked(seed: 42, cap: 2_000).match
    #expect(first.log == second.log && first.state == second.state)
  }
}
