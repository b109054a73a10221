/// The project's seeded pseudo-random generator: SplitMix64 (Steele, Lea & Flood, 2014).
///
/// Its sequence is fixed by this project, not by the standard library, so a seed deals the same
/// cards on every machine and every Swift version. Every draw goes through the methods below —
/// never through `Int.random(in:using:)` or `shuffle(using:)`, whose algorithms may change.
///
/// Every method is `@inlinable`: the games live in other modules, and the shuffle must be
/// specialized for their card types there (unspecialized, it was a third of Memory's time).
@frozen
public struct SplitMix64: Sendable, Hashable {
  /// The generator's whole state; saving it and restoring it resumes the sequence exactly.
  @inlinable public var state: UInt64 { _state }

  @usableFromInline var _state: UInt64

  /// Creates a generator whose first output is derived from `seed`.
  @inlinable
  public init(seed: UInt64) {
    _state = seed
  }

  /// Returns the next 64 random bits.
  @inlinable
  public mutating func next() -> UInt64 {
    _state &+= 0x9E37_79B9_7F4A_7C15
    var z = _state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Returns a uniformly distributed integer in `0..<bound`, without modulo bias.
  ///
  /// - Parameter bound: the exclusive upper bound; must be positive.
  /// - Returns: an integer from 0 up to, but not including, `bound`.
  /// - Complexity: O(1) expected; draws again only when the first draw falls in the biased tail.
  @inlinable
  public mutating func nextInt(below bound: Int) -> Int {
    precondition(bound > 0, "bound must be positive")
    let range = UInt64(bound)
    // NB: rejecting draws below (2^64 mod range) leaves a multiple of `range` outcomes.
    let threshold = (0 &- range) % range
    while true {
      let value = next()
      if value >= threshold { return Int(value % range) }
    }
  }

  /// Returns a uniformly distributed `Double` in `[0, 1)` built from the top 53 bits.
  @inlinable
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// Returns an exponentially distributed `Double` with mean 1: −ln(1 − u) for a uniform u
  /// (``nextUnit()``), computed without the C library so that every platform draws alike.
  public mutating func nextExponential() -> Double {
    -Self.naturalLog(1 - nextUnit())
  }

  /// ln x for x in (0, 1]: x = m · 2^e with m in [1, 2), ln m = 2 atanh((m − 1)/(m + 1)) by
  /// its series (|z| ≤ 1/3, so 20 terms reach the last bit).
  static func naturalLog(_ x: Double) -> Double {
    let m = x.significand
    let z = (m - 1) / (m + 1)
    let z2 = z * z
    var term = z
    var sum = 0.0
    for k in 0..<20 {
      sum += term / Double(2 * k + 1)
      term *= z2
    }
    return Double(x.exponent) * 0.693_147_180_559_945_3 + 2 * sum
  }

  /// Shuffles `elements` in place with the Fisher–Yates algorithm, last position first.
  @inlinable
  public mutating func shuffle<Element>(_ elements: inout [Element]) {
    guard elements.count > 1 else { return }
    elements.withUnsafeMutableBufferPointer { shuffle($0) }
  }

  /// Shuffles the elements of `buffer` in place, exactly as ``shuffle(_:)`` shuffles an array.
  @inlinable
  public mutating func shuffle<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
    guard buffer.count > 1 else { return }
    for index in stride(from: buffer.count - 1, to: 0, by: -1) {
      let other = nextInt(below: index + 1)
      if other != index { buffer.swapAt(index, other) }
    }
  }

  /// Returns a shuffled copy of `elements` (see ``shuffle(_:)``).
  @inlinable
  public mutating func shuffled<Element>(_ elements: [Element]) -> [Element] {
    var copy = elements
    shuffle(&copy)
    return copy
  }
}
