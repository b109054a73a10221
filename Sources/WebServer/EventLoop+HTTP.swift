import CWebSockets

#if canImport(Glibc)
  import Glibc
#endif

// The HTTP half of the loop: the Host and Origin checks, the page's routes, static files
// (gzip when asked), `/api/` answers, and their headers and bodies.

extension EventLoop {
  // MARK: - Host and origin

  /// Whether the request's `Host` names the server (``WebServer/Configuration/allowedHosts``).
  func hostAllowed(_ wsi: OpaquePointer) -> Bool {
    guard let allowed = configuration.allowedHosts else { return true }
    guard let host = header(wsi, WSI_TOKEN_HOST) else { return false }
    return allowed.contains(Self.hostName(host).lowercased())
  }

  /// Whether a browser page may open this WebSocket: it comes from the server's own origin (or
  /// one allowed), or sends no `Origin` at all (a program rather than a page).
  func originAllowed(_ wsi: OpaquePointer) -> Bool {
    guard let origin = header(wsi, WSI_TOKEN_ORIGIN) else { return true }
    return Self.originAllowed(
      origin, host: header(wsi, WSI_TOKEN_HOST), allowed: configuration.allowedOrigins)
  }

  /// The rule of ``originAllowed(_:)``: an origin of ``WebServer/Configuration/allowedOrigins``,
  /// or the server's own, which is `http://` and the request's `Host` — the server speaks no
  /// TLS, so a page served over `https://` reaches it only through a proxy whose origin is
  /// listed (docs/DEPLOY.md). Scheme and host compare without case.
  static func originAllowed(_ origin: String, host: String?, allowed: [String]) -> Bool {
    let origin = origin.lowercased()
    if allowed.contains(where: { $0.lowercased() == origin }) { return true }
    guard let host, !host.isEmpty else { return false }
    return origin == "http://" + host.lowercased()
  }

