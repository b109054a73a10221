import CardTableCore
import MemoryGame

extension MemoryGame: WireGame {
  public static let wireNames = ["memory", "concentration"]

  public static func options(named game: String, from options: JSON?, deck: [String]?)
    throws(WireError) -> Options
  {
    let variant: Variant = game == "concentration" ? .concentration : .memory
    var result = Options(variant: variant)
    if let options, options != .null {
      // NB: Concentration always lays out all 52 cards; it has no options.
      try options.rejectUnknownKeys(
        variant == .memory ? ["difficulty"] : [], in: "\(game) options")
      if let member = options["difficulty"], member != .null {
        guard let name = member.stringValue, let difficulty = Difficulty(rawValue: name) else {
          throw .badRequest(
            "\(game) options: \"difficulty\" must be \"easy\", \"medium\" or \"hard\", not \(member.text)."
          )
        }
        result.difficulty = difficulty
      }
    }
    if let deck { result.deck = try cards(deck) { PlayingCard($0) } }
    return result
  }

  public static func action(from json: JSON) throws(WireError) -> (action: Action, player: PlayerID)
  {
    let type = try json.requiredString("type", in: "An action")
    switch type {
    case "flip": return (.flip(try json.requiredInt("card", in: "A flip")), .solo)
    default:
      throw .badRequest("Unknown action type \"\(type)\"; Memory and Concentration know \"flip\".")
    }
  }

  public static func wireName(of state: State) -> String { state.variant.rawValue }

  public static func encode(state: State) -> JSON {
    encode(view: view(of: state, for: .referee))
  }

  public static func encode(view: View) -> JSON {
    var board: [JSON] = []
    board.reserveCapacity(view.board.count)
    for position in view.board {
      var members: [(String, JSON)] = [
        ("card", position.card.map(\.json) ?? .null), ("faceUp", .bool(position.faceUp)),
      ]
      switch view.variant {
      case .memory: members.append(("removed", .bool(position.removed)))
      case .concentration: members.append(("matched", .bool(position.matched)))
      }
      board.append(.object(members))
    }
    var members: [(String, JSON)] = [
      ("score", JSON(view.score)), ("status", .string(view.status)), ("over", .bool(view.over)),
      ("title", view.title.map(JSON.string) ?? .null), ("columns", JSON(view.columns)),
      ("rows", JSON(view.rows)), ("pairsFound", JSON(view.pairsFound)),
      ("pairs", JSON(view.pairCount)), ("flips", JSON(view.flips)),
      ("waiting", .bool(view.waiting)),
      ("board", .array(board)),
    ]
    if view.variant == .concentration {
      members.append(("moves", JSON(view.moves)))
      members.append(("tilt", .array(view.tilt.map { JSON($0) })))
    }
    return .object(members)
  }

  public static func encode(event: Event) -> JSON {
    switch event {
    case .flipped(let index, let card):
      ["type": "flipped", "card": JSON(index), "face": card.json]
    case .matched(let a, let b): ["type": "matched", "cards": [JSON(a), JSON(b)]]
    case .mismatched(let a, let b): ["type": "mismatched", "cards": [JSON(a), JSON(b)]]
    case .removed(let a, let b): ["type": "removed", "cards": [JSON(a), JSON(b)]]
    case .turnedDown(let a, let b): ["type": "turnedDown", "cards": [JSON(a), JSON(b)]]
    case .finished(let score, let moves):
      ["type": "finished", "score": JSON(score), "moves": JSON(moves)]
    }
  }
}
