import CardTableCommand

#if canImport(Glibc)
  import Glibc
#endif

/// The `cardtable` command: parse the arguments into a command value, then run it.
@main
enum CardTable {
  static func main() {
    do {
      let command = try Command.parse(Array(CommandLine.arguments.dropFirst()))
      exit(command.run())
    } catch {
      printError("cardtable: \(error)")
      exit(2)
    }
  }
}
