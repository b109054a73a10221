import Testing

@testable import WebServer

#if canImport(Glibc)
  import Glibc
#endif

extension WebServerTests {
  @Suite struct SupportTests {
    @Test func anIPv6AddressIsLimitedByItsSlash64AndIPv4ByItself() {
      #expect(Listener.limitGroup(of: "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
      #expect(Listener.limitGroup(of: "2001:db8:1:2:bbbb:cccc:dddd:eeee") == "2001:db8:1:2::/64")
      #expect(Listener.limitGroup(of: "2001:db8:1:3::1") == "2001:db8:1:3::/64")
      #expect(Listener.limitGroup(of: "::1") == "::/64")
      #expect(Listener.limitGroup(of: "fe80::1%lo") == "fe80::1%lo", "not an address: itself")
      #expect(Listener.limitGroup(of: "192.0.2.7") == "192.0.2.7")
      #expect(Listener.limitGroup(of: "192.0.2.8") == "192.0.2.8")
    }

    @Test func theBudgetShedsTheAddressesThatSpendTheMostAndKeepsTheCheapOnes() {
      var budget = HandlingBudget(secondsPerSecond: 0.25)
      var now: UInt64 = 1_000_000_000
      // NB: 10 ms a message from each of 8 floods every millisecond, and 50 µs a message from
      // a player every 50 ms, for 2 s.
      var floods = 0
      var player = 0
      for step in 1...2_000 {
        now += 1_000_000
        for flood in 0..<8 where budget.allows("flood \(flood)", now: now) {
          budget.charge(0.010, to: "flood \(flood)", now: now)
          floods += 1
        }
        if step % 50 == 0, budget.allows("player", now: now) {
          budget.charge(0.000_05, to: "player", now: now)
          player += 1
        }
      }
      #expect(player == 40, "the cheap address, 20 messages a second, is never shed")
      #expect(floods < 2 * 25 * 2 + 200, "the floods get about the budget: 0.25 s a second")
      let rate = budget.rate(now: now)
      #expect(abs(rate - 0.25) < 0.1, "spending stays about the budget")
      var unlimited = HandlingBudget(secondsPerSecond: .infinity)
      unlimited.charge(100, to: "flood", now: now)
      let allowed = unlimited.allows("flood", now: now)
      #expect(allowed)
    }

    @Test func aMessageIsChargedTheLoopsWorkNotTheTimeItWasNotRunning() {
      // NB: a thread preempted in the middle of a message is not running, as one asleep is not:
      // on a busy machine the wall clock charged that wait to whoever was being handled.
      var budget = HandlingBudget(secondsPerSecond: 0.25)
      var now = monotonicNanoseconds()
      budget.charge(0.001, to: "proxy", now: now)
      let alone = budget.meter(now: now)
      #expect(
        alone.cpuStarted == nil, "one address spending is never shed: the wall clock times it")
      budget.charge(0.001, to: "someone else", now: now)
      let shared = budget.meter(now: now)
      #expect(shared.cpuStarted != nil, "with several, the thread's CPU time times it")
      usleep(100_000)
      var sum: UInt64 = 0
      let working = HandlingBudget.threadSeconds()
      for value in 0..<UInt64(200_000) { sum = sum &* 31 &+ value }
      let work = HandlingBudget.threadSeconds() - working
      now = monotonicNanoseconds()
      budget.charge(shared, to: "player", now: now)
      let measured = budget.spent(by: "player", now: now)
      #expect(sum != 1 && measured > 0, "its work is charged")
      #expect(measured < work + 0.05, "its 100 ms asleep are not: \(measured) s for \(work) s")
    }

    @Test func oneAddressAloneIsNeverShed() {
      var budget = HandlingBudget(secondsPerSecond: 0.25)
      for step in 1...100 {
        let now = UInt64(step) * 10_000_000
        let allowed = budget.allows("proxy", now: now)
        #expect(allowed)
        budget.charge(0.010, to: "proxy", now: now)
      }
    }

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

/// The monotonic clock in nanoseconds, as the loop's `uv_hrtime()` reads it.
private func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
