import Compression

#if canImport(Glibc)
  import Glibc
#endif

/// Maps request paths to files under the static root, with their content type and caching.
///
/// Pure apart from reading the file system, so tests check it without sockets.
enum StaticFiles {
  /// A file found under the root.
  struct File: Equatable {
    var path: String
    var size: Int
    var modified: Int
    /// What else changes when the file does, though its size and modification time may not
    /// (`cp -p`, `rsync -t` and `tar x` keep or set them): its inode (a file replaced by a
    /// rename) and its status change time in nanoseconds (which no tool can set).
    var inode: UInt64 = 0
    var changed = 0
    /// A strong validator from the modification time and the size.
    var etag: String { "\"\(String(modified, radix: 16))-\(String(size, radix: 16))\"" }
    /// The validator of the gzip-compressed representation.
    var gzipETag: String { "\"\(String(modified, radix: 16))-\(String(size, radix: 16))-gz\"" }

    init(path: String, size: Int, modified: Int) {
      (self.path, self.size, self.modified) = (path, size, modified)
    }

    /// The file at `path` as `stat` found it.
    init(_ path: String, _ info: stat) {
      self.init(path: path, size: Int(info.st_size), modified: Int(info.st_mtim.tv_sec))
      inode = UInt64(info.st_ino)
      changed = Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec)
    }
  }

  /// Files compressed with gzip, kept while the file stays the same (``File``).
  struct CompressedFiles {
    /// Larger files are sent as they are.
    static let largest = 4 * 1024 * 1024
    private var entries: [String: (file: File, gzipped: [UInt8])] = [:]

    /// The gzip-compressed bytes of `file`, or nil when it cannot be read or does not shrink.
    mutating func gzipped(_ file: File) -> [UInt8]? {
      if let entry = entries[file.path], entry.file == file {
        return entry.gzipped.isEmpty ? nil : entry.gzipped
      }
      guard file.size <= Self.largest, let bytes = StaticFiles.read(file) else { return nil }
      // NB: an empty entry remembers a file that does not shrink.
      let kept = StaticFiles.gzippedIfSmaller(bytes) ?? []
      entries[file.path] = (file, kept)
      return kept.isEmpty ? nil : kept
    }
  }

  /// `bytes` gzip-compressed, or nil when that does not make them smaller.
  static func gzippedIfSmaller(_ bytes: [UInt8]) -> [UInt8]? {
    guard let compressed = try? Gzip.compress(bytes), compressed.count < bytes.count else {
      return nil
    }
    return compressed
  }

  /// Whether a file of this type compresses well (text), and is worth sending gzip-compressed.
  static func isCompressible(_ path: String) -> Bool {
    switch fileExtension(path) {
    case "html", "htm", "js", "mjs", "css", "json", "map", "webmanifest", "svg", "txt", "md":
      true
    default:
      false
    }
  }

  /// The whole contents of a file, or nil when it cannot be read.
  static func read(_ file: File) -> [UInt8]? {
    guard let handle = fopen(file.path, "rb") else { return nil }
    defer { fclose(handle) }
    var bytes = [UInt8](repeating: 0, count: file.size)
    let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
    return count == file.size ? bytes : nil
  }

  /// The root directory as an absolute path without symbolic links, or `nil` if it is not a
  /// directory.
  static func resolveRoot(_ path: String) -> String? {
    guard let real = realPath(path), isDirectory(real) else { return nil }
    return real
  }

  /// The regular file a request path names under `root`, or `nil`.
  ///
  /// Refuses any `.` or `..` segment and any hidden name (`.git`, `.env`), then checks that the
  /// real path, symbolic links resolved, still lies inside the root. A directory stands for
  /// its `index.html`.
  static func resolve(_ requestPath: String, in root: String) -> File? {
    guard requestPath.hasPrefix("/"), !requestPath.utf8.contains(0) else { return nil }
    let segments = requestPath.split(separator: "/", omittingEmptySubsequences: true)
    guard segments.allSatisfy(isRequestable) else { return nil }
    var candidate = root + "/" + segments.joined(separator: "/")
    if requestPath.hasSuffix("/") || isDirectory(candidate) {
      candidate += "/index.html"
    }
    guard let real = realPath(candidate), real.hasPrefix(root + "/") else { return nil }
    var info = stat()
    guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return File(real, info)
  }

  /// Whether a request may name a file or directory of this name: none that is hidden (`.git`,
  /// `.env`, so `.` and `..` too) or holds a backslash.
  static func isRequestable(_ name: some StringProtocol) -> Bool {
    !name.hasPrefix(".") && !name.contains("\\")
  }

  /// The `Content-Type` for a file name, by its extension.
  static func contentType(for path: String) -> String {
    switch fileExtension(path) {
    case "html", "htm": "text/html; charset=utf-8"
    case "js", "mjs": "text/javascript; charset=utf-8"
    case "css": "text/css; charset=utf-8"
    case "json", "map": "application/json"
    case "webmanifest": "application/manifest+json"
    case "svg": "image/svg+xml"
    case "png": "image/png"
    case "jpg", "jpeg": "image/jpeg"
    case "gif": "image/gif"
    case "webp": "image/webp"
    case "ico": "image/x-icon"
    case "woff2": "font/woff2"
    case "woff": "font/woff"
    case "txt", "md": "text/plain; charset=utf-8"
    case "wasm": "application/wasm"
    default: "application/octet-stream"
    }
  }

  /// Whether a file is a page, whose references to the root's files are rewritten to carry the
  /// build's version (``Build``).
  static func isPage(_ path: String) -> Bool {
    ["html", "htm"].contains(fileExtension(path))
  }

  /// The `Cache-Control` for a file name asked for under its own name.
  ///
  /// Pages, scripts, style sheets and data change together when the program is upgraded, so
  /// under a name that carries no version browsers revalidate them on every use (`no-cache`;
  /// the ETag makes that a cheap 304); pages name them under the build's version, which is
  /// cached for good (``Build``). Images and fonts may be reused for an hour without asking.
  static func cacheControl(for path: String) -> String {
    switch fileExtension(path) {
    case "svg", "png", "jpg", "jpeg", "gif", "webp", "ico", "woff2", "woff":
      "public, max-age=3600"
    default:
      "no-cache"
    }
  }

  private static func fileExtension(_ path: String) -> String {
    guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: ".") else {
      return ""
    }
    return name[name.index(after: dot)...].lowercased()
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  private static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }
}
