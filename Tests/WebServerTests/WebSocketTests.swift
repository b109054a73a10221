import Dispatch
import Foundation
import Synchronization
import Testing
import WebServer

#if canImport(Glibc)
  import Glibc
#endif

extension WebServerTests {
  @Suite struct WebSocketTests {
    @Test func aMessageMakesTheRoundTrip() throws {
      let (server, recorder) = try Recorder.serving()
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port, path: "/ws?room=ABCD")
      let id = try #require(recorder.latestConnection())
      #expect(recorder.events.first == .connected(id, "/ws"))
      try client.send("echo:hello, ♠︎")
      #expect(try client.receiveText() == "echo:hello, ♠︎")
      #expect(recorder.events.contains(.received(id, "echo:hello, ♠︎")))
    }

    @Test func fragmentsAreReassembledIntoOneMessage() throws {
      let (server, recorder) = try Recorder.serving()
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port)
      try client.sendFrame(.text, Array("echo:frag".utf8), final: false)
      try client.sendFrame(.continuation, Array("mented ".utf8), final: false)
      try client.sendFrame(.continuation, Array("message".utf8), final: true)
      #expect(try client.receiveText() == "echo:fragmented message")
      let id = try #require(recorder.latestConnection())
      #expect(recorder.events.filter { $0 == .received(id, "echo:fragmented message") }.count == 1)
    }

    @Test func aLargeMessageArrivesWholeBothWays() throws {
      let (server, _) = try Recorder.serving(.init(maximumMessageBytes: 512 * 1024))
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port)
      let text = "echo:" + String(repeating: "0123456789abcdef", count: 20_000)
      try client.send(text)
      #expect(try client.receiveText() == text)
    }

    @Test func anOversizedMessageIsRefusedAndTheConnectionGoesOn() throws {
      let (server, recorder) = try Recorder.serving(.init(maximumMessageBytes: 1024))
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port)
      let id = try #require(recorder.latestConnection())
      try client.send(String(repeating: "x", count: 5000))
      #expect(try client.receiveText() == "refused: tooLarge(5000)")
      try client.send("echo:still here")
      #expect(try client.receiveText() == "echo:still here")
      #expect(recorder.events.contains(.refused(id, .tooLarge(5000))))
      #expect(!recorder.events.contains(.disconnected(id)))
    }

    @Test func binaryAndInvalidTextAreRefused() throws {
      let (server, recorder) = try Recorder.serving()
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port)
      let id = try #require(recorder.latestConnection())
      try client.sendFrame(.binary, [1, 2, 3])
      #expect(try client.receiveText() == "refused: notText")
      try client.sendFrame(.text, [0x65, 0xff, 0xfe])
      #expect(try client.receiveText() == "refused: notText")
      #expect(recorder.events.filter { $0 == .refused(id, .notText) }.count == 2)
    }

    @Test func sendingTooFastIsRefused() throws {
      let (server, recorder) = try Recorder.serving(.init(messagesPerSecond: 2, messageBurst: 3))
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port)
      let id = try #require(recorder.latestConnection())
      for number in 0..<10 { try client.send("message \(number)") }
      recorder.wait { events in
        events.filter { $0 == .refused(id, .tooFast) }.count
          + events.filter { if case .received = $0 { true } else { false } }.count == 10
      }
      let accepted = recorder.events.filter { if case .received = $0 { true } else { false } }
      #expect((3...5).contains(accepted.count))
      #expect(accepted.first == .received(id, "message 0"))
      #expect(recorder.events.filter { $0 == .refused(id, .tooFast) }.count == 10 - accepted.count)
    }

    @Test func aVanishedClientIsForgottenAndOthersAreServed() throws {
      let (server, recorder) = try Recorder.serving()
      defer { server.stop() }
      let leaving = try WebSocketClient(port: server.port)
      let leaver = try #require(recorder.latestConnection())
      let staying = try WebSocketClient(port: server.port)
      try leaving.send("echo:one")
      leaving.socket.close()
      #expect(recorder.wait { $0.contains(.disconnected(leaver)) })
      for number in 0..<20 { server.send("late \(number)", to: leaver) }
      try staying.send("echo:two")
      #expect(try staying.receiveText() == "echo:two")
    }

    /// A client silent for the idle time is pinged; one that answers stays, one that does not
    /// is hung up half as long again after (here: pinged at 1 s, hung up at 2 s).
    @Test func anIdleClientIsPingedAndHungUpUnlessItAnswers() throws {
      let (server, recorder) = try Recorder.serving(.init(idlePingSeconds: 1))
      defer { server.stop() }
      let silent = try WebSocketClient(port: server.port)
      let silentID = try #require(recorder.latestConnection())
      let answering = try WebSocketClient(port: server.port)
      let answeringID = try #require(recorder.latestConnection(besides: [silentID]))
      #expect(try silent.receiveFrame().opcode == .ping)
      // NB: three pings answered, each a second after the pong before: past the silent one's
      // hang-up, which a pong must have put off for the answering one.
      for _ in 0..<3 {
        let (opcode, payload) = try answering.receiveFrame()
        try #require(opcode == .ping)
        try answering.sendFrame(.pong, payload)
      }
      #expect(recorder.wait { $0.contains(.disconnected(silentID)) })
      #expect(silent.waitForClose())
      try answering.send("echo:still here")
      #expect(try answering.receiveText() == "echo:still here")
      #expect(!recorder.events.contains(.disconnected(answeringID)))
    }

    @Test func aClientThatDoesNotReadIsClosedWhenItsBacklogIsFull() throws {
      let (server, recorder) = try Recorder.serving(.init(maximumOutboxBytes: 256 * 1024))
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port)
      let id = try #require(recorder.latestConnection())
      let chunk = String(repeating: "z", count: 64 * 1024)
      for _ in 0..<400 { server.send(chunk, to: id) }
      #expect(recorder.wait { $0.contains(.disconnected(id)) })
      withExtendedLifetime(client) {}
    }

    @Test func closingFromTheServerFlushesThenDisconnects() throws {
      let (server, recorder) = try Recorder.serving()
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port)
      let id = try #require(recorder.latestConnection())
      server.send("last words", to: id)
      server.close(id)
      #expect(try client.receiveText() == "last words")
      #expect(client.waitForClose())
      #expect(recorder.wait { $0.contains(.disconnected(id)) })
    }

    @Test func sendsFromManyThreadsArriveInOrderPerThread() throws {
      let (server, recorder) = try Recorder.serving()
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port)
      let id = try #require(recorder.latestConnection())
      let threads = 8
      let perThread = 200
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        for number in 0..<perThread { server.send("\(thread) \(number)", to: id) }
      }
      var next = [Int](repeating: 0, count: threads)
      for _ in 0..<(threads * perThread) {
        let parts = try client.receiveText().split(separator: " ").compactMap { Int($0) }
        try #require(parts.count == 2)
        #expect(parts[1] == next[parts[0]])
        next[parts[0]] = parts[1] + 1
      }
      #expect(next == [Int](repeating: perThread, count: threads))
    }
  }
}

