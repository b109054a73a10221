/// A token bucket: a message costs tokens; tokens come back at a steady rate up to a cap.
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

  /// Takes `cost` tokens if that many are left at `now`, and says whether it did.
  ///
  /// A cost above the burst is allowed from a full bucket, which it leaves in debt, so that
  /// the largest message can always pass once the sender has been quiet long enough.
  mutating func take(_ cost: Double = 1, now: UInt64) -> Bool {
    if now > lastRefill {
      tokens = min(capacity, tokens + Double(now - lastRefill) * rate / 1e9)
      lastRefill = now
    }
    guard tokens >= min(cost, capacity) else { return false }
    tokens -= cost
    return true
  }

  /// Takes `cost` tokens whatever is left, leaving the bucket in debt if need be: for work
  /// already done that has to be paid for.
  mutating func charge(_ cost: Double, now: UInt64) {
    _ = take(0, now: now)
    tokens -= cost
  }
}
