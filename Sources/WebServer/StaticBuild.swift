#if canImport(Glibc)
  import Glibc
#endif

extension StaticFiles {
  /// The static root's build: one version that names the contents of every file under the
  /// root, and pages whose references to the root's files carry it (`/v/VERSION/js/app.js`), so
  /// that a browser keeps those files for a year and asks for none of them again until a file
  /// changes.
  ///
  /// The version is a hash of the files' paths and contents: the same on every instance that
  /// serves the same files, wherever they were copied. A file is hashed again only when it
  /// changed (``File``: its size, modification time, inode or status change time). A file is
  /// immutable under a version only while it is the very file hashed for it, so a file changed
  /// since is never cached for good under an older name. The walk is reused for ``reuse``
  /// seconds, follows no symbolic link out of the root nor into a directory it has walked,
  /// skips hidden names as ``StaticFiles/resolve(_:in:)`` does, and stops after ``mostEntries``
  /// names.
  struct Build {
    /// What starts a versioned path: `/v/VERSION/rest` is the root's `/rest`.
    static let prefix = "/v/"
    /// The caching of a file asked for under the current version: a year, never revalidated.
    static let immutable = "public, max-age=31536000, immutable"
    /// Names past this many (files and directories) are not walked: a root holds a web
    /// client, not a disk.
    static let mostEntries = 4096
    /// Directories deeper than this are not walked.
    static let deepest = 8
    /// Larger files are not hashed: they are served, never as immutable.
    static let largest = CompressedFiles.largest

    /// What the walk found: the version, and the names of the root's own directories (the
    /// first segments of the paths a page's references are rewritten for).
    struct Snapshot: Equatable {
      var version: String
      var directories: Set<String>
    }

    /// A page with its references rewritten for `version`, in both encodings, and its ETag (a
    /// hash of the rewritten bytes: the same on every instance).
    private struct Page {
      var file: File
      var version: String
      var bytes: [UInt8]
      var gzipped: [UInt8]?
      var etag: String
    }

    /// Seconds a walk is reused for; a file changed meanwhile is still never immutable.
    let reuse: Double
    /// The files of the last walk, by real path, with the hash of their contents.
    private var hashes: [String: (file: File, hash: UInt64)] = [:]
    private var pages: [String: Page] = [:]
    private var last: (snapshot: Snapshot, at: Double)?

    init(reuse: Double = 1) {
      self.reuse = reuse
    }

    /// The version and directories of the files under `root` (a real path) as they were at
    /// most ``reuse`` seconds before `now` (seconds on any clock that only moves forward).
    mutating func snapshot(of root: String, now: Double) -> Snapshot {
      if let last, now >= last.at, now - last.at < reuse { return last.snapshot }
      var walk = Walk(root: root, known: hashes)
      walk.visit(root, relative: "", depth: 0)
      walk.files.sort { $0.relative.utf8.lexicographicallyPrecedes($1.relative.utf8) }
      var hash = FNV1a()
      for file in walk.files {
        hash.add(file.relative.utf8)
        hash.add(CollectionOfOne(0))
        hash.add(file.hash)
      }
      hashes = walk.seen
      let snapshot = Snapshot(version: hash.hex, directories: walk.directories)
      last = (snapshot, now)
      return snapshot
    }

    /// The `Cache-Control` of `file` asked for under `version`: immutable when that is the
    /// root's current version and `file` is the very file hashed for it; else `no-cache`, as
    /// for a file asked for by its own name. A page is always `no-cache`, so that it names the
    /// next build as soon as there is one.
    mutating func caching(of file: File, version: Substring, root: String, now: Double)
      -> String
    {
      guard !StaticFiles.isPage(file.path), version == snapshot(of: root, now: now).version,
        hashes[file.path]?.file == file
      else { return "no-cache" }
      return Self.immutable
    }

    /// The page `file` with its references carrying the root's current version, its gzip
    /// form when it shrinks, and their ETags.
    mutating func page(_ file: File, root: String, now: Double) -> (
      bytes: [UInt8], gzipped: [UInt8]?, etag: String, gzipETag: String
    )? {
      let snapshot = snapshot(of: root, now: now)
      if let page = pages[file.path], page.file == file, page.version == snapshot.version {
        return (page.bytes, page.gzipped, page.etag, Self.gzipETag(page.etag))
      }
      guard let bytes = StaticFiles.read(file) else { return nil }
      let rewritten = Self.versioned(bytes, version: snapshot.version, for: snapshot.directories)
      var hash = FNV1a()
      hash.add(rewritten)
      let page = Page(
        file: file, version: snapshot.version, bytes: rewritten,
        gzipped: StaticFiles.gzippedIfSmaller(rewritten),
        etag: "\"\(hash.hex)\"")
      pages[file.path] = page
      return (page.bytes, page.gzipped, page.etag, Self.gzipETag(page.etag))
    }

