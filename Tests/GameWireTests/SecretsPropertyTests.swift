import CardTableCore
import CardTableTesting
import GameWire
import MemoryGame
import SetGame
import SnapGame
import Testing

/// Secrets are tested, not trusted (CONVENTIONS §10): whole multiplayer games played with
/// random, legal-ish actions, and after every accepted action or timer, every seated player's
/// view and events — and an onlooker's — as the wire writes them, checked against what that
/// viewer may know.
///
/// The checker works from the referee's state (the engine's own `State`), never from the view
/// code: it keeps, game by game, the cards that have been shown to everyone, and refuses any
/// card text on the wire outside them.
@Suite struct SecretsPropertyTests {
  // MARK: Memory and Concentration

  @Test(arguments: 0..<UInt64(Soak.count(20, soak: 50)))
  func noMemoryViewOrEventNamesACardNotYetTurnedUp(seed: UInt64) throws {
    var random = SplitMix64(seed: seed ^ 0x5EC2E7)
    let variant: MemoryGame.Variant = seed % 3 == 0 ? .concentration : .memory
    let players = Array(SecretsPropertyTests.names.prefix(2 + random.nextInt(below: 3)))
    var match = try Match<MemoryGame>(
      options: MemoryGame.Options(
        variant: variant, difficulty: MemoryGame.Difficulty.allCases[random.nextInt(below: 3)],
        players: players),
      seed: seed)
    /// Positions that have shown their face to the table.
    var shown = Set<Int>()
    func check(_ events: OutcomeList<MemoryGame.Event>) throws {
      let state = match.state
      for index in state.board.indices where state.board[index].faceUp || state.board[index].matched
      {
        shown.insert(index)
      }
      let known = Set(shown.map { state.board[$0].card.description })
      for viewer in Self.viewers(players) {
        let view = try Self.wireView(MemoryGame.self, state, viewer)
        for (index, position) in (view["board"]?.arrayValue ?? []).enumerated() {
          guard let card = position["card"]?.stringValue else { continue }
          #expect(shown.contains(index), "seed \(seed): \(viewer) sees face-down card \(index)")
          #expect(card == state.board[index].card.description)
        }
        try Self.expectOnly(known, in: view, parse: PlayingCard.init, "seed \(seed) view")
        for event in try Self.wireEvents(MemoryGame.self, events, viewer) {
          try Self.expectOnly(known, in: event, parse: PlayingCard.init, "seed \(seed) event")
        }
      }
    }
    for _ in 0..<400 where !match.isOver {
      let state = match.state
      if state.resolving != nil || random.nextInt(below: 8) == 0 {
        try check(match.advance(by: random.nextUnit() * 2.5))
        continue
      }
      let player =
        random.nextInt(below: 5) == 0 ? Self.anyone(players, &random) : state.playerOnTurn
      var card = random.nextInt(below: state.board.count + 1)
      // NB: half the time the player remembers where the first card's partner lies.
      if state.turned.count == 1, random.nextInt(below: 2) == 0,
        let partner = state.board.indices.first(where: {
          $0 != state.turned[0]
            && MemoryGame.isPair(
              state.board[$0].card, state.board[state.turned[0]].card, variant: variant)
            && !state.board[$0].matched && !state.board[$0].removed
        })
      {
        card = partner
      }
      let action: MemoryGame.Action = random.nextInt(below: 300) == 0 ? .leave : .flip(card)
      guard let events = try? match.perform(action, by: player) else { continue }
      try check(events)
    }
  }

  // MARK: Set as a race

