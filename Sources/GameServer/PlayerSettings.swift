import CardTableCore
import GameWire

/// A player's settings as the server keeps them (docs/PROTOCOL.md `settings`): a name, and per
/// game the options its next new game starts with.
enum PlayerSettings {
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
        guard let name = value.stringValue else {
          throw .badRequest("settings: \"name\" must be a string such as \"Ann\".")
        }
        merged = merged.setting(key, to: .string(try PlayerName.check(name)))
        continue
      case "profile":
        guard value.boolValue != nil else {
          throw .badRequest(
            "settings: \"profile\" must be true (others may see your page) or false.")
        }
      case _ where games.contains(key):
        guard value.keys != nil else {
          throw .badRequest("settings: \"\(key)\" must be an object of \(key)'s options.")
        }
        try GameCatalog.checkOptions(value, of: key)
      default:
        throw .badRequest(
          "settings: unknown member \"\(key)\"; the members are name, profile, \(games.joined(separator: ", "))."
        )
      }
      merged = merged.setting(key, to: value)
    }
    return merged
  }
}
