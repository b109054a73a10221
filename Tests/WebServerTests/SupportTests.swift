import Testing

@testable import WebServer

#if canImport(Glibc)
  import Glibc
#endif

extension WebServerTests {
  @Suite struct SupportTests {
    @Test func anOriginMustBeTheServersOwnSchemeAndHostOrAllowed() {
      let own = "127.0.0.1:8080"
      #expect(EventLoop.originAllowed("http://127.0.0.1:8080", host: own, allowed: []))
      #expect(EventLoop.originAllowed("HTTP://127.0.0.1:8080", host: own, allowed: []))
      // NB: the server speaks no TLS: an https page of the same host is another origin.
      #expect(!EventLoop.originAllowed("https://127.0.0.1:8080", host: own, allowed: []))
      #expect(!EventLoop.originAllowed("ws://127.0.0.1:8080", host: own, allowed: []))
      #expect(!EventLoop.originAllowed("http://127.0.0.1:8081", host: own, allowed: []))
      #expect(!EventLoop.originAllowed("http://127.0.0.1:8080", host: nil, allowed: []))
      #expect(!EventLoop.originAllowed("null", host: own, allowed: []))
      let listed = ["https://Cards.example"]
      #expect(
        EventLoop.originAllowed("https://cards.example", host: "cards.example", allowed: listed))
      #expect(
        !EventLoop.originAllowed("http://evil.example", host: "cards.example", allowed: listed))
    }

    @Test func aBucketAllowsABurstThenTheRate() {
      var bucket = TokenBucket(rate: 10, burst: 3, now: 0)
      var taken: [Bool] = []
      for _ in 0..<4 { taken.append(bucket.take(now: 0)) }
      #expect(taken == [true, true, true, false])
      let halfway = bucket.take(now: 50_000_000)
      #expect(!halfway)
      let refilled = bucket.take(now: 100_000_000)
      let again = bucket.take(now: 100_000_000)
      #expect(refilled && !again)
      taken = []
      for _ in 0..<4 { taken.append(bucket.take(now: 10_000_000_000)) }
      #expect(taken == [true, true, true, false])
    }

    @Test(.timeLimit(.minutes(1)))
    func aTerminationSignalEndsTheWait() {
      let number = WebServer.waitForTerminationSignal(ready: { kill(getpid(), SIGTERM) })
      #expect(number == SIGTERM)
    }

    @Test func aTakenPortIsRefusedAndTheFirstServerGoesOn() throws {
      let (server, _) = try Recorder.serving()
      defer { server.stop() }
      let second = WebServer(configuration: .init(port: server.port), handler: Recorder())
      #expect(throws: WebServer.StartError.cannotListen(host: "127.0.0.1", port: server.port)) {
        try second.start()
      }
      let client = try WebSocketClient(port: server.port)
      try client.send("echo:still")
      #expect(try client.receiveText() == "echo:still")
    }

    @Test func oneConnectionCarriesSeveralRequests() throws {
      let root = try StaticRoot()
      let (server, _) = try Recorder.serving(.init(staticRoot: root.path))
      defer { server.stop() }
      let socket = try LoopbackSocket(port: server.port)
      var pending: [UInt8] = []
      for target in ["/app.js", "/api/echo?name=a", "/missing", "/style.css"] {
        try socket.write(Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let (status, body) = try readResponse(socket, &pending)
        #expect(status == (target == "/missing" ? 404 : 200))
        if target == "/style.css" { #expect(body == Array("body { margin: 0 }".utf8)) }
      }
    }

    /// Reads one response framed by its Content-Length from a kept-alive connection.
    private func readResponse(_ socket: LoopbackSocket, _ pending: inout [UInt8]) throws -> (
      Int, [UInt8]
    ) {
      let separator = Array("\r\n\r\n".utf8)
      while pending.firstRange(of: separator) == nil {
        let chunk = try socket.read()
        if chunk.isEmpty { throw ClientError("closed") }
        pending += chunk
      }
      guard let end = pending.firstRange(of: separator) else { throw ClientError("no header end") }
      let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self).lowercased()
      let status = Int(head.split(separator: " ")[1]) ?? 0
      let length =
        head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
        .flatMap { Int($0.dropFirst("content-length:".count).trimmingPrefix(" ")) } ?? 0
      while pending.count < end.upperBound + length {
        let chunk = try socket.read()
        if chunk.isEmpty { throw ClientError("closed") }
        pending += chunk
      }
      let body = Array(pending[end.upperBound..<(end.upperBound + length)])
      pending.removeSubrange(..<(end.upperBound + length))
      return (status, body)
    }
  }
}
