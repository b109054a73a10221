import GameWire

extension Command {
  /// Runs the command and returns the process exit status.
  public func run() -> Int32 {
    switch self {
    case .help:
      print(Command.usage)
    case .commandHelp(let text):
      print(text)
    case .version:
      print(Command.versionText)
    case .engine:
      EngineLoop.run()
    case .serve(let options):
      return Serve.run(options)
    case .play(let options):
      return Play.run(options, join: false)
    case .join(let options):
      return Play.run(options, join: true)
    case .stats(let data, let json):
      return Stats.run(data: data, json: json)
    case .export(let room, let data, let output):
      return Export.run(room: room, data: data, output: output)
    case .verify(let file):
      return Verify.run(file: file)
    case .benchTables(let options):
      return TablesBenchmark.run(options)
    case .bench(let only, let settings):
      let chosen = Benchmark.all.filter { only.isEmpty || only.contains($0.name) }
      guard !chosen.isEmpty else {
        let names = Benchmark.all.map(\.name).joined(separator: ", ")
        printError("bench: no benchmark named \(only.joined(separator: ", ")); try \(names).")
        return 2
      }
      #if DEBUG
        printError("bench: this is a debug build; figures are only meaningful with -c release.")
      #endif
      for benchmark in chosen {
        print("== \(benchmark.name): \(benchmark.summary)")
        for line in benchmark.run(settings) { print(line) }
      }
    }
    return 0
  }
}
