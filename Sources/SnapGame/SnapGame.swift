import CardTableCore

/// Snap! (the multiplayer tutorial): 2–4 players turn cards onto their open piles and race to
/// call Snap! when two open piles show the same rank (RULES §5).
///
/// The engine is real-time but pure: every delay of the original — the 0.5 s activation of the
/// next player, the pauses while cards move, the dealing, the computer players' thinking — is a
/// ``Scheduled`` follow-up that the host runs on its clock, and every random draw of the computer
/// players comes from the ``SplitMix64`` kept in ``State``, so a seed replays a whole game.
///
/// Where RULES §5 is silent, this engine decides as follows:
/// - **Dealing** is one pause of 52 × 0.1 s (``dealingDuration``); the piles are filled at once
///   and nobody may turn or call until the starting player is activated. `deck` deals round 1
///   only; later rounds shuffle from the game's generator. Without a `deck` and a `starting`
///   player the seed first shuffles, then draws the starting player. Each later round starts
///   at the next occupied seat clockwise.
/// - **After a turn** the turner stays active (``State/hasTurned``) until the next player is
///   activated 0.5 s later, and the status stays, as the original's label did.
/// - **Recycling** happens at activation, without a pause. If it ends every match, the
///   computer players' pending calls are cancelled (they would call against what shows). Only
///   a turned card reopens the Snap! decision; a round opens with it open, so a call before
///   the first card is decided (wrong).
/// - **The pause** after a decided call has two 1 s steps: the verdict (`*** Match! ***` or
///   `No Match!`), then the cards move (`… Receives Cards` or `… Must Pay`). Turns wait
///   (`cards-moving`); a computer's pending turn is cancelled. Afterwards the player holding the
///   turn gets it back if they had not turned and still can; otherwise the next is activated.
/// - **Won piles** move card by card from the bottom of each open pile to the bottom of the
///   caller's closed pile (the tutorial's `giveAllOpenCardsToPlayer`): a pile's top card ends
///   lowest, and piles taken later go beneath earlier ones.
/// - **Paying**: the players to pay are fixed before the first card; a caller with no closed
///   card recycles whatever open cards they have, even one. Every viewer, the caller included,
///   reads `<name> Must Pay` (RULES §5.3 gives no "You" form).
/// - **The winner** is checked after a call's cards have moved, and after a leave, since a
///   leaver's cards can give one player all 52.
/// - **Leaving**: the closed pile from its top, then the open pile from its top, go one card at
///   a time clockwise from the next seat to the players who have cards (to everyone left if
///   none has, as when the round's winner leaves). The leaver keeps the seat, marked
///   ``Player/hasLeft``. When one player remains they win the round (they hold all 52) and the
///   game ends (``EndReason/tooFewPlayers``). The host leaving ends the game at once; the
///   status is `The host has left. Game over.`
/// - **Computer players** call on any match, theirs or not. The false call is one 1-in-51
///   draw per turned card with no match showing; when it hits, every computer player with
///   cards calls, each after its own delay. A computer host never starts a round by itself.
/// - `Waiting for other players...` and `Waiting for game to start...` belong to the room
///   before the deal, not to the engine.
public enum SnapGame: GameRules {
  /// The game's wire name.
  public static let name = "snap"

  /// How quickly the computer players turn their cards and call Snap!: each delay is
  /// ``baseDelay`` + r × ``delaySpread`` seconds, r uniform in [0, 1).
  ///
  /// `original` is RULES §5.5, 0.5 + r × 2.0 s, and the default. At it no computer calls
  /// before 0.5 s, so a script that calls 250 ms after every match wins every contested Snap!
  /// (the issue saw 16 of 17). Three computers race a player at once, so what counts is the
  /// quickest of three draws. The other speeds were chosen against that script at a table of
  /// three computer players (``SnapFairnessTests`` measures 60 seeded games of 400 turned cards;
  /// docs/ENGINE.md quotes the figures):
  /// - `relaxed`, 1.0 + r × 3.0 s: for beginners and children; nobody is beaten before 1 s.
  /// - `quick`, 0.15 + r × 1.0 s: a 250 ms reaction still wins about three snaps in four, one of
  ///   450 ms less than half: the computers keep up with a quick person.
  /// - `sharp`, 0.1 + r × 0.4 s: a 250 ms reaction wins about one in three, one of 450 ms almost
  ///   never: the computers are as quick as a very quick person, and a script no longer rules.
  ///
  /// Turning delays follow the same numbers, so the whole game's pace goes with the speed.
  public enum ComputerSpeed: String, CaseIterable, Sendable, Codable {
    case relaxed, original, quick, sharp

