import CardTableCore

/// What makes a move's cards match in a game played with the choose algorithm (RULES §1.2).
public protocol MatchRule: SendableMetatype {
  associatedtype Card: Hashable & Sendable & CustomStringConvertible & Codable
  associatedtype Reason: Sendable & Equatable & Codable

  /// `match(card, others)` of RULES §1.2 over all the move's cards: 0 when they do not match.
  static func match(_ cards: Hand<Card>) -> Int

  /// Why `cards`, which match, match: the agreeing pairs or attributes.
  static func reason(_ cards: Hand<Card>) -> Reason
}

/// The settings of RULES §1.2: points per match point, mismatch penalty and cost to choose.
public struct MatchScoring: Sendable, Equatable, Codable {
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

  /// A short text for records: `matchBonus 4, mismatchPenalty 2, costToChoose 1`.
  public var summary: String {
    "matchBonus \(matchBonus), mismatchPenalty \(mismatchPenalty), costToChoose \(costToChoose)"
  }

  /// Reads ``summary``'s three settings from `words` (`["matchBonus", "4", …]`).
  public init?(summaryWords words: [String: Int]) {
    guard let bonus = words["matchBonus"], let penalty = words["mismatchPenalty"],
      let cost = words["costToChoose"]
    else { return nil }
    self.init(matchBonus: bonus, mismatchPenalty: penalty, costToChoose: cost)
  }
}

/// Reads a record summary such as `cards 24, mode 2, matchBonus 4` into its numbers, and
/// `refill on` into 1 or 0; nil when a part is not `name value`.
public func summaryNumbers(_ summary: String) -> [String: Int]? {
  var numbers: [String: Int] = [:]
  for part in summary.split(separator: ", ") {
    let words = part.split(separator: " ")
    guard words.count == 2 else { return nil }
    let value: Int? =
      switch words[1] {
      case "on": 1
      case "off": 0
      default: Int(words[1])
      }
    guard let value else { return nil }
    numbers[String(words[0])] = value
  }
  return numbers
}

/// A table of cards played with the exact choose algorithm of RULES §1.2, with its score,
/// flips, last play, history and found matches — the engine Matchismo and Set share.
///
/// It keeps facts only: which cards a move named and what came of it. The status line and
/// the history's texts are written from these facts by the wire's formatter.
///
/// The games check their own rules (index on the table, card not matched, game not over)
/// before they call ``choose(_:mode:scoring:)``, which never refuses.
///
/// NB: its members are settable so that Set (another module) can deal into it and so that its
/// `@inlinable` methods may write them; the games keep the table itself `internal(set)`, so
/// nothing outside a game's module can change the table of a game's state.
public struct ChoiceTable<Rule: MatchRule>: Sendable, Equatable {
  /// One position of the table.
  public struct Slot: Sendable, Equatable {
    public var card: Rule.Card
    /// Face up and waiting to be matched (or, once matched, shown dimmed in Matchismo).
    public var chosen = false
    public var matched = false
    /// Marked by the last hint; cleared by a match.
    public var hinted = false

    @inlinable public init(card: Rule.Card) { self.card = card }
  }

  /// One match the player found, its cards in table order: on the wire
  /// `{"cards":["A♥","A♠"],"points":16,"reason":{…}}`.
  public struct FoundMatch: Sendable, Equatable, Codable {
    public var cards: Hand<Rule.Card>
    public var points: Int
    public var reason: Rule.Reason

    @inlinable public init(cards: Hand<Rule.Card>, points: Int, reason: Rule.Reason) {
      self.cards = cards
      self.points = points
      self.reason = reason
    }
  }

  /// What a choice that turned a card face up showed: the status line's facts (RULES §1.3).
  public struct Play: Sendable, Equatable {
    /// How the move came out.
    public enum Result: Sendable, Equatable {
      /// The move is not complete yet.
      case chosen
      /// The move's cards matched for these points.
      case matched(points: Int)
      /// The move's cards did not match; the penalty was paid.
      case mismatched(penalty: Int)
    }

    /// The move's cards: the previously chosen cards in table order, then the new card.
    public var cards: Hand<Rule.Card>
    public var result: Result

    @inlinable public init(cards: Hand<Rule.Card>, result: Result) {
      self.cards = cards
      self.result = result
    }

    // NB: written out and inlinable, so that each game's module specializes the comparison
    // `choose` makes at every move (a synthesized one runs unspecialized across modules).
    @inlinable public static func == (a: Play, b: Play) -> Bool {
      a.result == b.result && a.cards == b.cards
    }

