import CardTableCore

// Memory's and Concentration's computer players: they see what their seat's view shows, keep
// each card they see face up with their level's probability, and play the optimal strategy
// on what they keep (Velleman & Warrington, "What to expect in a game of memory", 2013).

extension MemoryGame {
  /// How much a computer player remembers: each card it sees turned face up is kept with this
  /// level's ``recall`` (drawn once per sight, so a card seen again has another chance).
  public enum ComputerLevel: String, CaseIterable, Sendable, Codable {
    case forgetful, good, perfect

    /// The chance that a card seen face up is remembered.
    public var recall: Double {
      switch self {
      case .forgetful: 0.3
      case .good: 0.7
      case .perfect: 1.0
      }
    }

    /// The level as a button shows it.
    public var label: String {
      switch self {
      case .forgetful: "Forgetful"
      case .good: "Good"
      case .perfect: "Perfect"
      }
    }

    /// The level in words a player understands.
    public var helpDescription: String {
      switch self {
      case .forgetful: "remembers about 3 in 10 of the cards it sees"
      case .good: "remembers about 7 in 10 of the cards it sees"
      case .perfect: "remembers every card it sees"
      }
    }
  }

  /// The names a table's computer players take, in seat order (as Snap!'s).
  public static let computerNames: [PlayerID] = ["Ray", "Lucy", "Steve"]

  /// Seconds a computer player pauses before the first card of its turn: at least this…
  public static let computerTurnPause = 1.0
  /// …plus up to this much more, drawn for each turn.
  public static let computerTurnSpread = 1.0
  /// Seconds before its second card: at least this, plus up to as much again.
  public static let computerSecondCardPause = 0.6

  /// The card a computer player turns next, decided from its seat's `view` and what it
  /// `remembers` (board index → card, entries for cards no longer face down ignored):
  ///
  /// 1. With one card turned: its partner if remembered, else a face-down card it does not
  ///    know (a known one only when none is left).
  /// 2. With none turned: the first of a remembered pair, else a card it does not know.
  ///
  /// Ties go to the lowest index; "a card it does not know" is drawn from `random`. Nil when
  /// no card can be turned. Nothing but `view` and `remembers` is read: what a person at the
  /// seat could see and could have kept in mind.
  public static func computerChoice(
    in view: View, remembering remembers: [Int: PlayingCard], random: inout SplitMix64
  ) -> Int? {
    var hidden: [Int] = []
    var known: [(index: Int, card: PlayingCard)] = []
    var turned: PlayingCard?
    for (index, position) in view.board.enumerated() where !position.removed && !position.matched {
      if position.faceUp {
        turned = position.card
      } else {
        hidden.append(index)
        if let card = remembers[index] { known.append((index, card)) }
      }
    }
    guard !hidden.isEmpty else { return nil }
    if let turned {
      if let partner = known.first(where: { isPair($0.card, turned, variant: view.variant) }) {
        return partner.index
      }
    } else {
      for (offset, first) in known.enumerated()
      where known[(offset + 1)...].contains(where: {
        isPair($0.card, first.card, variant: view.variant)
      }) {
        return first.index
      }
    }
    let unknown = hidden.filter { remembers[$0] == nil }
    let pool = unknown.isEmpty ? hidden : unknown
    return pool[random.nextInt(below: pool.count)]
  }

  /// Each computer player still in sees `card` turned at `index` and keeps it with its
  /// level's chance.
  static func remember(_ card: PlayingCard, at index: Int, in state: inout State) {
    let recall = state.computerLevel.recall
    for seat in state.players.indices
    where state.players[seat].isComputer && !state.players[seat].hasLeft {
      // NB: the perfect level draws nothing: it keeps every card.
      if recall < 1, state.random.nextUnit() >= recall { continue }
      state.memories[seat][index] = card
    }
  }

  /// A found pair is no longer a card to remember.
  static func forget(_ indices: Int..., in state: inout State) {
    for seat in state.memories.indices {
      for index in indices { state.memories[seat][index] = nil }
    }
  }

  /// When a computer player is on turn and a card may be turned, schedules its next card
  /// (replacing one it had scheduled): after a pause of 1–2 s before the first card of a
  /// turn, 0.6–1.2 s before the second.
  ///
  /// NB: the question whether anyone is a computer is asked in the caller's body: the call of
  /// the whole function, made after every tap and resolution, was 3 % of `bench memory`'s time
  /// in games without computers.
  @inline(__always)
  static func planComputerTurn(_ state: inout State, into outcome: inout Outcome<MemoryGame>) {
    guard state.hasComputers else { return }
    planTurnOfTheComputerOnTurn(&state, into: &outcome)
  }

  private static func planTurnOfTheComputerOnTurn(
    _ state: inout State, into outcome: inout Outcome<MemoryGame>
  ) {
    guard !isOver(state), state.resolving == nil, state.turned.count < 2 else { return }
    let seat = state.turn
    let player = state.players[seat]
    guard player.isComputer, !player.hasLeft else { return }
    let seen = view(of: state, for: .player(player.id))
    guard
      let index = computerChoice(in: seen, remembering: state.memories[seat], random: &state.random)
    else { return }
    let delay =
      state.turned.isEmpty
      ? computerTurnPause + state.random.nextUnit() * computerTurnSpread
      : computerSecondCardPause * (1 + state.random.nextUnit())
    outcome.cancelled.append(.computer)
    outcome.scheduled.append(Scheduled(after: delay, .flip(index), by: player.id, key: .computer))
  }

  /// A computer player on turn at the deal turns its first card after its pause.
  ///
  /// NB: `opening` cannot draw on the state's generator, so the first turn draws from one
  /// seeded by the deal's seed.
  public static func opening(_ state: State, into outcome: inout Outcome<MemoryGame>) {
    // NB: without computers there is nothing to plan, and no copy of the state to make.
    guard state.hasComputers else { return }
    var first = state
    first.random = SplitMix64(seed: state.seed ^ 0x6F70_656E_696E_6721)
    planComputerTurn(&first, into: &outcome)
    outcome.cancelled.removeAll()
  }
}
