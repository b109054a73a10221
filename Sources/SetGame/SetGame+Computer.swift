import CardTableCore
import ChoiceTable

// Set's computer racers: they look at the table their seat sees, find each set on it after a
// time that grows with how different its cards are, claim the first they find with three
// choices as a person's, and ask for +3 when they see none.

extension SetGame {
  /// How quickly a computer racer finds sets.
  public enum ComputerLevel: String, CaseIterable, Sendable, Codable {
    case relaxed, steady, sharp

    /// Its mean time to find a set on a usual table (12 cards showing about three sets).
    public var seconds: Double {
      switch self {
      case .relaxed: 15
      case .steady: 8
      case .sharp: 4
      }
    }

    /// The level as a button shows it.
    public var label: String {
      switch self {
      case .relaxed: "Relaxed"
      case .steady: "Steady"
      case .sharp: "Sharp"
      }
    }

    /// The level in words a player understands.
    public var helpDescription: String {
      "finds a set in about \(Int(seconds)) s on a usual table"
    }
  }

  /// The names a race's computer players take, in seat order.
  public static let computerNames: [PlayerID] = ["Ray", "Lucy", "Steve"]

  /// Seconds a computer racer needs at least to see a set and reach for it.
  public static let computerReach = 0.8
  /// Seconds between a computer racer's choices of a set's three cards.
  public static let computerChoiceGap = 0.35
  /// How much sooner a set is found by the attributes its three cards differ in (1 to 4):
  /// sets that share more are seen sooner (Jacob & Hochstein, 2008, measured it in people).
  /// Averaged over the deck's sets (1 in 10 differ in one attribute, 3 in two, 4 in three, 2 in
  /// four) the weight is 1.
  public static let computerFindingWeights: [Double] = [1.6, 1.25, 0.9, 0.65]
  /// The finding weights a usual table holds, as they count for the time to the first set:
  /// 1 ÷ the mean of 1 ÷ (the sum of its sets' weights) over the first tables of seeded deals
  /// that show a set (they show 2.78 sets on average; tables with one set weigh the most).
  public static let computerUsualWeight = 2.26

  /// What a computer racer will do, and when.
  public struct ComputerPlan: Sendable, Equatable {
    /// Seconds from now to its first choice.
    public var delay: Double
    /// The cards to choose, in order (its own stray choices first, to undo them); empty when
    /// it asks for +3.
    public var cards: [SetCard]
  }

  /// The attributes in which the set's three cards differ: 1 to 4.
  public static func differences(_ cards: Hand<SetCard>) -> Int {
    let reason = Rule.reason(cards)
    return [reason.number, reason.symbol, reason.shading, reason.color]
      .filter { $0 == .different }.count
  }

  /// A computer racer's next move, from its seat's `view` alone: each set showing is found
  /// after ``computerReach`` plus an exponential time whose mean is (the level's seconds −
  /// the reach) × ``computerUsualWeight`` ÷ the set's finding weight — so a usual table takes
  /// the level's seconds, more sets sooner — and the first found is claimed. With no set showing it asks for +3 after
  /// 1 to 2 times the level's seconds (looking everywhere first), or does nothing once it has
  /// asked, the deck is empty, or the game is over.
  public static func computerPlan(
    in view: View, level: ComputerLevel, random: inout SplitMix64
  ) -> ComputerPlan? {
    guard !view.over else { return nil }
    var faces: [SetCard] = []
    var chosen: [SetCard] = []
    for slot in view.table where !slot.matched {
      guard let card = slot.card else { continue }
      faces.append(card)
      if slot.chosen { chosen.append(card) }
    }
    let showing = SetFinder.sets(in: faces)
    guard !showing.isEmpty else {
      let asked = view.racers.first { $0.id == view.viewer }?.askedForThree ?? true
      guard view.deckCount > 0, !asked else { return nil }
      return ComputerPlan(delay: level.seconds * (1 + random.nextUnit()), cards: [])
    }
    var best: (time: Double, cards: [SetCard])?
    for set in showing {
      let cards = [faces[set[0]], faces[set[1]], faces[set[2]]]
      let weight = computerFindingWeights[differences(Hand(cards)) - 1]
      let mean = (level.seconds - computerReach) * computerUsualWeight / weight
      let time = mean * random.nextExponential()
      if time < best?.time ?? .infinity { best = (time, cards) }
    }
    guard let (time, cards) = best else { return nil }
    let stray = chosen.filter { !cards.contains($0) }
    return ComputerPlan(
      delay: computerReach + time, cards: stray + cards.filter { !chosen.contains($0) })
  }

  /// After an action that changed the table (or dealt anew), each computer racer still in
  /// drops what it had planned and plans again from its view.
  static func planComputers(_ state: inout State, into outcome: inout Outcome<SetGame>) {
    for index in state.racers.indices where state.racers[index].isComputer {
      outcome.cancelled.append(.computer(index))
      guard !state.racers[index].hasLeft else { continue }
      let id = state.racers[index].id
      let seen = view(of: state, for: .player(id))
      guard let plan = computerPlan(in: seen, level: state.computerLevel, random: &state.random)
      else { continue }
      guard !plan.cards.isEmpty else {
        outcome.scheduled.append(
          Scheduled(after: plan.delay, .dealThree, by: id, key: .computer(index)))
        continue
      }
      for (step, card) in plan.cards.enumerated() {
        let position = seen.table.firstIndex { $0.card == card } ?? 0
        outcome.scheduled.append(
          Scheduled(
            after: plan.delay + Double(step) * computerChoiceGap, .chooseCard(card, at: position),
            by: id, key: .computer(index)))
      }
    }
  }

  /// The computer racers' first plans at the deal.
  ///
  /// NB: `opening` cannot draw on the state's generator, so the first plans draw from one
  /// seeded by the deal's seed.
  static func planComputersAtOpening(_ state: State, into outcome: inout Outcome<SetGame>) {
    guard state.hasComputers else { return }
    var first = state
    first.random = SplitMix64(seed: state.seed ^ 0x6F70_656E_696E_6721)
    planComputers(&first, into: &outcome)
    outcome.cancelled.removeAll()
  }
}
