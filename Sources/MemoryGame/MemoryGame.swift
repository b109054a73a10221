import CardTableCore

/// Memory (Swift by Example) and Concentration (the tilted UICollectionView sample): turn two
/// face-down cards at a time and find the pairs.
///
/// The two variants share the board and the two-card state machine; they differ in what
/// matches (RULES §3: same rank and suit; §4: same rank), in what happens to a found pair
/// (removed after 1.0 s, or left face up) and in how long a mismatch stays visible.
///
/// **In turns** (2–4 ``Options/players``): only the player on turn may flip; a match keeps the
/// turn; a mismatch hands it to the next player still in when the pair is turned down; each
/// player's score is the pairs they found, and the most pairs wins (no winner on a tie).
/// `leave` takes a player out of the turn order, their pairs still counted; if they were on
/// turn the turn passes at once (a single card they had turned stays up, the next player's
/// first), and the game goes on with the rest, even one. The last player leaving ends the game
/// unfinished (``State/deserted``), recorded as abandoned — the last person, when computer
/// players play too.
///
/// **Computer players** (``Options/computer``) take their turns on the match clock with the
/// same `flip` as people, deciding from their seat's view and a memory that keeps each card
/// they see face up with their ``ComputerLevel``'s probability (`MemoryGame+Computer.swift`).
public enum MemoryGame: GameRules {
  /// Which of the two originals is played.
  public enum Variant: String, CaseIterable, Sendable, Codable {
    case memory
    case concentration
  }

  /// Memory's three grids (columns × rows).
  public enum Difficulty: String, CaseIterable, Sendable, Codable {
    case easy, medium, hard

    public var columns: Int {
      switch self {
      case .easy: 4
      case .medium: 6
      case .hard: 8
      }
    }
    public var rows: Int { self == .easy ? 3 : 4 }
    public var pairs: Int { columns * rows / 2 }
    public var cardCount: Int { columns * rows }
  }

  public struct Options: Sendable, Equatable {
    public var variant: Variant
    /// Memory's grid; Concentration always lays out all 52 cards.
    public var difficulty: Difficulty
    /// Lays out exactly these cards, index 0 first, instead of shuffling.
    public var deck: [PlayingCard]?
    /// The players in turn order, 1 to 4: one plays alone (the original game, whatever the
    /// name); two or more take turns.
    public var players: [PlayerID]
    /// The players whose seats the computer plays; each must be among ``players``.
    public var computer: Set<PlayerID>
    /// How much the computer players remember.
    public var computerLevel: ComputerLevel

    public init(
      variant: Variant = .memory, difficulty: Difficulty = .easy, deck: [PlayingCard]? = nil,
      players: [PlayerID] = [.solo], computer: Set<PlayerID> = [],
      computerLevel: ComputerLevel = .good
    ) {
      self.variant = variant
      self.difficulty = difficulty
      self.deck = deck
      self.players = players
      self.computer = computer
      self.computerLevel = computerLevel
    }

    public static func memory(_ difficulty: Difficulty) -> Options {
      Options(variant: .memory, difficulty: difficulty)
    }

    public static let concentration = Options(variant: .concentration)
  }

  /// One position on the board.
  public struct Position: Sendable, Equatable {
    public internal(set) var card: PlayingCard
    public internal(set) var faceUp = false
    /// Memory: the pair was found and has left the board.
    public internal(set) var removed = false
    /// Concentration: the pair was found and stays face up.
    public internal(set) var matched = false

    public init(card: PlayingCard) { self.card = card }
  }

  /// One player of a game in turns.
  public struct Player: Sendable, Equatable {
    public internal(set) var id: PlayerID
    /// The pairs this player found: their score.
    public internal(set) var pairs = 0
    /// The player has left the turn order; their pairs still count.
    public internal(set) var hasLeft = false
    /// The computer plays this seat.
    public internal(set) var isComputer = false

    public init(id: PlayerID, isComputer: Bool = false) {
      self.id = id
      self.isComputer = isComputer
    }
  }

  /// What the follow-up timers resolve.
  public enum Resolution: Sendable, Equatable {
    case removeMatch
    case turnDownMismatch
    /// Concentration: the second after a match, when no card can be turned (RULES §7).
    case matchPause
  }

