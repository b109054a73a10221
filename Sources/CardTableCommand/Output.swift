#if canImport(Glibc)
  import Glibc
#endif

/// Writes a line to standard error.
public func printError(_ message: String) {
  var line = message + "\n"
  line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// A whole file's text (a save file, a /proc file), or nil when it cannot be read.
func readTextFile(_ path: String) -> String? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count == 0 { break }
    bytes += buffer[0..<count]
  }
  guard ferror(file) == 0 else { return nil }
  return String(decoding: bytes, as: UTF8.self)
}
