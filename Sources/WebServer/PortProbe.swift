#if canImport(Glibc)
  import Glibc
#endif

/// Checks whether a port can be bound before lws tries.
///
/// NB: measured with strace on lws 4.1.6: when its own bind fails, lws closes a descriptor it
/// had already closed, which may by then belong to another thread. Finding a taken port here
/// keeps lws off that path in the common case.
enum PortProbe {
  /// False when binding `host:port` fails now; true when it works or `host` is not a numeric
  /// address (an interface name), which lws resolves itself.
  static func canBind(host: String, port: Int) -> Bool {
    guard port != 0 else { return true }
    var storage = sockaddr_storage()
    let length: socklen_t
    let family: Int32
    if withUnsafeMutablePointer(
      to: &storage,
      { pointer in
        pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
          address.pointee.sin_family = sa_family_t(AF_INET)
          address.pointee.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
          return inet_pton(AF_INET, host, &address.pointee.sin_addr) == 1
        }
      })
    {
      family = AF_INET
      length = socklen_t(MemoryLayout<sockaddr_in>.size)
    } else if withUnsafeMutablePointer(
      to: &storage,
      { pointer in
        pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
          address.pointee.sin6_family = sa_family_t(AF_INET6)
          address.pointee.sin6_port = in_port_t(UInt16(clamping: port).bigEndian)
          return inet_pton(AF_INET6, host, &address.pointee.sin6_addr) == 1
        }
      })
    {
      family = AF_INET6
      length = socklen_t(MemoryLayout<sockaddr_in6>.size)
    } else {
      return true
    }
    let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    return withUnsafePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    } == 0
  }
}
