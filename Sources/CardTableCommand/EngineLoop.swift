import GameWire

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the engine console over standard input and output until end of input.
///
/// Input is read in blocks and split into lines of bytes (a trailing `\r` is dropped, as
/// `readLine` drops it); each line is answered into one output buffer, which is written out
/// whenever no more complete line is waiting, so a client that sends a line and waits gets
/// its reply at once while a stream of lines costs one `write` per block. A line longer than
/// ``EngineConsole/maximumLineBytes`` is answered `too-large` without being kept.
public enum EngineLoop {
  /// Reads from `input` and writes to `output` (file descriptors) until end of input.
  public static func run(
    console: EngineConsole = EngineConsole(), input: Int32 = 0, output: Int32 = 1
  ) {
    var reader = LineReader(limit: EngineConsole.maximumLineBytes)
    var writer = JSONWriter(capacity: 64 * 1024)
    var block = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = block.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      block.withUnsafeBytes { bytes in
        reader.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { line in
          answer(line, console: console, into: &writer)
        }
      }
      flush(&writer, to: output)
    }
    reader.finish { line in answer(line, console: console, into: &writer) }
    flush(&writer, to: output)
  }

  /// Answers every line of `text`, as ``run(console:input:output:)`` would, and returns the
  /// replies, one per line.
  public static func replies(to text: String, console: EngineConsole = EngineConsole()) -> String {
    var reader = LineReader(limit: EngineConsole.maximumLineBytes)
    var writer = JSONWriter()
    var text = text
    text.withUTF8 { bytes in
      reader.feed(UnsafeRawBufferPointer(bytes)) { answer($0, console: console, into: &writer) }
    }
    reader.finish { answer($0, console: console, into: &writer) }
    return writer.string
  }

  private static func answer(_ line: Line, console: EngineConsole, into writer: inout JSONWriter) {
    switch line {
    case .text(let bytes):
      guard !isBlank(bytes) else { return }
      console.reply(to: bytes, into: &writer)
    case .tooLong(let length):
      console.refuseLongLine(of: length, into: &writer)
    }
    writer.raw(UInt8(ascii: "\n"))
  }

  /// Whether a line is only white space (`readLine` and `Character.isWhitespace` semantics).
  static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes {
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D: continue
      case 0x80...: return String(decoding: bytes, as: UTF8.self).allSatisfy(\.isWhitespace)
      default: return false
      }
    }
    return true
  }

  private static func flush(_ writer: inout JSONWriter, to output: Int32) {
    writer.withBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(output, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
    writer.removeAll()
  }
}

/// One line of input: its bytes, or only its length when it was too long to keep.
enum Line {
  case text(UnsafeRawBufferPointer)
  case tooLong(Int)
}

/// Splits blocks of input into lines, keeping at most `limit` bytes of a line.
struct LineReader {
  let limit: Int
  /// The start of a line whose end has not arrived yet.
  private var partial: [UInt8] = []
  /// The length of a line being skipped for being too long, or nil.
  private var skipping: Int?

  init(limit: Int) {
    self.limit = limit
  }

  /// Calls `line` for every line that `block` completes.
  mutating func feed(_ block: UnsafeRawBufferPointer, line: (Line) -> Void) {
    var start = 0
    while start < block.count {
      guard let newline = block[start...].firstIndex(of: UInt8(ascii: "\n")) else {
        keep(UnsafeRawBufferPointer(rebasing: block[start...]))
        return
      }
      let piece = UnsafeRawBufferPointer(rebasing: block[start..<newline])
      start = newline + 1
      if let skipped = skipping {
        skipping = nil
        line(.tooLong(skipped + piece.count))
      } else if partial.isEmpty {
        guard piece.count <= limit else {
          line(.tooLong(piece.count))
          continue
        }
        line(.text(Self.dropCarriageReturn(piece)))
      } else {
        keep(piece)
        if let skipped = skipping {
          skipping = nil
          line(.tooLong(skipped))
        } else {
          partial.withUnsafeBytes { line(.text(Self.dropCarriageReturn($0))) }
        }
        partial.removeAll(keepingCapacity: partial.count <= 64 * 1024)
      }
    }
  }

  /// Calls `line` for a last line that had no newline.
  mutating func finish(line: (Line) -> Void) {
    if let skipped = skipping {
      skipping = nil
      line(.tooLong(skipped))
    } else if !partial.isEmpty {
      partial.withUnsafeBytes { line(.text(Self.dropCarriageReturn($0))) }
      partial = []
    }
  }

  private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
    if let skipped = skipping {
      skipping = skipped + bytes.count
    } else if partial.count + bytes.count > limit {
      skipping = partial.count + bytes.count
      partial = []
    } else {
      partial.append(contentsOf: bytes)
    }
  }

  private static func dropCarriageReturn(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer
  {
    guard bytes.last == UInt8(ascii: "\r") else { return bytes }
    return UnsafeRawBufferPointer(rebasing: bytes.dropLast())
  }
}
