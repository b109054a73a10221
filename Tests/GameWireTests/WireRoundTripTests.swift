import CardTableCore
import CardTableTesting
import Foundation
import MatchingGame
import MemoryGame
import SetGame
import SnapGame
import Testing

@testable import GameWire

/// A wire type's shape is declared once, and both directions follow from it (issue 19): seeded
/// games of every kind and seat count are played with random moves and timers, and after every
/// step every seat's and the referee's view is written by the wire's own writer and read back
/// equal; written through another encoder (Foundation's) and read back equal; and every action
/// a participant performed, and the options, are written and read back equal.
@Suite struct WireRoundTripTests {
  typealias Kind = IncrementalViewTests.Kind

  @Test(arguments: Kind.allCases)
  func everyWireValueOfASeededGameReadsBackAsItWasWritten(_ kind: Kind) throws {
    var checked = 0
    for (gameKind, seats, seed) in IncrementalViewTests.games where gameKind == kind {
      let session = try GameCatalog.start(kind.request(seats: seats, seed: seed))
      var random = SplitMix64(seed: seed ^ 0x5EED)
      let viewers =
        [Viewer.referee] + IncrementalViewTests.names.prefix(seats).map { .player(PlayerID($0)) }
      checked += try Self.roundTrip(session, viewers: viewers)
      for _ in 0..<60 {
        if random.nextInt(below: 4) == 0 {
          _ = session.advance(by: random.nextUnit() * 2.5)
        } else {
          let (action, player) = kind.move(&random, seats: seats)
          guard (try? session.perform(action, as: player)) != nil else { continue }
        }
        checked += try Self.roundTrip(session, viewers: viewers)
        if session.isOver { break }
      }
    }
    #expect(checked > 500)
  }

  /// A game in turns played to its end: its views say `"turn":null` (absent from a game alone),
  /// and read back so.
  @Test func aMemoryGameInTurnsReadsBackAtItsEnd() throws {
    // NB: each pair side by side, so that flipping 0 and 1, 2 and 3, … finds every pair.
    let cards = ["A♠", "A♠", "2♥", "2♥", "3♦", "3♦", "4♣", "4♣", "5♠", "5♠", "6♥", "6♥"]
    let session = try GameCatalog.start(
      NewGame(game: "memory", options: ["players": ["Ann", "Bob"]], seed: 1, deck: cards))
    for first in stride(from: 0, to: 12, by: 2) {
      for card in [first, first + 1] {
        _ = try session.perform(["type": "flip", "card": JSON(card), "player": "Ann"], as: nil)
      }
      _ = session.advance(by: 1)
    }
    #expect(session.isOver)
    let viewers = [Viewer.referee, .player("Ann"), .player("Bob")]
    #expect(session.viewJSON(for: .player("Ann"))["turn"] == .null)
    #expect(try Self.roundTrip(session, viewers: viewers) == viewers.count)
  }

  /// Checks the session's views, actions and options; returns how many views it read back.
  static func roundTrip(_ session: any GameSession, viewers: [Viewer]) throws -> Int {
    switch session {
    case let live as LiveSession<MemoryGame>: return try roundTripLive(live, viewers: viewers)
    case let live as LiveSession<MatchingGame>: return try roundTripLive(live, viewers: viewers)
    case let live as LiveSession<SetGame>: return try roundTripLive(live, viewers: viewers)
    case let live as LiveSession<SnapGame>: return try roundTripLive(live, viewers: viewers)
    default:
      Issue.record("a session of no known game: \(type(of: session))")
      return 0
    }
  }

  static func roundTripLive<G: WireGame>(_ live: LiveSession<G>, viewers: [Viewer]) throws -> Int {
    let match = live.match
    for viewer in viewers {
      var cache = G.WireView.Cache()
      let view = G.WireView(G.view(of: match.state, for: viewer), cache: &cache)
      let written = try WireEncoder().json(of: view)
      let read = try WireDecoder().decode(G.WireView.self, from: written)
      #expect(read == view, "\(G.self) \(viewer) read back from \(written.text)")
      // NB: the `Encodable` that any other encoder uses walks the same declaration.
      let foundation = try JSONEncoder().encode(view)
      let parsed = try foundation.withUnsafeBytes { bytes throws(JSONSyntaxError) in
        try JSONReader.parse(bytes)
      }
      #expect(try WireDecoder().decode(G.WireView.self, from: parsed) == view)
      #expect(Set(parsed.keys ?? []) == Set(written.keys ?? []))
    }
    for index in 0..<match.version {
      let entry = match.entry(at: index)
      // NB: a timer's action is the rules' to perform, not a participant's to send.
      guard !entry.automatic else { continue }
      let written = try WireEncoder().json(of: entry.action)
      #expect(try G.action(from: written).action == entry.action, "\(written.text)")
    }
    // NB: a deck travels beside the options (`new`'s `deck`), as the store keeps it too.
    let options = try WireEncoder().json(of: match.options)
    var read = try G.options(named: live.game, from: options)
    if let deck = G.deck(of: match.options) { read = try G.options(read, deck: deck) }
    #expect(read == match.options, "\(options.text)")
    return viewers.count
  }
}
