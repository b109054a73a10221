import CardTableCore
import MatchingGame
import SetGame

extension SetGame: WireGame {
  public static let wireNames = ["set"]

  public static func options(named game: String, from options: JSON?, deck: [String]?)
    throws(WireError) -> Options
  {
    var result = Options()
    if let options, options != .null {
      let context = "\(game) options"
      try options.rejectUnknownKeys(
        ["mode", "matchBonus", "mismatchPenalty", "costToChoose", "refill", "twoPlayer"],
        in: context)
      // NB: Set is always played with three cards; `mode` is accepted only as 3.
      _ = try options.optionalInt("mode", in: mode...mode, default: mode, context: context)
      result.scoring = try ChoiceWire.scoring(from: options, context: context)
      result.refill = try options.optionalBool("refill", default: false, context: context)
      result.twoPlayer = try options.optionalBool("twoPlayer", default: false, context: context)
    }
    if let deck { result.deck = try cards(deck) { SetCard($0) } }
    return result
  }

  public static func action(from json: JSON) throws(WireError) -> (action: Action, player: PlayerID)
  {
    let type = try json.requiredString("type", in: "An action")
    // NB: in two-player Set an action may name its player, `P1` or `P2`; without one it is
    // the move of whoever's turn it is (one shared screen).
    let player = try json.actionPlayer()
    switch type {
    case "choose": return (.choose(try ChoiceWire.choice(json)), player)
    case "dealThree": return (.dealThree, player)
    case "deal": return (.deal, player)
    case "hint": return (.hint, player)
    case "setMode":
      throw WireError(code: "mode-fixed", message: "Set is always played with 3 cards.")
    default:
      throw .badRequest(
        "Unknown action type \"\(type)\"; Set knows \"choose\", \"dealThree\", \"deal\" and "
          + "\"hint\".")
    }
  }

  public static func wireName(of state: State) -> String { name }

  public static func encode(state: State) -> JSON {
    encode(view: view(of: state, for: .referee))
  }

  public static func encode(view: View) -> JSON {
    var members = ChoiceWire.common(
      score: view.score, status: view.status, flips: view.flips, history: view.history,
      mode: mode, deckCount: view.deckCount, over: view.over)
    members.append(("table", ChoiceWire.table(view.table)))
    members += ChoiceWire.found(view.found, reason: reason)
    members += [
      ("hint", .array(view.hint.map { JSON($0) })),
      (
        "settings",
        .object(
          ChoiceWire.scoring(view.scoring) + [
            ("refill", .bool(view.refill)), ("twoPlayer", .bool(view.twoPlayer)),
          ])
      ),
      ("gameSeed", view.seed.map { JSON($0) } ?? .null),
    ]
    if let current = view.current {
      members += [("players", playersJSON(view.players)), ("current", .string(current.rawValue))]
    }
    return .object(members)
  }

  /// `{"text":"number same, …","number":"same","symbol":"different",…}`.
  static func reason(_ reason: Reason) -> JSON {
    [
      "text": .string(reason.text), "number": .string(reason.number.rawValue),
      "symbol": .string(reason.symbol.rawValue), "shading": .string(reason.shading.rawValue),
      "color": .string(reason.color.rawValue),
    ]
  }

  private static func indices(_ cards: [Int]) -> JSON { .array(cards.map { JSON($0) }) }

  public static func encode(event: Event) -> JSON {
    switch event {
    case .chosen(let index, let card):
      ["type": "chosen", "card": JSON(index), "face": card.json]
    case .unchosen(let index): ["type": "unchosen", "card": JSON(index)]
    case .matched(let cards, let faces, let points, let why):
      [
        "type": "matched", "cards": indices(cards), "faces": JSON(faces.map(\.description)),
        "points": JSON(points), "reason": reason(why),
      ]
    case .mismatched(let cards, let penalty):
      ["type": "mismatched", "cards": indices(cards), "penalty": JSON(penalty)]
    case .removed(let cards): ["type": "removed", "cards": indices(cards)]
    case .refilled(let cards, let faces):
      ["type": "refilled", "cards": indices(cards), "faces": JSON(faces.map(\.description))]
    case .dealtThree(let cards, let faces, let charge):
      [
        "type": "dealtThree", "cards": indices(cards), "faces": JSON(faces.map(\.description)),
        "charge": JSON(charge),
      ]
    case .turnPassed(let player): ["type": "turnPassed", "to": .string(player.rawValue)]
    case .hinted(let cards): ["type": "hinted", "cards": indices(cards)]
    case .dealt(let seed, let abandoned):
      [
        "type": "dealt", "seed": seed.map { JSON($0) } ?? .null,
        "abandoned": abandoned?.json ?? .null,
      ]
    case .gameOver(let record): ["type": "gameOver", "result": record.json]
    }
  }

  /// The current deal; after a *Deal* the given deck, if any, is spent.
  public static func restartPoint(of match: Match<Self>) -> (options: Options, seed: UInt64) {
    var options = match.options
    if match.state.ledger.dealtBy != nil { options.deck = nil }
    return (options, match.state.seed)
  }

  /// `{"cmd":"hint"}`: marks the first set and replies `{"ok":true,"cards":[i,j,k]}`, or `[]`.
  public static let commandNames = ["hint"]

  public static func command(_ name: String, _ request: JSON, in match: inout Match<Self>)
    throws(WireError) -> JSON?
  {
    try hintCommand(name, in: &match, hint: .hint) { $0.table.hintedIndices }
  }
}