    /// The least delay, in seconds.
    public var baseDelay: Double {
      switch self {
      case .relaxed: 1.0
      case .original: SnapGame.computerBaseDelay
      case .quick: 0.15
      case .sharp: 0.1
      }
    }

    /// The spread added to ``baseDelay``: r × this, r uniform in [0, 1).
    public var delaySpread: Double {
      switch self {
      case .relaxed: 3.0
      case .original: SnapGame.computerDelaySpread
      case .quick: 1.0
      case .sharp: 0.4
      }
    }
  }

  /// Who plays, who is played by the computer, and how the first round is dealt.
  public struct Options: Sendable, Equatable {
    /// The players in the order they joined, host first (2–4); this is also clockwise seat
    /// order from Bottom (see ``seats(forPlayerCount:)``).
    public var players: [PlayerID]
    /// The players whose seats the computer plays.
    public var computer: Set<PlayerID>
    /// The first round's starting player; nil draws one from the seed.
    public var starting: PlayerID?
    /// The first round's 52 cards in dealing order, instead of a shuffle.
    public var deck: [PlayingCard]?
    /// How quickly the computer players turn and call.
    public var computerSpeed: ComputerSpeed

    public init(
      players: [PlayerID], computer: Set<PlayerID> = [], starting: PlayerID? = nil,
      deck: [PlayingCard]? = nil, computerSpeed: ComputerSpeed = .original
    ) {
      self.players = players
      self.computer = computer
      self.starting = starting
      self.deck = deck
      self.computerSpeed = computerSpeed
    }

    /// The single-player game: you (the host, Bottom) against Ray (Left), Lucy (Top) and
    /// Steve (Right), played by the computer (RULES §5.1).
    public static let singlePlayer = Options(
      players: ["You", "Ray", "Lucy", "Steve"], computer: ["Ray", "Lucy", "Steve"])
  }

  /// One player at the table with their two piles.
  public struct Player: Sendable, Equatable {
    public internal(set) var id: PlayerID
    public internal(set) var seat: Seat
    public internal(set) var isComputer: Bool
    /// The face-down pile, bottom first: the top card, the next one turned, is the last.
    public internal(set) var closed: [PlayingCard] = []
    /// The face-up pile, bottom first: the top card, the one showing, is the last.
    public internal(set) var open: [PlayingCard] = []
    public internal(set) var gamesWon = 0
    /// The player has left the table; their cards went to the others.
    public internal(set) var hasLeft = false

    public init(id: PlayerID, seat: Seat, isComputer: Bool) {
      self.id = id
      self.seat = seat
      self.isComputer = isComputer
    }

    /// Cards in both piles.
    public var cardCount: Int { closed.count + open.count }

    /// Whether the player can take a turn when activated: a closed card to turn, or more than
    /// one open card to recycle (RULES §5.2 skipping rule).
    public var canTakeTurn: Bool { !closed.isEmpty || open.count > 1 }
  }

  /// Where a round stands.
  public enum Phase: String, Sendable, Equatable, Codable {
    /// The cards are being dealt; nobody may turn or snap yet.
    case dealing
    case playing
    /// A player holds all 52 cards; the host may start the next round.
    case roundOver
    /// The host left, or fewer than two players remain: nothing more can happen.
    case gameOver
  }

