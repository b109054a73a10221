// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "CardTable",
  targets: [
    .target(name: "CardTableCore"),
    .testTarget(name: "CardTableCoreTests", dependencies: ["CardTableCore"]),
    .target(name: "MemoryGame", dependencies: ["CardTableCore"]),
    .testTarget(name: "MemoryGameTests", dependencies: ["MemoryGame"]),
    .target(name: "GameWire", dependencies: ["CardTableCore", "MemoryGame"]),
    .testTarget(name: "GameWireTests", dependencies: ["GameWire"]),
  ]
)
