// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "CardTable",
  targets: [
    .target(name: "CardTableCore"),
    .testTarget(name: "CardTableCoreTests", dependencies: ["CardTableCore"]),
    .target(name: "CardLayout"),
    .testTarget(name: "CardLayoutTests", dependencies: ["CardLayout"]),
  ]
)
