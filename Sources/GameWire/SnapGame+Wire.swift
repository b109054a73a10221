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
    /// NB: not memoized: a seat's counts change with almost every turn, so a memo of seats
    /// fills with texts no view shows again. Measured at 2,500 tables of four, memoized seats
    /// held about 100 MiB of the server's 233–266 MiB (144 MiB without), for no CPU that runs
    /// of 20 s could tell apart from their noise.
    public struct Seat: WireObject, Hashable, Sendable {
      public var name = PlayerID.solo
      public var seat = CardTableCore.Seat.bottom
      public var position = CardTableCore.Seat.bottom
      public var closed: [PlayingCard]?
      public var open: [PlayingCard]?
      public var closedCount = 0
      public var openCount = 0
      public var openTop: PlayingCard?
      public var gamesWon = 0
      /// `<n> Won`.
      public var won = ""
      public var computer = false
      public var host = false
      public var left = false

      public init() {}

      public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
        try m.member("name", \.name)
        try m.member("seat", \.seat)
        try m.member("position", \.position)
        try m.optional("closed", \.closed)
        try m.optional("open", \.open)
        try m.member("closedCount", \.closedCount)
        try m.member("openCount", \.openCount)
        try m.member("openTop", \.openTop)
        try m.member("gamesWon", \.gamesWon)
        try m.member("won", \.won)
        try m.member("computer", \.computer)
        try m.member("host", \.host)
        try m.member("left", \.left)
      }
    }

    /// The pause after a call: `{"caller":"Ray","result":"correct","moved":false}`; who
    /// matched is in the `snap` event and the view's `matching`.
    public struct Pause: WireObject, Equatable, Sendable {
      public var caller = PlayerID.solo
      /// `correct`, `tooLate` or `wrong`.
      public var result = ""
      public var moved = false

      public init() {}

      init(_ pause: SnapGame.Pause) {
        (caller, result, moved) = (pause.caller, pause.result.name, pause.moved)
      }

      public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
        try m.member("caller", \.caller)
        try m.member("result", \.result)
        try m.member("moved", \.moved)
      }
    }

    public var phase = Phase.dealing
    public var status = ""
    public var active: PlayerID?
    public var over = false
    public var round = 0
    public var starting = PlayerID.solo
    public var turned = false
    public var winner: PlayerID?
    public var host = PlayerID.solo
    public var viewer: PlayerID?
    public var endReason: EndReason?
    public var pause: Pause?
    public var canTurn = false
    public var canSnap = false
    public var canStartNextRound = false
    public var matching: [PlayerID]?
    public var players: [Seat] = []
    /// The computer players' speed, when it is not the original (RULES §5.5).
    public var computerSpeed: ComputerSpeed?

    public init() {}

    public static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
      try m.member("phase", \.phase)
      try m.member("status", \.status)
      try m.member("active", \.active)
      try m.member("over", \.over)
      try m.member("round", \.round)
      try m.member("starting", \.starting)
      try m.member("turned", \.turned)
      try m.member("winner", \.winner)
      try m.member("host", \.host)
      try m.optional("viewer", \.viewer)
      try m.optional("endReason", \.endReason)
      try m.member("pause", \.pause)
      try m.member("canTurn", \.canTurn)
      try m.member("canSnap", \.canSnap)
      try m.member("canStartNextRound", \.canStartNextRound)
      try m.optional("matching", \.matching)
      try m.shared("players", \.players, varying: "position", \.position)
      try m.optional("computerSpeed", \.computerSpeed)
    }

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
      pause = view.pause.map(Pause.init)
      canTurn = view.canTurn
      canSnap = view.canSnap
      canStartNextRound = view.canStartNextRound
      matching = view.matching
      players = view.players.map { player in
        var seat = Seat()
        (seat.name, seat.seat, seat.position) = (player.id, player.seat, player.position)
        (seat.closed, seat.open) = (player.closed, player.open)
        (seat.closedCount, seat.openCount) = (player.closedCount, player.openCount)
        (seat.openTop, seat.gamesWon) = (player.openTop, player.gamesWon)
        seat.won = RuleTexts.won(player.gamesWon)
        (seat.computer, seat.host, seat.left) = (player.isComputer, player.isHost, player.hasLeft)
        return seat
      }
      computerSpeed = view.computerSpeed == .original ? nil : view.computerSpeed
    }
  }
}

