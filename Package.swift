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
    .target(name: "SnapGame", dependencies: ["CardTableCore"]),
    .testTarget(name: "SnapGameTests", dependencies: ["SnapGame"]),
    .target(name: "GameWire", dependencies: ["CardTableCore", "MemoryGame", "SnapGame"]),
    .testTarget(name: "GameWireTests", dependencies: ["GameWire"]),
    .target(name: "CardTableCommand", dependencies: ["GameWire", "MemoryGame", "SnapGame"]),
    .testTarget(name: "CardTableCommandTests", dependencies: ["CardTableCommand"]),
    .executableTarget(name: "cardtable", dependencies: ["CardTableCommand"]),
  ]
)
