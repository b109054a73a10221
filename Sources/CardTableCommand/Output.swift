#if canImport(Glibc)
  import Glibc
#endif

/// Writes a line to standard error.
public func printError(_ message: String) {
  var line = message + "\n"
  line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
