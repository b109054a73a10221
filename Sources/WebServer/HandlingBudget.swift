#if canImport(Glibc)
  import Glibc
#endif

/// The server-wide budget of time spent on received messages (reading them as JSON and doing
/// what they ask), so that many addresses, each within its own rate, cannot together keep the
/// loop thread busy: while the whole server spends more than ``secondsPerSecond``, the
/// addresses that spend the most are refused first, and the cheap ones — people playing —
/// still pass (docs/PROTOCOL.md "Order and limits").
///
/// Spending is measured, not guessed: each message's handling time is charged to its address
/// once handled. Both the server's and each address's spending decay with a half-life of
/// ``halfLife``, so they read as a recent rate.
///
/// NB: the time charged is the loop thread's CPU time (``threadSeconds()``), not the wall
/// clock's: on a busy machine the thread is preempted in the middle of a message, and the wall
/// clock charged the wait to whoever was being handled. Beside the whole test suite, a person
/// playing during a flood from 16 addresses was refused `too-fast` once
/// (`test_a_flood_from_many_addresses_is_closed_while_a_player_plays_on`, in a run of six
/// browser workers): their room's creation, preempted, read as over their share. Reading the
/// thread's CPU time is a system call, about 1 µs here, two a message, so it is read only where
/// a charge can decide something: with more than one address spending. One address alone is
/// never shed (a server behind a proxy, the benchmarks), and its messages are charged their
/// wall time. Charging the wall time below a quarter of the budget too let a flood's first
/// messages through undercharged (docs/PERFORMANCE.md, "A flood from many addresses").
struct HandlingBudget {
  /// The seconds of handling a second the whole server may spend before it sheds.
  let secondsPerSecond: Double
  /// How quickly spending is forgotten, in seconds.
  static let halfLife = 1.0

  /// Decayed spending, in seconds, at `at` (nanoseconds on a monotonic clock).
  private struct Spent {
    var seconds = 0.0
    var at: UInt64 = 0

    mutating func decay(to now: UInt64) {
      guard now > at else { return }
      let elapsed = Double(now - at) / 1e9
      seconds *= exp2(-elapsed / HandlingBudget.halfLife)
      at = now
    }
  }

  private var total = Spent()
  private var addresses: [String: Spent] = [:]

  init(secondsPerSecond: Double) {
    self.secondsPerSecond = secondsPerSecond
  }

  /// A steady rate of `r` seconds per second decays to this much spending.
  private var ceiling: Double { secondsPerSecond * Self.halfLife / 0.693_147_180_559_945_3 }

  /// Whether a message from `address` may be handled at `now`: always while the server is
  /// within its budget; over it, only when the address has spent less than an even share of
  /// the budget among the addresses that are spending.
  mutating func allows(_ address: String, now: UInt64) -> Bool {
    guard secondsPerSecond.isFinite else { return true }
    total.decay(to: now)
    guard total.seconds > ceiling else { return true }
    guard var spent = addresses[address] else { return true }
    spent.decay(to: now)
    addresses[address] = spent
    let spenders = addresses.values.count { $0.seconds > ceiling / 1000 }
    // NB: with one address spending (everyone behind one proxy) there is nobody to shed for.
    return spenders < 2 || spent.seconds < ceiling / Double(spenders)
  }

  /// One message's handling, from its start: the wall clock, and the thread's CPU time when
  /// several addresses spend.
  struct Meter {
    let started: UInt64
    let cpuStarted: Double?
  }

  /// Starts timing a message's handling at `now` (``Meter``).
  func meter(now: UInt64) -> Meter {
    let measured = secondsPerSecond.isFinite && addresses.count > 1
    return Meter(started: now, cpuStarted: measured ? Self.threadSeconds() : nil)
  }

  /// Charges the handling that `meter` timed, ending at `now`, to `address`.
  mutating func charge(_ meter: Meter, to address: String, now: UInt64) {
    guard secondsPerSecond.isFinite else { return }
    let seconds =
      meter.cpuStarted.map { Self.threadSeconds() - $0 } ?? Double(now &- meter.started) / 1e9
    charge(seconds, to: address, now: now)
  }

  /// The calling thread's CPU time, in seconds: what its work has cost, whether or not the
  /// machine let it run meanwhile.
  static func threadSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Charges `seconds` of handling to `address` at `now`.
  mutating func charge(_ seconds: Double, to address: String, now: UInt64) {
    guard secondsPerSecond.isFinite else { return }
    total.decay(to: now)
    total.seconds += seconds
    var spent = addresses[address] ?? Spent(seconds: 0, at: now)
    spent.decay(to: now)
    spent.seconds += seconds
    addresses[address] = spent
    if addresses.count > 4096 { forgetQuiet(now: now) }
  }

  /// Forgets the addresses whose spending has decayed to almost nothing.
  private mutating func forgetQuiet(now: UInt64) {
    addresses = addresses.filter { _, spent in
      var spent = spent
      spent.decay(to: now)
      return spent.seconds > ceiling / 100_000
    }
  }

  /// What `address` has spent recently, in decayed seconds (for tests).
  func spent(by address: String, now: UInt64) -> Double {
    guard var spent = addresses[address] else { return 0 }
    spent.decay(to: now)
    return spent.seconds
  }

  /// The server's recent spending, in seconds per second (for tests and figures).
  mutating func rate(now: UInt64) -> Double {
    total.decay(to: now)
    return total.seconds / ceiling * secondsPerSecond
  }
}
