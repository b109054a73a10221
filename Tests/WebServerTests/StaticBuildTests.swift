import Compression
import Foundation
import Testing

@testable import WebServer

extension WebServerTests {
  /// Pages name the root's files under the build's version, which browsers keep for good
  /// (docs/WEBSERVER.md, "Caching").
  @Suite struct StaticBuildTests {
    static let page = """
      <!doctype html><link rel="stylesheet" href="/css/app.css">\
      <link rel='modulepreload' href='/js/cards.js'><script type="module" src="/js/app.js"></script>\
      <a href="/">Home</a><a href="/scores">Scores</a><a href="/jsx">x</a>\
      <img src="https://example.org/js/x.png" alt=""><a href="js/app.js">relative</a>
      """

    /// A root with a page, a script, a module it imports and a style sheet.
    static func root() throws -> StaticRoot {
      let root = try StaticRoot()
      try write(page, to: "index.html", in: root)
      try write("import './cards.js';", to: "js/app.js", in: root)
      try write("export const cards = 52;", to: "js/cards.js", in: root)
      try write("body { margin: 0 }", to: "css/app.css", in: root)
      return root
    }

    static func write(_ text: String, to name: String, in root: StaticRoot) throws {
      let url = URL(fileURLWithPath: root.path).appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The version a page names, read from its first versioned reference.
    static func version(in page: String) throws -> String {
      let start = try #require(page.range(of: "/v/")).upperBound
      return String(page[start...].prefix(16))
    }

    @Test func aPageNamesTheRootsFilesUnderTheBuildsVersionAndNothingElse() throws {
      let root = try Self.root()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path, pageRoutes: ["/scores"]))
      defer { server.stop() }
      let page = try fetch(port: server.port, "/").text
      let version = try Self.version(in: page)
      #expect(version.count == 16 && version.allSatisfy(\.isHexDigit))
      let expected = Self.page
        .replacingOccurrences(of: "\"/css/", with: "\"/v/\(version)/css/")
        .replacingOccurrences(of: "'/js/", with: "'/v/\(version)/js/")
        .replacingOccurrences(of: "\"/js/", with: "\"/v/\(version)/js/")
      #expect(page == expected)
      #expect(page.contains(#"href="/scores""#) && page.contains(#"href="/jsx""#))
      #expect(page.contains(#"href="js/app.js""#))
      #expect(try fetch(port: server.port, "/scores").text == page, "a page route is the page")
      let zipped = try fetch(port: server.port, "/", headers: ["Accept-Encoding": "gzip"])
      #expect(zipped.headers["content-encoding"] == "gzip")
      #expect(String(decoding: try Gzip.decompress(zipped.body), as: UTF8.self) == page)
    }

    @Test func aFileUnderTheCurrentVersionIsKeptForAYearAndUnderAnyOtherRevalidated() throws {
      let root = try Self.root()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let version = try Self.version(in: try fetch(port: server.port, "/").text)
      for encoding in ["identity", "gzip"] {
        let script = try fetch(
          port: server.port, "/v/\(version)/js/app.js", headers: ["Accept-Encoding": encoding])
        #expect(script.status == 200)
        #expect(script.headers["cache-control"] == "public, max-age=31536000, immutable")
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
      }
      #expect(
        try fetch(port: server.port, "/v/\(version)/js/app.js").text == "import './cards.js';")
      let other = try fetch(port: server.port, "/v/0123456789abcdef/js/app.js")
      #expect(other.status == 200 && other.text == "import './cards.js';")
      #expect(other.headers["cache-control"] == "no-cache", "not the build this server has")
      #expect(try fetch(port: server.port, "/js/app.js").headers["cache-control"] == "no-cache")
      for path in [
        "/v/\(version)/.env", "/v/\(version)/../index.html", "/v/\(version)/escape/passwd",
        "/v/\(version)/missing.js", "/v/xyz/js/app.js", "/v/\(version.uppercased())/js/app.js",
      ] {
        #expect(try fetch(port: server.port, path).status >= 400, "\(path)")
      }
    }

    @Test func changingAFileChangesTheVersionAndTheOldNameIsRevalidated() throws {
      let root = try Self.root()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let first = try fetch(port: server.port, "/")
      let before = try Self.version(in: first.text)
      #expect(try Self.version(in: try fetch(port: server.port, "/").text) == before)
      // NB: the same size, and perhaps the same second: the contents tell them apart.
      try Self.write("export const cards = 54;", to: "js/cards.js", in: root)
      let second = try fetch(port: server.port, "/")
      let after = try Self.version(in: second.text)
      #expect(after != before)
      #expect(second.headers["etag"] != first.headers["etag"], "the page changed with it")
      let old = try fetch(port: server.port, "/v/\(before)/js/cards.js")
      #expect(old.text == "export const cards = 54;")
      #expect(old.headers["cache-control"] == "no-cache")
      let new = try fetch(port: server.port, "/v/\(after)/js/cards.js")
      #expect(new.headers["cache-control"] == "public, max-age=31536000, immutable")
    }

    @Test func aPagesETagValidatesItUntilTheBuildChanges() throws {
      let root = try Self.root()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      for encoding in ["identity", "gzip"] {
        let page = try fetch(port: server.port, "/", headers: ["Accept-Encoding": encoding])
        let etag = try #require(page.headers["etag"])
        #expect(page.headers["cache-control"] == "no-cache")
        let again = try fetch(
          port: server.port, "/", headers: ["Accept-Encoding": encoding, "If-None-Match": etag])
        #expect(again.status == 304)
      }
      let etag = try #require(try fetch(port: server.port, "/").headers["etag"])
      try Self.write("body { margin: 1px }", to: "css/app.css", in: root)
      #expect(try fetch(port: server.port, "/", headers: ["If-None-Match": etag]).status == 200)
    }

    @Test func twoCopiesOfTheSameFilesHaveOneVersion() throws {
      let (one, two) = (try Self.root(), try Self.root())
      var first = StaticFiles.Build()
      var second = StaticFiles.Build()
      let real = { (root: StaticRoot) in try #require(StaticFiles.resolveRoot(root.path)) }
      let a = first.snapshot(of: try real(one))
      let b = second.snapshot(of: try real(two))
      #expect(a == b)
      #expect(a.directories == ["css", "js", "games"])
      try Self.write("x", to: "js/more.js", in: two)
      #expect(second.snapshot(of: try real(two)).version != a.version)
    }

    @Test(arguments: [
      "/v/0123456789abcdef/js/app.js", "/v/0123456789abcdef/", "/v/0123456789abcdef/a/b/c.css",
    ])
    func aVersionedPathIsTheRootsPathUnderIt(path: String) throws {
      let split = try #require(StaticFiles.Build.split(path))
      #expect(split.version == "0123456789abcdef")
      #expect("/v/" + split.version + split.path == path)
    }

    @Test(arguments: [
      "/js/app.js", "/v/", "/v/0123456789abcdef", "/v/0123456789abcde/x.js",
      "/v/0123456789abcdefa/x.js", "/v/0123456789ABCDEF/x.js", "/v/0123456789abcdeg/x.js",
      "/vv/0123456789abcdef/x.js",
    ])
    func anyOtherPathIsNotVersioned(path: String) {
      #expect(StaticFiles.Build.split(path) == nil)
    }
  }
}
