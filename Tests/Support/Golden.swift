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

  /// Whether the golden tests record their transcripts anew instead of checking them
  /// (`CARDTABLE_RECORD_GOLDEN=1`), after a change to the wire made on purpose.
  public static var recording: Bool {
    getenv("CARDTABLE_RECORD_GOLDEN").map { $0.pointee == 0x31 } ?? false
  }

  /// Writes `lines` gzip-compressed to the file `name` in the `Golden` folder beside `file`.
  public static func write(_ lines: [String], to name: String, besides file: String = #filePath)
    throws
  {
    let path = self.path(name, besides: file)
    let bytes = try Gzip.compress(Array(lines.map { $0 + "\n" }.joined().utf8))
    guard let handle = fopen(path, "wb") else { throw Unreadable(path: path) }
    defer { fclose(handle) }
    guard fwrite(bytes, 1, bytes.count, handle) == bytes.count else { throw Unreadable(path: path) }
  }

  private static func path(_ name: String, besides file: String) -> String {
    let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    return folder + "/Golden/" + name
  }

  /// The lines of the gzip-compressed file `name` in the `Golden` folder beside `file`.
  public static func lines(_ name: String, besides file: String = #filePath) throws -> [String] {
    let path = self.path(name, besides: file)
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