  /// A `Host` header's name without its port: `example.org`, `127.0.0.1`, `[::1]`.
  static func hostName(_ host: String) -> String {
    if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
      return String(host[...end])
    }
    return String(host.prefix { $0 != ":" })
  }

  // MARK: - HTTP

  func httpRequest(_ wsi: OpaquePointer, path: String) -> Int32 {
    let method = method(wsi)
    if path == "/api" || path.hasPrefix("/api/") || configuration.endpointPaths.contains(path) {
      let request = HTTPRequest(method: method, path: path, query: query(wsi))
      let hasBody = ["POST", "PUT", "PATCH"].contains(method)
      if hasBody && lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0 {
        pendingRequests[wsi] = PendingRequest(request: request)
        return 0
      }
      return respond(wsi, handler.respond(to: request) ?? .notFoundJSON)
    }
    guard method == "GET" || method == "HEAD" else {
      return respond(wsi, .text("method not allowed\n", status: 405))
    }
    // NB: `/v/VERSION/js/app.js` is the root's `/js/app.js` as a page of that build named it.
    let versioned = StaticFiles.Build.split(path)
    guard let staticRoot,
      let file = StaticFiles.resolve(versioned?.path ?? path, in: staticRoot)
        ?? (versioned == nil && isPageRoute(path)
          ? StaticFiles.resolve("/index.html", in: staticRoot) : nil)
    else {
      return respond(wsi, .text("not found\n", status: 404))
    }
    return serve(wsi, file, root: staticRoot, version: versioned?.version, method: method)
  }

  /// Whether `path` is one of the page application's own addresses (``WebServer/Configuration/pageRoutes``).
  func isPageRoute(_ path: String) -> Bool {
    configuration.pageRoutes.contains { route in
      route.hasSuffix("/") ? path.hasPrefix(route) && path.count > route.count : path == route
    }
  }

  /// Serves a file: gzip-compressed from memory when it compresses and the client accepts
  /// gzip, else through `lws_serve_http_file`; or a 304 when the client's copy is current. A
  /// page goes out from memory with its references carrying the build's version
  /// (``StaticFiles/Build``); a file asked for under the version it still has is cached for good.
  ///
  /// The two encodings are two representations with ETags of their own, and a compressible
  /// file's responses say `Vary: Accept-Encoding`, so that no cache hands one for the other.
  func serve(
    _ wsi: OpaquePointer, _ file: StaticFiles.File, root: String, version: Substring?,
    method: String
  ) -> Int32 {
    let compressible = StaticFiles.isCompressible(file.path)
    let gzip = compressible && acceptsGzip(header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING))
    // NB: the bytes to send from memory (nil: the file as it is on disk), and whether they are
    // gzip-compressed.
    var body: [UInt8]?
    var gzipped = false
    let etag: String
    let now = Double(uv_now(loop)) / 1000
    if StaticFiles.isPage(file.path), let page = build.page(file, root: root, now: now) {
      gzipped = gzip && page.gzipped != nil
      (body, etag) = gzipped ? (page.gzipped, page.gzipETag) : (page.bytes, page.etag)
    } else if gzip, let compressed = compressedFiles.gzipped(file) {
      (body, gzipped, etag) = (compressed, true, file.gzipETag)
    } else {
      etag = file.etag
    }
    let caching =
      if let version {
        build.caching(of: file, version: version, root: root, now: now)
      } else {
        StaticFiles.cacheControl(for: file.path)
      }
    var headers = [
      ("etag:", etag),
      ("cache-control:", caching),
      ("x-content-type-options:", "nosniff"),
    ]
    headers += configuration.pageHeaders
    if compressible { headers.append(("vary:", "Accept-Encoding")) }
    if let matched = header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH),
      matched.split(separator: ",").contains(where: {
        let tag = $0.trimmed(" ")
        return tag == etag || tag == "*"
      })
    {
      return writeHeaders(wsi, status: 304, contentType: nil, length: nil, headers: headers)
    }
    if let body {
      if gzipped { headers.append(("content-encoding:", "gzip")) }
      let result = writeHeaders(
        wsi, status: 200, contentType: StaticFiles.contentType(for: file.path),
        length: body.count, headers: headers)
      if result == 0 {
        responseBodies[wsi] = method == "HEAD" ? [] : body
        lws_callback_on_writable(wsi)
      }
      return result
    }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let result = buffer.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let start = buffer.baseAddress else { return -1 }
      var cursor: UnsafeMutablePointer<UInt8>? = start
      for (name, value) in headers {
        let failed = lws_add_http_header_by_name(
          wsi, name, value, Int32(value.utf8.count), &cursor, start + buffer.count)
        if failed != 0 { return -1 }
      }
      guard let end = cursor else { return -1 }
      return lws_serve_http_file(
        wsi, file.path, StaticFiles.contentType(for: file.path),
        UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), Int32(end - start))
    }
    if result < 0 { return -1 }
    if result > 0 && lws_http_transaction_completed(wsi) != 0 { return -1 }
    return 0
  }

  /// Writes a response's headers now and its body when the connection is writable.
  func respond(_ wsi: OpaquePointer, _ response: HTTPResponse) -> Int32 {
    let result = writeHeaders(
      wsi, status: response.status, contentType: response.contentType,
      length: response.body.count,
      headers: [("cache-control:", "no-store"), ("x-content-type-options:", "nosniff")]
        + configuration.pageHeaders)
    if result == 0 {
      responseBodies[wsi] = response.body
      lws_callback_on_writable(wsi)
    }
    return result
  }

  /// Writes a status line and headers; with no `length` the response has no body and the
  /// transaction ends here.
  func writeHeaders(
    _ wsi: OpaquePointer, status: Int, contentType: String?, length: Int?,
    headers: [(String, String)]
  ) -> Int32 {
    var buffer = [UInt8](repeating: 0, count: cws_pre() + 2048)
    let failed = buffer.withUnsafeMutableBufferPointer { buffer -> Bool in
      guard let base = buffer.baseAddress else { return true }
      let start = base + cws_pre()
      let end = base + buffer.count
      var cursor: UnsafeMutablePointer<UInt8>? = start
      if let contentType, let length {
        if lws_add_http_common_headers(
          wsi, UInt32(status), contentType, lws_filepos_t(length), &cursor, end) != 0
        {
          return true
        }
      } else if lws_add_http_header_status(wsi, UInt32(status), &cursor, end) != 0 {
        return true
      }
      for (name, value) in headers {
        if lws_add_http_header_by_name(wsi, name, value, Int32(value.utf8.count), &cursor, end)
          != 0
        {
          return true
        }
      }
      return lws_finalize_write_http_header(wsi, start, &cursor, end) != 0
    }
    if failed { return -1 }
    if length == nil && lws_http_transaction_completed(wsi) != 0 { return -1 }
    return 0
  }

  func writeBody(_ wsi: OpaquePointer, _ body: [UInt8]) -> Int32 {
    if !body.isEmpty {
      var frame = [UInt8](repeating: 0, count: cws_pre())
      frame.append(contentsOf: body)
      let written = frame.withUnsafeMutableBufferPointer { buffer -> Int32 in
        guard let base = buffer.baseAddress else { return -1 }
        return lws_write(wsi, base + cws_pre(), body.count, LWS_WRITE_HTTP_FINAL)
      }
      if written < body.count { return -1 }
    }
    return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
  }

  func method(_ wsi: OpaquePointer) -> String {
    let methods: [(lws_token_indexes, String)] = [
      (WSI_TOKEN_GET_URI, "GET"), (WSI_TOKEN_POST_URI, "POST"), (WSI_TOKEN_PUT_URI, "PUT"),
      (WSI_TOKEN_PATCH_URI, "PATCH"), (WSI_TOKEN_DELETE_URI, "DELETE"),
      (WSI_TOKEN_HEAD_URI, "HEAD"), (WSI_TOKEN_OPTIONS_URI, "OPTIONS"),
    ]
    return methods.first { lws_hdr_total_length(wsi, $0.0) > 0 }?.1 ?? "GET"
  }

  /// The decoded `name=value` arguments of the query string.
  func query(_ wsi: OpaquePointer) -> [String: String] {
    let total = Int(lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS))
    guard total > 0 else { return [:] }
    var arguments: [String: String] = [:]
    var buffer = [CChar](repeating: 0, count: total + 1)
    var index: Int32 = 0
    while true {
      let count = lws_hdr_copy_fragment(
        wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_URI_ARGS, index)
      if count < 0 { break }
      index += 1
      let fragment = String(
        decoding: buffer[0..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      guard !fragment.isEmpty else { continue }
      if let equals = fragment.firstIndex(of: "=") {
        arguments[String(fragment[..<equals])] = String(fragment[fragment.index(after: equals)...])
      } else {
        arguments[fragment] = ""
      }
    }
    return arguments
  }

  /// Whether an `Accept-Encoding` value accepts gzip (`gzip`, `gzip;q=0.5`, not `gzip;q=0`).
  func acceptsGzip(_ value: String?) -> Bool {
    guard let value else { return false }
    return value.lowercased().split(separator: ",").contains { coding in
      let parts = coding.split(separator: ";").map { $0.trimmed(" ") }
      guard parts.first == "gzip" || parts.first == "*" else { return false }
      let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap {
        Double($0.dropFirst(2))
      }
      return (quality ?? 1) > 0
    }
  }

  /// A request header's whole value, or `nil` when absent.
  func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
    let total = Int(lws_hdr_total_length(wsi, token))
    guard total > 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: total + 1)
    guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
