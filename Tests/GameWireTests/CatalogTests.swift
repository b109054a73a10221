import CardTableCore
import Foundation
import GameWire
import Testing

/// The catalog `welcome` sends (docs/PROTOCOL.md "Catalog"): what each game declares of
/// itself, and how a help text's placeholders are filled.
@Suite struct CatalogTests {
  @Test func theCatalogNamesEveryGameInMenuOrder() {
    #expect(GameCatalog.entries.map(\.name) == GameCatalog.names)
    #expect(Set(GameCatalog.entries.map(\.title)).count == GameCatalog.entries.count)
  }

  @Test(arguments: GameCatalog.entries)
  func anEntryAgreesWithItsRules(info: GameInfo) throws {
    #expect(try GameCatalog.seatRange(of: info.name) == info.seats)
    #expect(try GameCatalog.takesComputerPlayers(info.name) == info.computers)
    // A game for one has no table; every other game says how a table plays it.
    #expect((info.together == nil) == (info.seats.upperBound == 1))
    #expect(info.tableHelp.isEmpty == (info.together == nil))
    #expect(!info.help.play.isEmpty && !info.help.scoring.isEmpty && !info.help.together.isEmpty)
    #expect(!info.sounds.isEmpty)
  }

  @Test(arguments: GameCatalog.entries)
  func everyOptionsDefaultIsOneItMayTake(info: GameInfo) {
    for option in info.options {
      if let range = option.range {
        #expect(option.choices.isEmpty, "\(info.name).\(option.name)")
        #expect(range.contains(option.default.intValue ?? .min), "\(info.name).\(option.name)")
      } else {
        #expect(
          option.choices.contains { $0.value == option.default }, "\(info.name).\(option.name)")
      }
      #expect(!option.places.isEmpty, "\(info.name).\(option.name)")
    }
  }

  /// No help paragraph keeps a placeholder that names nothing: each is filled from the
  /// options' defaults.
  @Test(arguments: GameCatalog.entries)
  func everyPlaceholderNamesAnOption(info: GameInfo) {
    let paragraphs = info.help.play + info.help.scoring + info.help.together + info.tableHelp
    for paragraph in paragraphs {
      let text = info.filled(paragraph)
      #expect(!text.contains("{") && !text.contains("}"), "\(info.name): \(text)")
    }
  }

  @Test func placeholdersTakeTheValuesInForceElseTheDefaults() throws {
    let matchismo = try #require(GameCatalog.info("matchismo"))
    let scoring = matchismo.help.scoring[0]
    #expect(
      matchismo.filled(scoring)
        == "With the settings in play: a suit pair scores 4 points (1 × the match bonus 4), a rank pair 16 points (4 × 4). In 3-card mode every pair among the three counts."
    )
    #expect(
      matchismo.filled(scoring, values: ["matchBonus": 1]).hasPrefix(
        "With the settings in play: a suit pair scores 1 point (1 × the match bonus 1), a rank pair 4 points (4 × 1)."
      ))
    let play = matchismo.help.play[0]
    #expect(matchismo.filled(play).contains(": two at a time in the 2-card mode"))
    #expect(
      matchismo.filled(play, values: ["mode": 3]).contains(": three at a time in the 3-card mode"))
    // What names no option is left as it is.
    #expect(matchismo.filled("{nothing} and {matchBonus}") == "{nothing} and 4")
  }

  @Test func snapsComputerSpeedsAreDescribedInTheirSeconds() throws {
    let snap = try #require(GameCatalog.info("snap"))
    let speed = try #require(snap.option("computerSpeed"))
    #expect(speed.choices.map(\.label) == ["Relaxed", "Original", "Quick", "Sharp"])
    #expect(speed.default == "original")
    #expect(snap.options(at: .host).map(\.name) == ["computerSpeed"])
    #expect(
      snap.filled("{computerSpeed}", values: ["computerSpeed": "quick"])
        == "quick speed: each takes 0.15 to 1.15 seconds")
    #expect(snap.filled("{computerSpeed}").hasPrefix("the original’s speed: each takes "))
  }

  @Test func memoryAsksItsTableSizeBeforeDealing() throws {
    let memory = try #require(GameCatalog.info("memory"))
    #expect(memory.options(at: .menu).map(\.name) == ["difficulty"])
    #expect(memory.option("difficulty")?.choices.map(\.label) == ["EASY", "MEDIUM", "HARD"])
  }

  /// The wire form `welcome` carries, member by member (docs/PROTOCOL.md "Catalog").
  @Test func anEntryIsSentInItsDocumentedForm() throws {
    let snap = try #require(GameCatalog.info("snap"))
    let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(snap)) as? [String: Any]
    let entry = try #require(json)
    #expect(
      Set(entry.keys) == [
        "name", "title", "blurb", "face", "minSeats", "maxSeats", "together", "computers", "call",
        "options", "help", "tableHelp", "sounds",
      ])
    #expect(entry["minSeats"] as? Int == 2)
    #expect(entry["maxSeats"] as? Int == 4)
    #expect(entry["together"] as? String == "realTime")
    #expect(entry["call"] as? String == "Snap!")
    #expect(
      entry["sounds"] as? [String: String] == ["turned": "turn", "snap": "call", "roundWon": "win"])
    let option = try #require((entry["options"] as? [[String: Any]])?.first)
    #expect(
      Set(option.keys) == ["name", "label", "choices", "default", "hint", "places"])
    #expect(option["places"] as? [String] == ["host"])
    let matchismo = try JSONEncoder().encode(try #require(GameCatalog.info("matchismo")))
    let cards = try #require(
      ((try JSONSerialization.jsonObject(with: matchismo) as? [String: Any])?["options"]
        as? [[String: Any]])?.first { $0["name"] as? String == "cards" })
    #expect(cards["min"] as? Int == 2 && cards["max"] as? Int == 52)
    #expect(cards["choices"] as? [Any] != nil)
  }
}
