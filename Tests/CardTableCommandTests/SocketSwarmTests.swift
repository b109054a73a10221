import GameServer
import GameStore
import Testing
import WebServer

@testable import CardTableCommand

@Suite struct SocketSwarmTests {
  /// The benchmarks' clients answer the server's pings, as a browser does: one that did not
  /// was hung up after the idle time and half as long again (a `bench tables` run of more
  /// than some 40 s failed so). Here the server pings after 1 s and would hang up at 2 s.
  @Test func theSwarmAnswersPingsAndStaysConnected() throws {
    let bridge = WebBridge()
    let server = WebServer(configuration: .init(idlePingSeconds: 1), handler: bridge)
    bridge.attach(web: server, store: MemoryStore(), configuration: GameServer.Configuration())
    try server.start()
    defer {
      server.stop()
      bridge.detach()
    }
    let swarm = try SocketSwarm(port: server.port, count: 2)
    _ = try swarm.receiveOneEach(timeout: 10)
    // NB: three pings each, a second after the pong before: past the time an unanswered
    // first ping is hung up.
    let deadline = ContinuousClock.now + .seconds(30)
    while swarm.pingsAnswered < 6 {
      let seconds = try ServerProbe.secondsLeft(until: deadline) {
        "\(swarm.pingsAnswered) pings in 30 s"
      }
      _ = try swarm.receive(timeout: min(seconds, 1))
    }
    for client in 0..<2 { try swarm.send(#"{"cmd":"hello","id":"still"}"#, from: client) }
    #expect(try swarm.replies(to: "still", from: [0, 1], timeout: 10).count == 2)
  }
}
