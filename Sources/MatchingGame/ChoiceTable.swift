import CardTableCore

/// What makes a move's cards match in a game played with the choose algorithm (RULES §1.2).
public protocol MatchRule: SendableMetatype {
  associatedtype Card: Hashable & Sendable & CustomStringConvertible
  associatedtype Reason: Sendable & Equatable

  /// `match(card, others)` of RULES §1.2 over all the move's cards: 0 when they do not match.
  static func match(_ cards: [Card]) -> Int

  /// Why `cards`, which match, match: the agreeing pairs or attributes.
  static func reason(_ cards: [Card]) -> Reason
}

/// The settings of RULES §1.2: points per match point, mismatch penalty and cost to choose.
public struct MatchScoring: Sendable, Equatable {
  public var matchBonus: Int
  public var mismatchPenalty: Int
  public var costToChoose: Int

  /// Each setting may be set from 0 to 10.
  public static let range = 0...10

  public init(matchBonus: Int = 4, mismatchPenalty: Int = 2, costToChoose: Int = 1) {
    self.matchBonus = matchBonus
    self.mismatchPenalty = mismatchPenalty
    self.costToChoose = costToChoose
  }

  /// Whether every setting is in ``range``.
  public var isValid: Bool {
    [matchBonus, mismatchPenalty, costToChoose].allSatisfy(Self.range.contains)
  }

  /// A short text for results: `matchBonus 4, mismatchPenalty 2, costToChoose 1`.
  public var summary: String {
    "matchBonus \(matchBonus), mismatchPenalty \(mismatchPenalty), costToChoose \(costToChoose)"
  }
}

/// A table of cards played with the exact choose algorithm of RULES §1.2, with its score,
/// flips, status line, history and found matches — the engine Matchismo and Set share.
///
/// The games check their own rules (index on the table, card not matched, game not over)
/// before they call ``choose(_:mode:scoring:)``, which never refuses.
public struct ChoiceTable<Rule: MatchRule>: Sendable, Equatable {
  /// One position of the table.
  public struct Slot: Sendable, Equatable {
    public var card: Rule.Card
    /// Face up and waiting to be matched (or, once matched, shown dimmed in Matchismo).
    public var chosen = false
    public var matched = false
    /// Marked by the last hint; cleared by a match.
    public var hinted = false

    public init(card: Rule.Card) { self.card = card }
  }

  /// One match the player found, its cards in table order.
  public struct FoundMatch: Sendable, Equatable {
    public var cards: [Rule.Card]
    public var points: Int
    public var reason: Rule.Reason

    public init(cards: [Rule.Card], points: Int, reason: Rule.Reason) {
      self.cards = cards
      self.points = points
      self.reason = reason
    }
  }

