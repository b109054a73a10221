import CardTableCore
import ChoiceTable

/// Set (cs193p): find three cards whose four attributes are each all the same or all different
/// (RULES §2), played with Matchismo's choose algorithm on a table that grows by three.
///
/// **A race** (2–4 ``Options/players``; see `SetGame+Race.swift`): every player may choose at
/// any time, each into a selection of their own, and a selection of three is judged at once —
/// the first valid set the engine receives scores for its finder.
public enum SetGame: GameRules {
  /// The game's wire name.
  public static let name = "set"
  /// Cards on a new table, and the size `refill` tops the table up to.
  public static let tableSize = 12
  /// Set is always played three cards at a time.
  public static let mode = 3
  /// What a set is worth before the match bonus.
  public static let setScore = 4
  /// The players of two-player Set, in turn order.
  public static let players: [PlayerID] = ["P1", "P2"]

  public struct Options: Sendable, Equatable {
    public var scoring: MatchScoring
    /// Deals replacements for a found set up to 12 cards (the card game's rule); off in the
    /// original app, where found sets simply leave the table.
    public var refill: Bool
    /// Two players, `P1` and `P2`, share the table and take turns (RULES §2).
    public var twoPlayer: Bool
    /// Deals these cards, in this order, to the first game instead of a shuffled deck.
    public var deck: [SetCard]?
    /// The players of a race, 2–4; one player (the default, `You`) plays alone.
    public var players: [PlayerID]
    /// The racers the computer plays; each must be among ``players``.
    public var computer: Set<PlayerID>
    /// How quickly the computer racers find sets.
    public var computerLevel: ComputerLevel

    public init(
      scoring: MatchScoring = .init(), refill: Bool = false, twoPlayer: Bool = false,
      deck: [SetCard]? = nil, players: [PlayerID] = [.solo], computer: Set<PlayerID> = [],
      computerLevel: ComputerLevel = .steady
    ) {
      self.scoring = scoring
      self.refill = refill
      self.twoPlayer = twoPlayer
      self.deck = deck
      self.players = players
      self.computer = computer
      self.computerLevel = computerLevel
    }
  }

  /// One player of a race, with a selection of their own.
  public struct Racer: Sendable, Equatable {
    public internal(set) var id: PlayerID
    public internal(set) var score = 0
    /// The cards this player has chosen, in the order chosen: at most two between claims.
    public internal(set) var selection: [SetCard] = []
    /// The player has asked for three more cards since the last were dealt.
    public internal(set) var askedForThree = false
    /// The player has left the race; their score stays.
    public internal(set) var hasLeft = false
    /// The computer plays this racer (`SetGame+Computer.swift`).
    public internal(set) var isComputer = false

    public init(id: PlayerID, isComputer: Bool = false) {
      self.id = id
      self.isComputer = isComputer
    }
  }

  /// Names a computer racer's pending moves (by its index among the racers), so that a change
  /// of the table can drop them.
  public enum TimerKey: Hashable, Sendable {
    case computer(Int)
  }

  /// A judged selection of a race: who made it, and the play it was (a set or a miss).
  public struct Claim: Sendable, Equatable {
    public var player: PlayerID
    /// The claim's cards in table order, and how it came out.
    public var play: Table.Play

    public init(player: PlayerID, play: Table.Play) {
      self.player = player
      self.play = play
    }
  }

  /// Three Set cards match, for 4 points, when they form a set.
  public enum Rule: MatchRule {
    @inlinable
    public static func match(_ cards: Hand<SetCard>) -> Int {
      cards.count == 3 && isSet(cards[0], cards[1], cards[2]) ? setScore : 0
    }

    public static func reason(_ cards: Hand<SetCard>) -> Reason {
      func agreement<T: Equatable>(_ value: (SetCard) -> T) -> Agreement {
        value(cards[0]) == value(cards[1]) ? .same : .different
      }
      return Reason(
        number: agreement(\.number), symbol: agreement(\.symbol), shading: agreement(\.shading),
        color: agreement(\.color))
    }
  }

  /// How the three cards of a set agree in one attribute.
  public enum Agreement: String, Sendable, Codable {
    case same
    case different
  }

  /// Why three cards form a set: for each attribute, all the same or all different.
  public struct Reason: Sendable, Hashable {
    public var number: Agreement
    public var symbol: Agreement
    public var shading: Agreement
    public var color: Agreement

    public init(number: Agreement, symbol: Agreement, shading: Agreement, color: Agreement) {
      self.number = number
      self.symbol = symbol
      self.shading = shading
      self.color = color
    }

