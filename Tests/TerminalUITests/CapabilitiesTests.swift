import Testing

@testable import TerminalUI

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct CapabilitiesTests {
  func detect(
    _ environment: [String: String], utf8: Bool = true, colour: Bool? = nil, ascii: Bool = false
  ) -> TerminalCapabilities {
    TerminalCapabilities.detect(
      environment: environment, localeIsUTF8: utf8, colour: colour, ascii: ascii)
  }

  @Test func anOrdinaryTerminalHasSixteenColoursAndUnicode() {
    #expect(detect(["TERM": "xterm"]) == TerminalCapabilities(colours: .sixteen, unicode: true))
    #expect(detect(["TERM": "screen"]).colours == .sixteen)
    #expect(detect([:]) == TerminalCapabilities(colours: .sixteen, unicode: true))
  }

  @Test func aTermNaming256ColorHas256Colours() {
    #expect(detect(["TERM": "xterm-256color"]).colours == .indexed256)
    #expect(detect(["TERM": "tmux-256color"]).colours == .indexed256)
  }

  @Test func colortermTruecolorOr24bitHas24BitColour() {
    #expect(detect(["TERM": "xterm", "COLORTERM": "truecolor"]).colours == .trueColour)
    #expect(detect(["TERM": "xterm-256color", "COLORTERM": "24bit"]).colours == .trueColour)
    #expect(detect(["COLORTERM": "TrueColor"]).colours == .trueColour)
    #expect(detect(["TERM": "xterm-256color", "COLORTERM": "yes"]).colours == .indexed256)
  }

  @Test func noColorSetAndNotEmptyTurnsColourOff() {
    let environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]
    #expect(detect(environment) == TerminalCapabilities(colours: .none, unicode: true))
    #expect(detect(["TERM": "xterm", "NO_COLOR": ""]).colours == .sixteen)
  }

  @Test func aDumbTerminalHasNoColourAndNoUnicode() {
    #expect(detect(["TERM": "dumb"]) == TerminalCapabilities(colours: .none, unicode: false))
  }

  @Test func aLocaleThatIsNotUTF8MeansASCII() {
    #expect(
      detect(["TERM": "xterm-256color"], utf8: false)
        == TerminalCapabilities(colours: .indexed256, unicode: false))
  }

  @Test func colourForcedOnKeepsTheDepthFoundOrSixteen() {
    #expect(detect(["TERM": "xterm", "NO_COLOR": "1"], colour: true).colours == .sixteen)
    #expect(
      detect(["TERM": "xterm-256color", "NO_COLOR": "1"], colour: true).colours == .indexed256)
    #expect(
      detect(["TERM": "dumb"], colour: true)
        == TerminalCapabilities(colours: .sixteen, unicode: false))
    #expect(detect(["COLORTERM": "truecolor"], colour: true).colours == .trueColour)
  }

  @Test func colourForcedOffIsNone() {
    #expect(
      detect(["TERM": "xterm-256color", "COLORTERM": "truecolor"], colour: false).colours == .none)
  }

  @Test func asciiForcedIsNoUnicodeWithColoursKept() {
    #expect(
      detect(["TERM": "xterm-256color"], ascii: true)
        == TerminalCapabilities(colours: .indexed256, unicode: false))
  }

  @Test func theProcessEnvironmentIsReadWhole() {
    let environment = TerminalCapabilities.processEnvironment()
    for name in ["PATH", "HOME"] {
      let value = getenv(name).map { String(cString: $0) }
      #expect(environment[name] == value, "\(name)")
    }
    #expect(!environment.isEmpty)
  }
}
