import CardTableCore
import GameServer
import GameWire
import Testing

private let phone = ClientID(1)
private let laptop = ClientID(2)
private let stranger = ClientID(3)

/// The code a `transfer` answered `client` with.
private func code(_ test: TestServer, _ client: ClientID, at now: Double = 0) -> String {
  test.send(#"{"cmd":"transfer"}"#, from: client, at: now).last?["code"]?.stringValue ?? ""
}

private func claim(_ code: String) -> String { #"{"cmd":"claim","code":"\#(code)"}"# }

@Suite struct TransferTests {
  @Test func aCodeMovesThePlayerToAnotherDeviceOnce() throws {
    let test = try TestServer()
    let token = test.hello(phone)
    test.send(#"{"cmd":"settings","settings":{"name":"Ann"}}"#, from: phone)
    let answer = test.send(#"{"cmd":"transfer","id":4}"#, from: phone, at: 10).last
    #expect(answer?["reply"] == 4 && answer?["expiresIn"] == 600)
    let shown = try #require(answer?["code"]?.stringValue)
    #expect(shown.count == 9 && shown.dropFirst(4).first == "-")
    test.hello(laptop)
    // NB: typed as a person would: small letters, no dash.
    let typed = String(shown.lowercased().filter { $0 != "-" })
    let claimed = test.send(claim(typed), from: laptop, at: 20).last
    #expect(claimed?["type"] == "answer" && claimed?["token"]?.stringValue == token)
    let hello = test.send(#"{"cmd":"hello","token":"\#(token)"}"#, from: laptop, at: 21)
    #expect(hello.first?["settings"]?["name"] == "Ann", "the settings follow")
    test.hello(stranger)
    #expect(errorCode(test.send(claim(shown), from: stranger, at: 22)) == "no-such-code")
  }

  @Test func aCodeLastsTenMinutesAndANewOneReplacesTheOld() throws {
    let test = try TestServer()
    test.hello(phone)
    test.hello(laptop)
    let old = code(test, phone, at: 0)
    let fresh = code(test, phone, at: 1)
    #expect(old != fresh)
    #expect(errorCode(test.send(claim(old), from: laptop, at: 2)) == "no-such-code")
    #expect(errorCode(test.send(claim(fresh), from: laptop, at: 602)) == "no-such-code")
    let last = code(test, phone, at: 700)
    #expect(test.send(claim(last), from: laptop, at: 1299).last?["token"] != nil)
  }

  @Test func guessingAndMakingCodesAreLimited() throws {
    let test = try TestServer()
    test.hello(stranger)
    for _ in 0..<GameServer.wrongTransfersPerMinute {
      #expect(errorCode(test.send(claim("AAAA-AAAA"), from: stranger, at: 5)) == "no-such-code")
    }
    #expect(errorCode(test.send(claim("AAAA-AAAA"), from: stranger, at: 6)) == "too-many-codes")
    #expect(errorCode(test.send(claim("AAAA-AAAA"), from: stranger, at: 66)) == "no-such-code")
    test.hello(phone)
    for minute in 0..<GameServer.transfersPerHour { _ = code(test, phone, at: Double(minute)) }
    let refused = test.send(#"{"cmd":"transfer"}"#, from: phone, at: 30)
    #expect(errorCode(refused) == "too-many-transfers")
    #expect(!code(test, phone, at: 3_601).isEmpty, "an hour later, another")
    #expect(errorCode(test.send(#"{"cmd":"claim"}"#, from: phone)) == "bad-request")
  }
}
