/// A token bucket: a message costs one token; tokens come back at a steady rate up to a cap.
struct TokenBucket {
  let rate: Double
  let capacity: Double
  private(set) var tokens: Double
  private var lastRefill: UInt64

  /// A full bucket at time `now` (nanoseconds on a monotonic clock).
  init(rate: Double, burst: Int, now: UInt64) {
    self.rate = rate
    self.capacity = Double(max(burst, 1))
    self.tokens = capacity
    self.lastRefill = now
  }

  /// Takes a token if one is left at `now`, and says whether it did.
  mutating func take(now: UInt64) -> Bool {
    if now > lastRefill {
      tokens = min(capacity, tokens + Double(now - lastRefill) * rate / 1e9)
      lastRefill = now
    }
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }
}
