import Compression

#if canImport(Glibc)
  import Glibc
#endif

extension StaticFiles {
  /// The static root's build: one version that names the contents of every file under the
  /// root, and pages whose references to the root's files carry it (`/v/VERSION/js/app.js`), so
  /// that a browser keeps those files for a year and asks for none of them again until a file
  /// changes.
  ///
  /// The version is a hash of the files' contents (each hashed once and kept while its
  /// modification time and size stay the same): the same on every instance that serves the same
  /// files, wherever they were copied, and new from the first page served after any file
  /// changed. The walk follows no symbolic link out of the root, skips hidden names as
  /// ``StaticFiles/resolve(_:in:)`` does, and stops after ``mostFiles`` files.
  struct Build {
    /// What starts a versioned path: `/v/VERSION/rest` is the root's `/rest`.
    static let prefix = "/v/"
    /// The caching of a file asked for under the current version: a year, never revalidated.
    static let immutable = "public, max-age=31536000, immutable"
    /// Files past this many are not hashed (a root holds a web client, not a disk).
    static let mostFiles = 4096
    /// Directories deeper than this are not walked.
    static let deepest = 8

    /// What the walk found: the version, and the names of the root's own directories (the
    /// first segments of the paths a page's references are rewritten for).
    struct Snapshot: Equatable {
      var version: String
      var directories: Set<String>
    }

    /// A hashed file: its size and modification time (seconds, nanoseconds) when hashed.
    private struct Hashed {
      var size: Int
      var modified: Int
      var nanoseconds: Int
      var hash: UInt64
    }

    /// A page with its references rewritten for `version`, in both encodings.
    private struct Page {
      var file: File
      var version: String
      var bytes: [UInt8]
      var gzipped: [UInt8]?
    }

    private var hashes: [String: Hashed] = [:]
    private var pages: [String: Page] = [:]
    /// The version the last walk found.
    private(set) var current: String?

    /// The version and directories of the files under `root` as they are now.
    mutating func snapshot(of root: String) -> Snapshot {
      var files: [(relative: String, hash: UInt64)] = []
      var directories: Set<String> = []
      walk(root, relative: "", root: root, depth: 0, files: &files, directories: &directories)
      files.sort { $0.relative.utf8.lexicographicallyPrecedes($1.relative.utf8) }
      var hash = FNV1a()
      for file in files {
        hash.add(file.relative.utf8)
        hash.add(CollectionOfOne(0))
        hash.add(file.hash)
      }
      let version = hash.hex
      current = version
      return Snapshot(version: version, directories: directories)
    }

    /// The `Cache-Control` of `file` asked for under `version`: immutable when that is the
    /// root's current version (walked now if no page was served yet) and the file is, as it is
    /// now, the one hashed for it; else `no-cache`, as for a file asked for by its own name.
    mutating func caching(of file: File, version: Substring, root: String) -> String {
      if current == nil { _ = snapshot(of: root) }
      guard let current, version == current, let hashed = hashes[file.path],
        hashed.size == file.size,
        hashed.modified == file.modified, hashed.nanoseconds == file.nanoseconds
      else { return "no-cache" }
      return Self.immutable
    }

    /// The page `file` with its references carrying the root's current version, and its gzip
    /// representation when it shrinks.
    mutating func page(_ file: File, root: String) -> (
      bytes: [UInt8], gzipped: [UInt8]?, etag: String
    )? {
      let snapshot = snapshot(of: root)
      let tag =
        "\(String(file.modified, radix: 16))-\(String(file.size, radix: 16))-\(snapshot.version)"
      if let page = pages[file.path], page.file == file, page.version == snapshot.version {
        return (page.bytes, page.gzipped, tag)
      }
      guard let bytes = StaticFiles.read(file) else { return nil }
      let rewritten = Self.versioned(bytes, version: snapshot.version, for: snapshot.directories)
      let compressed = try? Gzip.compress(rewritten)
      let gzipped = compressed.flatMap { $0.count < rewritten.count ? $0 : nil }
      pages[file.path] = Page(
        file: file, version: snapshot.version, bytes: rewritten, gzipped: gzipped)
      return (rewritten, gzipped, tag)
    }

