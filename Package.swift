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
      name: "GameWire",
      dependencies: ["CardTableCore", "MemoryGame", "MatchingGame", "SetGame", "SnapGame"]),
    .testTarget(name: "GameWireTests", dependencies: ["GameWire"]),
    .target(name: "GameServer", dependencies: ["GameWire"]),
    .testTarget(name: "GameServerTests", dependencies: ["GameServer"]),
    .target(
      name: "CardTableCommand",
      dependencies: [
        "GameWire", "GameServer", "MemoryGame", "MatchingGame", "SetGame", "SnapGame", "WebServer",
      ]
    ),
    .target(name: "SnapGame", dependencies: ["CardTableCore"]),
    .testTarget(name: "SnapGameTests", dependencies: ["SnapGame"]),
    .testTarget(name: "CardTableCommandTests", dependencies: ["CardTableCommand"]),
    .executableTarget(name: "cardtable", dependencies: ["CardTableCommand"]),
    .target(name: "CardLayout"),
    .testTarget(name: "CardLayoutTests", dependencies: ["CardLayout"]),
    // NB: libwebsockets.h includes <uv.h>, and its .pc file links -luv, so one system library
    // carries both; a separate CUV module would import the same C declarations twice.
    .systemLibrary(
      name: "CWebSockets", path: "Sources/CWebSockets", pkgConfig: "libwebsockets",
      providers: [.apt(["libwebsockets-dev", "libuv1-dev"])]),
    .target(name: "WebServer", dependencies: ["CWebSockets"]),
    .testTarget(name: "WebServerTests", dependencies: ["WebServer"]),
  ]
)
