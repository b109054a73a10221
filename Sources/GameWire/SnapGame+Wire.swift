import CardTableCore
import SnapGame

extension SnapGame: WireGame {
  public static let wireNames = ["snap"]

  /// Reads `players` (names, host first), `computer` (names) and `starting` (a name); with no
  /// options at all, the single-player game against Ray, Lucy and Steve.
  public static func options(named game: String, from options: JSON?, deck: [String]?)
    throws(WireError) -> Options
  {
    var result = Options.singlePlayer
    if let options, options != .null {
      try options.rejectUnknownKeys(["players", "computer", "starting"], in: "snap options")
      if let players = try names("players", in: options) {
        result.players = players
        result.computer = []
      }
      if let computer = try names("computer", in: options) { result.computer = Set(computer) }
      if let member = options["starting"], member != .null {
        guard let name = member.stringValue else {
          throw .badRequest(
            "snap options: \"starting\" must be a player's name, not \(member.text).")
        }
        result.starting = PlayerID(name)
      }
    }
    if let deck { result.deck = try cards(deck) { PlayingCard($0) } }
    return result
  }

  private static func names(_ key: String, in options: JSON) throws(WireError) -> [PlayerID]? {
    guard let member = options[key], member != .null else { return nil }
    guard let list = member.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
      throw .badRequest("snap options: \"\(key)\" must be an array of names, not \(member.text).")
    }
    return list.compactMap(\.stringValue).map { PlayerID($0) }
  }

  /// Reads `{"type":"turn"|"snap"|"leave"|"nextRound","player":"Lucy"}`; `player` defaults
  /// to `You`.
  public static func action(from json: JSON) throws(WireError) -> (action: Action, player: PlayerID)
  {
    let type = try json.requiredString("type", in: "An action")
    let player = try json.actionPlayer()
    switch type {
    case "turn": return (.turn, player)
    case "snap": return (.snap, player)
    case "leave": return (.leave, player)
    case "nextRound": return (.nextRound, player)
    default:
      throw .badRequest(
        "Unknown action type \"\(type)\"; Snap! knows \"turn\", \"snap\", \"leave\" and \"nextRound\"."
      )
    }
  }

  public static func wireName(of state: State) -> String { "snap" }

  public static func encode(state: State) -> JSON {
    encode(view: view(of: state, for: .referee))
  }

  public static func encode(view: View) -> JSON {
    var members: [(String, JSON)] = [
      ("phase", .string(view.phase.rawValue)), ("status", .string(view.status)),
      ("active", view.active.map { .string($0.rawValue) } ?? .null), ("over", .bool(view.over)),
      ("round", JSON(view.round)), ("starting", .string(view.starting.rawValue)),
      ("turned", .bool(view.turned)),
      ("winner", view.winner.map { .string($0.rawValue) } ?? .null),
      ("host", .string(view.host.rawValue)),
    ]
    if let viewer = view.viewer { members.append(("viewer", .string(viewer.rawValue))) }
    if let reason = view.endReason { members.append(("endReason", .string(reason.rawValue))) }
    members.append(("pause", view.pause.map(encode(pause:)) ?? .null))
    members += [
      ("canTurn", .bool(view.canTurn)), ("canSnap", .bool(view.canSnap)),
      ("canStartNextRound", .bool(view.canStartNextRound)),
    ]
    if let matching = view.matching { members.append(("matching", names(matching))) }
    members.append(("players", .array(view.players.map(encode(player:)))))
    return .object(members)
  }

  private static func encode(player: PlayerView) -> JSON {
    var members: [(String, JSON)] = [
      ("name", .string(player.id.rawValue)), ("seat", .string(player.seat.description)),
      ("position", .string(player.position.description)),
    ]
    if let closed = player.closed { members.append(("closed", .array(closed.map(\.json)))) }
    if let open = player.open { members.append(("open", .array(open.map(\.json)))) }
    members += [
      ("closedCount", JSON(player.closedCount)), ("openCount", JSON(player.openCount)),
      ("openTop", player.openTop?.json ?? .null), ("gamesWon", JSON(player.gamesWon)),
      ("won", .string(player.wonLabel)), ("computer", .bool(player.isComputer)),
      ("host", .bool(player.isHost)), ("left", .bool(player.hasLeft)),
    ]
    return .object(members)
  }

  private static func encode(pause: Pause) -> JSON {
    [
      "caller": .string(pause.caller.rawValue), "result": result(pause.result),
      "moved": .bool(pause.moved),
    ]
  }

  private static func result(_ result: SnapResult) -> JSON {
    switch result {
    case .correct: "correct"
    case .tooLate: "tooLate"
    case .wrong: "wrong"
    }
  }

  private static func names(_ ids: [PlayerID]) -> JSON { JSON(ids.map(\.rawValue)) }

  private static func encode(transfer: Transfer) -> JSON {
    ["to": .string(transfer.to.rawValue), "card": transfer.card?.json ?? .null]
  }

  public static func encode(event: Event) -> JSON {
    switch event {
    case .dealt(let round, let starting):
      return ["type": "dealt", "round": JSON(round), "starting": .string(starting.rawValue)]
    case .activated(let id):
      return ["type": "activated", "player": .string(id.rawValue)]
    case .recycled(let id, let count):
      return ["type": "recycled", "player": .string(id.rawValue), "count": JSON(count)]
    case .turned(let id, let card):
      return ["type": "turned", "player": .string(id.rawValue), "card": card.json]
    case .snapCalled(let id, let outcome):
      var members: [(String, JSON)] = [
        ("type", "snap"), ("player", .string(id.rawValue)), ("result", result(outcome)),
      ]
      if case .correct(let matching) = outcome { members.append(("matching", names(matching))) }
      return .object(members)
    case .pileWon(let by, let from, let count, let cards):
      var members: [(String, JSON)] = [
        ("type", "pileWon"), ("player", .string(by.rawValue)), ("from", .string(from.rawValue)),
        ("count", JSON(count)),
      ]
      if let cards { members.append(("cards", .array(cards.map(\.json)))) }
      return .object(members)
    case .paid(let by, let transfer):
      return [
        "type": "paid", "player": .string(by.rawValue), "to": .string(transfer.to.rawValue),
        "card": transfer.card?.json ?? .null,
      ]
    case .roundWon(let id, let gamesWon):
      return ["type": "roundWon", "player": .string(id.rawValue), "gamesWon": JSON(gamesWon)]
    case .left(let id, let given):
      return [
        "type": "left", "player": .string(id.rawValue),
        "given": .array(given.map(encode(transfer:))),
      ]
    case .gameEnded(let reason):
      return ["type": "gameOver", "reason": .string(reason.rawValue)]
    }
  }
}