extension WebServerTests {
  @Suite struct LifecycleTests {
    @Test func stopReturnsPromptlyWithClientsConnected() throws {
      let (server, recorder) = try Recorder.serving()
      let clients = try (0..<3).map { _ in try WebSocketClient(port: server.port) }
      #expect(
        recorder.wait { $0.filter { if case .connected = $0 { true } else { false } }.count == 3 })
      let started = ContinuousClock.now
      server.stop()
      let elapsed = ContinuousClock.now - started
      #expect(elapsed < .seconds(1))
      #expect(
        recorder.events.filter { if case .disconnected = $0 { true } else { false } }.count == 3)
      for client in clients { #expect(client.waitForClose()) }
      server.stop()
      server.send("after stop", to: ConnectionID(rawValue: 1))
    }

    @Test func aPortInUseIsAClearError() throws {
      let (first, _) = try Recorder.serving()
      defer { first.stop() }
      let second = WebServer(configuration: .init(port: first.port), handler: Recorder())
      #expect(throws: WebServer.StartError.cannotListen(host: "127.0.0.1", port: first.port)) {
        try second.start()
      }
      second.stop()
      #expect(try fetch(port: first.port, "/api/echo").status == 200)
    }

    @Test func aMissingStaticRootIsAClearError() {
      let server = WebServer(
        configuration: .init(staticRoot: "/nonexistent/web"), handler: Recorder())
      #expect(throws: WebServer.StartError.staticRootNotFound("/nonexistent/web")) {
        try server.start()
      }
    }

    @Test func aServerStartsOnce() throws {
      let (server, _) = try Recorder.serving()
      #expect(server.port > 0)
      #expect(throws: WebServer.StartError.alreadyStarted) { try server.start() }
      server.stop()
      #expect(throws: WebServer.StartError.alreadyStarted) { try server.start() }
    }

    @Test func stopBeforeStartIsHarmless() {
      let server = WebServer(handler: Recorder())
      server.stop()
      #expect(server.port == 0)
    }
  }
}

extension WebServerTests {
  @Suite struct ClosingAndLimitTests {
    /// The close code of a close frame's payload.
    static func code(_ payload: [UInt8]) -> Int? {
      payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
    }

    @Test func stoppingClosesEveryWebSocketWithGoingAway() throws {
      let (server, recorder) = try Recorder.serving()
      let clients = try (0..<3).map { _ in try WebSocketClient(port: server.port) }
      recorder.wait { $0.filter { if case .connected = $0 { true } else { false } }.count == 3 }
      server.stop()
      for client in clients {
        let (opcode, payload) = try client.receive()
        #expect(opcode == .close)
        #expect(Self.code(payload) == 1001)
      }
    }

    @Test func closingAConnectionSendsItsQueuedMessagesThenANormalClose() throws {
      let (server, recorder) = try Recorder.serving()
      defer { server.stop() }
      let client = try WebSocketClient(port: server.port)
      let id = try #require(recorder.latestConnection())
      server.send("last words", to: id)
      server.close(id)
      #expect(try client.receiveText() == "last words")
      let (opcode, payload) = try client.receive()
      #expect(opcode == .close)
      #expect(Self.code(payload) == 1000)
    }

    @Test func connectionsBeyondTheLimitAreRefusedAndTheOthersGoOn() throws {
      let lines = LogLines()
      let (server, recorder) = try Recorder.serving(
        .init(maximumConnections: 4, log: { lines.append($0) }))
      defer { server.stop() }
      var clients = try (0..<4).map { _ in try WebSocketClient(port: server.port) }
      recorder.wait { $0.filter { if case .connected = $0 { true } else { false } }.count == 4 }
      for _ in 0..<3 {
        #expect(throws: (any Error).self) { try WebSocketClient(port: server.port) }
      }
      for client in clients {
        try client.send("echo:here")
        #expect(try client.receiveText() == "echo:here")
      }
      #expect(lines.all.filter { $0.contains("the limit") }.count == 1, "logged once")
      clients.removeLast().socket.close()
      recorder.wait { $0.contains { if case .disconnected = $0 { true } else { false } } }
      let again = try WebSocketClient(port: server.port)
      try again.send("echo:back")
      #expect(try again.receiveText() == "echo:back")
      #expect(lines.all.contains { $0.contains("accepting again") })
    }
  }
}

/// Log lines collected from any thread.
final class LogLines: Sendable {
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}