    /// The root's path that a versioned request path names, with the version it names: for
    /// `/v/0123456789abcdef/js/app.js`, `/js/app.js` and `0123456789abcdef`; nil for any other
    /// path.
    static func split(_ path: String) -> (path: String, version: Substring)? {
      guard path.hasPrefix(prefix) else { return nil }
      let rest = path.dropFirst(prefix.count)
      guard let slash = rest.firstIndex(of: "/") else { return nil }
      let version = rest[..<slash]
      guard version.utf8.count == 16, version.utf8.allSatisfy(Self.isHexDigit) else { return nil }
      return (String(rest[slash...]), version)
    }

    /// `html` with each attribute value that starts with one of `directories` as a path from
    /// the root (`="/js/…"`, `='/css/…'`) starting `/v/VERSION/` instead. Other values (`/`,
    /// `/scores`, `https://…`, relative ones) are left as they are.
    static func versioned(_ html: [UInt8], version: String, for directories: Set<String>)
      -> [UInt8]
    {
      let equals = UInt8(ascii: "=")
      let slash = UInt8(ascii: "/")
      let inserted = Array((prefix + version).utf8)
      var result: [UInt8] = []
      result.reserveCapacity(html.count + 16 * inserted.count)
      var index = 0
      while index < html.count {
        result.append(html[index])
        // NB: `="/` or `='/`: an attribute's value that is a path from the root.
        guard html[index] == equals, index + 2 < html.count,
          html[index + 1] == UInt8(ascii: "\"") || html[index + 1] == UInt8(ascii: "'"),
          html[index + 2] == slash
        else {
          index += 1
          continue
        }
        let start = index + 3
        var end = start
        while end < html.count, html[end] != slash, html[end] != html[index + 1] { end += 1 }
        result.append(html[index + 1])
        if end < html.count, html[end] == slash,
          directories.contains(String(decoding: html[start..<end], as: UTF8.self))
        {
          result += inserted
        }
        index += 2
      }
      return result
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// Adds the regular files under `directory` (its path from the root is `relative`) to
    /// `files`, hashing the ones new or changed since they were last hashed.
    private mutating func walk(
      _ directory: String, relative: String, root: String, depth: Int,
      files: inout [(relative: String, hash: UInt64)], directories: inout Set<String>
    ) {
      guard depth <= Self.deepest, let stream = opendir(directory) else { return }
      defer { closedir(stream) }
      while files.count < Self.mostFiles, let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard !name.hasPrefix("."), !name.contains("\\") else { continue }
        var real = directory + "/" + name
        var info = stat()
        guard lstat(real, &info) == 0 else { continue }
        // NB: what a request could reach: a symbolic link counts only where it stays inside
        // the root (as `resolve` checks), and then as what it names. Anything else is under
        // the real root by a real name already, and costs one `lstat`.
        if info.st_mode & S_IFMT == S_IFLNK {
          guard let target = StaticFiles.realPath(real), target.hasPrefix(root + "/"),
            stat(target, &info) == 0
          else { continue }
          real = target
        }
        let named = relative.isEmpty ? name : relative + "/" + name
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
          if relative.isEmpty { directories.insert(name) }
          walk(
            real, relative: named, root: root, depth: depth + 1, files: &files,
            directories: &directories)
        case S_IFREG:
          let file = File(
            path: real, size: Int(info.st_size), modified: Int(info.st_mtim.tv_sec),
            nanoseconds: Int(info.st_mtim.tv_nsec))
          guard let hash = hash(of: file) else { continue }
          files.append((named, hash))
        default:
          continue
        }
      }
    }

    /// The hash of a file's contents, kept while its size and modification time stay the same.
    private mutating func hash(of file: File) -> UInt64? {
      if let hashed = hashes[file.path], hashed.size == file.size,
        hashed.modified == file.modified, hashed.nanoseconds == file.nanoseconds
      {
        return hashed.hash
      }
      guard let bytes = StaticFiles.read(file) else { return nil }
      var hash = FNV1a()
      hash.add(bytes)
      hashes[file.path] = Hashed(
        size: file.size, modified: file.modified, nanoseconds: file.nanoseconds, hash: hash.value)
      return hash.value
    }
  }

  /// The 64-bit FNV-1a hash: not for secrets, only to tell contents apart.
  struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
      for byte in bytes {
        value ^= UInt64(byte)
        value &*= 0x100_0000_01b3
      }
    }

    mutating func add(_ number: UInt64) {
      withUnsafeBytes(of: number.littleEndian) { add($0) }
    }

    /// The value as 16 lowercase hex digits.
    var hex: String {
      let digits = String(value, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }
  }
}