    /// The points the play scored before the cost to choose: a match's points, minus a
    /// mismatch's penalty, else 0.
    public var points: Int {
      switch result {
      case .chosen: 0
      case .matched(let points): points
      case .mismatched(let penalty): -penalty
      }
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
    /// The move's table indices: the previously chosen cards in table order, then the new card.
    public var cards: Hand<Int>
    public var kind: Kind
    /// How much the score changed: points minus the cost to choose (0 for un-choosing).
    public var scoreChange: Int

    @inlinable public init(index: Int, cards: Hand<Int>, kind: Kind, scoreChange: Int) {
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
  /// The last choice that turned a card face up: what the status line reports (RULES §1.3).
  /// Nil before the first choice; un-choosing leaves it as it was.
  public var lastPlay: Play?
  /// The score change of the last move that turned a card face up.
  public var lastScoreChange = 0
  /// Every play that differed from the previous entry, oldest first (RULES §1.3).
  public var history: [Play] = []
  /// The matches found, in the order they were made.
  public var found: [FoundMatch] = []

  @inlinable public init(cards: [Rule.Card]) {
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
      // NB: un-choosing keeps the last play and score change (RULES §1.2 step 2).
      slots[index].chosen = false
      return Move(index: index, cards: [index], kind: .unchosen, scoreChange: 0)
    }
    var cards = Hand<Int>()
    for position in slots.indices where slots[position].chosen && !slots[position].matched {
      // NB: at most mode − 1 cards are chosen at once, so the move fits a hand.
      cards.append(position)
    }
    let others = cards
    cards.append(index)
    var faces = Hand<Rule.Card>()
    for position in cards { faces.append(slots[position].card) }
    var points = 0
    let kind: Move.Kind
    let result: Play.Result
    if cards.count == mode {
      let matchScore = Rule.match(faces)
      if matchScore > 0 {
        points = matchScore * scoring.matchBonus
        let reason = Rule.reason(faces)
        for card in cards { slots[card].matched = true }
        for position in slots.indices { slots[position].hinted = false }
        var inTableOrder = Hand<Rule.Card>()
        for position in cards.sorted() { inTableOrder.append(slots[position].card) }
        found.append(FoundMatch(cards: inTableOrder, points: points, reason: reason))
        kind = .matched(points: points, reason: reason)
        result = .matched(points: points)
      } else {
        points = -scoring.mismatchPenalty
        for card in others { slots[card].chosen = false }
        kind = .mismatched(penalty: scoring.mismatchPenalty)
        result = .mismatched(penalty: scoring.mismatchPenalty)
      }
    } else {
      kind = .chosen
      result = .chosen
    }
    slots[index].chosen = true
    choices += 1
    lastScoreChange = points - scoring.costToChoose
    score += lastScoreChange
    let play = Play(cards: faces, result: result)
    lastPlay = play
    if history.last != play { history.append(play) }
    return Move(index: index, cards: cards, kind: kind, scoreChange: lastScoreChange)
  }

  /// The first combination of `size` (2 or 3) unmatched cards with `match > 0`, searching in
  /// lexicographic order of table indices; nil when there is none.
  ///
  /// - Complexity: O(C(n, size)) match evaluations in the worst case; nothing is allocated.
  @inlinable
  public func firstMatch(size: Int) -> Hand<Int>? {
    let count = slots.count
    switch size {
    case 2:
      for i in 0..<count where !slots[i].matched {
        for j in (i + 1)..<count where !slots[j].matched {
          if Rule.match(Hand(slots[i].card, slots[j].card)) > 0 { return Hand(i, j) }
        }
      }
    case 3:
      for i in 0..<count where !slots[i].matched {
        for j in (i + 1)..<count where !slots[j].matched {
          for k in (j + 1)..<count where !slots[k].matched {
            if Rule.match(Hand(slots[i].card, slots[j].card, slots[k].card)) > 0 {
              return Hand(i, j, k)
            }
          }
        }
      }
    default:
      preconditionFailure("moves are of two or three cards")
    }
    return nil
  }

  /// A position as a viewer sees it: the face only when the viewer may see it.
  public struct SlotView: Sendable, Equatable, Codable {
    /// The card, or nil (`null` on the wire) while it is face down to this viewer.
    public var card: Rule.Card?
    public var chosen: Bool
    public var matched: Bool
    public var hinted: Bool

    @inlinable public init(card: Rule.Card?, chosen: Bool, matched: Bool, hinted: Bool) {
      self.card = card
      self.chosen = chosen
      self.matched = matched
      self.hinted = hinted
    }

    enum CodingKeys: String, CodingKey {
      case card, chosen, matched, hinted
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(card, forKey: .card)
      try container.encode(chosen, forKey: .chosen)
      try container.encode(matched, forKey: .matched)
      try container.encode(hinted, forKey: .hinted)
    }
  }

  /// The positions as a viewer sees them, faces shown where `showsFace` says.
  ///
  /// NB: inlinable, so that each game's copy is specialized: unspecialized, it looked up the
  /// generic metadata of every slot it made (5 % of a Set race's server CPU per move).
  @inlinable public func slotViews(showingFace showsFace: (Slot) -> Bool) -> [SlotView] {
    slots.map { slot in
      SlotView(
        card: showsFace(slot) ? slot.card : nil, chosen: slot.chosen, matched: slot.matched,
        hinted: slot.hinted)
    }
  }

  /// Marks `indices` as hinted, clearing any earlier marks.
  public mutating func mark(hint indices: Hand<Int>) {
    for position in slots.indices { slots[position].hinted = indices.contains(position) }
  }

  /// Removes the cards at `positions` (ascending), the others keeping their order.
  public mutating func remove(_ positions: some BidirectionalCollection<Int>) {
    for position in positions.reversed() { slots.remove(at: position) }
  }
}
