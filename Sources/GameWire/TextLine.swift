import CardTableCore

/// A line of the rule book's words put together as a `String` interpolation is —
/// `line("Pairs found: \(found) of \(pairs). Score: \(score)")` — into bytes: numbers' digits
/// written in place, texts copied, one `String` made at the end.
///
/// NB: a status line is written for every view of every version. Measured on Memory's: a
/// `String` interpolation appends each piece as a `String`, checking where graphemes meet,
/// and cost 2,800 instructions a line; this, in a buffer on the stack for a line of up to 64
/// bytes, a fraction of that. The text is the same: an interpolated value is written as
/// `String(describing:)` writes it.
public struct TextLine: ExpressibleByStringInterpolation {
  public let string: String

  /// Puts a line of a varying number of parts together piece by piece — a table's scores,
  /// `Pairs: Ann 2, Bob 1` — in the same bytes as the interpolation:
  /// `var text = TextLine.Builder(); text.append("Pairs: "); text.append(2); text.string`.
  public typealias Builder = StringInterpolation

  public init(stringLiteral: String) {
    string = stringLiteral
  }

  public init(stringInterpolation: StringInterpolation) {
    string = stringInterpolation.string
  }

  public struct StringInterpolation: StringInterpolationProtocol {
    /// The bytes so far: in `inline` while they fit, else in `spilled`.
    ///
    /// NB: 64 bytes: a longer line (a Set play names three cards of up to 18 bytes each) costs
    /// one array. 128 bytes inline saved a Set race 5,000 instructions an action but cost
    /// Snap!'s short lines 500 (callgrind, `bench rooms`).
    private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
      (0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    private var spilled: [UInt8]?

    public init(literalCapacity: Int, interpolationCount: Int) {}

    /// An empty line, to be put together with `append`.
    public init() {}

    /// The line so far.
    public var string: String {
      if let spilled { return String(decoding: spilled, as: UTF8.self) }
      var inline = inline
      return withUnsafeBytes(of: &inline) { bytes in
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<count]), as: UTF8.self)
      }
    }

    public mutating func appendLiteral(_ literal: String) {
      append(literal)
    }

    public mutating func appendInterpolation(_ value: Int) {
      append(value)
    }

    public mutating func appendInterpolation(_ value: String) {
      append(value)
    }

    public mutating func appendInterpolation(_ value: PlayerID) {
      append(value)
    }

    /// Any other value, as `String(describing:)` writes it (and so a `String` interpolation).
    public mutating func appendInterpolation(_ value: some Any) {
      append(String(describing: value))
    }

    /// Appends `value`'s decimal digits, after a `-` when it is negative.
    public mutating func append(_ value: Int) {
      // NB: a sign and 20 digits hold any Int.
      var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
      withUnsafeMutableBytes(of: &digits) { buffer in
        var magnitude = value.magnitude
        var at = buffer.count
        repeat {
          at -= 1
          buffer[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
          magnitude /= 10
        } while magnitude > 0
        if value < 0 {
          at -= 1
          buffer[at] = UInt8(ascii: "-")
        }
        append(UnsafeRawBufferPointer(rebasing: buffer[at...]))
      }
    }

    /// Appends a player's name.
    public mutating func append(_ player: PlayerID) {
      append(player.rawValue)
    }

    /// Appends `text` as it is.
    public mutating func append(_ text: String) {
      var text = text
      text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
      if spilled == nil, count + bytes.count <= MemoryLayout.size(ofValue: inline) {
        let at = count
        withUnsafeMutableBytes(of: &inline) { inline in
          UnsafeMutableRawBufferPointer(rebasing: inline[at..<(at + bytes.count)])
            .copyMemory(from: bytes)
        }
        count += bytes.count
        return
      }
      if spilled == nil {
        // NB: room for twice the inline bytes at once: a line that spills seldom grows again.
        var bytesSoFar: [UInt8] = []
        bytesSoFar.reserveCapacity(max(2 * MemoryLayout.size(ofValue: inline), count + bytes.count))
        var inline = inline
        let count = count
        withUnsafeBytes(of: &inline) { bytesSoFar.append(contentsOf: $0[..<count]) }
        spilled = bytesSoFar
      }
      spilled?.append(contentsOf: bytes)
    }
  }
}

extension RuleTexts {
  /// `text`'s string: ``TextLine``'s interpolation, for a line written with every view.
  @inline(__always)
  static func line(_ text: TextLine) -> String { text.string }
}
