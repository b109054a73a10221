import CardTableCore
import SnapGame

extension SnapGame: WireGame {
  public static let actionsTitle = "Snap!"
  /// `{"type":"turn","player":"Lucy"}`; `player` defaults to `You`.
  public static let actionsNamePlayer = true
  /// Two to four at the table, computer players included.
  public static let seatRange = 2...4
  /// Computer players fill the empty seats.
  public static let takesComputerPlayers = true

  /// `players` (the seated players in joining order, host first, then the computer players)
  /// and `computer` put in; `starting` and `computerSpeed` kept.
  public static func options(_ options: JSON, seating players: [PlayerID], computers: [PlayerID])
    throws(WireError) -> JSON
  {
    try checkedSeating(options, players: players, computers: computers)
      .setting("players", to: JSON((players + computers).map(\.rawValue)))
      .setting("computer", to: JSON(computers.map(\.rawValue)))
  }

  public static func options(_ options: Options, deck: [String]) throws(WireError) -> Options {
    var options = options
    options.deck = try cards(deck) { PlayingCard($0) }
    return options
  }

  /// Three seconds to get ready: Snap! is played against the clock.
  public static let resumeCountdown = 3.0

  /// Every Snap! call is decided (correct, too late or wrong); a turned card is what calls are
  /// about.
  public static func tableNotes(of event: Event, into notes: inout [TableNote]) {
    switch event {
    case .snapCalled(let player, let result):
      let receipt =
        switch result {
        case .correct:
          CallReceipt(
            "correct", "the first call after the card was turned, and a match was showing")
        case .tooLate: CallReceipt("tooLate", "another call was decided first after that card")
        case .wrong: CallReceipt("wrong", "no match was showing")
        }
      notes.append(.call(by: player, receipt))
    case .turned:
      notes.append(.changed)
    default:
      break
    }
  }

  /// A round over is followed by the next; only the end of the game ends the match.
  public static func isFinished(_ state: State) -> Bool { state.phase == .gameOver }

  public static func scoreOrder(of game: String) -> ScoreOrder {
    .none
  }

  public static func deck(of options: Options) -> [String]? {
    options.deck?.map(\.description)
  }

  /// Snap!'s view on the wire (docs/ENGINE.md "snap"): `viewer`, `endReason`, `matching` and
  /// `computerSpeed` only when they apply; each seat's `closed` and `open` piles for the referee only.
  public struct WireView: WireViewType {
    /// One seat.
    ///
    /// NB: memoized: most seats are the same from one version to the next (a turn moves one
    /// seat's cards), so their text is copied rather than encoded again for every viewer.
    public struct Seat: Codable, Hashable, Sendable, MemoizedEncoding {
      public var name: PlayerID
      public var seat: CardTableCore.Seat
      public var position: CardTableCore.Seat
      public var closed: [PlayingCard]?
      public var open: [PlayingCard]?
      public var closedCount: Int
      public var openCount: Int
      public var openTop: PlayingCard?
      public var gamesWon: Int
      /// `<n> Won`.
      public var won: String
      public var computer: Bool
      public var host: Bool
      public var left: Bool

      enum CodingKeys: String, CodingKey {
        case name, seat, position, closed, open, closedCount, openCount, openTop, gamesWon, won
        case computer, host, left
      }

      public func encode(to encoder: any Encoder) throws {
        try encodeMemoized(to: encoder)
      }

      func encodeFields(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(seat.description, forKey: .seat)
        try container.encode(position.description, forKey: .position)
        try container.encodeIfPresent(closed, forKey: .closed)
        try container.encodeIfPresent(open, forKey: .open)
        try container.encode(closedCount, forKey: .closedCount)
        try container.encode(openCount, forKey: .openCount)
        try container.encodeCard(openTop, forKey: .openTop)
        try container.encode(gamesWon, forKey: .gamesWon)
        try container.encode(won, forKey: .won)
        try container.encode(computer, forKey: .computer)
        try container.encode(host, forKey: .host)
        try container.encode(left, forKey: .left)
      }
    }

    public var phase: Phase
    public var status: String
    @Nullable public var active: PlayerID?
    public var over: Bool
    public var round: Int
    public var starting: PlayerID
    public var turned: Bool
    @Nullable public var winner: PlayerID?
    public var host: PlayerID
    public var viewer: PlayerID?
    public var endReason: EndReason?
    @Nullable public var pause: Pause?
    public var canTurn: Bool
    public var canSnap: Bool
    public var canStartNextRound: Bool
    public var matching: [PlayerID]?
    public var players: [Seat]
    /// The computer players' speed, when it is not the original (RULES §5.5).
    public var computerSpeed: ComputerSpeed?

    public init(_ view: View, cache: inout NoCache) {
      phase = view.phase
      status = RuleTexts.status(view)
      active = view.active
      over = view.over
      round = view.round
      starting = view.starting
      turned = view.turned
      winner = view.winner
      host = view.host
      viewer = view.viewer
      endReason = view.endReason
      pause = view.pause
      canTurn = view.canTurn
      canSnap = view.canSnap
      canStartNextRound = view.canStartNextRound
      matching = view.matching
      players = view.players.map { player in
        Seat(
          name: player.id, seat: player.seat, position: player.position, closed: player.closed,
          open: player.open, closedCount: player.closedCount, openCount: player.openCount,
          openTop: player.openTop, gamesWon: player.gamesWon, won: RuleTexts.won(player.gamesWon),
          computer: player.isComputer, host: player.isHost, left: player.hasLeft)
      }
      computerSpeed = view.computerSpeed == .original ? nil : view.computerSpeed
    }
  }
}

// Snap!'s words in RuleTexts (the rule book's texts, beside the game's wire form).
extension RuleTexts {
  // MARK: Snap! (RULES §5, §7)

  /// The status line of a Snap! table as `view`'s viewer reads it: `You` where it is about them.
  public static func status(_ view: SnapGame.View) -> String {
    func isViewer(_ id: PlayerID) -> Bool { view.viewer == id }
    switch view.phase {
    case .dealing:
      return "Dealing..."
    case .roundOver:
      return "** Winner: \(view.winner?.rawValue ?? "") **"
    case .gameOver:
      if view.endReason == .hostLeft { return "The host has left. Game over." }
      if let winner = view.winner { return "** Winner: \(winner) **" }
      return "Game over."
    case .playing:
      if let pause = view.pause {
        switch (pause.result, pause.moved) {
        case (.correct, false): return "*** Match! ***"
        case (.correct, true):
          return isViewer(pause.caller) ? "You Receive Cards" : "\(pause.caller) Receives Cards"
        case (_, false): return "No Match!"
        case (_, true): return "\(pause.caller) Must Pay"
        }
      }
      guard let active = view.active else { return "" }
      return isViewer(active) ? "Your turn. Tap the stack." : "\(active)'s turn"
    }
  }

  /// A seat's games-won label: `<n> Won`.
  public static func won(_ gamesWon: Int) -> String { "\(gamesWon) Won" }

  /// The statuses of the room before a game starts (RULES §5.4), for the host and for guests.
  public static func waiting(isHost: Bool) -> String {
    isHost ? "Waiting for other players..." : "Waiting for game to start..."
  }
}
