import CardTableCore
import MatchingGame

extension MatchingGame: WireGame {
  public static let wireNames = ["matchismo"]

  public static func options(named game: String, from options: JSON?, deck: [String]?)
    throws(WireError) -> Options
  {
    var result = Options()
    if let options, options != .null {
      let context = "\(game) options"
      try options.rejectUnknownKeys(
        ["cards", "mode", "matchBonus", "mismatchPenalty", "costToChoose"], in: context)
      result.cards = try options.optionalInt(
        "cards", in: cardRange, default: defaultCards, context: context)
      result.mode = try options.optionalInt("mode", in: modes, default: 2, context: context)
      result.scoring = try ChoiceWire.scoring(from: options, context: context)
    }
    if let deck { result.deck = try cards(deck) { PlayingCard($0) } }
    return result
  }

  public static func action(from json: JSON) throws(WireError) -> (action: Action, player: PlayerID)
  {
    let type = try json.requiredString("type", in: "An action")
    switch type {
    case "choose": return (.choose(try ChoiceWire.choice(json)), .solo)
    case "deal": return (.deal, .solo)
    case "setMode": return (.setMode(try json.requiredInt("mode", in: "A setMode action")), .solo)
    case "hint": return (.hint, .solo)
    default:
      throw .badRequest(
        "Unknown action type \"\(type)\"; Matchismo knows \"choose\", \"deal\", \"setMode\" and "
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
      mode: view.mode, deckCount: view.deckCount, over: view.over)
    members += [("modeLocked", .bool(view.modeLocked)), ("table", ChoiceWire.table(view.table))]
    members += ChoiceWire.found(view.found, reason: reason)
    members += [
      ("hint", .array(view.hint.map { JSON($0) })),
      ("settings", .object([("cards", JSON(view.cards))] + ChoiceWire.scoring(view.scoring))),
      ("gameSeed", view.seed.map { JSON($0) } ?? .null),
    ]
    return .object(members)
  }

  /// `{"text":"A♥ A♠ same rank","pairs":[{"cards":["A♥","A♠"],"same":"rank"}]}`.
  static func reason(_ reason: Reason) -> JSON {
    [
      "text": .string(reason.text),
      "pairs": .array(
        reason.pairs.map { pair in
          [
            "cards": JSON([pair.first.description, pair.second.description]),
            "same": .string(pair.kind.rawValue),
          ]
        }),
    ]
  }

  public static func encode(event: Event) -> JSON {
    switch event {
    case .chosen(let index, let card):
      ["type": "chosen", "card": JSON(index), "face": card.json]
    case .unchosen(let index): ["type": "unchosen", "card": JSON(index)]
    case .matched(let cards, let points, let why):
      [
        "type": "matched", "cards": .array(cards.map { JSON($0) }), "points": JSON(points),
        "reason": reason(why),
      ]
    case .mismatched(let cards, let penalty):
      ["type": "mismatched", "cards": .array(cards.map { JSON($0) }), "penalty": JSON(penalty)]
    case .modeSet(let mode): ["type": "modeSet", "mode": JSON(mode)]
    case .hinted(let cards): ["type": "hinted", "cards": .array(cards.map { JSON($0) })]
    case .dealt(let seed, let abandoned):
      [
        "type": "dealt", "seed": seed.map { JSON($0) } ?? .null,
        "abandoned": abandoned?.json ?? .null,
      ]
    case .gameOver(let record): ["type": "gameOver", "result": record.json]
    }
  }

  /// The current deal in its current mode; after a *Deal* the given deck, if any, is spent.
  public static func restartPoint(of match: Match<Self>) -> (options: Options, seed: UInt64) {
    var options = match.options
    options.mode = match.state.mode
    if match.state.ledger.dealtBy != nil { options.deck = nil }
    return (options, match.state.seed)
  }

  /// `{"cmd":"hint"}`: marks the first matching combination and replies with its table
  /// indices, `{"ok":true,"cards":[i,j]}`, or `[]` when none is left.
  public static let commandNames = ["hint"]

  public static func command(_ name: String, _ request: JSON, in match: inout Match<Self>)
    throws(WireError) -> JSON?
  {
    try hintCommand(name, in: &match, hint: .hint) { $0.table.hintedIndices }
  }
}