  /// What one choice did.
  public struct Move: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
      /// A chosen card was turned face down again, for free.
      case unchosen
      /// The card was turned face up without completing a move.
      case chosen
      /// The move's cards matched and are all matched now.
      case matched(points: Int, reason: Rule.Reason)
      /// The move's cards did not match: the others were turned down, the new card stays up.
      case mismatched(penalty: Int)
    }

    /// The table index of the chosen card.
    public var index: Int
    /// The move's cards: the previously chosen cards in table order, then the new card.
    public var cards: [Int]
    public var kind: Kind
    /// How much the score changed: points minus the cost to choose (0 for un-choosing).
    public var scoreChange: Int

    public init(index: Int, cards: [Int], kind: Kind, scoreChange: Int) {
      self.index = index
      self.cards = cards
      self.kind = kind
      self.scoreChange = scoreChange
    }
  }

  public var slots: [Slot]
  public var score = 0
  /// Every card turned over, face up or face down.
  public var flips = 0
  /// Cards turned face up: each cost ``MatchScoring/costToChoose``.
  public var choices = 0
  /// The status line of the last move (RULES §1.3); empty before the first choice.
  public var status = ""
  /// The score change of the last move that turned a card face up.
  public var lastScoreChange = 0
  /// Every non-empty status that differed from the previous entry, oldest first.
  public var history: [String] = []
  /// The matches found, in the order they were made.
  public var found: [FoundMatch] = []

  public init(cards: [Rule.Card]) {
    slots = cards.map(Slot.init(card:))
  }

  /// The table indices of the chosen, unmatched cards, in table order.
  @inlinable public var chosenIndices: [Int] {
    slots.indices.filter { slots[$0].chosen && !slots[$0].matched }
  }

  /// The table indices marked by the last hint.
  @inlinable public var hintedIndices: [Int] { slots.indices.filter { slots[$0].hinted } }

  /// Chooses the card at `index` (RULES §1.2), which must be on the table and not matched.
  ///
  /// - Complexity: O(n) in the number of cards on the table.
  @inlinable
  public mutating func choose(_ index: Int, mode: Int, scoring: MatchScoring) -> Move {
    precondition(slots.indices.contains(index) && !slots[index].matched, "not a playable card")
    flips += 1
    if slots[index].chosen {
      // NB: un-choosing keeps the last status and score change (RULES §1.2 step 2).
      slots[index].chosen = false
      return Move(index: index, cards: [index], kind: .unchosen, scoreChange: 0)
    }
    let others = chosenIndices
    let cards = others + [index]
    let names = cards.map { slots[$0].card.description }.joined(separator: " ")
    var points = 0
    let kind: Move.Kind
    if others.count + 1 == mode {
      let faces = cards.map { slots[$0].card }
      let matchScore = Rule.match(faces)
      if matchScore > 0 {
        points = matchScore * scoring.matchBonus
        let reason = Rule.reason(faces)
        for card in cards { slots[card].matched = true }
        for position in slots.indices { slots[position].hinted = false }
        found.append(
          FoundMatch(
            cards: cards.sorted().map { slots[$0].card }, points: points, reason: reason))
        status = "Matched \(names) for \(points) points."
        kind = .matched(points: points, reason: reason)
      } else {
        points = -scoring.mismatchPenalty
        for card in others { slots[card].chosen = false }
        status = "\(names) don’t match! \(scoring.mismatchPenalty) point penalty!"
        kind = .mismatched(penalty: scoring.mismatchPenalty)
      }
    } else {
      status = names
      kind = .chosen
    }
    slots[index].chosen = true
    choices += 1
    lastScoreChange = points - scoring.costToChoose
    score += lastScoreChange
    if !status.isEmpty && history.last != status { history.append(status) }
    return Move(index: index, cards: cards, kind: kind, scoreChange: lastScoreChange)
  }

  /// The first combination of `size` unmatched cards with `match > 0`, searching in
  /// lexicographic order of table indices; nil when there is none.
  ///
  /// - Complexity: O(C(n, size)) match evaluations in the worst case.
  @inlinable
  public func firstMatch(size: Int) -> [Int]? {
    let open = slots.indices.filter { !slots[$0].matched }
    guard size > 0, open.count >= size else { return nil }
    var picks = Array(0..<size)
    while true {
      let cards = picks.map { slots[open[$0]].card }
      if Rule.match(cards) > 0 { return picks.map { open[$0] } }
      // NB: advance the rightmost pick that can still move, then reset the ones after it.
      var position = size - 1
      while position >= 0 && picks[position] == open.count - size + position { position -= 1 }
      guard position >= 0 else { return nil }
      picks[position] += 1
      for next in (position + 1)..<size { picks[next] = picks[next - 1] + 1 }
    }
  }

  /// A position as a viewer sees it: the face only when the viewer may see it.
  public struct SlotView: Sendable, Equatable {
    public var card: Rule.Card?
    public var chosen: Bool
    public var matched: Bool
    public var hinted: Bool
  }

  /// The positions as a viewer sees them, faces shown where `showsFace` says.
  public func slotViews(showingFace showsFace: (Slot) -> Bool) -> [SlotView] {
    slots.map { slot in
      SlotView(
        card: showsFace(slot) ? slot.card : nil, chosen: slot.chosen, matched: slot.matched,
        hinted: slot.hinted)
    }
  }

  /// Marks `indices` as hinted, clearing any earlier marks.
  public mutating func mark(hint indices: [Int]) {
    for position in slots.indices { slots[position].hinted = indices.contains(position) }
  }
}
