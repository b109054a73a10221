import Compression
import Foundation
import Testing

@testable import WebServer

#if canImport(Glibc)
  import Glibc
#endif

extension WebServerTests {
  /// Pages name the root's files under the build's version, which browsers keep for good
  /// (docs/WEBSERVER.md, "Caching").
  @Suite struct StaticBuildTests {
    static let page = """
      <!doctype html><title>Cartes à jouer ♥</title><link rel="stylesheet" href="/css/app.css">\
      <link rel='modulepreload' href='/js/cards.js'><script type="module" src="/js/app.js"></script>\
      <a href="/">Home</a><a href="/scores">Scores</a><a href="/jsx">x</a><a href="/games/">Games</a>\
      <a href="/js/help.html#top">Help</a><img src="https://example.org/js/x.png" alt="♠">\
      <a href="js/app.js">relative</a><a href=/js/app.js>unquoted</a><a href="/js">bare</a>
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

    /// What `attempt` returns once it returns something, asked again every 20 ms for up to
    /// ten seconds.
    static func eventually<T>(_ attempt: () throws -> T?) throws -> T {
      for _ in 0..<500 {
        if let found = try attempt() { return found }
        usleep(20_000)
      }
      throw ClientError("nothing came within ten seconds")
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
        .replacingOccurrences(of: "\"/css/app.css", with: "\"/v/\(version)/css/app.css")
        .replacingOccurrences(of: "'/js/cards.js", with: "'/v/\(version)/js/cards.js")
        .replacingOccurrences(of: "\"/js/app.js", with: "\"/v/\(version)/js/app.js")
      #expect(page == expected)
      for unchanged in [
        #"href="/scores""#, #"href="/jsx""#, #"href="/games/""#, #"href="/js/help.html#top""#,
        #"href="js/app.js""#, "href=/js/app.js>", #"href="/js""#, "Cartes à jouer ♥",
      ] {
        #expect(page.contains(unchanged), "\(unchanged)")
      }
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
      let tag = try #require(
        try fetch(port: server.port, "/v/\(version)/js/app.js").headers["etag"])
      let again = try fetch(
        port: server.port, "/v/\(version)/js/app.js", headers: ["If-None-Match": tag])
      #expect(again.status == 304)
      let head = try fetch(port: server.port, "/v/\(version)/css/app.css", method: "HEAD")
      #expect(head.status == 200 && head.body.isEmpty)
      #expect(head.headers["cache-control"] == "public, max-age=31536000, immutable")
      let page = try fetch(port: server.port, "/v/\(version)/index.html")
      #expect(page.status == 200 && page.headers["cache-control"] == "no-cache", "a page never is")
      for path in [
        "/v/\(version)/.env", "/v/\(version)/escape/passwd", "/v/\(version)/missing.js",
        "/v/xyz/js/app.js", "/v/\(version.uppercased())/js/app.js", "/v/\(version)",
      ] {
        #expect(try fetch(port: server.port, path).status == 404, "\(path)")
      }
    }

    @Test func changingAFileChangesTheVersionAndTheOldNameIsRevalidated() throws {
      let root = try Self.root()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let first = try fetch(port: server.port, "/")
      let before = try Self.version(in: first.text)
      #expect(
        try fetch(port: server.port, "/v/\(before)/js/cards.js").headers["cache-control"]
          == "public, max-age=31536000, immutable")
      // NB: the same size and, as `cp -p` or `rsync -t` would leave it, the same modification
      // time to the nanosecond: the file is new all the same (a new inode and status change
      // time), so it is not immutable under the old name, at once.
      let path = root.path + "/js/cards.js"
      var info = stat()
      #expect(stat(path, &info) == 0)
      try Self.write("export const cards = 54;", to: "js/cards.js", in: root)
      let times = [info.st_atim, info.st_mtim]
      #expect(utimensat(AT_FDCWD, path, times, 0) == 0)
      let old = try fetch(port: server.port, "/v/\(before)/js/cards.js")
      #expect(old.text == "export const cards = 54;")
      #expect(old.headers["cache-control"] == "no-cache")
      // NB: the page names the new version once the server walks the root again (it reuses a
      // walk for a second).
      let second = try Self.eventually {
        let page = try fetch(port: server.port, "/")
        return try Self.version(in: page.text) != before ? page : nil
      }
      let after = try Self.version(in: second.text)
      #expect(second.headers["etag"] != first.headers["etag"], "the page changed with it")
      let new = try fetch(port: server.port, "/v/\(after)/js/cards.js")
      #expect(new.text == "export const cards = 54;")
      #expect(new.headers["cache-control"] == "public, max-age=31536000, immutable")
    }

    @Test func aPagesETagValidatesItOnEveryInstanceServingTheSameFiles() throws {
      let (one, two) = (try Self.root(), try Self.root())
      let (first, _) = try Recorder.serving(.init(staticRoot: one.path))
      defer { first.stop() }
      let (second, _) = try Recorder.serving(.init(staticRoot: two.path))
      defer { second.stop() }
      for encoding in ["identity", "gzip"] {
        let page = try fetch(port: first.port, "/", headers: ["Accept-Encoding": encoding])
        let etag = try #require(page.headers["etag"])
        #expect(page.headers["cache-control"] == "no-cache")
        for port in [first.port, second.port] {
          let again = try fetch(
            port: port, "/", headers: ["Accept-Encoding": encoding, "If-None-Match": etag])
          #expect(again.status == 304, "\(encoding) on \(port)")
        }
      }
    }

    @Test func twoCopiesOfTheSameFilesHaveOneVersionWhichAWalkKeepsForItsTime() throws {
      let (one, two) = (try Self.root(), try Self.root())
      var first = StaticFiles.Build()
      var second = StaticFiles.Build(reuse: 10)
      let real = { (root: StaticRoot) in try #require(StaticFiles.resolveRoot(root.path)) }
      let a = first.snapshot(of: try real(one), now: 0)
      let b = second.snapshot(of: try real(two), now: 0)
      #expect(a == b)
      #expect(a.directories == ["css", "js", "games"])
      try Self.write("x", to: "js/more.js", in: two)
      #expect(second.snapshot(of: try real(two), now: 9.9) == b, "a walk reused")
      #expect(second.snapshot(of: try real(two), now: 10).version != a.version)
    }

    @Test func linksInsideTheRootAreWalkedOnceAndLinksOutOfItNever() throws {
      let root = try Self.root()
      let manager = FileManager.default
      try manager.createSymbolicLink(atPath: root.path + "/lib", withDestinationPath: "js")
      try manager.createSymbolicLink(atPath: root.path + "/js/up", withDestinationPath: "..")
      try manager.createSymbolicLink(atPath: root.path + "/js/self", withDestinationPath: ".")
      var build = StaticFiles.Build()
      let real = try #require(StaticFiles.resolveRoot(root.path))
      let snapshot = build.snapshot(of: real, now: 0)
      #expect(snapshot.directories == ["css", "js", "games", "lib"], "escape leads out")
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let version = try Self.version(in: try fetch(port: server.port, "/").text)
      #expect(version == snapshot.version)
      let linked = try fetch(port: server.port, "/v/\(version)/lib/cards.js")
      #expect(linked.text == "export const cards = 52;")
      #expect(linked.headers["cache-control"] == "public, max-age=31536000, immutable")
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