    private static func gzipETag(_ etag: String) -> String {
      String(etag.dropLast()) + "-gz\""
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

    /// `html` with each quoted attribute value that is a path to a file in one of
    /// `directories` (`="/js/app.js"`, `='/css/app.css'`) starting `/v/VERSION/` instead.
    /// Everything else is left as it is: `/`, `/scores`, `https://…`, relative paths, paths to
    /// pages (`/games/`, `/help.html`, which must name the next build when there is one) and
    /// values without quotes.
    static func versioned(_ html: [UInt8], version: String, for directories: Set<String>)
      -> [UInt8]
    {
      let equals = UInt8(ascii: "=")
      let slash = UInt8(ascii: "/")
      let inserted = Array((prefix + version).utf8)
      var result: [UInt8] = []
      result.reserveCapacity(html.count + 64 * inserted.count)
      var index = 0
      while index < html.count {
        // NB: `="/` or `='/`: a quoted attribute value that is a path from the root.
        guard html[index] == equals, index + 2 < html.count,
          html[index + 1] == UInt8(ascii: "\"") || html[index + 1] == UInt8(ascii: "'"),
          html[index + 2] == slash
        else {
          result.append(html[index])
          index += 1
          continue
        }
        let quote = html[index + 1]
        let start = index + 2
        var end = start
        while end < html.count, html[end] != quote { end += 1 }
        let value = html[start..<end]
        result += html[index...index + 1]
        if let segment = value.dropFirst().split(separator: slash, omittingEmptySubsequences: false)
          .first, segment.endIndex < value.endIndex,
          directories.contains(String(decoding: segment, as: UTF8.self)),
          !Self.namesAPage(value)
        {
          result += inserted
        }
        result += value
        index = end
      }
      return result
    }

    /// Whether a path (with its query or fragment, if any) names a page: a directory's or an
    /// HTML file.
    private static func namesAPage(_ value: ArraySlice<UInt8>) -> Bool {
      let path = value.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
      return path.last == UInt8(ascii: "/")
        || StaticFiles.isPage(String(decoding: path, as: UTF8.self))
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
  }

  /// One walk of the root: the files found with their hashes, the root's directories.
  private struct Walk {
    let root: String
    /// The hashes of the last walk, reused for files that have not changed since.
    let known: [String: (file: File, hash: UInt64)]
    var seen: [String: (file: File, hash: UInt64)] = [:]
    var files: [(relative: String, hash: UInt64)] = []
    var directories: Set<String> = []
    /// The directories walked, by device and inode: a link back up is not walked again.
    var walked: Set<[UInt64]> = []
    var entries = 0

    init(root: String, known: [String: (file: File, hash: UInt64)]) {
      (self.root, self.known) = (root, known)
    }

    /// Adds the files under `directory` (its path from the root is `relative`), in name order
    /// so that the names walked before the limit are the same on every copy.
    mutating func visit(_ directory: String, relative: String, depth: Int) {
      var info = stat()
      guard depth <= Build.deepest, stat(directory, &info) == 0,
        walked.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted
      else { return }
      for name in Self.names(in: directory) {
        entries += 1
        guard entries <= Build.mostEntries else { return }
        var real = directory + "/" + name
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
          visit(real, relative: named, depth: depth + 1)
        case S_IFREG:
          let file = File(real, info)
          guard file.size <= Build.largest, let hash = hash(of: file) else { continue }
          seen[real] = (file, hash)
          files.append((named, hash))
        default:
          continue
        }
      }
    }

    /// The hash of a file's contents, from the last walk if the file has not changed since.
    private func hash(of file: File) -> UInt64? {
      if let known = known[file.path], known.file == file { return known.hash }
      guard let bytes = StaticFiles.read(file) else { return nil }
      var hash = FNV1a()
      hash.add(bytes)
      return hash.value
    }

    /// The names in `directory` that a request may use (no hidden ones), sorted.
    private static func names(in directory: String) -> [String] {
      guard let stream = opendir(directory) else { return [] }
      defer { closedir(stream) }
      var names: [String] = []
      while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if StaticFiles.isRequestable(name) { names.append(name) }
      }
      return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
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
