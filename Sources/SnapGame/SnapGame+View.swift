import CardTableCore

extension SnapGame {
  /// One seat as a viewer sees it.
  public struct PlayerView: Sendable, Equatable {
    public var id: PlayerID
    public var seat: Seat
    /// Where the seat shows on the viewer's screen: every player sees themselves at Bottom.
    public var position: Seat
    public var closedCount: Int
    public var openCount: Int
    /// The face-up card on top of the open pile.
    public var openTop: PlayingCard?
    /// The closed pile, bottom first: only the referee sees it.
    public var closed: [PlayingCard]?
    /// The whole open pile, bottom first: only the referee sees below its top.
    public var open: [PlayingCard]?
    public var gamesWon: Int
    public var isComputer: Bool
    public var isHost: Bool
    public var hasLeft: Bool
  }

  /// What a viewer may see: counts of every pile and the top of every open pile, never a
  /// face-down card or the order of a pile.
  public struct View: Sendable, Equatable {
    /// The seated player looking, or nil for the referee and onlookers.
    public var viewer: PlayerID?
    public var phase: Phase
    public var round: Int
    /// The player this round's deal started with (and who turns first).
    public var starting: PlayerID
    public var active: PlayerID?
    /// The active player has turned; the next player is activated 0.5 s later.
    public var turned: Bool
    public var over: Bool
    public var winner: PlayerID?
    public var host: PlayerID
    public var endReason: EndReason?
    /// The pause after a decided Snap! call, if any.
    public var pause: Pause?
    /// What the viewer may do now.
    public var canTurn: Bool
    public var canSnap: Bool
    public var canStartNextRound: Bool
    /// The players whose top cards match: the referee's only (players must spot it).
    public var matching: [PlayerID]?
    public var players: [PlayerView]
    /// How quickly the computer players turn and call.
    public var computerSpeed: ComputerSpeed
  }

  public static func view(of state: State, for viewer: Viewer) -> View {
    // NB: the players are read in place, field by field: a copy of a player (in `map`, in
    // `first(where:)`) retained and released its name and both its piles, some nine copies a
    // view.
    let seated: Int? = if case .player(let id) = viewer { state.index(of: id) } else { nil }
    let referee = viewer == .referee
    let origin = seated.map { state.players[$0].seat } ?? .bottom
    var players: [PlayerView] = []
    players.reserveCapacity(state.players.count)
    for index in state.players.indices {
      players.append(
        PlayerView(
          id: state.players[index].id, seat: state.players[index].seat,
          position: state.players[index].seat.relative(to: origin),
          closedCount: state.players[index].closed.count,
          openCount: state.players[index].open.count, openTop: state.players[index].open.last,
          closed: referee ? state.players[index].closed : nil,
          open: referee ? state.players[index].open : nil,
          gamesWon: state.players[index].gamesWon, isComputer: state.players[index].isComputer,
          isHost: state.players[index].id == state.host, hasLeft: state.players[index].hasLeft))
    }
    let seatedID = seated.map { state.players[$0].id }
    let playing = seated.map { !state.players[$0].hasLeft } ?? false
    let canTurn =
      playing && state.phase == .playing && state.pause == nil && !state.hasTurned
      && state.active == seatedID
    let canSnap =
      playing && state.phase == .playing && (seated.map { state.players[$0].cardCount } ?? 0) > 0
    let starting =
      state.players.indices.first { state.players[$0].seat == state.startingSeat } ?? 0
    return View(
      viewer: seatedID, phase: state.phase, round: state.round,
      starting: state.players[starting].id, active: state.active, turned: state.hasTurned,
      over: isOver(state), winner: state.winner, host: state.host, endReason: state.endReason,
      pause: state.pause, canTurn: canTurn, canSnap: canSnap,
      canStartNextRound: playing && seatedID == state.host && state.phase == .roundOver,
      matching: referee ? matchingPlayers(in: state) : nil, players: players,
      computerSpeed: state.computerSpeed)
  }

  /// `event` as `viewer` may see it: cards that go face down into a closed pile, or that lay
  /// under the top of an open pile, are named to the referee only.
  public static func redact(_ event: Event, for viewer: Viewer) -> Event? {
    guard viewer != .referee else { return event }
    switch event {
    case .pileWon(let by, let from, let count, _):
      return .pileWon(by: by, from: from, count: count, cards: nil)
    case .paid(let by, let transfer):
      return .paid(by: by, Transfer(to: transfer.to, card: nil))
    case .left(let id, let given):
      return .left(id, given: given.map { Transfer(to: $0.to, card: nil) })
    case .dealt, .activated, .recycled, .turned, .snapCalled, .roundWon, .gameEnded:
      return event
    }
  }
}
