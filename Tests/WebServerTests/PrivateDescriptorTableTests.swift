import Dispatch
import Testing

@testable import WebServer

#if canImport(Glibc)
  import Glibc
#endif

extension WebServerTests {
  /// lws 4.1.6 closes a descriptor twice while a server stops; ``PrivateDescriptorTable`` is
  /// what keeps the second close from closing another thread's descriptor.
  @Suite struct PrivateDescriptorTableTests {
    /// A socket pair that no child process inherits.
    private static func pair() throws -> [Int32] {
      var ends: [Int32] = [-1, -1]
      let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      try #require(socketpair(AF_UNIX, kind, 0, &ends) == 0)
      return ends
    }

    /// The descriptor another thread opens.
    private final class Opened: @unchecked Sendable {
      var ends: [Int32] = []
    }

    /// lws's double close played out: the work closes a descriptor, another thread opens one,
    /// the work closes the first again. The other thread's descriptor still works, and the
    /// first is closed in the process's table (its peer reads the end).
    @Test(.enabled(if: PrivateDescriptorTable.isAvailable))
    func aSecondCloseSparesWhatAnotherThreadOpenedBetween() throws {
      let work = try Self.pair()
      defer { close(work[0]) }
      let closedOnce = DispatchSemaphore(value: 0)
      let openedBetween = DispatchSemaphore(value: 0)
      let opened = Opened()
      DispatchQueue.global().async {
        closedOnce.wait()
        opened.ends = (try? Self.pair()) ?? []
        openedBetween.signal()
      }
      let ran = PrivateDescriptorTable.run {
        close(work[1])
        closedOnce.signal()
        openedBetween.wait()
        close(work[1])
      }
      #expect(ran)
      try #require(opened.ends.count == 2)
      defer { for end in opened.ends { close(end) } }
      var byte: UInt8 = 7
      #expect(write(opened.ends[1], &byte, 1) == 1)
      var got: UInt8 = 0
      #expect(read(opened.ends[0], &got, 1) == 1)
      #expect(got == 7)
      #expect(read(work[0], &got, 1) == 0, "the work's close reached the process's table")
    }

    /// What the work leaves open stays open, and a descriptor it did not touch is untouched.
    @Test(.enabled(if: PrivateDescriptorTable.isAvailable))
    func whatTheWorkLeavesOpenStaysOpen() throws {
      let kept = try Self.pair()
      defer { for end in kept { close(end) } }
      #expect(PrivateDescriptorTable.run {})
      var byte: UInt8 = 9
      #expect(write(kept[1], &byte, 1) == 1)
      var got: UInt8 = 0
      #expect(read(kept[0], &got, 1) == 1)
      #expect(got == 9)
    }
  }
}