  /// What a game's record says of its settings: the variant, Memory's difficulty and, for a
  /// game in turns, how many played.
  public struct Settings: RecordSettings {
    public var variant: Variant
    public var difficulty: Difficulty
    /// How many players took turns; 1 for the game alone.
    public var playerCount: Int

    public init(variant: Variant, difficulty: Difficulty, playerCount: Int = 1) {
      self.variant = variant
      self.difficulty = difficulty
      self.playerCount = playerCount
    }

    public var game: String { variant.rawValue }

    /// `difficulty easy` for Memory, `52 cards` for Concentration; a game in turns adds
    /// `, players 2`.
    public var summary: String {
      (variant == .memory ? "difficulty \(difficulty.rawValue)" : "52 cards")
        + (playerCount > 1 ? ", players \(playerCount)" : "")
    }

    /// Memory alone counts mistakes (fewer is better); Concentration, and a game in turns
    /// (whose players are ranked by their pairs, not by the table's mistakes), compare none.
    public var scoreOrder: ScoreOrder {
      variant == .memory && playerCount == 1 ? .lowerIsBetter : .none
    }

    public init?(game: String, summary: String) {
      var parts = summary.split(separator: ", ", omittingEmptySubsequences: false)
      var count = 1
      if parts.count == 2, parts[1].hasPrefix("players "),
        let players = Int(parts[1].dropFirst("players ".count)), players > 1
      {
        count = players
        parts.removeLast()
      }
      guard parts.count == 1 else { return nil }
      switch (Variant(rawValue: game), parts[0]) {
      case (.concentration, "52 cards"):
        self.init(variant: .concentration, difficulty: .easy, playerCount: count)
      case (.memory, let text) where text.hasPrefix("difficulty "):
        guard let difficulty = Difficulty(rawValue: String(text.dropFirst("difficulty ".count)))
        else { return nil }
        self.init(variant: .memory, difficulty: difficulty, playerCount: count)
      default: return nil
      }
      guard self.summary == summary else { return nil }
    }
  }

  /// Names the timers: the pending resolution of two turned cards, and the next card a
  /// computer player turns.
  public enum TimerKey: Hashable, Sendable {
    case resolve
    case computer
  }

  public struct State: Sendable, Equatable {
    public internal(set) var variant: Variant
    public internal(set) var difficulty: Difficulty
    public internal(set) var columns: Int
    public internal(set) var rows: Int
    public internal(set) var board: [Position]
    /// Concentration's rotation of each card in degrees: 0, 10, 20 or 30. Empty for Memory.
    public internal(set) var tilt: [Int]
    /// Face-up cards that are not yet resolved, in the order they were turned (at most two).
    public internal(set) var turned = Hand<Int>()
    /// What the pending timer will do with a pair of turned cards.
    public internal(set) var resolving: Resolution?
    /// Memory: mistakes (lower is better). Concentration counts no score.
    public internal(set) var score = 0
    public internal(set) var pairsFound = 0
    /// One move per pair turned.
    public internal(set) var moves = 0
    /// Every card turned face up.
    public internal(set) var flips = 0
    /// The seed that dealt the board.
    public internal(set) var seed: UInt64 = 0
    /// The players in turn order; a game alone has one (``PlayerID/solo`` unless named).
    public internal(set) var players = [Player(id: .solo)]
    /// The index in ``players`` of the player on turn.
    public internal(set) var turn = 0
    /// The pending mismatch hands the turn on when it is turned down (false once the player
    /// who turned it has left, which handed the turn on already).
    public internal(set) var passesTurn = false
    /// Every player has left before the last pair was found: the game ended unfinished.
    public internal(set) var deserted = false
    /// How much the computer players remember.
    public internal(set) var computerLevel = ComputerLevel.good
    /// What each seat remembers of the face-down cards (board index → card), for the computer
    /// players only; empty when no computer plays.
    public internal(set) var memories: [[Int: PlayingCard]] = []
    /// The computer players' draws (what they remember, which unknown card they try, how long
    /// they think), continued from the deal's generator. Never drawn without computer players.
    public internal(set) var random = SplitMix64(seed: 0)

