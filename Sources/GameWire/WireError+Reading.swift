import CardTableCore

/// What was being read when an input was refused: the words that name it in an error.
public enum ReadingContext: Sendable, Equatable {
  /// A game's `options` object, e.g. `matchismo options`.
  case options(game: String)
  /// An action object of a game whose actions are called `title` (`Matchismo`, `Memory and
  /// Concentration`), e.g. `A flip`, `A choose action`.
  case action(title: String)
}

extension WireError {
  /// The `bad-request` (or a game's own code) for `error`, thrown while reading `json` in
  /// `context`: which member was wrong, what it must be, and the JSON text it was.
  public static func reading(_ error: any Error, of json: JSON, as context: ReadingContext)
    -> WireError
  {
    switch error {
    case let error as WireError:
      return error
    case let input as InputError:
      return reading(input, of: json, as: context)
    case let decoding as DecodingError:
      return reading(decoding, of: json, as: context)
    default:
      return .badRequest("\(label(context, json: json, key: nil)): \(error).")
    }
  }

  private static func reading(_ error: InputError, of json: JSON, as context: ReadingContext)
    -> WireError
  {
    switch error {
    case .refused(let code, let message):
      return WireError(code: code, message: message)
    case .unknownMember(let name, let allowed):
      let expected =
        allowed.isEmpty ? "there are none" : "expected " + allowed.sorted().joined(separator: ", ")
      return .badRequest(
        "\(label(context, json: json, key: nil)): unknown field \"\(name)\"; \(expected).")
    case .outOfRange(let member, let range):
      return .badRequest(
        "\(label(context, json: json, key: member)): \"\(member)\" must be an integer from "
          + "\(range.lowerBound) to \(range.upperBound), not \(text(of: json, at: [member]))."
      )
    case .unknownName(let member, let value, let expected):
      if case .action(let title) = context, member == "type" {
        let verb = title.contains(" and ") ? "know" : "knows"
        return .badRequest(
          "Unknown action type \"\(value ?? "")\"; \(title) \(verb) \(list(expected, "and")).")
      }
      return .badRequest(
        "\(label(context, json: json, key: member)): \"\(member)\" must be "
          + "\(list(expected, "or")), not \(text(of: json, at: [member])).")
    case .invalid(let member, let expected):
      return .badRequest(
        "\(label(context, json: json, key: member)): \"\(member)\" must be \(expected), not "
          + "\(text(of: json, at: [member])).")
    }
  }

  private static func reading(_ error: DecodingError, of json: JSON, as context: ReadingContext)
    -> WireError
  {
    switch error {
    case .keyNotFound(let key, let info):
      let what = article(info.debugDescription)
      return .badRequest(
        "\(label(context, json: json, key: key.stringValue)) needs \"\(key.stringValue)\" (\(what))."
      )
    case .typeMismatch(let type, let info):
      let path = info.codingPath.map(\.stringValue)
      guard let key = path.last else {
        return .badRequest("\(label(context, json: json, key: nil)) must be an object.")
      }
      let found = value(in: json, at: path) ?? .null
      let head = "\(label(context, json: json, key: key)): \"\(key)\" must be"
      switch type {
      case is String.Type: return .badRequest("\(head) a string, not \(found.typeName).")
      case is Bool.Type: return .badRequest("\(head) true or false, not \(found.text).")
      default: return .badRequest("\(head) \(article("\(type)")), not \(found.text).")
      }
    case .valueNotFound(_, let info), .dataCorrupted(let info):
      let key = info.codingPath.last?.stringValue
      return .badRequest("\(label(context, json: json, key: key)): \(info.debugDescription)")
    @unknown default:
      return .badRequest("\(label(context, json: json, key: nil)): \(error).")
    }
  }

  /// How the thing being read is named: `matchismo options`; for an action, `An action` when
  /// its `type` is at fault, else after its type (`A flip`, `A choose action`).
  private static func label(_ context: ReadingContext, json: JSON, key: String?) -> String {
    switch context {
    case .options(let game): return "\(game) options"
    case .action:
      guard key != "type", let type = json["type"]?.stringValue else { return "An action" }
      return type == "flip" ? "A flip" : "A \(type) action"
    }
  }

  /// `a string`, `an integer`, `true or false` for a type's name.
  private static func article(_ typeName: String) -> String {
    switch typeName {
    case "String": "a string"
    case "Bool": "true or false"
    case "Int", "UInt64", "Int64", "UInt", "Int32", "UInt32": "an integer"
    case "Double", "Float": "a number"
    default: "a \(typeName)"
    }
  }

  /// `"a", "b" and "c"`, or with `or`.
  private static func list(_ names: [String], _ conjunction: String) -> String {
    let quoted = names.map { "\"\($0)\"" }
    guard quoted.count > 1, let last = quoted.last else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + last
  }

  /// The JSON text of the member at `path`, or `null` when there is none.
  private static func text(of json: JSON, at path: [String]) -> String {
    (value(in: json, at: path) ?? .null).text
  }

  private static func value(in json: JSON, at path: [String]) -> JSON? {
    var current = json
    for component in path {
      if let index = Int(component), let elements = current.arrayValue {
        guard elements.indices.contains(index) else { return nil }
        current = elements[index]
      } else {
        guard let member = current[component] else { return nil }
        current = member
      }
    }
    return current
  }
}