    /// `number same, symbol different, shading different, color same`.
    ///
    /// NB: one of 16 texts made once: every view of a Set game writes its found sets' reasons.
    public var text: String {
      func bit(_ agreement: Agreement, _ value: Int) -> Int { agreement == .same ? value : 0 }
      return Self.texts[bit(number, 8) | bit(symbol, 4) | bit(shading, 2) | bit(color, 1)]
    }

    private static let texts: [String] = (0..<16).map { bits in
      func agreement(_ value: Int) -> String {
        (bits & value != 0 ? Agreement.same : .different).rawValue
      }
      return "number \(agreement(8)), symbol \(agreement(4)), shading \(agreement(2)), "
        + "color \(agreement(1))"
    }
  }

  public typealias Table = ChoiceTable<Rule>

  /// What a game's record says of its settings: refill, two players, the scoring and, for a
  /// race, how many raced.
  public struct Settings: RecordSettings {
    public var refill: Bool
    public var twoPlayer: Bool
    public var scoring: MatchScoring
    /// The players of a race; 1 for a game alone or at one shared table.
    public var playerCount: Int

    public init(refill: Bool, twoPlayer: Bool, scoring: MatchScoring, playerCount: Int = 1) {
      self.refill = refill
      self.twoPlayer = twoPlayer
      self.scoring = scoring
      self.playerCount = playerCount
    }

    public var game: String { SetGame.name }

    /// `refill off, twoPlayer off, matchBonus 4, mismatchPenalty 2, costToChoose 1`; a race
    /// adds `, players 3`.
    public var summary: String {
      "refill \(refill ? "on" : "off"), twoPlayer \(twoPlayer ? "on" : "off"), \(scoring.summary)"
        + (playerCount > 1 ? ", players \(playerCount)" : "")
    }

    /// Points: more is better; a race's players are ranked by their own scores, not by the
    /// table's total, so races compare none.
    public var scoreOrder: ScoreOrder { playerCount > 1 ? .none : .higherIsBetter }

    public init?(game: String, summary: String) {
      guard game == SetGame.name, let numbers = summaryNumbers(summary),
        let refill = numbers["refill"], let twoPlayer = numbers["twoPlayer"],
        let scoring = MatchScoring(summaryWords: numbers)
      else { return nil }
      self.init(
        refill: refill == 1, twoPlayer: twoPlayer == 1, scoring: scoring,
        playerCount: numbers["players"] ?? 1)
      guard self.summary == summary else { return nil }
    }
  }

  public struct State: Sendable, Equatable {
    public internal(set) var table: Table
    /// The undealt cards, next first.
    public internal(set) var deck: [SetCard]
    public internal(set) var scoring: MatchScoring
    public internal(set) var refill: Bool
    public internal(set) var twoPlayer: Bool
    /// `P1` and `P2`'s scores in two-player Set.
    public internal(set) var playerScores = [0, 0]
    /// Whose turn it is in two-player Set: 0 for `P1`, 1 for `P2`.
    public internal(set) var current = 0
    /// The points paid for +3 while a set was showing, this game.
    public internal(set) var charges = 0
    /// How many times +3 was dealt this game.
    public internal(set) var plusThrees = 0
    /// The seed that shuffled this game's deck.
    public internal(set) var seed: UInt64
    /// Draws the seeds of later deals (*Deal*): from a secret on a server, from the match's
    /// seed in the engine console.
    public internal(set) var later: LaterSeeds
    /// Whether the deck is empty and no set is left (kept current by every action).
    public internal(set) var over = false
    /// Whether the current game was dealt by *Deal* (the match's deal is not).
    public internal(set) var redealt = false
    /// The players of a race; empty for a game alone or at one shared table.
    public internal(set) var racers: [Racer] = []
    /// A race's judged selections, oldest first: its status line and history.
    public internal(set) var claims: [Claim] = []
    /// Every player left before the end: the game ended unfinished (until *Deal*).
    public internal(set) var deserted = false
    /// How quickly the computer racers find sets.
    public internal(set) var computerLevel = ComputerLevel.steady
    /// The computer racers' draws, continued from the deal's generator; never drawn without
    /// computer racers.
    public internal(set) var random = SplitMix64(seed: 0)

    /// Whether the computer plays a racer.
    public var hasComputers: Bool { racers.contains { $0.isComputer } }

    /// The player whose turn it is.
    public var currentPlayer: PlayerID { SetGame.players[current] }

    /// Whether this game is a race.
    public var isRace: Bool { !racers.isEmpty }

    /// The index of `id` in ``racers``.
    public func racer(_ id: PlayerID) -> Int? {
      racers.firstIndex { $0.id == id }
    }

    /// The current game's settings, as its record names them.
    public var settings: Settings {
      Settings(
        refill: refill, twoPlayer: twoPlayer, scoring: scoring, playerCount: max(1, racers.count))
    }

