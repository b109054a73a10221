import Testing

@testable import GameStore

@Suite struct IdentifierTests {
  @Test func sha256MatchesTheStandardsExamples() {
    func hex(_ bytes: [UInt8]) -> String {
      bytes.map {
        String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
      }
      .joined()
    }
    #expect(
      hex(SHA256.hash(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    let long = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    #expect(
      hex(SHA256.hash(Array(long.utf8)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func roomIDsAreSixteenURLSafeCharactersAndDiffer() {
    let ids = (0..<200).map { _ in RoomID.random() }
    #expect(Set(ids).count == ids.count)
    for id in ids {
      #expect(id.rawValue.count == 16)
      #expect(RoomID(rawValue: id.rawValue) == id)
    }
    #expect(RoomID(rawValue: "short") == nil)
    #expect(RoomID(rawValue: "abcdefghijklmno/") == nil)
  }

  /// Room ids are told apart and hashed by their bytes: an id is equal to the same text made
  /// anew, and any one character changed, at any place, makes another id.
  @Test func roomIDsDifferInEveryCharacterAndTheSameTextIsTheSameID() throws {
    let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    for id in (0..<50).map({ _ in RoomID.random() }) {
      let again = try #require(RoomID(rawValue: String(Array(id.rawValue))))
      #expect(again == id && again.hashValue == id.hashValue && Set([id, again]).count == 1)
      var changed: Set<RoomID> = [id]
      for place in 0..<RoomID.length {
        var characters = Array(id.rawValue)
        let index = digits.firstIndex(of: characters[place]) ?? 0
        characters[place] = digits[(index + 1 + place) % digits.count]
        let other = try #require(RoomID(rawValue: String(characters)))
        #expect(other != id, "\(other) at \(place)")
        changed.insert(other)
      }
      #expect(changed.count == RoomID.length + 1)
    }
  }

  @Test func tokensAreTwentyTwoCharactersAndNeverPrinted() {
    let token = PlayerToken.random()
    #expect(token.rawValue.count == 22)
    #expect(PlayerToken(rawValue: token.rawValue) == token)
    #expect(PlayerToken(rawValue: token.rawValue + "A") == nil)
    #expect(!"\(token)".contains(token.rawValue))
    #expect(token.hash.count == 32)
    #expect(token.hash != PlayerToken.random().hash)
  }

  @Test func base64URLEncodesAsTheRFCSays() {
    #expect(Base64URL.encode(Array("foobar".utf8)) == "Zm9vYmFy")
    #expect(Base64URL.encode(Array("fooba".utf8)) == "Zm9vYmE")
    #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
  }
}
