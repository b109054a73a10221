// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "CardTable",
  products: [
    .executable(name: "cardtable", targets: ["cardtable"])
  ],
  targets: [
    .target(name: "CardTableCore"),
    .testTarget(name: "CardTableCoreTests", dependencies: ["CardTableCore"]),
    .target(name: "MemoryGame", dependencies: ["CardTableCore"]),
    .testTarget(name: "MemoryGameTests", dependencies: ["MemoryGame"]),
    .target(name: "MatchingGame", dependencies: ["CardTableCore"]),
    .testTarget(name: "MatchingGameTests", dependencies: ["MatchingGame"]),
    .target(name: "SetGame", dependencies: ["CardTableCore", "MatchingGame"]),
    .testTarget(name: "SetGameTests", dependencies: ["SetGame", "MatchingGame"]),
    .target(
      name: "GameWire", dependencies: ["CardTableCore", "MemoryGame", "MatchingGame", "SetGame"]),
    .testTarget(name: "GameWireTests", dependencies: ["GameWire"]),
    .target(
      name: "CardTableCommand", dependencies: ["GameWire", "MemoryGame", "MatchingGame", "SetGame"]),
    .testTarget(name: "CardTableCommandTests", dependencies: ["CardTableCommand"]),
    .executableTarget(name: "cardtable", dependencies: ["CardTableCommand"]),
  ]
)
