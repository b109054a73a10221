import GameWire

/// The names people give themselves (`settings.name`, `rename` in a lobby): what is drawn at
/// seats, in receipts and on the Scores page, so nothing in one may draw outside its place or
/// change the text around it (docs/PROTOCOL.md "Names").
///
/// A name is trimmed of spaces at both ends, then must hold 1 to ``longest`` characters and at
/// most ``mostBytes`` bytes of UTF-8, no control characters (newlines, tabs, NUL…), no bidi
/// controls (which would reverse the text after the name: "Ann: 0 pairs" drawn as
/// "sriap 0 :XnnA"), at most ``mostMarks`` combining marks on one character, and something
/// besides spaces and invisible characters.
enum PlayerName {
  /// The most characters (grapheme clusters) a name may hold.
  static let longest = 24
  /// The most bytes of UTF-8 a name may hold: 24 characters of most scripts and emoji fit.
  static let mostBytes = 96
  /// The most combining marks on one character: enough for Vietnamese written decomposed.
  static let mostMarks = 4

  /// `raw` as a name: trimmed and checked.
  ///
  /// - Throws: a coded error saying what is wrong: `name-empty`, `name-too-long`,
  ///   `name-control`, `name-bidi` or `name-marks`.
  static func check(_ raw: String) throws(WireError) -> String {
    let name = raw.trimmingSpaces()
    for scalar in name.unicodeScalars {
      if scalar.properties.generalCategory == .control {
        throw WireError(
          code: "name-control",
          message: "A name cannot hold control characters such as newlines, tabs or NUL.")
      }
      if bidiControls.contains(scalar.value) {
        throw WireError(
          code: "name-bidi",
          message:
            "A name cannot hold right-to-left or left-to-right controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)."
        )
      }
    }
    guard name.unicodeScalars.contains(where: { !invisible($0) }) else {
      throw WireError(
        code: "name-empty", message: "A name needs at least one visible character.")
    }
    guard name.count <= longest, name.utf8.count <= mostBytes else {
      throw WireError(
        code: "name-too-long",
        message: "A name may hold at most \(longest) characters and \(mostBytes) bytes.")
    }
    for character in name
    where character.unicodeScalars.count(where: isMark) > mostMarks {
      throw WireError(
        code: "name-marks",
        message: "A name may put at most \(mostMarks) accents or other marks on one letter.")
    }
    return name
  }

  /// `raw` as a name, or nil when it is not one (a name kept before these rules).
  static func valid(_ raw: String?) -> String? {
    guard let raw else { return nil }
    return try? check(raw)
  }

  /// The bidi embedding, override and isolate controls, and the marks LRM, RLM and ALM.
  private static let bidiControls: Set<UInt32> = [
    0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F,
    0x061C,
  ]

  /// Spaces, and the characters drawn as nothing (zero-width space and joiners, word joiner,
  /// BOM, soft hyphen, Hangul fillers…).
  private static func invisible(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint
      || scalar.properties.generalCategory == .format
      || [0x2800, 0x3164, 0xFFA0, 0x115F, 0x1160].contains(scalar.value)
  }

  private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .spacingMark: true
    default: false
    }
  }
}
