// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "CardTable",
  targets: [
    .target(name: "CardTableCore"),
    .testTarget(name: "CardTableCoreTests", dependencies: ["CardTableCore"]),
    // NB: libwebsockets.h includes <uv.h>, and its .pc file links -luv, so one system library
    // carries both; a separate CUV module would import the same C declarations twice.
    .systemLibrary(
      name: "CWebSockets", path: "Sources/CWebSockets", pkgConfig: "libwebsockets",
      providers: [.apt(["libwebsockets-dev", "libuv1-dev"])]),
    .target(name: "WebServer", dependencies: ["CWebSockets"]),
    .testTarget(name: "WebServerTests", dependencies: ["WebServer"]),
  ]
)