    /// Each player's score in two-player Set and in a race; empty otherwise.
    public var scores: [PlayerScore] {
      if isRace { return racers.map { PlayerScore(player: $0.id, score: $0.score) } }
      return twoPlayer
        ? zip(SetGame.players, playerScores).map { PlayerScore(player: $0, score: $1) } : []
    }
  }

  public enum Action: Sendable, Equatable {
    /// The player chooses the card at a table index.
    case choose(Int)
    /// The player chooses the card they saw as `face` at a table index: if the table has
    /// changed since, the card is found where it is now, and refused if it has been matched.
    case chooseCard(SetCard, at: Int)
    /// The player leaves: in a race they are out and their score stays; the last player
    /// leaving (alone, the one) ends the game unfinished.
    case leave
    /// The player asks for three more cards (+3).
    case dealThree
    /// The player deals a new game from a fresh deck.
    case deal
    /// The player asks for a hint: the first set is marked.
    case hint
  }

  public enum Event: Sendable, Equatable {
    case chosen(index: Int, card: SetCard)
    case unchosen(index: Int)
    case matched(cards: [Int], faces: [SetCard], points: Int, reason: Reason)
    case mismatched(cards: [Int], penalty: Int)
    /// Found cards left the table; the positions are those before the removal, ascending.
    case removed([Int])
    /// Replacement cards were dealt into the positions of found cards (`refill`).
    case refilled(cards: [Int], faces: [SetCard])
    /// +3 appended these positions; `charge` points were paid because a set was showing.
    case dealtThree(cards: [Int], faces: [SetCard], charge: Int)
    case turnPassed(to: PlayerID)
    case hinted([Int])
    /// A new game was dealt; `abandoned` is the record of an unfinished game it replaced.
    case dealt(seed: UInt64?, abandoned: GameRecord<Settings>?)
    case gameOver(GameRecord<Settings>)
    /// In a race, `player` chose a card and has `count` chosen; the card (`index`, `card`) is
    /// theirs and the referee's to see, nil when redacted.
    case selected(by: PlayerID, index: Int?, card: SetCard?, count: Int)
    /// In a race, `player` un-chose a card, or lost it to another player's set; `index` (the
    /// position before any removal) is nil when redacted.
    case deselected(by: PlayerID, index: Int?, count: Int)
    /// In a race, `player`'s three cards formed a set: `cards` in the move's order.
    case found(by: PlayerID, cards: [Int], faces: [SetCard], points: Int, reason: Reason)
    /// In a race, `player`'s three cards, in table order, were not a set.
    case missed(by: PlayerID, cards: [Int], penalty: Int)
    /// In a race, `player` asked for three more cards; `waiting` have not asked yet.
    case askedForThree(by: PlayerID, waiting: [PlayerID])
    /// `player` left.
    case left(PlayerID)
  }

  public enum RuleViolation: Refusal {
    case noSuchCard(Int)
    case gameOver
    case deckEmpty
    case notYourTurn(PlayerID)
    case invalidOptions(String)
    case invalidDeck(String)
    /// The card chosen by its face has been matched and has left the table.
    case cardAlreadyMatched(SetCard)
    case notAPlayer(PlayerID)
    case playerLeft(PlayerID)
    /// In a race, the player has asked for three more cards already.
    case alreadyAsked
    /// A race gives no hints.
    case notInARace
    /// In a race, *Deal* waits for the end of the game.
    case gameNotOver

    public var code: String {
      switch self {
      case .noSuchCard: "no-such-card"
      case .gameOver: "game-over"
      case .deckEmpty: "deck-empty"
      case .notYourTurn: "not-your-turn"
      case .invalidOptions: "invalid-options"
      case .invalidDeck: "invalid-deck"
      case .cardAlreadyMatched: "card-matched"
      case .notAPlayer: "not-a-player"
      case .playerLeft: "player-left"
      case .alreadyAsked: "already-asked"
      case .notInARace: "not-in-a-race"
      case .gameNotOver: "game-not-over"
      }
    }

    public var message: String {
      switch self {
      case .noSuchCard(let index): "There is no card \(index) on the table."
      case .gameOver: "No sets left: the game is over. Deal to play again."
      case .deckEmpty: "The deck is empty: there are no more cards to deal."
      case .notYourTurn(let player): "It is \(player)'s turn."
      case .invalidOptions(let reason): reason
      case .invalidDeck(let reason): reason
      case .cardAlreadyMatched(let card): "\(card) has already been matched."
      case .notAPlayer(let player): "\(player) is not playing at this table."
      case .playerLeft(let player): "\(player) has left the table."
      case .alreadyAsked: "You have asked for three more cards already."
      case .notInARace: "Hints are not given in a race."
      case .gameNotOver: "The race is still on: deal again when it is over."
      }
    }
  }
}