/// Snap!'s events on the wire (docs/ENGINE.md "snap"); a call is `snap`, the end `gameOver`.
extension SnapGame.Event: WireEncodable {
  public func write(to writer: inout WireWriter) {
    writer.object { event in
      switch self {
      case .dealt(let round, let starting):
        event.type("dealt")
        event.member("round", round)
        event.member("starting", starting)
      case .activated(let player):
        event.type("activated")
        event.member("player", player)
      case .recycled(let player, let count):
        event.type("recycled")
        event.member("player", player)
        event.member("count", count)
      case .turned(let player, let card):
        event.type("turned")
        event.member("player", player)
        event.member("card", card)
      case .snapCalled(let player, let result):
        event.type("snap")
        event.member("player", player)
        event.member("result", result.name)
        if case .correct(let matching) = result { event.member("matching", matching) }
      case .pileWon(let player, let from, let count, let cards):
        event.type("pileWon")
        event.member("player", player)
        event.member("from", from)
        event.member("count", count)
        event.optional("cards", cards)
      case .paid(let player, let transfer):
        event.type("paid")
        event.member("player", player)
        event.member("to", transfer.to)
        event.member("card", transfer.card)
      case .roundWon(let player, let gamesWon):
        event.type("roundWon")
        event.member("player", player)
        event.member("gamesWon", gamesWon)
      case .left(let player, let given):
        event.type("left")
        event.member("player", player)
        event.encodable("given", given)
      case .gameEnded(let reason):
        event.type("gameOver")
        event.member("reason", reason)
      }
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
      return line("** Winner: \(view.winner?.rawValue ?? "") **")
    case .gameOver:
      if view.endReason == .hostLeft { return "The host has left. Game over." }
      if let winner = view.winner { return line("** Winner: \(winner) **") }
      return "Game over."
    case .playing:
      if let pause = view.pause {
        switch (pause.result, pause.moved) {
        case (.correct, false): return "*** Match! ***"
        case (.correct, true):
          return isViewer(pause.caller)
            ? "You Receive Cards" : line("\(pause.caller) Receives Cards")
        case (_, false): return "No Match!"
        case (_, true): return line("\(pause.caller) Must Pay")
        }
      }
      guard let active = view.active else { return "" }
      return isViewer(active) ? "Your turn. Tap the stack." : line("\(active)'s turn")
    }
  }

  /// A seat's games-won label: `<n> Won`.
  public static func won(_ gamesWon: Int) -> String {
    wonLabels.indices.contains(gamesWon) ? wonLabels[gamesWon] : line("\(gamesWon) Won")
  }

  /// The labels of the first numbers of games won, made once: every seat of every view has one.
  private static let wonLabels = (0..<32).map { line("\($0) Won") }

  /// The statuses of the room before a game starts (RULES §5.4), for the host and for guests.
  public static func waiting(isHost: Bool) -> String {
    isHost ? "Waiting for other players..." : "Waiting for game to start..."
  }
}

extension SnapGame.Action: WireChoice {
  /// `{"type":"turn"}`, `snap`, `leave` or `nextRound`; the timers' `start`, `activateNext`
  /// and `resume` are written in a log, and are not a player's to send.
  public static func choices<Choices: WireChoices<Self>>(_ choices: inout Choices)
    throws(Choices.Failure)
  {
    try choices.choice("turn", .turn)
    try choices.choice("snap", .snap)
    try choices.choice("leave", .leave)
    try choices.choice("nextRound", .nextRound)
    try choices.choice("start", .start, read: false)
    try choices.choice("activateNext", .activateNext, read: false)
    try choices.choice("resume", .resume, read: false)
  }
}
