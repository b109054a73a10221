import CardTableCore
import GameWire
import Testing

/// The writer's fast paths write what its plain rules say, over seeded values of every kind.
@Suite struct JSONWriterTests {
  /// Texts with runs that need no escape, each thing that does, and multi-byte characters, in
  /// every length from empty to longer than a few words (the escape check reads eight bytes at
  /// a time).
  @Test func everyTextIsWrittenAsItsEscapesSay() throws {
    let pieces: [String] = [
      "a", "Bob", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "♥",
      "🂡", "~", "/", "Your turn. Tap the stack.",
    ]
    var random = SplitMix64(seed: 19)
    for _ in 0..<2_000 {
      var text = ""
      for _ in 0..<random.nextInt(below: 24) { text += pieces[random.nextInt(below: pieces.count)] }
      var writer = JSONWriter()
      writer.write(text)
      #expect(writer.string == Self.escaped(text), "\(Array(text.utf8))")
      #expect(try JSON(parsing: writer.string).stringValue == text)
    }
  }

  /// Numbers of up to three decimals, whole ones, and doubles of any bits: each is the text
  /// Swift's shortest form gives (whole numbers below 10¹⁵ without a fraction).
  @Test func everyNumberIsWrittenInItsShortestForm() throws {
    var random = SplitMix64(seed: 8)
    var values: [Double] = [
      0.001, 0.0015, 0.1, 0.1.nextUp, 0.25, -2.5, 999_999_999.999, 1e9 - 0.0005, 1e9 + 0.5,
      123_456_789.125, 0.0005, 1e-7, 3.000_000_1, 2.5.nextDown, 1e15 + 0.5, -0.001,
    ]
    for _ in 0..<20_000 {
      let thousandths = Double(Int64(random.next() % 2_000_000_000_000)) - 1e12
      values.append(thousandths / 1000)
      values.append(
        Double(random.next() % 100_000) / 1000 + Double(random.nextInt(below: 3)) * 1e-9)
      let bits = Double(bitPattern: random.next())
      if bits.isFinite { values.append(bits) }
    }
    for value in values {
      var writer = JSONWriter()
      writer.write(value)
      #expect(writer.string == Self.shortest(value), "\(value.bitPattern)")
    }
    // One writer for all, each number written once to three times in a row and now and then
    // the one before again, as a version's clock is written into every seat's update: the
    // number it keeps from the last one it formatted is the right one, or none.
    var writer = JSONWriter()
    var expected: [String] = []
    for (index, value) in values.enumerated() {
      let again = index > 0 && random.nextInt(below: 4) == 0 ? [values[index - 1]] : []
      for number in Array(repeating: value, count: 1 + random.nextInt(below: 3)) + again {
        if !expected.isEmpty { writer.raw(UInt8(ascii: ",")) }
        writer.write(number)
        expected.append(Self.shortest(number))
      }
    }
    #expect(writer.string == expected.joined(separator: ","))
  }

  /// Swift's shortest form of `value`, whole numbers below 10¹⁵ without a fraction.
  static func shortest(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  /// The plain rule: `"`, `\` and control characters escaped, everything else as it is.
  static func escaped(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