  /// How a Snap! call was decided.
  public enum SnapResult: Sendable, Equatable {
    /// A match was showing: the caller wins the open piles of these players, clockwise from
    /// the caller.
    case correct(matching: [PlayerID])
    /// Another call was already decided since the last card was turned.
    case tooLate
    /// No match was showing: the caller must pay.
    case wrong
  }

  /// The pause while the cards of a decided Snap! call move (about 1 s per step).
  public struct Pause: Sendable, Equatable {
    public internal(set) var caller: PlayerID
    public internal(set) var result: SnapResult
    /// False during the first step (`*** Match! ***` / `No Match!`), true once the cards have
    /// moved (`<name> Receives Cards` / `<name> Must Pay`).
    public internal(set) var moved = false

    public init(caller: PlayerID, result: SnapResult) {
      self.caller = caller
      self.result = result
    }
  }

  /// Why the game ended for everyone.
  public enum EndReason: String, Sendable, Equatable, Codable {
    case hostLeft
    case tooFewPlayers
  }

  /// What a round's record says of its settings: the round and who played it.
  public struct Settings: RecordSettings {
    public var round: Int
    /// Everyone who sat down, in seat order from Bottom.
    public var players: [PlayerID]
    /// The players the computer played.
    public var computer: [PlayerID]
    /// How quickly the computer played.
    public var computerSpeed: ComputerSpeed

    public init(
      round: Int, players: [PlayerID], computer: [PlayerID],
      computerSpeed: ComputerSpeed = .original
    ) {
      self.round = round
      self.players = players
      self.computer = computer
      self.computerSpeed = computerSpeed
    }

    public var game: String { SnapGame.name }

    /// `round 1; players You, Ray, Lucy, Steve; computer Ray, Lucy, Steve`, and
    /// `; computerSpeed quick` when the computer did not play at the original speed.
    public var summary: String {
      let names = players.map(\.rawValue).joined(separator: ", ")
      let computers = computer.map(\.rawValue).joined(separator: ", ")
      return "round \(round); players \(names)"
        + (computer.isEmpty ? "" : "; computer \(computers)")
        + (computerSpeed == .original ? "" : "; computerSpeed \(computerSpeed.rawValue)")
    }

    /// The table without its round, `players You, Ray, Lucy, Steve; computer Ray, Lucy, Steve`:
    /// every round at that table is compared with the others.
    public var category: String {
      String(summary.drop { $0 != ";" }.dropFirst(2))
    }

    /// How many sat at the table, `players 3`, with the computer's speed when it played: a
    /// rating is the player's, not their table's.
    public var ratingMode: String {
      "players \(players.count)"
        + (computer.isEmpty || computerSpeed == .original
          ? "" : ", computerSpeed \(computerSpeed.rawValue)")
    }

    /// Rounds are won, not scored.
    public var scoreOrder: ScoreOrder { .none }

    public init?(game: String, summary: String) {
      // NB: names cannot be told apart from the separators when they contain "; " or ", ",
      // so a summary that does not read back exactly is refused.
      let parts = summary.split(separator: "; ", omittingEmptySubsequences: false)
      guard game == SnapGame.name, parts.count >= 2, parts[0].hasPrefix("round "),
        let round = Int(parts[0].dropFirst("round ".count)), parts[1].hasPrefix("players ")
      else { return nil }
      func names(_ part: Substring, after prefix: String) -> [PlayerID] {
        part.dropFirst(prefix.count).split(separator: ", ", omittingEmptySubsequences: false)
          .map { PlayerID(String($0)) }
      }
      var computer: [PlayerID] = []
      var speed = ComputerSpeed.original
      for part in parts.dropFirst(2) {
        if part.hasPrefix("computerSpeed ") {
          guard let named = ComputerSpeed(rawValue: String(part.dropFirst("computerSpeed ".count)))
          else { return nil }
          speed = named
        } else {
          computer = names(part, after: "computer ")
        }
      }
      self.init(
        round: round, players: names(parts[1], after: "players "), computer: computer,
        computerSpeed: speed)
      guard self.summary == summary else { return nil }
    }
  }

