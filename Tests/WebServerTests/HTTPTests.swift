import Compression
import Foundation
import Testing

@testable import WebServer

#if canImport(Glibc)
  import Glibc
#endif

/// A temporary static root with one file of each kind the client uses.
final class StaticRoot {
  let path: String
  static let files: [String: String] = [
    "index.html": "<!doctype html><title>CardTable</title>",
    "app.js": "export const x = 1;",
    "cards.mjs": "export const y = 2;",
    "style.css": "body { margin: 0 }",
    "card.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    "rules.json": "{}",
    "icon.png": "PNG",
    "font.woff2": "wOF2",
    "games/index.html": "<!doctype html><title>Games</title>",
  ]

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("webserver-\(UUID().uuidString)").path
    for (name, text) in Self.files {
      let url = URL(fileURLWithPath: path).appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    try "secret".write(toFile: path + "/.env", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: path + "/escape", withDestinationPath: "/etc")
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

extension WebServerTests {
  @Suite struct StaticFileTests {
    @Test(arguments: [
      ("/", "text/html; charset=utf-8", "no-cache"),
      ("/index.html", "text/html; charset=utf-8", "no-cache"),
      ("/games/", "text/html; charset=utf-8", "no-cache"),
      ("/games", "text/html; charset=utf-8", "no-cache"),
      ("/app.js", "text/javascript; charset=utf-8", "no-cache"),
      ("/cards.mjs", "text/javascript; charset=utf-8", "no-cache"),
      ("/style.css", "text/css; charset=utf-8", "no-cache"),
      ("/rules.json", "application/json", "no-cache"),
      ("/card.svg", "image/svg+xml", "public, max-age=3600"),
      ("/icon.png", "image/png", "public, max-age=3600"),
      ("/font.woff2", "font/woff2", "public, max-age=3600"),
    ])
    func filesAreServedWithTheirTypeAndCaching(path: String, type: String, cache: String) throws {
      let root = try StaticRoot()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let response = try fetch(port: server.port, path)
      #expect(response.status == 200)
      #expect(response.headers["content-type"] == type)
      #expect(response.headers["cache-control"] == cache)
      #expect(response.headers["x-content-type-options"] == "nosniff")
      #expect(response.headers["etag"] != nil)
      let name = path.hasSuffix("/") || path == "/games" ? path + "/index.html" : path
      let normalized = name.replacingOccurrences(of: "//", with: "/").dropFirst()
      #expect(response.text == StaticRoot.files[String(normalized)])
    }

    @Test func aMatchingETagGetsNotModified() throws {
      let root = try StaticRoot()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let first = try fetch(port: server.port, "/app.js")
      let etag = try #require(first.headers["etag"])
      let second = try fetch(port: server.port, "/app.js", headers: ["If-None-Match": etag])
      #expect(second.status == 304)
      #expect(second.body.isEmpty)
      #expect(second.headers["etag"] == etag)
    }

    @Test func textGoesOutGzipCompressedToClientsThatAcceptItWithItsOwnETag() throws {
      let root = try StaticRoot()
      let script = String(repeating: "export const card = 'A♥';\n", count: 400)
      try script.write(toFile: root.path + "/big.js", atomically: true, encoding: .utf8)
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let plain = try fetch(port: server.port, "/big.js")
      let gzipped = try fetch(
        port: server.port, "/big.js", headers: ["Accept-Encoding": "br, gzip;q=0.8"])
      #expect(plain.headers["content-encoding"] == nil)
      #expect(plain.text == script)
      #expect(gzipped.headers["content-encoding"] == "gzip")
      #expect(gzipped.headers["content-type"] == "text/javascript; charset=utf-8")
      #expect(gzipped.body.count < plain.body.count / 10)
      #expect(gzipped.headers["content-length"] == String(gzipped.body.count))
      #expect(String(decoding: try Gzip.decompress(gzipped.body), as: UTF8.self) == script)
      for response in [plain, gzipped] { #expect(response.headers["vary"] == "Accept-Encoding") }
      let (plainTag, gzipTag) = (
        try #require(plain.headers["etag"]), try #require(gzipped.headers["etag"])
      )
      #expect(plainTag != gzipTag, "two representations, two validators")
      let revalidated = try fetch(
        port: server.port, "/big.js",
        headers: ["Accept-Encoding": "gzip", "If-None-Match": gzipTag])
      #expect(revalidated.status == 304 && revalidated.headers["etag"] == gzipTag)
      let other = try fetch(
        port: server.port, "/big.js",
        headers: ["Accept-Encoding": "gzip", "If-None-Match": plainTag])
      #expect(other.status == 200, "the plain copy's tag does not validate the compressed one")
      let head = try fetch(
        port: server.port, "/big.js", method: "HEAD", headers: ["Accept-Encoding": "gzip"])
      #expect(head.status == 200 && head.body.isEmpty)
      #expect(head.headers["content-length"] == String(gzipped.body.count))
    }

    @Test func refusedOrUnsuitableEncodingsGetTheFileAsItIs() throws {
      let root = try StaticRoot()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let refused = try fetch(
        port: server.port, "/app.js", headers: ["Accept-Encoding": "gzip;q=0"])
      #expect(refused.headers["content-encoding"] == nil)
      let image = try fetch(port: server.port, "/icon.png", headers: ["Accept-Encoding": "gzip"])
      #expect(image.headers["content-encoding"] == nil && image.headers["vary"] == nil)
      #expect(image.text == "PNG")
    }

    @Test func thePageApplicationsOwnAddressesGetItsIndexPage() throws {
      let root = try StaticRoot()
      let (server, _) = try Recorder.serving(
        .init(staticRoot: root.path, pageRoutes: ["/play/", "/scores"]))
      defer { server.stop() }
      for path in ["/play/AbCdEfGh12345678", "/play/x/y", "/scores"] {
        let response = try fetch(port: server.port, path)
        #expect(response.status == 200, "\(path)")
        #expect(response.text == StaticRoot.files["index.html"], "\(path)")
      }
      for path in ["/play/", "/play", "/scores/more", "/scoreboard", "/missing.js"] {
        #expect(try fetch(port: server.port, path).status == 404, "\(path)")
      }
      #expect(try fetch(port: server.port, "/app.js").text == StaticRoot.files["app.js"])
    }

    @Test func aMissingFileIsNotFound() throws {
      let root = try StaticRoot()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      #expect(try fetch(port: server.port, "/missing.js").status == 404)
    }

    @Test(arguments: [
      "/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd",
      "/games/../../etc/passwd", "/escape/passwd", "/.env",
    ])
    func pathsOutsideTheRootAreRefused(path: String) throws {
      let root = try StaticRoot()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let response = try fetch(port: server.port, path)
      #expect(response.status >= 400)
      #expect(!response.text.contains("root:"))
      #expect(!response.text.contains("secret"))
    }

    @Test func contentTypesCoverTheClientsFiles() {
      #expect(StaticFiles.contentType(for: "/a/b.JS") == "text/javascript; charset=utf-8")
      #expect(StaticFiles.contentType(for: "/noextension") == "application/octet-stream")
      #expect(StaticFiles.contentType(for: "/dir.v2/file") == "application/octet-stream")
    }
  }
}

extension WebServerTests {
  @Suite struct EndpointTests {
    @Test func anEndpointAnswersWithJSON() throws {
      let (server, _) = try Recorder.serving()
      defer { server.stop() }
      let response = try fetch(port: server.port, "/api/echo?name=Ann%20Lee&x=1")
      #expect(response.status == 200)
      #expect(response.headers["content-type"] == "application/json")
      #expect(response.headers["cache-control"] == "no-store")
      let json = try JSONDecoder().decode([String: String].self, from: Data(response.body))
      #expect(json == ["method": "GET", "name": "Ann Lee", "body": ""])
    }

    @Test func aPostBodyReachesTheEndpoint() throws {
      let (server, _) = try Recorder.serving()
      defer { server.stop() }
      let response = try fetch(
        port: server.port, "/api/echo", method: "POST", body: Array(#"{"a":1}"#.utf8))
      #expect(response.status == 200)
      let json = try JSONDecoder().decode([String: String].self, from: Data(response.body))
      #expect(json == ["method": "POST", "name": "", "body": #"{"a":1}"#])
    }

    @Test func anOversizedPostBodyIsRefused() throws {
      let (server, _) = try Recorder.serving(.init(maximumMessageBytes: 100))
      defer { server.stop() }
      let response = try fetch(
        port: server.port, "/api/echo", method: "POST", body: Array(repeating: 65, count: 500))
      #expect(response.status == 413)
    }

    @Test func anUnknownEndpointIsAJSONNotFound() throws {
      let (server, _) = try Recorder.serving()
      defer { server.stop() }
      let response = try fetch(port: server.port, "/api/nothing")
      #expect(response.status == 404)
      #expect(response.headers["content-type"] == "application/json")
      #expect(response.text == #"{"error":"notFound"}"#)
    }

    @Test func withoutAStaticRootOtherPathsAreNotFound() throws {
      let (server, _) = try Recorder.serving()
      defer { server.stop() }
      #expect(try fetch(port: server.port, "/index.html").status == 404)
    }
  }
}
