import GameWire

extension Benchmark {
  /// Reading what the server sends, as a client does: every message of `bench rooms`' tables
  /// of each game (hello to the last update) read into a ``JSON`` value, again and again; and
  /// what the server reads, the commands of Snap!'s seats.
  ///
  /// The load client of `bench tables` reads each seat's every message this way, so at 2,500
  /// tables its CPU is mostly this (docs/PERFORMANCE.md); the server reads its clients'
  /// commands with the same reader.
  static let jsonReading = Benchmark(
    name: "json", summary: "reading the server's messages into JSON values, MB/s"
  ) { size in
    let rounds = size.pick(40, quick: 8, smoke: 1)
    var lines: [String] = []
    for (game, commands) in [
      ("snap", false), ("set", false), ("memory", false), ("snap", true),
    ] {
      let what = commands ? "\(game) commands" : "\(game) messages"
      do {
        let recorded = try recorded(game: game, seconds: size == .smoke ? 10 : 60)
        let messages = commands ? recorded.received : recorded.sent
        let bytes = messages.reduce(0) { $0 + $1.count }
        var members = 0
        let seconds = Benchmark.seconds {
          for _ in 0..<rounds {
            for message in messages {
              members &+= message.withUnsafeBytes { bytes in
                guard case .object(let parsed) = try? JSON(parsing: bytes) else { return 0 }
                return parsed.count
              }
            }
          }
        }
        guard members > 0 else {
          throw RoomsLoad.Failure(description: "no \(what) were read")
        }
        let read = Double(rounds * messages.count)
        lines.append(
          "json, reading \(what): "
            + "\(Benchmark.format(Double(rounds * bytes) / seconds / 1e6)) MB/s, "
            + "\(Benchmark.format(seconds * 1e6 / read, decimals: 2)) µs a message "
            + "(\(messages.count) messages of "
            + "\(Benchmark.format(Double(bytes) / Double(messages.count), decimals: 0)) bytes, "
            + "\(rounds) rounds)")
      } catch {
        lines.append("json, \(what): failed: \(error)")
      }
    }
    return lines
  }

  /// The messages the server sent to two tables of four of `game` over `seconds` of play,
  /// and the commands their seats sent it.
  private static func recorded(
    game: String, seconds: Double
  ) throws -> (sent: [[UInt8]], received: [[UInt8]]) {
    let load = try RoomsLoad(game: game, tables: 2, sqlite: false, keeping: true)
    defer { load.close() }
    try load.setUp()
    _ = load.play(for: seconds)
    return load.kept ?? ([], [])
  }
}
