import Testing

@testable import TerminalUI

@Suite struct ServerAddressTests {
  @Test func httpWsAndBareAddressesAreRead() throws {
    let plain = try WebSocketLink.Address("http://127.0.0.1:8080/")
    #expect(plain.host == "127.0.0.1" && plain.port == 8080 && plain.path == "")
    let bare = try WebSocketLink.Address("cards.example.org")
    #expect(bare.host == "cards.example.org" && bare.port == 80)
    let prefixed = try WebSocketLink.Address("ws://[::1]:9000/cardtable/play/abc")
    #expect(prefixed.host == "::1" && prefixed.port == 9000 && prefixed.path == "/cardtable")
    #expect(prefixed.web == "http://[::1]:9000/cardtable")
  }

  @Test(arguments: ["https://example.org", "wss://example.org", "http://h:x", "http://:80", "h:0"])
  func whatIsNotAPlainAddressIsRefusedWithAReason(text: String) {
    #expect(throws: WebSocketLink.Failure.self) { try WebSocketLink.Address(text) }
  }
}
