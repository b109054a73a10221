import Compression

#if canImport(Glibc)
  import Glibc
#endif

/// Recorded transcripts that pin the wire byte for byte (scripts/golden.py writes them).
public enum Golden {
  /// Why a golden file could not be read.
  public struct Unreadable: Error, CustomStringConvertible {
    public var path: String
    public var description: String { "cannot read golden file \(path)" }
  }

  /// The lines of the gzip-compressed file `name` in the `Golden` folder beside `file`.
  public static func lines(_ name: String, besides file: String = #filePath) throws -> [String] {
    let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    let path = folder + "/Golden/" + name
    guard let handle = fopen(path, "rb") else { throw Unreadable(path: path) }
    defer { fclose(handle) }
    var compressed: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = fread(&chunk, 1, chunk.count, handle)
      if count == 0 { break }
      compressed.append(contentsOf: chunk[0..<count])
    }
    let text = String(decoding: try Gzip.decompress(compressed), as: UTF8.self)
    return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }
}