  /// Names the game's timers, so that outcomes can cancel them.
  public enum TimerKey: Hashable, Sendable {
    /// The dealing pause before the starting player is activated.
    case deal
    /// The 0.5 s activation of the next player.
    case activate
    /// The active computer player's pending turn.
    case turn
    /// A step of the pause after a decided Snap! call.
    case pause
    /// The pending Snap! call of the computer player at this index of ``State/players``.
    case snap(Int)
  }

  public struct State: Sendable, Equatable {
    /// Every player who sat down, in seat order from Bottom; players who left stay, marked.
    public internal(set) var players: [Player]
    public internal(set) var phase: Phase = .dealing
    /// Rounds dealt so far, 1 for the first.
    public internal(set) var round = 1
    /// The seat of this round's starting player.
    public internal(set) var startingSeat: Seat
    /// The seat whose turn it is, or was last during a pause.
    public internal(set) var turnSeat: Seat?
    /// The active player has turned their card; the next activation is pending.
    public internal(set) var hasTurned = false
    /// A Snap! call has been decided since the last turned card: later calls are too late.
    public internal(set) var snapDecided = false
    /// Cards are moving after a decided Snap! call; turns wait.
    public internal(set) var pause: Pause?
    /// The winner of the current round, once decided.
    public internal(set) var winner: PlayerID?
    public internal(set) var endReason: EndReason?
    /// The computer players' source of randomness in this round, seeded with the round's seed.
    public internal(set) var random: SplitMix64
    /// Draws the seeds of later rounds: from a secret on a server, from the match's seed in
    /// the engine console.
    public internal(set) var later: LaterSeeds
    /// The seed that shuffled this round's deck (the match's seed in round 1).
    public internal(set) var roundSeed: UInt64 = 0
    /// Cards turned this round.
    public internal(set) var turns = 0
    /// How quickly the computer players turn and call.
    public internal(set) var computerSpeed = ComputerSpeed.original

    /// The host: the first player to sit down, at Bottom.
    public var host: PlayerID { players[0].id }

    /// The player holding the turn, if any.
    public var active: PlayerID? {
      guard phase == .playing, let turnSeat, let index = index(at: turnSeat) else { return nil }
      return players[index].id
    }

    /// Players still at the table, in seat order.
    public var present: [Player] { players.filter { !$0.hasLeft } }

    /// The player still at the table in `seat`.
    public func player(at seat: Seat) -> Player? {
      index(at: seat).map { players[$0] }
    }

    // NB: the lookups below loop over indices rather than call `firstIndex(where:)`, which
    // copies each player (and retains their piles) to hand it to the closure.

    /// The index in ``players`` of the player still at the table in `seat`.
    public func index(at seat: Seat) -> Int? {
      for index in players.indices where players[index].seat == seat && !players[index].hasLeft {
        return index
      }
      return nil
    }

    /// The index of `id` in ``players``, whether present or not.
    public func index(of id: PlayerID) -> Int? {
      for index in players.indices where players[index].id == id { return index }
      return nil
    }
  }

  public enum Action: Sendable, Equatable {
    /// The active player taps their closed pile to turn its top card.
    case turn
    /// A player calls Snap!.
    case snap
    /// A player leaves the table (or drops after the room's grace period).
    case leave
    /// The host starts the next round after a round is over.
    case nextRound
    /// Timer: the dealing has finished; the starting player is activated.
    case start
    /// Timer: 0.5 s after a turn, the next player clockwise is activated.
    case activateNext
    /// Timer: the next step of a pause after a decided Snap! call.
    case resume
  }

  /// A card given to another player's closed pile; `card` is nil when redacted.
  public struct Transfer: Sendable, Equatable {
    public var to: PlayerID
    public var card: PlayingCard?

