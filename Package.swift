// swift-tools-version:6.0
import PackageDescription

/// The rules, the wire and the game server are compiled with optimization in debug builds too:
/// the tests play tens of thousands of seeded games through them, in 112 s of CPU instead of
/// 278 s, for 36 s more of a build from scratch (README "Tests"). Drop it from a module to step
/// through it in a debugger.
let optimizedInTests: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The binary carries the Swift runtime in itself: it needs only the system's C libraries
/// (docs/DEPLOY.md "Install"), starts without resolving the runtime's symbols (a quarter of a
/// short command's instructions), and calls the runtime (retain, release, the checks of arrays
/// and of exclusive access) directly rather than through the dynamic linker's table: 2.2–2.6 %
/// fewer instructions an action of `bench rooms` (docs/PERFORMANCE.md).
///
/// NB: in debug builds too, so that the tests run the binary as it is installed
/// (`e2e/test_operations.py` checks what it loads); linking takes about a second more.
let runtimeLinkedIn: [LinkerSetting] = [
  .unsafeFlags(["-static-stdlib"])
]

/// Every Swift module is compiled without Swift 6's lowering of large values to memory
/// (`-disable-large-loadable-types-reg2mem`): with it, a value as large as a `Match<MemoryGame>`
/// was destroyed through its type's value witnesses, looked up at run time, rather than field
/// by field. Without it, 2.3 % fewer instructions an action of `bench memory` and 2–3 % fewer
/// of `bench rooms` (docs/PERFORMANCE.md "Session 24").
///
/// NB: a hidden flag of the compiler (`swift-frontend -help-hidden`): should a toolchain drop
/// it, the build fails with an unknown argument, and this setting goes.
let largeValuesFieldByField: [SwiftSetting] = [
  .unsafeFlags(["-Xfrontend", "-disable-large-loadable-types-reg2mem"])
]

/// Exclusive access is checked at run time in debug builds, which every test runs, and not in
/// the release build (`-enforce-exclusivity=unchecked`): the checks of a class's or a global's
/// stored properties (`swift_beginAccess`, 853 calls in the binary) were 4–5 % of the
/// server's instructions an action; without them, 5–6 % fewer instructions an action of
/// `bench rooms` (docs/PERFORMANCE.md "Session 25"). An overlapping access the tests did not
/// reach is undefined in the release build rather than a trap.
let exclusivityUncheckedInRelease: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

let package = Package(
  name: "CardTable",
  products: [
    .executable(name: "cardtable", targets: ["cardtable"])
  ],
  targets: [
    .target(name: "CardTableCore", swiftSettings: optimizedInTests),
    .testTarget(name: "CardTableCoreTests", dependencies: ["CardTableCore", "CardTableTesting"]),
    // NB: helpers every test target shares; a library so that it is built once, not per target.
    .target(
      name: "CardTableTesting", dependencies: ["CardTableCore", "Compression"],
      path: "Tests/Support"),
    .target(name: "MemoryGame", dependencies: ["CardTableCore"], swiftSettings: optimizedInTests),
    .testTarget(
      name: "MemoryGameTests",
      dependencies: ["CardTableCore", "MemoryGame", "GameWire", "CardTableTesting"]),
    // NB: the choose-and-match table Matchismo and Set share (RULES §1, §2).
    .target(name: "ChoiceTable", dependencies: ["CardTableCore"], swiftSettings: optimizedInTests),
    .target(
      name: "MatchingGame", dependencies: ["CardTableCore", "ChoiceTable"],
      swiftSettings: optimizedInTests),
    .testTarget(
      name: "MatchingGameTests",
      dependencies: [
        "CardTableCore", "ChoiceTable", "MatchingGame", "GameWire", "CardTableTesting",
      ]),
    .target(
      name: "SetGame", dependencies: ["CardTableCore", "ChoiceTable"],
      swiftSettings: optimizedInTests),
    .testTarget(
      name: "SetGameTests",
      dependencies: ["CardTableCore", "SetGame", "ChoiceTable", "GameWire", "CardTableTesting"]),
    .target(
      name: "GameWire",
      dependencies: [
        "CardTableCore", "ChoiceTable", "MemoryGame", "MatchingGame", "SetGame", "SnapGame",
      ], swiftSettings: optimizedInTests),
    .testTarget(
      name: "GameWireTests",
      dependencies: [
        "GameWire", "CardTableCore", "MemoryGame", "MatchingGame", "SetGame", "SnapGame",
        "CardTableTesting",
      ],
      exclude: ["Golden"]),
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"])]),
    .target(name: "GameStore", dependencies: ["CSQLite", "CPostgres", "CardTableCore"]),
    .testTarget(
      name: "GameStoreTests",
      dependencies: ["GameStore", "CSQLite", "CardTableCore", "CardTableTesting"]),
    .target(
      name: "GameServer", dependencies: ["GameWire", "GameStore", "CardTableCore"],
      swiftSettings: optimizedInTests),
    .testTarget(
      name: "GameServerTests",
      dependencies: ["GameServer", "GameStore", "GameWire", "CardTableTesting"],
      exclude: ["Golden"]),
    .target(
      name: "CardTableCommand",
      dependencies: [
        "CardTableCore", "ChoiceTable", "GameWire", "GameServer", "GameStore", "MemoryGame",
        "MatchingGame", "SetGame", "SnapGame", "WebServer", "TerminalUI", "CEpoll",
      ]
    ),
    .target(name: "SnapGame", dependencies: ["CardTableCore"], swiftSettings: optimizedInTests),
    .testTarget(
      name: "SnapGameTests",
      dependencies: ["CardTableCore", "SnapGame", "GameWire", "CardTableTesting"]),
    .testTarget(
      name: "CardTableCommandTests",
      dependencies: ["CardTableCommand", "GameWire", "CardTableTesting"]),
    .executableTarget(
      name: "cardtable", dependencies: ["CardTableCommand"], linkerSettings: runtimeLinkedIn),
    .target(name: "CardLayout"),
    // NB: the terminal client (docs/TERMINAL.md): renderers, input decoding, the driver and the
    // `play` and `join` loops; a client of rooms over the protocol, like the browser.
    .target(
      name: "TerminalUI",
      dependencies: ["CardLayout", "GameWire"]),
    .testTarget(
      name: "TerminalUITests",
      dependencies: [
        "TerminalUI", "CardTableCommand", "GameWire", "CardLayout", "CardTableTesting",
      ],
      exclude: ["Snapshots"]),
    .testTarget(name: "CardLayoutTests", dependencies: ["CardLayout"]),
    // NB: libwebsockets.h includes <uv.h>, and its .pc file links -luv, so one system library
    // carries both; a separate CUV module would import the same C declarations twice.
    .systemLibrary(
      name: "CWebSockets", path: "Sources/CWebSockets", pkgConfig: "libwebsockets",
      providers: [.apt(["libwebsockets-dev", "libuv1-dev"])]),
    // NB: headers only (sys/epoll.h), for the benchmark's load client.
    .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
    .systemLibrary(
      name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .target(name: "Compression", dependencies: ["CZlib"]),
    .target(name: "WebServer", dependencies: ["CWebSockets", "Compression"]),
    .testTarget(name: "WebServerTests", dependencies: ["WebServer", "Compression"]),
  ]
)

for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + largeValuesFieldByField + exclusivityUncheckedInRelease
}
