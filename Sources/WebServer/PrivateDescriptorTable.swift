import CWebSockets

#if canImport(Glibc)
  import Glibc
#endif

/// Runs work that may close a descriptor twice on a thread with a copy of the process's
/// descriptor table of its own, then closes once, in the process's table, each descriptor the
/// work closed.
///
/// Why: lws 4.1.6 closes its cancel pipe's eventfd twice while the loop finishes the context's
/// handles (`strace -k`: `close(P) = 0`, then `close(P) = -1 EBADF` from
/// `__lws_close_free_wsi_final`). A descriptor that another thread opens between the two gets
/// the number `P` and is closed under it: a parallel test's signal pipe lost every signal this
/// way. On a table of its own the second close fails and touches nothing of anyone else's.
///
/// NB: the work must open nothing: what it opens is closed with the thread. The copy holds
/// every descriptor the process had while the thread runs (a listening socket another thread
/// closes meanwhile stays bound until then); they are let go when the thread ends. The thread
/// takes no signal: a handler there would write to its copy.
enum PrivateDescriptorTable {
  private final class Job {
    let work: () -> Void
    /// The descriptors the work closed; nil when the thread could not have a table of its own
    /// (the work did not run).
    var closed: [Int32]?

    init(_ work: @escaping () -> Void) { self.work = work }
  }

  /// Runs `work` on a thread with a private descriptor table and returns once it is done and
  /// the descriptors it closed are closed in the process's table too; false, without running
  /// it, when no such thread could be made (the caller then runs the work itself).
  static func run(_ work: @escaping () -> Void) -> Bool {
    let job = Job(work)
    let argument = Unmanaged.passRetained(job).toOpaque()
    var thread = pthread_t()
    // NB: the thread inherits a mask that blocks every signal.
    var all = sigset_t()
    var mask = sigset_t()
    sigfillset(&all)
    pthread_sigmask(SIG_SETMASK, &all, &mask)
    defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
    let made = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        let job = Unmanaged<Job>.fromOpaque(argument).takeRetainedValue()
        guard cws_unshare_descriptor_table() == 0,
          let open = PrivateDescriptorTable.openDescriptors()
        else { return nil }
        job.work()
        job.closed = open.filter { fcntl($0, F_GETFD) == -1 && errno == EBADF }
        return nil
      }, argument)
    guard made == 0 else {
      Unmanaged<Job>.fromOpaque(argument).release()
      return false
    }
    pthread_join(thread, nil)
    guard let closed = job.closed else { return false }
    // NB: in the process's table these are still the work's own: no other thread closed
    // them, so no other thread can have been given their numbers.
    for descriptor in closed { Glibc.close(descriptor) }
    return true
  }

  /// Whether this process may give a thread a table of its own (a sandbox may refuse
  /// `unshare`).
  static let isAvailable: Bool = run {}

  /// The numbers of the calling thread's open descriptors, or nil if `/proc` cannot be read.
  private static func openDescriptors() -> [Int32]? {
    guard let directory = opendir("/proc/thread-self/fd") else { return nil }
    defer { closedir(directory) }
    let own = dirfd(directory)
    var numbers: [Int32] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if let number = Int32(name), number != own { numbers.append(number) }
    }
    return numbers
  }
}
