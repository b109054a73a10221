import CZlib

/// gzip compression and decompression of whole buffers, with zlib.
public enum Gzip {
  /// Why zlib could not finish.
  public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// zlib's status code (`Z_DATA_ERROR` …).
    public var status: Int32
    public var description: String { "zlib status \(status)" }
  }

  /// `bytes` compressed as one gzip member, at zlib's best compression.
  public static func compress(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
    var stream = z_stream()
    var status = cz_deflate_init_gzip(&stream, Z_BEST_COMPRESSION)
    guard status == Z_OK else { throw Failure(status: status) }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
    status = bytes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { out in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = uInt(input.count)
        stream.next_out = out.baseAddress
        stream.avail_out = uInt(out.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { throw Failure(status: status) }
    output.removeLast(Int(stream.avail_out))
    return output
  }

  /// The bytes of a gzip (or zlib) stream, decompressed.
  public static func decompress(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
    var stream = z_stream()
    var status = cz_inflate_init_auto(&stream)
    guard status == Z_OK else { throw Failure(status: status) }
    defer { inflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 256 * 1024)
    status = bytes.withUnsafeBufferPointer { input -> Int32 in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = uInt(input.count)
      while true {
        let result = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
          stream.next_out = out.baseAddress
          stream.avail_out = uInt(out.count)
          return inflate(&stream, Z_NO_FLUSH)
        }
        output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
        guard result == Z_OK else { return result }
        if stream.avail_in == 0 && stream.avail_out != 0 { return Z_BUF_ERROR }
      }
    }
    guard status == Z_STREAM_END else { throw Failure(status: status) }
    return output
  }
}
