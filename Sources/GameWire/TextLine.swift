import CardTableCore

/// A line of the rule book's words put together as a `String` interpolation is —
/// `line("Pairs found: \(found) of \(pairs). Score: \(score)")` — into bytes: numbers' digits
/// written in place, texts copied, one `String` made at the end.
///
/// NB: a status line is written for every view of every version. Measured on Memory's: a
/// `String` interpolation appends each piece as a `String`, checking where graphemes meet,
/// and cost 2,800 instructions a line; this, a fraction of that. The text is the same: an
/// interpolated value is written as `String(describing:)` writes it.
public struct TextLine: ExpressibleByStringInterpolation {
  public let string: String

  public init(stringLiteral: String) {
    string = stringLiteral
  }

  public init(stringInterpolation: StringInterpolation) {
    string = String(decoding: stringInterpolation.bytes, as: UTF8.self)
  }

  public struct StringInterpolation: StringInterpolationProtocol {
    var bytes: [UInt8] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
      bytes.reserveCapacity(literalCapacity + 12 * interpolationCount)
    }

    public mutating func appendLiteral(_ literal: String) {
      append(literal)
    }

    public mutating func appendInterpolation(_ value: Int) {
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      var magnitude = value.magnitude
      var divisor: UInt = 1
      while divisor <= magnitude / 10 { divisor *= 10 }
      repeat {
        bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
        magnitude %= divisor
        divisor /= 10
      } while divisor > 0
    }

    public mutating func appendInterpolation(_ value: String) {
      append(value)
    }

    public mutating func appendInterpolation(_ value: PlayerID) {
      append(value.rawValue)
    }

    /// Any other value, as `String(describing:)` writes it (and so a `String` interpolation).
    public mutating func appendInterpolation(_ value: some Any) {
      append(String(describing: value))
    }

    private mutating func append(_ text: String) {
      var text = text
      text.withUTF8 { utf8 in
        for byte in utf8 { bytes.append(byte) }
      }
    }
  }
}

extension RuleTexts {
  /// `text`'s string: ``TextLine``'s interpolation, for a line written with every view.
  @inline(__always)
  static func line(_ text: TextLine) -> String { text.string }
}