    /// Whether a computer plays a seat.
    @inlinable public var hasComputers: Bool { !memories.isEmpty }

    @inlinable public var pairCount: Int { board.count / 2 }

    /// Whether two or more players take turns.
    @inlinable public var inTurns: Bool { players.count > 1 }

    /// The player on turn.
    @inlinable public var playerOnTurn: PlayerID { players[turn].id }

    /// The index of `id` in ``players``.
    public func index(of id: PlayerID) -> Int? {
      players.firstIndex { $0.id == id }
    }

    /// The game's settings, as its record names them.
    public var settings: Settings {
      Settings(variant: variant, difficulty: difficulty, playerCount: players.count)
    }
  }

  public enum Action: Sendable, Equatable {
    /// The player taps the card at a board index.
    case flip(Int)
    /// A timer resolves the pair of turned cards.
    case resolve
    /// The player leaves the turn order (their pairs still count).
    case leave
  }

  public enum Event: Sendable, Equatable {
    /// The card at `index` was turned face up and shows `card`.
    case flipped(index: Int, card: PlayingCard)
    case matched(Int, Int)
    case mismatched(Int, Int)
    case removed(Int, Int)
    case turnedDown(Int, Int)
    /// Concentration: the second after a match is over; cards can be turned again.
    case ready
    /// Every pair is found: Memory's win, Concentration's cleared table.
    case finished(score: Int, moves: Int)
    /// In a game in turns, the turn went to this player.
    case turnPassed(to: PlayerID)
    /// The player left the turn order.
    case left(PlayerID)
  }

  public enum RuleViolation: Refusal {
    case noSuchCard(Int)
    case cardRemoved(Int)
    case cardMatched(Int)
    case cardAlreadyFaceUp(Int)
    case pairPending
    case gameOver
    case nothingToResolve
    case onlyTheTimerResolves
    case invalidDeck(String)
    case invalidOptions(String)
    /// In a game in turns, the player on turn is another.
    case notYourTurn(PlayerID)
    case notAPlayer(PlayerID)
    case playerLeft(PlayerID)

    public var code: String {
      switch self {
      case .noSuchCard: "no-such-card"
      case .cardRemoved: "card-removed"
      case .cardMatched: "card-matched"
      case .cardAlreadyFaceUp: "card-face-up"
      case .pairPending: "pair-pending"
      case .gameOver: "game-over"
      case .nothingToResolve: "nothing-to-resolve"
      case .onlyTheTimerResolves: "not-allowed"
      case .invalidDeck: "invalid-deck"
      case .invalidOptions: "invalid-options"
      case .notYourTurn: "not-your-turn"
      case .notAPlayer: "not-a-player"
      case .playerLeft: "player-left"
      }
    }

    public var message: String {
      switch self {
      case .noSuchCard(let index): "There is no card \(index) on the board."
      case .cardRemoved(let index): "Card \(index) has already been removed."
      case .cardMatched(let index): "Card \(index) is already matched."
      case .cardAlreadyFaceUp(let index): "Card \(index) is already face up."
      case .pairPending: "Wait until the two turned cards are resolved."
      case .gameOver: "The game is over."
      case .nothingToResolve: "No pair is waiting to be resolved."
      case .onlyTheTimerResolves: "Only the game's timer resolves a pair."
      case .invalidDeck(let reason): reason
      case .invalidOptions(let reason): reason
      case .notYourTurn(let player): "It is \(player)'s turn."
      case .notAPlayer(let player): "\(player) is not playing at this table."
      case .playerLeft(let player): "\(player) has left the table."
      }
    }
  }

  /// Seconds a found pair stays visible before Memory removes it.
  public static let removalDelay = 1.0
  /// Seconds a mismatched pair stays visible in Memory.
  public static let memoryMismatchDelay = 2.0
  /// Seconds a mismatched pair stays visible in Concentration ("about 1–2 s").
  public static let concentrationMismatchDelay = 1.5
  /// Seconds after a match in Concentration during which no card can be turned (RULES §7).
  public static let matchPause = 1.0
  /// The angles a Concentration card may be tilted by, in degrees.
  public static let tiltAngles = [0, 10, 20, 30]
}
