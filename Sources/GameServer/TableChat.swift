import CardTableCore
import GameStore
import GameWire

/// A table's chat in memory (docs/PROTOCOL.md "Table chat"): its latest lines, how many it has
/// had, who muted whom and how fast each player writes. The store keeps every line; this keeps
/// what a client entering the table is shown.
struct TableChat {
  /// The most characters a line of text may have.
  static let longest = 200
  /// A player may write at most `rate.lines` lines in `rate.seconds` at one table.
  static let rate = (lines: 5, seconds: 10.0)
  /// How many of the latest lines a client entering the table is shown.
  static let shown = 50
  /// The quick reactions, by their wire names (the client draws them).
  static let reactions = ["clap", "wow", "laugh", "oops", "snap", "gg"]

  /// The latest lines, oldest first (at most ``shown``).
  private(set) var recent: [ChatRecord] = []
  /// How many lines the table has had: the next one's index.
  private(set) var count = 0
  /// The players each player muted (kept while the table is in memory).
  var muted: [PlayerKey: Set<PlayerKey>] = [:]
  /// When each player wrote their latest lines (host time), for the rate limit.
  private var written: [PlayerKey: [Double]] = [:]

  init(latest lines: [ChatRecord] = []) {
    recent = Array(lines.suffix(Self.shown))
    count = (lines.last?.index ?? -1) + 1
  }

  /// What `request` asks to say, checked: a line of text (trimmed, control characters made
  /// spaces) or one of the ``reactions``.
  static func content(of request: JSON) throws(WireError) -> (text: String, kind: ChatRecord.Kind) {
    let text = request["text"].flatMap { $0 == .null ? nil : $0 }
    let reaction = request["reaction"].flatMap { $0 == .null ? nil : $0 }
    switch (text, reaction) {
    case (let text?, nil):
      guard let raw = text.stringValue else {
        throw .badRequest("say: \"text\" must be a string.")
      }
      let cleaned = String(
        String.UnicodeScalarView(
          raw.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 })
      ).trimmingSpaces()
      guard !cleaned.isEmpty else { throw .badRequest("say: \"text\" is empty.") }
      guard cleaned.count <= longest else {
        throw WireError(
          code: "message-too-long",
          message: "A message has at most \(longest) characters; this one has \(cleaned.count).")
      }
      return (cleaned, .text)
    case (nil, let reaction?):
      guard let name = reaction.stringValue, reactions.contains(name) else {
        throw .badRequest(
          "say: \"reaction\" must be one of \(reactions.map { "\"\($0)\"" }.joined(separator: ", "))."
        )
      }
      return (name, .reaction)
    default:
      throw .badRequest(
        "say needs \"text\" (a message) or \"reaction\" (a quick reaction), not both.")
    }
  }

  /// Counts a line by `player` at `now` against the rate limit.
  ///
  /// - Throws: `too-many-messages` when they wrote ``rate`` lines in the last seconds.
  mutating func mayWrite(_ player: PlayerKey, at now: Double) throws(WireError) {
    let latest = (written[player] ?? []).filter { now - $0 < Self.rate.seconds }
    guard latest.count < Self.rate.lines else {
      throw WireError(
        code: "too-many-messages",
        message:
          "At most \(Self.rate.lines) messages in \(Int(Self.rate.seconds)) seconds; wait a moment."
      )
    }
    written[player] = latest + [now]
  }

  /// The next line, not yet kept (``add(_:)`` keeps it once the store has it).
  func line(
    by player: PlayerKey, name: String, seat: Int?, content: (text: String, kind: ChatRecord.Kind),
    at wall: Int64
  ) -> ChatRecord {
    ChatRecord(
      index: count, at: wall, player: player, name: name, seat: seat, text: content.text,
      kind: content.kind)
  }

  mutating func add(_ line: ChatRecord) {
    recent.append(line)
    if recent.count > Self.shown { recent.removeFirst(recent.count - Self.shown) }
    count = line.index + 1
  }

  /// Whether `reader` muted `writer`.
  func hides(_ writer: PlayerKey, from reader: PlayerKey?) -> Bool {
    guard let reader else { return false }
    return muted[reader]?.contains(writer) == true
  }

  /// A line as the wire has it, for `reader`.
  static func json(_ line: ChatRecord, for reader: PlayerKey?) -> JSON {
    var entry: JSON = [
      "index": JSON(line.index), "at": JSON(line.at), "name": .string(line.name),
    ]
    if let seat = line.seat {
      entry = entry.setting("seat", to: JSON(seat))
    } else {
      entry = entry.setting("watcher", to: true)
    }
    entry = entry.setting(line.kind == .text ? "text" : "reaction", to: .string(line.text))
    if line.player == reader { entry = entry.setting("you", to: true) }
    return entry
  }
}
