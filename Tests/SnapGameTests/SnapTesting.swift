import CardTableCore
import CardTableTesting
import GameWire
import Testing

@testable import SnapGame

typealias Snap = SnapGame

/// Cards from their text forms separated by spaces: `"A♠ 10♥ KC"`.
func cards(_ text: String) -> [PlayingCard] {
  text.split(separator: " ").map { playingCard($0) }
}

/// The 52-card deck, in dealing order, that gives each player (listed from the starting player
/// clockwise) a closed pile whose top cards, first turned first, are `tops[i]`; the rest of
/// each pile is filled from the unused cards in deck order.
func deck(players count: Int, tops: [String]) -> [PlayingCard] {
  let wanted = tops.map(cards)
  var unused = PlayingCard.standardDeck.filter { !wanted.joined().contains($0) }
  var piles: [[PlayingCard]] = []
  for index in 0..<count {
    let size = 52 / count + (index < 52 % count ? 1 : 0)
    var topFirst = index < wanted.count ? wanted[index] : []
    while topFirst.count < size { topFirst.append(unused.removeFirst()) }
    piles.append(topFirst.reversed())
  }
  return (0..<52).map { piles[$0 % count][$0 / count] }
}

/// A match of `players` (seated in order), dealt `deck`, starting with `starting`.
func match(
  _ players: [PlayerID], computer: Set<PlayerID> = [], starting: PlayerID? = nil,
  deck: [PlayingCard]? = nil, seed: UInt64 = 1
) throws -> Match<Snap> {
  try Match(
    options: Snap.Options(players: players, computer: computer, starting: starting, deck: deck),
    seed: seed)
}

/// A state in play with hand-made piles: `piles[i]` is `(closed, open)` of the i-th player,
/// each bottom first, as card texts. `active` holds the turn.
func table(
  _ piles: [(closed: String, open: String)], names: [PlayerID]? = nil, active: Int = 0,
  turned: Bool = false, computer: Set<PlayerID> = []
) throws -> Snap.State {
  let ids = names ?? Array(["A", "B", "C", "D"].prefix(piles.count))
  var state = try Snap.deal(Snap.Options(players: ids, computer: computer), seed: 1)
  for (index, pile) in piles.enumerated() {
    state.players[index].closed = cards(pile.closed)
    state.players[index].open = cards(pile.open)
  }
  state.phase = .playing
  state.turnSeat = state.players[active].seat
  state.hasTurned = turned
  return state
}

/// The status line of RULES §5 as `viewer` reads it.
func status(_ state: Snap.State, for viewer: Viewer) -> String {
  RuleTexts.status(Snap.view(of: state, for: viewer))
}

extension Snap.State {
  /// The player named `id`.
  subscript(id: PlayerID) -> Snap.Player {
    guard let index = index(of: id) else { preconditionFailure("\(id) is not at the table") }
    return players[index]
  }

  /// Every card in play, from every pile.
  var allCards: [PlayingCard] { players.flatMap { $0.closed + $0.open } }
}

/// Applies `action` and expects it to be refused with `violation`, leaving `state` unchanged.
func expectRefused(
  _ action: Snap.Action, by player: PlayerID, in state: Snap.State,
  _ violation: Snap.RuleViolation, sourceLocation: SourceLocation = #_sourceLocation
) {
  CardTableTesting.expectRefused(
    action, by: player, in: state, of: Snap.self, violation, sourceLocation: sourceLocation)
}
