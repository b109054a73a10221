#if canImport(Glibc)
  import Glibc
#endif

/// How many colours a terminal shows: what ``ScreenWriter`` turns a ``Colour`` into.
public enum ColourDepth: Sendable, Equatable {
  /// No colour codes at all (`NO_COLOR`, `TERM=dumb`, `--no-colour`); bold, dim, underline and
  /// reverse still mark what matters.
  case none
  /// The 16 ANSI colours (SGR 31–37, 90): every terminal.
  case sixteen
  /// The 256-colour palette (SGR 38;5;N): `TERM` naming `256color`.
  case indexed256
  /// 24-bit colour (SGR 38;2;r;g;b): `COLORTERM=truecolor` or `24bit`.
  case trueColour
}

/// What the terminal the client draws on can show: its colours, and whether it takes UTF-8.
public struct TerminalCapabilities: Sendable, Equatable {
  public var colours: ColourDepth
  /// Whether non-ASCII glyphs (suits, box lines) may be written; without it screens draw ASCII.
  public var unicode: Bool

  public init(colours: ColourDepth, unicode: Bool) {
    self.colours = colours
    self.unicode = unicode
  }

  /// The capabilities the environment announces (PLATFORM.md "Colour conventions").
  ///
  /// `NO_COLOR` present and non-empty means no colour; `TERM=dumb` means no colour and ASCII;
  /// `COLORTERM=truecolor` or `24bit` means 24-bit colour; a `TERM` containing `256color` means
  /// 256 colours; anything else, 16. Unicode needs a UTF-8 locale and a terminal that is not
  /// `dumb`.
  ///
  /// - Parameters:
  ///   - environment: the process's environment (``processEnvironment()``).
  ///   - localeIsUTF8: whether the locale's character set is UTF-8 (``localeIsUTF8()``).
  ///   - colour: the player's choice: `true` forces colour on (the depth detected, 16 colours
  ///     at least), `false` forces it off, `nil` detects it.
  ///   - ascii: `true` forces ASCII whatever the locale.
  /// - Returns: the capabilities to draw with.
  public static func detect(
    environment: [String: String], localeIsUTF8: Bool, colour: Bool? = nil, ascii: Bool = false
  ) -> TerminalCapabilities {
    let term = environment["TERM"] ?? ""
    let dumb = term == "dumb"
    let colourTerm = (environment["COLORTERM"] ?? "").lowercased()
    let depth: ColourDepth
    if colourTerm == "truecolor" || colourTerm == "24bit" {
      depth = .trueColour
    } else if term.contains("256color") {
      depth = .indexed256
    } else {
      depth = .sixteen
    }
    let noColour = !(environment["NO_COLOR"] ?? "").isEmpty || dumb
    let colours: ColourDepth
    switch colour {
    case .some(true): colours = depth
    case .some(false): colours = .none
    case .none: colours = noColour ? .none : depth
    }
    return TerminalCapabilities(colours: colours, unicode: localeIsUTF8 && !dumb && !ascii)
  }

  /// Whether the locale the environment chooses (`LANG`, `LC_ALL`, `LC_CTYPE`) uses UTF-8.
  ///
  /// Calls `setlocale(LC_ALL, "")` first, so the process takes the environment's locale, then
  /// reads `nl_langinfo(CODESET)`: "UTF-8" or "utf8" in any case means yes.
  public static func localeIsUTF8() -> Bool {
    _ = setlocale(LC_ALL, "")
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let name = String(cString: codeset).lowercased()
    return name == "utf-8" || name == "utf8"
  }

  /// The process's environment as a dictionary, `NAME=value` split at the first `=`.
  public static func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    return result
  }
}
