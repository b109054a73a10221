import CardTableCore
import GameWire
import Testing

/// The reader's ways to be quick — strings found by their bytes, names told apart by their
/// bytes, runs found eight bytes at a time — must never change what it reads.
@Suite struct JSONReaderTests {
  @Test func aRepeatedMemberKeepsItsFirstPlaceAndItsLastValue() throws {
    let value = try JSON(parsing: #"{"a":1,"b":2,"a":3}"#)
    #expect(value.keys == ["a", "b"])
    #expect(value["a"] == 3)
    // NB: names longer than 16 bytes are known by a hash of their bytes, not the bytes.
    let long = try JSON(
      parsing: #"{"canStartNextRound":1,"canStartNextRounds":2,"canStartNextRound":3}"#)
    #expect(long.keys == ["canStartNextRound", "canStartNextRounds"])
    #expect(long["canStartNextRound"] == 3)
  }

  @Test func aNameWrittenWithEscapesIsTheSameName() throws {
    let value = try JSON(parsing: #"{"ab":1,"\u0061\u0062":2,"\u00e9t\u00e9":3,"été":4}"#)
    #expect(value.keys == ["ab", "été"])
    #expect(value["ab"] == 2)
    #expect(value["été"] == 4)
  }

  /// `String` holds canonical equivalents equal, and so does the reader, ASCII or not: the
  /// Kelvin sign is "K", and a decomposed "é" is the composed one.
  @Test func canonicallyEquivalentNamesAreOneName() throws {
    let value = try JSON(parsing: "{\"K\":1,\"x\":0,\"\u{212A}\":2,\"e\u{301}\":3,\"\u{E9}\":4}")
    #expect(value.keys?.count == 3)
    #expect(value["K"] == 2)
    #expect(value["\u{E9}"] == 4)
  }

  @Test func aLargeObjectFindsItsRepeatedNames() throws {
    let names = (0..<80).map { "member\($0)" }
    let text =
      "{"
      + (names + names.reversed()).enumerated().map { #""\#($1)":\#($0)"# }.joined(
        separator: ",") + "}"
    let value = try JSON(parsing: text)
    #expect(value.keys == names)
    #expect(value["member0"] == 159)
    #expect(value["member79"] == 80)
  }

  @Test func invalidUTF8IsReplacedTheSameWayEveryTime() throws {
    for _ in 0..<2 {
      for bytes: [UInt8] in [
        [0x22, 0xFF, 0x22], [0x22, 0x61, 0xC3, 0x22],
        [0x22] + Array(repeating: 0x61, count: 20) + [0xFE, 0x22],
      ] {
        let value = try bytes.withUnsafeBytes { try JSON(parsing: $0) }
        #expect(value == .string(String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self)))
      }
    }
  }

  /// Every string of 0 to 40 bytes at the very end of the text (where fewer than eight or
  /// sixteen bytes are left to read at once) and inside it, with a quote, a backslash or a
  /// control character at every place.
  @Test func stringsAreReadWholeAtEveryLengthAndPlace() throws {
    for length in 0...40 {
      let plain = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
      #expect(try JSON(parsing: JSON.string(plain).text) == .string(plain))
      #expect(try JSON(parsing: "[" + JSON.string(plain).text + ",1]") == [.string(plain), 1])
      for place in 0..<length {
        for special in ["\"", "\\", "\n", "\u{01}", "é"] {
          var characters = Array(plain)
          characters[place] = Character(special)
          let text = String(characters)
          #expect(try JSON(parsing: JSON.string(text).text) == .string(text))
        }
      }
    }
    // NB: a control character must be escaped: unescaped, it is refused wherever it is.
    for place in 0..<40 {
      var bytes = Array(("\"" + String(repeating: "a", count: 40) + "\"").utf8)
      bytes[place + 1] = 0x1F
      do {
        _ = try bytes.withUnsafeBytes { try JSON(parsing: $0) }
        Issue.record("a control character at \(place) was read")
      } catch let error as JSONSyntaxError {
        #expect(error.offset == place + 1)
      } catch {
        Issue.record(error)
      }
    }
  }

  /// Seeded random documents: objects whose members may repeat (by the same bytes, by
  /// escapes, or by canonical equivalents), strings short and long, ASCII and not; each read
  /// as a reference reading built from the members themselves would have it.
  @Test(arguments: 0..<8)
  func seededDocumentsReadAsTheirMembersSay(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for _ in 0..<150 {
      let (text, expected) = document(depth: 0, &random)
      let value = try JSON(parsing: text)
      // NB: not the values themselves in the message: a document may be long.
      let same = value == expected && order(value) == order(expected)
      #expect(same, "read otherwise: \(text.prefix(400))")
    }
  }

  // MARK: Random documents

  private static let pool = [
    "a", "id", "type", "version", "closedCount", "canStartNextRound", "position",
    "sixteen_letters_", "seventeen_letters", "été", "K", "\u{212A}", "e\u{301}", "\u{E9}", "♥",
    "", "a\"b", "tab\there", "\u{1F0A1}",
  ]

  private func string(_ random: inout SplitMix64) -> String {
    if random.next() % 2 == 0 { return Self.pool[Int(random.next() % UInt64(Self.pool.count))] }
    let length = Int(random.next() % 24)
    let alphabet = Array("abcXYZ019 _-♥é\u{212A}\"\\\n/")
    return String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
  }

  /// A string's text, now and then with every character escaped.
  private func written(_ string: String, _ random: inout SplitMix64) -> String {
    guard random.next() % 4 == 0 else { return JSON.string(string).text }
    return "\""
      + string.utf16.map { unit in
        "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count)
          + String(unit, radix: 16)
      }.joined() + "\""
  }

  private func document(depth: Int, _ random: inout SplitMix64) -> (String, JSON) {
    switch depth < 3 ? random.next() % 6 : random.next() % 3 {
    case 0:
      let number = Int(random.next() % 2_000) - 1_000
      return (String(number), JSON(number))
    case 1:
      let text = string(&random)
      return (written(text, &random), .string(text))
    case 2:
      let choice = random.next() % 3
      return choice == 0 ? ("true", true) : choice == 1 ? ("false", false) : ("null", .null)
    case 3:
      let count = Int(random.next() % 5)
      let elements = (0..<count).map { _ in document(depth: depth + 1, &random) }
      return (
        "[" + elements.map(\.0).joined(separator: ",") + "]", .array(elements.map(\.1))
      )
    default:
      let count = Int(random.next() % (random.next() % 4 == 0 ? 48 : 8))
      var texts: [String] = []
      var members: [(String, JSON)] = []
      for _ in 0..<count {
        let name = string(&random)
        let (text, value) = document(depth: depth + 1, &random)
        texts.append(written(name, &random) + ":" + text)
        // NB: the reference: a repeated name keeps its first place and takes the last value.
        if let existing = members.firstIndex(where: { $0.0 == name }) {
          members[existing].1 = value
        } else {
          members.append((name, value))
        }
      }
      return ("{" + texts.joined(separator: ",") + "}", .object(members))
    }
  }

  /// Every object's names in their order, depth first.
  private func order(_ value: JSON) -> [[String]] {
    switch value {
    case .object(let members): [members.map(\.0)] + members.flatMap { order($0.1) }
    case .array(let elements): elements.flatMap(order)
    default: []
    }
  }
}