  @Test(arguments: 0..<UInt64(Soak.count(10, soak: 24)))
  func noSetViewOrEventNamesACardOfTheDeckOrAnotherPlayersSelection(seed: UInt64) throws {
    var random = SplitMix64(seed: seed ^ 0x5E7)
    let players = Array(SecretsPropertyTests.names.prefix(2 + random.nextInt(below: 3)))
    var match = try Match<SetGame>(
      options: SetGame.Options(refill: seed % 2 == 0, players: players), seed: seed)
    /// Every card that has lain on the table.
    var shown = Set<String>()
    var dealtAgain = false
    func check(_ events: OutcomeList<SetGame.Event>) throws {
      let state = match.state
      for slot in state.table.slots { shown.insert(slot.card.description) }
      for viewer in Self.viewers(players) {
        let view = try Self.wireView(SetGame.self, state, viewer)
        try Self.expectOnly(shown, in: view, parse: SetCard.init, "seed \(seed) view")
        #expect(view["gameSeed"] == .null)
        let table = view["table"]?.arrayValue ?? []
        let chosen = table.indices.filter { table[$0]["chosen"] == true }
        let mine: [Int] =
          if case .player(let id) = viewer, let index = state.racer(id) {
            state.table.slots.indices.filter {
              state.racers[index].selection.contains(state.table.slots[$0].card)
            }
          } else {
            []
          }
        #expect(chosen == mine, "seed \(seed): \(viewer) sees a selection not theirs")
        for entry in view["players"]?.arrayValue ?? [] {
          #expect(entry["selection"] == nil, "seed \(seed): \(viewer) sees a selection")
        }
        for event in try Self.wireEvents(SetGame.self, events, viewer) {
          try Self.expectOnly(shown, in: event, parse: SetCard.init, "seed \(seed) event")
          if event["type"] == "dealt" { #expect(event["seed"] == .null) }
          let kind = event["type"]?.stringValue ?? ""
          if ["selected", "deselected"].contains(kind), case .player(let id) = viewer,
            event["player"]?.stringValue != id.rawValue
          {
            #expect(event["card"] == nil && event["face"] == nil)
          }
        }
      }
    }
    for _ in 0..<300 {
      if match.isOver {
        guard !dealtAgain, !match.state.deserted else { break }
        dealtAgain = true
        let dealer = match.state.racers.first { !$0.hasLeft }?.id ?? players[0]
        try check(match.perform(.deal, by: dealer))
        continue
      }
      let player = Self.anyone(players, &random)
      let slots = match.state.table.slots
      let action: SetGame.Action
      switch random.nextInt(below: 20) {
      case 0..<4: action = .choose(random.nextInt(below: slots.count + 1))
      case 4..<16:
        // NB: most choices follow the first set, so that sets are found and the deck empties:
        // a card of the player's own outside it is un-chosen first.
        guard let hint = SetGame.hint(in: match.state) else {
          action = .dealThree
          break
        }
        let mine = match.state.racer(player).map { match.state.racers[$0].selection } ?? []
        let position =
          slots.indices.first { mine.contains(slots[$0].card) && !hint.contains($0) }
          ?? hint.first { !mine.contains(slots[$0].card) } ?? hint[0]
        action = .chooseCard(slots[position].card, at: position)
      case 16..<18: action = .dealThree
      case 18: action = random.nextInt(below: 10) == 0 ? .leave : .hint
      default: action = .chooseCard(SetCard.fullDeck[random.nextInt(below: 81)], at: 0)
      }
      guard let events = try? match.perform(action, by: player) else { continue }
      try check(events)
    }
  }

  // MARK: Snap!

  @Test(arguments: 0..<UInt64(Soak.count(8, soak: 20)))
  func noSnapViewOrEventNamesACardNotTurnedUpNorTheClosedPiles(seed: UInt64) throws {
    var random = SplitMix64(seed: seed ^ 0x5A9)
    let count = 2 + random.nextInt(below: 3)
    let players = Array(SecretsPropertyTests.names.prefix(count))
    let computers: Set<PlayerID> = random.nextInt(below: 2) == 0 ? [players[count - 1]] : []
    var match = try Match<SnapGame>(
      options: SnapGame.Options(
        players: players, computer: computers,
        computerSpeed: SnapGame.ComputerSpeed.allCases[random.nextInt(below: 4)]),
      seed: seed)
    /// Every card that has lain face up on an open pile this round.
    var shown = Set<String>()
    var round = 1
    func check(_ events: OutcomeList<SnapGame.Event>) throws {
      let state = match.state
      if state.round != round {
        round = state.round
        shown.removeAll()
      }
      for event in events {
        if case .turned(_, let card) = event { shown.insert(card.description) }
      }
      for player in state.players {
        for card in player.open { shown.insert(card.description) }
      }
      for viewer in Self.viewers(players) {
        let view = try Self.wireView(SnapGame.self, state, viewer)
        try Self.expectOnly(shown, in: view, parse: PlayingCard.init, "seed \(seed) view")
        #expect(view["matching"] == nil)
        for (index, seat) in (view["players"]?.arrayValue ?? []).enumerated() {
          #expect(seat["closed"] == nil && seat["open"] == nil)
          #expect(seat["openTop"]?.stringValue == state.players[index].open.last?.description)
        }
        for event in try Self.wireEvents(SnapGame.self, events, viewer) {
          try Self.expectOnly(shown, in: event, parse: PlayingCard.init, "seed \(seed) event")
        }
      }
    }
    for _ in 0..<1_000 {
      let state = match.state
      if state.phase == .gameOver || round > 3 { break }
      if state.phase == .roundOver {
        try check(match.perform(.nextRound, by: players[0]))
        continue
      }
      let player = Self.anyone(players, &random)
      switch random.nextInt(below: 10) {
      case 0..<4:
        try check(match.advance(to: match.nextDue ?? match.clock + 1))
      case 4..<7:
        guard let active = state.active else { continue }
        if let events = try? match.perform(.turn, by: active) { try check(events) }
      case 7..<9:
        // NB: mostly on a match, now and then a wrong call.
        guard SnapGame.hasMatch(in: state) || random.nextInt(below: 8) == 0 else { continue }
        if let events = try? match.perform(.snap, by: player) { try check(events) }
      default:
        if random.nextInt(below: 60) == 0, player != players[0],
          let events = try? match.perform(.leave, by: player)
        {
          try check(events)
        }
      }
    }
  }

  // MARK: Helpers

  static let names: [PlayerID] = ["Ann", "Bob", "Cy", "Dee"]

  /// Every seated player, and an onlooker who sits at no seat.
  static func viewers(_ players: [PlayerID]) -> [Viewer] {
    players.map(Viewer.player) + [.player("Onlooker")]
  }

  /// Usually a seated player, now and then someone who is not.
  static func anyone(_ players: [PlayerID], _ random: inout SplitMix64) -> PlayerID {
    random.nextInt(below: 12) == 0 ? "Stranger" : players[random.nextInt(below: players.count)]
  }

  static func wireView<G: WireGame>(_ rules: G.Type, _ state: G.State, _ viewer: Viewer) throws
    -> JSON
  {
    var cache = G.WireView.Cache()
    return try WireEncoder().json(of: G.WireView(G.view(of: state, for: viewer), cache: &cache))
  }

  static func wireEvents<G: WireGame>(
    _ rules: G.Type, _ events: OutcomeList<G.Event>, _ viewer: Viewer
  )
    throws -> [JSON]
  {
    try events.compactMap { G.redact($0, for: viewer) }.map { try WireEncoder().json(of: $0) }
  }

  /// Expects every word of every text in `json` that reads as a card to be one of `known`.
  static func expectOnly<Card>(
    _ known: Set<String>, in json: JSON, parse: (Substring) -> Card?, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for text in texts(in: json) {
      for word in text.split(separator: " ") {
        let bare = word.trimmingSuffix(while: { $0 == "." || $0 == "," || $0 == "!" })
        guard let card = parse(bare) else { continue }
        #expect(
          known.contains("\(card)"), "\(context) names \(card), not shown",
          sourceLocation: sourceLocation)
      }
    }
  }

  /// Every string in `json`, member names aside.
  static func texts(in json: JSON) -> [String] {
    if let text = json.stringValue { return [text] }
    if let list = json.arrayValue { return list.flatMap(texts) }
    if let keys = json.keys { return keys.flatMap { texts(in: json[$0] ?? .null) } }
    return []
  }
}

extension Substring {
  /// This text without the characters at its end that `drop` picks.
  func trimmingSuffix(while drop: (Character) -> Bool) -> Substring {
    var text = self
    while let last = text.last, drop(last) { text = text.dropLast() }
    return text
  }
}