    public init(to: PlayerID, card: PlayingCard?) {
      self.to = to
      self.card = card
    }
  }

  public enum Event: Sendable, Equatable {
    /// A round was dealt: 52 cards onto the closed piles, clockwise from `starting`.
    case dealt(round: Int, starting: PlayerID)
    /// The player may turn their card now.
    case activated(PlayerID)
    /// The player's open pile was turned over to become their closed pile.
    case recycled(PlayerID, count: Int)
    /// The player turned `card` onto their open pile.
    case turned(PlayerID, card: PlayingCard)
    case snapCalled(by: PlayerID, result: SnapResult)
    /// The caller won `from`'s open pile onto the bottom of their closed pile, in the order
    /// moved; `cards` is nil when redacted (only the top card of an open pile shows).
    case pileWon(by: PlayerID, from: PlayerID, count: Int, cards: [PlayingCard]?)
    /// A wrong caller paid a closed card to the bottom of `to`'s closed pile.
    case paid(by: PlayerID, Transfer)
    case roundWon(PlayerID, gamesWon: Int)
    /// The player left; their cards went round-robin to these closed piles.
    case left(PlayerID, given: [Transfer])
    case gameEnded(EndReason)
  }

  public enum RuleViolation: Refusal {
    case invalidOptions(String)
    case invalidDeck(String)
    case notAPlayer(PlayerID)
    case playerLeft(PlayerID)
    case notPlaying
    case cardsMoving
    case notYourTurn
    case alreadyTurned
    case noCardsToTurn
    case noCards
    case notHost
    case roundNotOver
    case gameOver
    case onlyTheTimer
    case nothingPending

    public var code: String {
      switch self {
      case .invalidOptions: "invalid-options"
      case .invalidDeck: "invalid-deck"
      case .notAPlayer: "not-a-player"
      case .playerLeft: "player-left"
      case .notPlaying: "not-playing"
      case .cardsMoving: "cards-moving"
      case .notYourTurn: "not-your-turn"
      case .alreadyTurned: "already-turned"
      case .noCardsToTurn: "no-cards-to-turn"
      case .noCards: "no-cards"
      case .notHost: "not-host"
      case .roundNotOver: "round-not-over"
      case .gameOver: "game-over"
      case .onlyTheTimer: "not-allowed"
      case .nothingPending: "nothing-pending"
      }
    }

    public var message: String {
      switch self {
      case .invalidOptions(let reason): reason
      case .invalidDeck(let reason): reason
      case .notAPlayer(let id): "\(id) is not playing at this table."
      case .playerLeft(let id): "\(id) has left the table."
      case .notPlaying: "The cards are not in play."
      case .cardsMoving: "Wait until the cards have moved."
      case .notYourTurn: "It is not your turn."
      case .alreadyTurned: "You have already turned your card."
      case .noCardsToTurn: "You have no closed card to turn."
      case .noCards: "Only a player with cards may call Snap!."
      case .notHost: "Only the host starts the next round."
      case .roundNotOver: "The round is not over yet."
      case .gameOver: "The game is over."
      case .onlyTheTimer: "Only the game's timer does that."
      case .nothingPending: "Nothing is waiting for the timer."
      }
    }
  }

  /// Seconds between a turn and the activation of the next player.
  public static let activationDelay = 0.5
  /// Seconds per step of the pause after a decided Snap! call (two steps: the verdict, then the
  /// cards moving).
  public static let pauseStep = 1.0
  /// Seconds per card dealt; a round's dealing pause is 52 × this.
  public static let dealInterval = 0.1
  /// The least delay of a computer player's turn or Snap! call.
  public static let computerBaseDelay = 0.5
  /// The spread added to ``computerBaseDelay``: r × this, r uniform in [0, 1).
  public static let computerDelaySpread = 2.0
  /// A computer player calls a false Snap! with chance 1 in this many when no match shows.
  public static let falseSnapOdds = 51
  /// The number of cards in play, all of which the round's winner holds.
  public static let deckSize = 52
}
