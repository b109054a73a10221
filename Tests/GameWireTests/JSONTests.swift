import GameWire
import Testing

@Suite struct JSONTests {
  @Test func parsesAndPrintsEveryKindOfValue() throws {
    let text = #"{"a":[1,-2.5,3e2,true,false,null],"b":{"c":"d\n\"é\" ♥"},"z":{}}"#
    let value = try JSON(parsing: text)
    #expect(value["a"]?.arrayValue?.count == 6)
    #expect(value["b"]?["c"]?.stringValue == "d\n\"é\" ♥")
    #expect(value.text == text)
  }

  @Test func keepsTheOrderOfMembers() throws {
    let value = try JSON(parsing: #"{"zebra":1,"apple":2,"mango":3}"#)
    #expect(value.keys == ["zebra", "apple", "mango"])
  }

  @Test func keepsLargeSeedsExact() throws {
    let value = try JSON(parsing: #"{"seed":18446744073709551615}"#)
    #expect(value["seed"]?.uint64Value == UInt64.max)
    #expect(value.text == #"{"seed":18446744073709551615}"#)
  }

  @Test func decodesEscapesAndSurrogatePairs() throws {
    let value = try JSON(parsing: #""\u00e9\ud83c\udca1\t\/""#)
    #expect(value.stringValue == "é🂡\t/")
    #expect(JSON.string("\u{01}").text == #""\u0001""#)
  }

  @Test(arguments: [
    ("", 0), ("{", 1), (#"{"a"}"#, 4), ("[1,]", 3), ("01", 1), ("tru", 0), (#""abc"#, 4),
    ("{} x", 3), ("-", 1), (#""\x""#, 2), ("1.", 2),
  ])
  func rejectsMalformedTextWithAnOffset(text: String, offset: Int) {
    #expect(throws: JSONSyntaxError.self) { try JSON(parsing: text) }
    do {
      _ = try JSON(parsing: text)
    } catch {
      #expect(error.offset == offset)
    }
  }

  @Test func refusesPathologicalNesting() {
    let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(throws: JSONSyntaxError.self) { try JSON(parsing: deep) }
  }

  @Test func numbersFromDoublesAreWrittenPlainly() {
    #expect(JSON(2.0).text == "2")
    #expect(JSON(1.5).text == "1.5")
    #expect(JSON(Double.nan) == .null)
  }
}
