import CardTableCore
import GameWire

/// A player's settings as the server keeps them (docs/PROTOCOL.md `settings`): a name, and per
/// game the options its next new game starts with.
enum PlayerSettings {
  /// The longest name a player may take, in characters.
  static let longestName = 24

  /// The games whose options the settings keep: those that have options (the catalog's).
  static let games = GameCatalog.entries.filter { !$0.options.isEmpty }.map(\.name)

  /// `settings` with the members of `given` put in (a `null` member removes one), every member
  /// checked.
  ///
  /// - Throws: `bad-request` naming the first member that is not allowed or not right.
  static func merge(_ given: JSON, into settings: JSON) throws(WireError) -> JSON {
    guard let keys = given.keys else {
      throw .badRequest("settings: \"settings\" must be an object such as {\"name\":\"Ann\"}.")
    }
    var merged = settings.keys != nil ? settings : [:]
    for key in keys {
      let value = given[key] ?? .null
      if value == .null {
        merged = merged.removing(key)
        continue
      }
      switch key {
      case "name":
        guard let name = value.stringValue, !name.allSatisfy(\.isWhitespace),
          name.count <= longestName
        else {
          throw .badRequest(
            "settings: \"name\" must be 1 to \(longestName) characters, not only spaces.")
        }
      case _ where games.contains(key):
        guard value.keys != nil else {
          throw .badRequest("settings: \"\(key)\" must be an object of \(key)'s options.")
        }
        try GameCatalog.checkOptions(value, of: key)
      default:
        throw .badRequest(
          "settings: unknown member \"\(key)\"; the members are name, \(games.joined(separator: ", "))."
        )
      }
      merged = merged.setting(key, to: value)
    }
    return merged
  }
}
