import CardTableCore

/// A named benchmark that measures something and returns lines of figures.
public struct Benchmark: Sendable {
  public var name: String
  public var summary: String
  /// Measures, and says what it measured.
  public var measure: @Sendable (_ settings: Settings) -> [String]

  /// A benchmark that only needs to know how long to run.
  public init(name: String, summary: String, run: @escaping @Sendable (_ size: Size) -> [String]) {
    self.name = name
    self.summary = summary
    measure = { settings in run(settings.size) }
  }

  /// A benchmark that also reads the rest of the settings (a database to measure on).
  public init(
    name: String, summary: String, measure: @escaping @Sendable (_ settings: Settings) -> [String]
  ) {
    self.name = name
    self.summary = summary
    self.measure = measure
  }

  /// Runs the benchmark for `size`, on the stores it uses by default.
  public func run(_ size: Size) -> [String] { measure(Settings(size: size)) }

  /// Runs the benchmark with `settings`.
  public func run(_ settings: Settings) -> [String] { measure(settings) }

  /// What a run of `cardtable bench` asks of every benchmark.
  public struct Settings: Sendable, Equatable {
    public var size: Size
    /// A PostgreSQL database's address (`--database URL`): `server` measures its Snap! table
    /// there too, beside SQLite. No other benchmark reads it.
    public var database: String?

    public init(size: Size, database: String? = nil) {
      self.size = size
      self.database = database
    }
  }

  /// How long a run is: whole, `--quick`, or `--smoke` — a few iterations that only show the
  /// benchmark still runs (what the tests do; its figures mean nothing).
  public enum Size: Sendable {
    case full, quick, smoke

    /// The count of this size.
    func pick(_ full: Int, quick: Int, smoke: Int) -> Int {
      switch self {
      case .full: full
      case .quick: quick
      case .smoke: smoke
      }
    }
  }

  /// Every benchmark of the project, in the order `cardtable bench` runs them.
  public static let all: [Benchmark] = [
    .memoryGames, .matchismoGames, .setGames, .snapRounds, .consoleLines, .serverMessages,
    .roomsInProcess, .storeActions, .terminalFrames, .jsonReading,
  ]

  /// Times `body` and returns the elapsed seconds.
  static func seconds(_ body: () -> Void) -> Double {
    let elapsed = ContinuousClock().measure(body)
    let parts = elapsed.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
  }

  /// Formats a rate like `12,345.6`.
  static func format(_ value: Double, decimals: Int = 1) -> String {
    let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
    let rounded = (value * scale).rounded() / scale
    let whole = Int(rounded)
    var digits = String(whole)
    var grouped = ""
    while digits.count > 3 {
      grouped = "," + digits.suffix(3) + grouped
      digits.removeLast(3)
    }
    grouped = digits + grouped
    guard decimals > 0 else { return grouped }
    let fraction = Int(((rounded - Double(whole)) * scale).rounded())
    let text = String(fraction)
    return grouped + "." + String(repeating: "0", count: decimals - text.count) + text
  }
}

/// The value of `body`, which must not throw: a benchmark plays only valid moves of valid
/// options, so a refusal is a bug worth stopping for, with its reason.
@discardableResult
func valid<T, Failure: Error>(_ body: () throws(Failure) -> T) -> T {
  do {
    return try body()
  } catch {
    preconditionFailure("a benchmark's move was refused: \(error)")
  }
}

/// Performs a benchmark player's move, which the rules must accept.
///
/// NB: not through ``valid(_:)``: a closure capturing the match makes every access to it a
/// checked one, which measured 7 % of a Memory game.
@inline(__always)
func perform<Rules: GameRules>(_ action: Rules.Action, in match: inout Match<Rules>) {
  do {
    try match.perform(action, by: .solo)
  } catch {
    preconditionFailure("a benchmark's move was refused: \(error)")
  }
}
