import CardTableCore
import ChoiceTable

/// Matchismo (cs193p): choose face-down playing cards two or three at a time and score the
/// pairs that share a suit or a rank (RULES §1).
///
/// The choose algorithm, last play, history and found matches are the shared
/// ``ChoiceTable``; Set plays the same table with its own match rule.
public enum MatchingGame: GameRules {
  /// The game's wire name.
  public static let name = "matchismo"
  /// How many cards a new game deals unless told otherwise.
  public static let defaultCards = 24
  /// The range of the "cards to deal" setting.
  public static let cardRange = 2...52
  /// The two match modes: 2-card and 3-card.
  public static let modes = 2...3

  public struct Options: Sendable, Equatable {
    /// Cards dealt to the table, 2…52.
    public var cards: Int
    /// The mode of the first game: 2- or 3-card match.
    public var mode: Int
    public var scoring: MatchScoring
    /// Deals these cards, in this order, to the first game instead of a shuffled deck.
    public var deck: [PlayingCard]?

    public init(
      cards: Int = MatchingGame.defaultCards, mode: Int = 2, scoring: MatchScoring = .init(),
      deck: [PlayingCard]? = nil
    ) {
      self.cards = cards
      self.mode = mode
      self.scoring = scoring
      self.deck = deck
    }
  }

  /// Playing cards score pairwise: same suit 1, same rank 4 (RULES §1.2).
  public enum Rule: MatchRule {
    @inlinable
    public static func match(_ cards: Hand<PlayingCard>) -> Int {
      var total = 0
      for first in cards.indices {
        for second in (first + 1)..<cards.count {
          total += pairScore(cards[first], cards[second])
        }
      }
      return total
    }

    public static func reason(_ cards: Hand<PlayingCard>) -> Reason {
      var pairs: [PairMatch] = []
      for first in cards.indices {
        for second in (first + 1)..<cards.count {
          let (a, b) = (cards[first], cards[second])
          if a.suit == b.suit {
            pairs.append(PairMatch(first: a, second: b, kind: .suit))
          } else if a.rank == b.rank {
            pairs.append(PairMatch(first: a, second: b, kind: .rank))
          }
        }
      }
      return Reason(pairs: pairs)
    }

    /// One pair's score: same suit 1, else same rank 4, else 0.
    @inlinable
    public static func pairScore(_ a: PlayingCard, _ b: PlayingCard) -> Int {
      a.suit == b.suit ? 1 : a.rank == b.rank ? 4 : 0
    }
  }

  /// One agreeing pair of a match.
  public struct PairMatch: Sendable, Hashable {
    public enum Kind: String, Sendable, Codable { case rank, suit }
    public var first: PlayingCard
    public var second: PlayingCard
    public var kind: Kind

    public init(first: PlayingCard, second: PlayingCard, kind: Kind) {
      self.first = first
      self.second = second
      self.kind = kind
    }

    /// `A♥ A♠ same rank`.
    public var text: String { "\(first) \(second) same \(kind.rawValue)" }
  }

  /// Why a match matched: every agreeing pair, in the move's order.
  public struct Reason: Sendable, Hashable {
    public var pairs: [PairMatch]

    public init(pairs: [PairMatch]) { self.pairs = pairs }

    /// `A♥ A♠ same rank; A♥ 2♥ same suit`.
    public var text: String { pairs.map(\.text).joined(separator: "; ") }
  }

  public typealias Table = ChoiceTable<Rule>

  /// What a game's record says of its settings: the table size, the mode and the scoring.
  public struct Settings: RecordSettings {
    public var cards: Int
    public var mode: Int
    public var scoring: MatchScoring

    public init(cards: Int, mode: Int, scoring: MatchScoring) {
      self.cards = cards
      self.mode = mode
      self.scoring = scoring
    }

    public var game: String { MatchingGame.name }

    /// `cards 24, mode 2, matchBonus 4, mismatchPenalty 2, costToChoose 1`.
    public var summary: String { "cards \(cards), mode \(mode), \(scoring.summary)" }

    /// Points: more is better.
    public var scoreOrder: ScoreOrder { .higherIsBetter }

    public init?(game: String, summary: String) {
      guard game == MatchingGame.name, let numbers = summaryNumbers(summary),
        let cards = numbers["cards"], let mode = numbers["mode"],
        let scoring = MatchScoring(summaryWords: numbers)
      else { return nil }
      self.init(cards: cards, mode: mode, scoring: scoring)
    }
  }

  public struct State: Sendable, Equatable {
    public internal(set) var table: Table
    /// The undealt rest of the deck.
    public internal(set) var deck: [PlayingCard]
    /// 2 or 3; locked once a card is chosen in a game.
    public internal(set) var mode: Int
    public internal(set) var cards: Int
    public internal(set) var scoring: MatchScoring
    /// The seed that shuffled this game's deck.
    public internal(set) var seed: UInt64
    /// Draws the seeds of later deals (*Deal*): from a secret on a server, from the match's
    /// seed in the engine console.
    public internal(set) var later: LaterSeeds
    /// Whether no matching combination is left (kept current by every action).
    public internal(set) var over = false
    /// Whether the current game was dealt by *Deal* (the match's deal is not).
    public internal(set) var redealt = false

    /// Whether the mode can no longer change in this game.
    public var modeLocked: Bool { table.flips > 0 }

    /// The current game's settings, as its record names them.
    public var settings: Settings { Settings(cards: cards, mode: mode, scoring: scoring) }
  }

  public enum Action: Sendable, Equatable {
    /// The player chooses the card at a table index.
    case choose(Int)
    /// The player deals a new game from a fresh deck.
    case deal
    /// The player picks 2- or 3-card mode before the first choice.
    case setMode(Int)
    /// The player asks for a hint: the first matching combination is marked.
    case hint
  }

  public enum Event: Sendable, Equatable {
    case chosen(index: Int, card: PlayingCard)
    case unchosen(index: Int)
    case matched(cards: [Int], points: Int, reason: Reason)
    case mismatched(cards: [Int], penalty: Int)
    case modeSet(Int)
    case hinted([Int])
    /// A new game was dealt; `abandoned` is the record of an unfinished game it replaced.
    case dealt(seed: UInt64?, abandoned: GameRecord<Settings>?)
    case gameOver(GameRecord<Settings>)
  }

  public enum RuleViolation: Refusal {
    case noSuchCard(Int)
    case cardAlreadyMatched(Int)
    case gameOver
    case modeLocked
    case invalidMode(Int)
    case invalidOptions(String)
    case invalidDeck(String)

    public var code: String {
      switch self {
      case .noSuchCard: "no-such-card"
      case .cardAlreadyMatched: "card-matched"
      case .gameOver: "game-over"
      case .modeLocked: "mode-locked"
      case .invalidMode: "invalid-mode"
      case .invalidOptions: "invalid-options"
      case .invalidDeck: "invalid-deck"
      }
    }

    public var message: String {
      switch self {
      case .noSuchCard(let index): "There is no card \(index) on the table."
      case .cardAlreadyMatched(let index): "Card \(index) is already matched."
      case .gameOver: "No matches left: the game is over. Deal to play again."
      case .modeLocked: "The mode can only change before the first card is chosen; Deal first."
      case .invalidMode(let mode): "The mode is 2 or 3 cards, not \(mode)."
      case .invalidOptions(let reason): reason
      case .invalidDeck(let reason): reason
      }
    }
  }
}
