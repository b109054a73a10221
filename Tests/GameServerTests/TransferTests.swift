import CardTableCore
import GameServer
import GameWire
import Testing

@testable import GameStore

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
    // NB: the time a code lasts is the wall clock's, which every server sharing a database reads
    // alike.
    let start = test.wall
    let old = code(test, phone, at: 0)
    let fresh = code(test, phone, at: 1)
    #expect(old != fresh)
    #expect(errorCode(test.send(claim(old), from: laptop, at: 2)) == "no-such-code")
    test.wall = start + 600_000
    #expect(errorCode(test.send(claim(fresh), from: laptop, at: 602)) == "no-such-code")
    let last = code(test, phone, at: 700)
    test.wall += 599_999
    #expect(test.send(claim(last), from: laptop, at: 1299).last?["token"] != nil)
  }

  @Test func aCodeMadeOnOneServerIsTakenOnAnotherSharingTheDatabase() throws {
    let test = try TestServer()
    let token = test.hello(phone)
    let shown = code(test, phone, at: 0)
    // NB: the codes are the store's, not the server's memory: a server started anew (as another
    // instance behind a proxy would be) takes it, once.
    try test.restart()
    test.hello(laptop)
    #expect(test.send(claim(shown), from: laptop, at: 1).last?["token"]?.stringValue == token)
    #expect(errorCode(test.send(claim(shown), from: laptop, at: 2)) == "no-such-code")
    // NB: what the database holds names neither the code nor the token.
    test.hello(phone, token: token)
    let again = code(test, phone, at: 3)
    #expect(!again.isEmpty)
    let rows = try test.store.database.scalar("SELECT hex(code_hash) || hex(sealed) FROM transfers")
    let kept = try #require(rows?.text)
    #expect(!kept.contains(again.filter { $0 != "-" }) && kept.count == 2 * (32 + 22))
    let hex = Array(token.utf8).map { String($0, radix: 16, uppercase: true) }.joined()
    #expect(!kept.contains(hex))
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
