#if canImport(Glibc)
  import Glibc
#endif

/// A `cardtable serve` of this same executable, started for a benchmark on 127.0.0.1 with a
/// fresh data directory and the per-address limits lifted (every client of a benchmark comes
/// from one address), and its figures from /proc: CPU seconds and resident memory.
final class ServerProcess {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let pid: pid_t
  let port: Int
  private let directory: String
  private let output: Int32

  /// Starts the server with `extra` arguments and waits until it says where it listens (a
  /// server given `--in-memory` is given no data directory).
  init(extra: [String]) throws {
    directory = try ServerProbe.temporaryDirectory()
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { throw Failure(description: "cannot find this executable") }
    let executable = String(
      decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let arguments =
      [
        executable, "serve", "--host", "127.0.0.1", "--port", "0",
        "--connections-per-address", "1000000", "--rooms-per-minute", "1e9",
        "--messages-per-address", "1e9",
      ] + (extra.contains("--in-memory") ? [] : ["--data", directory]) + extra
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw Failure(description: "pipe: errno \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, executable, &actions, nil, &argv, environ)
    close(pipeEnds[1])
    guard spawned == 0 else {
      close(pipeEnds[0])
      throw Failure(description: "cannot start the server: errno \(spawned)")
    }
    pid = child
    output = pipeEnds[0]
    // NB: the server says `CardTable listening on http://127.0.0.1:PORT/` once it listens.
    var said = ""
    var found: Int?
    while found == nil {
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = read(output, &chunk, chunk.count)
      guard count > 0 else { break }
      said += String(decoding: chunk[0..<count], as: UTF8.self)
      let marker = "listening on http://127.0.0.1:"
      for line in said.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        guard let start = line.firstRange(of: marker)?.upperBound else { continue }
        found = Int(line[start...].prefix { $0.isNumber })
      }
    }
    guard let found else {
      kill(child, SIGKILL)
      var status: Int32 = 0
      waitpid(child, &status, 0)
      close(output)
      throw Failure(description: "the server did not start: \(said)")
    }
    port = found
  }

  /// The server's user and system CPU seconds so far.
  var cpuSeconds: Double {
    guard let fields = Self.fields("/proc/\(pid)/stat"), fields.count > 13 else { return 0 }
    // NB: after the name in parentheses: field 3 (state) first; utime and stime are 14 and 15.
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    return (Double(fields[11]) ?? 0) / ticks + (Double(fields[12]) ?? 0) / ticks
  }

  /// The server's resident memory in MiB.
  var residentMiB: Double {
    guard let status = readTextFile("/proc/\(pid)/status"),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
  }

  /// Stops the server (SIGTERM, as an operator would) and removes its data; returns its exit
  /// status.
  @discardableResult
  func stop() -> Int32 {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    close(output)
    _ = system("rm -rf '\(directory)'")
    return (status >> 8) & 0xff
  }

  private static func fields(_ path: String) -> [Substring]? {
    guard let text = readTextFile(path), let end = text.lastIndex(of: ")") else { return nil }
    return text[text.index(after: end)...].split(separator: " ")
  }
}
