import GameServer
import GameStore

#if canImport(Glibc)
  import Glibc
#endif

/// The `/metrics` page in the Prometheus text format, version 0.0.4 (docs/DEPLOY.md "Health
/// and metrics"): gauges for what is open now, counters since the start (rates such as
/// actions per second are `rate(cardtable_actions_total[1m])`), and the store's latency as a
/// summary's sum and count per kind of call.
enum Metrics {
  static func text(
    games: GameServer, store: MeasuredStore, uptime: Double, process: ProcessFigures
  ) -> String {
    var lines: [String] = []
    func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, Double)]) {
      lines.append("# HELP \(name) \(help)")
      lines.append("# TYPE \(name) \(type)")
      for (labels, value) in samples {
        lines.append("\(name)\(labels) \(number(value))")
      }
    }
    let counters = games.counters
    metric(
      "cardtable_connections", "gauge", "WebSocket connections open now.",
      [("", Double(games.clientCount))])
    metric(
      "cardtable_rooms", "gauge", "Rooms in memory now (games someone has open).",
      [("", Double(games.roomCount))])
    metric(
      "cardtable_tables", "gauge", "Rooms in memory that several share (tables).",
      [("", Double(games.tableCount))])
    metric(
      "cardtable_connections_opened_total", "counter", "WebSocket connections opened.",
      [("", Double(counters.connections))])
    metric(
      "cardtable_messages_total", "counter", "Messages read from clients.",
      [("", Double(counters.messages))])
    metric(
      "cardtable_actions_total", "counter", "Players' actions accepted and saved.",
      [("", Double(counters.actions))])
    metric(
      "cardtable_timer_steps_total", "counter", "Timers that moved a game on and were saved.",
      [("", Double(counters.timers))])
    metric(
      "cardtable_group_commits_total", "counter",
      "Transactions that saved the moves and timers of a turn of the loop together.",
      [("", Double(counters.groupCommits))])
    metric(
      "cardtable_errors_total", "counter", "Messages refused, by error code (docs/PROTOCOL.md).",
      counters.refusals.sorted { $0.key < $1.key }.map {
        (#"{code="\#($0.key)"}"#, Double($0.value))
      }
    )
    let kinds = [("read", store.reads), ("write", store.writes)]
    metric(
      "cardtable_store_seconds", "summary", "Time spent in store calls, by kind.",
      kinds.flatMap { kind, tally in
        [
          (#"_sum{kind="\#(kind)"}"#, tally.seconds),
          (#"_count{kind="\#(kind)"}"#, Double(tally.calls)),
        ]
      })
    metric(
      "cardtable_store_failures_total", "counter", "Store calls that failed, by kind.",
      kinds.map { (#"{kind="\#($0.0)"}"#, Double($0.1.failures)) })
    metric(
      "cardtable_store_up", "gauge",
      "1 while the store answers and its latest read and write went through.",
      [("", store.healthy ? 1 : 0)])
    metric(
      "cardtable_uptime_seconds", "gauge", "Seconds since the server started.", [("", uptime)])
    metric(
      "process_cpu_seconds_total", "counter", "User and system CPU time of the server process.",
      [("", process.cpuSeconds)])
    metric(
      "process_resident_memory_bytes", "gauge", "Resident memory of the server process.",
      [("", Double(process.residentBytes))])
    metric(
      "process_open_fds", "gauge", "Open file descriptors of the server process.",
      [("", Double(process.openDescriptors))])
    return lines.joined(separator: "\n") + "\n"
  }

  /// A sample value as Prometheus reads it: integers without a fraction.
  static func number(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }
}

/// What the kernel says of this process: CPU time, resident memory, open descriptors.
struct ProcessFigures {
  var cpuSeconds: Double
  var residentBytes: Int
  var openDescriptors: Int

  static func now() -> ProcessFigures {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu =
      Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return ProcessFigures(
      cpuSeconds: cpu, residentBytes: residentBytes(), openDescriptors: openDescriptors())
  }

  /// The second number of /proc/self/statm (pages), in bytes.
  static func residentBytes() -> Int {
    let descriptor = open("/proc/self/statm", O_RDONLY)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return 0 }
    let fields = String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  static func openDescriptors() -> Int {
    guard let directory = opendir("/proc/self/fd") else { return 0 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(2)) }
      if name.first != UInt8(ascii: ".") { count += 1 }
    }
    // NB: the directory's own descriptor is not one of the server's.
    return max(0, count - 1)
  }
}
