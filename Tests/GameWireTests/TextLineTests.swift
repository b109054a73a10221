import CardTableCore
import GameWire
import Testing

/// ``TextLine``: a line put together piece by piece (``TextLine/Builder``) is the bytes its
/// interpolation writes, within the bytes kept inline and past them.
@Suite struct TextLineTests {
  @Test func aTextLineBuiltPieceByPieceIsTheInterpolationsText() {
    for value in [0, 7, -3, 42, Int.min, Int.max] {
      var text = TextLine.Builder()
      text.append("Ann")
      text.append(": ")
      text.append(value)
      text.append(PlayerID("Bob"))
      let interpolated: TextLine = "Ann: \(value)\(PlayerID("Bob"))"
      #expect(text.string == interpolated.string)
      #expect(text.string == "Ann: \(value)Bob")
    }
    // NB: longer than the 64 bytes kept inline: the rest goes on in an array.
    var long = TextLine.Builder()
    for index in 0..<40 { long.append("\(index)♥ ") }
    #expect(long.string == (0..<40).map { "\($0)♥ " }.joined())
  }
}
