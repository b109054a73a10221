import CWebSockets

/// One open WebSocket connection, as the loop thread sees it.
final class Connection {
  let id: ConnectionID
  let wsi: OpaquePointer
  var bucket: TokenBucket
  /// Set by `close(_:)`: the connection closes once its outbox is empty.
  var closing = false
  /// The close code to send, once the outbox is empty; nil while the connection stays open.
  var closeCode: UInt16?

  /// Messages refused as too fast since the last one handled.
  var refusedInARow = 0
  /// The message being received was refused at its first fragment: it is counted, not kept.
  var refusing = false
  /// The bytes the message has paid tokens for (its first frame's length).
  var charged = 0

  /// The message being reassembled from fragments.
  var message: [UInt8] = []
  var messageBytes = 0
  var inMessage = false
  var isBinary = false
  /// The message grew past the limit: its remaining fragments are counted, not kept.
  var discarding = false

  /// Frames waiting for the socket, each with `LWS_PRE` bytes of headroom.
  private var outbox: [[UInt8]] = []
  private var outboxHead = 0
  private(set) var outboxBytes = 0
  /// The most bytes the outbox has held.
  private(set) var peakOutboxBytes = 0

  init(id: ConnectionID, wsi: OpaquePointer, bucket: TokenBucket) {
    self.id = id
    self.wsi = wsi
    self.bucket = bucket
  }

  var hasOutbox: Bool { outboxHead < outbox.count }

  func push(_ frame: [UInt8]) {
    outbox.append(frame)
    outboxBytes += frame.count
    peakOutboxBytes = max(peakOutboxBytes, outboxBytes)
  }

  func popOutbox() -> [UInt8]? {
    guard hasOutbox else { return nil }
    let frame = outbox[outboxHead]
    outbox[outboxHead] = []
    outboxHead += 1
    outboxBytes -= frame.count
    if outboxHead == outbox.count || outboxHead >= 64 && outboxHead * 2 >= outbox.count {
      outbox.removeFirst(outboxHead)
      outboxHead = 0
    }
    return frame
  }

  func dropOutbox() {
    outbox = []
    outboxHead = 0
    outboxBytes = 0
  }

  func resetMessage() {
    message = []
    messageBytes = 0
    inMessage = false
    isBinary = false
    discarding = false
    refusing = false
    charged = 0
  }
}
