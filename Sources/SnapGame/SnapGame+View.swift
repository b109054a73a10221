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
    let seated: Player? =
      if case .player(let id) = viewer, let index = state.index(of: id) {
        state.players[index]
      } else {
        nil
      }
    let referee = viewer == .referee
    let origin = seated?.seat ?? .bottom
    let players = state.players.map { player in
      PlayerView(
        id: player.id, seat: player.seat, position: player.seat.relative(to: origin),
        closedCount: player.closed.count, openCount: player.open.count,
        openTop: player.open.last, closed: referee ? player.closed : nil,
        open: referee ? player.open : nil, gamesWon: player.gamesWon,
        isComputer: player.isComputer, isHost: player.id == state.host,
        hasLeft: player.hasLeft)
    }
    let playing = seated.map { !$0.hasLeft } ?? false
    let canTurn =
      playing && state.phase == .playing && state.pause == nil && !state.hasTurned
      && state.active == seated?.id
    let canSnap = playing && state.phase == .playing && (seated?.cardCount ?? 0) > 0
    let starting = state.players.first { $0.seat == state.startingSeat } ?? state.players[0]
    return View(
      viewer: seated?.id, phase: state.phase, round: state.round, starting: starting.id,
      active: state.active, turned: state.hasTurned, over: isOver(state), winner: state.winner,
      host: state.host, endReason: state.endReason, pause: state.pause, canTurn: canTurn,
      canSnap: canSnap,
      canStartNextRound: playing && seated?.id == state.host && state.phase == .roundOver,
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
