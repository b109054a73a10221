/// Where a match's later deals get their seeds (Matchismo's and Set's *Deal*, Snap!'s next
/// round): a keyed pseudo-random function, so that no published seed tells the next one.
///
/// The `k`-th later seed is SipHash-2-4 of `k` under a 128-bit key. SipHash is a
/// pseudo-random function: seeing any number of its outputs tells nothing of the key, and so
/// nothing of the outputs not yet seen. (The game's own generator, SplitMix64, is not: one
/// output gives its whole state, so a seed drawn from it would name every later deal.)
///
/// A server keeps the key secret and stores it with the match; the engine console, whose user
/// sees everything anyway, derives it from the seed (``init(seed:)``), so a seed still deals
/// the same match every time.
@frozen
public struct LaterSeeds: Sendable, Hashable {
  /// The key's two halves.
  public let key: (UInt64, UInt64)
  /// How many seeds have been drawn.
  public var drawn: UInt64 { _drawn }
  @usableFromInline var _drawn: UInt64 = 0

  /// Later seeds under a secret key, `drawn` of them already drawn.
  @inlinable
  public init(key: (UInt64, UInt64), drawn: UInt64 = 0) {
    self.key = key
    self._drawn = drawn
  }

  /// Later seeds derived from the match's own seed: anyone who knows the seed knows them.
  ///
  /// The key is `(seed, 0x6361_7264_7461_626C)` (`"cardtabl"` in ASCII).
  @inlinable
  public init(seed: UInt64) {
    self.init(key: (seed, 0x6361_7264_7461_626C))
  }

  /// The next seed: SipHash-2-4 of the count of seeds drawn before it plus one.
  @inlinable
  public mutating func next() -> UInt64 {
    _drawn += 1
    return SipHash24.hash(_drawn, key: key)
  }

  public static func == (a: LaterSeeds, b: LaterSeeds) -> Bool {
    a.key == b.key && a._drawn == b._drawn
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(key.0)
    hasher.combine(key.1)
    hasher.combine(drawn)
  }
}

/// SipHash-2-4 (Aumasson & Bernstein, 2012), the 64-bit pseudo-random function.
public enum SipHash24 {
  /// The hash of the eight bytes of `message` (little-endian) under `key`.
  @inlinable
  public static func hash(_ message: UInt64, key: (UInt64, UInt64)) -> UInt64 {
    var state = State(key: key)
    state.compress(message)
    return state.finish(length: 8, tail: 0)
  }

  /// The hash of `bytes` under `key`, for any length.
  public static func hash(_ bytes: some Collection<UInt8>, key: (UInt64, UInt64)) -> UInt64 {
    var state = State(key: key)
    var word: UInt64 = 0
    var filled = 0
    for byte in bytes {
      word |= UInt64(byte) << (8 * UInt64(filled))
      filled += 1
      if filled == 8 {
        state.compress(word)
        word = 0
        filled = 0
      }
    }
    return state.finish(length: bytes.count, tail: word)
  }

  @usableFromInline
  struct State {
    @usableFromInline var v0: UInt64
    @usableFromInline var v1: UInt64
    @usableFromInline var v2: UInt64
    @usableFromInline var v3: UInt64

    @inlinable
    init(key: (UInt64, UInt64)) {
      v0 = key.0 ^ 0x736f_6d65_7073_6575
      v1 = key.1 ^ 0x646f_7261_6e64_6f6d
      v2 = key.0 ^ 0x6c79_6765_6e65_7261
      v3 = key.1 ^ 0x7465_6462_7974_6573
    }

    @inlinable
    mutating func round() {
      v0 &+= v1
      v1 = v1.rotatedLeft(by: 13) ^ v0
      v0 = v0.rotatedLeft(by: 32)
      v2 &+= v3
      v3 = v3.rotatedLeft(by: 16) ^ v2
      v0 &+= v3
      v3 = v3.rotatedLeft(by: 21) ^ v0
      v2 &+= v1
      v1 = v1.rotatedLeft(by: 17) ^ v2
      v2 = v2.rotatedLeft(by: 32)
    }

    /// Two compression rounds over one 8-byte word.
    @inlinable
    mutating func compress(_ word: UInt64) {
      v3 ^= word
      round()
      round()
      v0 ^= word
    }

    /// The last word (the length's low byte on top of the `tail` bytes), then four rounds.
    @inlinable
    mutating func finish(length: Int, tail: UInt64) -> UInt64 {
      compress(tail | UInt64(truncatingIfNeeded: length) << 56)
      v2 ^= 0xff
      round()
      round()
      round()
      round()
      return v0 ^ v1 ^ v2 ^ v3
    }
  }
}

extension UInt64 {
  @inlinable
  func rotatedLeft(by count: UInt64) -> UInt64 {
    (self << count) | (self >> (64 - count))
  }
}
