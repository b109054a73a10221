import CardTableCore

/// A request the wire could not carry out: a stable code and a sentence for people.
///
/// Rule refusals keep the game's own code (`pair-pending`); the wire adds its own for
/// messages it cannot read (`invalid-json`, `unknown-command`, `bad-request`, …).
public struct WireError: Error, Equatable, Sendable, Codable {
  public var code: String
  public var message: String

  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  /// The game refused the action.
  public init(_ refusal: some Refusal) {
    self.init(code: refusal.code, message: refusal.message)
  }

  public static func invalidJSON(_ error: JSONSyntaxError) -> WireError {
    WireError(code: "invalid-json", message: "The message is not valid JSON: \(error).")
  }

  public static func badRequest(_ message: String) -> WireError {
    WireError(code: "bad-request", message: message)
  }

  public static func unknownCommand(_ name: String) -> WireError {
    WireError(code: "unknown-command", message: "Unknown command \"\(name)\".")
  }

  public static func unknownGame(_ name: String) -> WireError {
    WireError(
      code: "unknown-game",
      message:
        "Unknown game \"\(name)\"; the games are \(GameCatalog.names.joined(separator: ", ")).")
  }

  public static let noGame = WireError(
    code: "no-game", message: "No game is running; start one with {\"cmd\":\"new\",\"game\":...}.")

  /// A stored game whose log the rules no longer accept as it was written.
  public static func replayFailed(index: Int, _ reason: String) -> WireError {
    WireError(code: "replay-failed", message: "Move \(index + 1) of the log: \(reason).")
  }

  public var json: JSON { ["code": .string(code), "message": .string(message)] }
}

// MARK: Reading fields

extension JSON {
  /// The member `key` as a string, or a ``WireError`` naming what is wrong.
  public func requiredString(_ key: String, in context: String) throws(WireError) -> String {
    guard let member = self[key] else {
      throw .badRequest("\(context) needs \"\(key)\" (a string).")
    }
    guard let value = member.stringValue else {
      throw .badRequest("\(context): \"\(key)\" must be a string, not \(member.typeName).")
    }
    return value
  }

  /// The member `key` as an integer, or a ``WireError`` naming what is wrong.
  public func requiredInt(_ key: String, in context: String) throws(WireError) -> Int {
    guard let member = self[key] else {
      throw .badRequest("\(context) needs \"\(key)\" (an integer).")
    }
    guard let value = member.intValue else {
      throw .badRequest("\(context): \"\(key)\" must be an integer, not \(member.text).")
    }
    return value
  }

  /// An action's `player`: the name it gives, or ``PlayerID/solo`` when it gives none.
  public func actionPlayer() throws(WireError) -> PlayerID {
    guard let member = self["player"] else { return .solo }
    guard let name = member.stringValue else {
      throw .badRequest("An action's \"player\" must be a player's name, not \(member.text).")
    }
    return PlayerID(name)
  }
}
