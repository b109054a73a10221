/// One line of a table's chat, as the store keeps it with the room (docs/STORAGE.md "chat").
public struct ChatRecord: Sendable, Equatable {
  /// Its place among the room's lines (0 first).
  public var index: Int
  /// Milliseconds since 1970 when it was written.
  public var at: Int64
  /// Who wrote it (kept so that a mute outlives a restart of the server; never exported).
  public var player: PlayerKey
  /// The name it was written under: a seat's, or a watcher's own.
  public var name: String
  /// The seat its writer sat in, or nil for a watcher.
  public var seat: Int?
  /// What it says: a line of text, or the name of a quick reaction (``kind``).
  public var text: String
  public var kind: Kind

  /// A line of text, or one of the fixed quick reactions.
  public enum Kind: String, Sendable, Equatable {
    case text
    case reaction
  }

  public init(
    index: Int, at: Int64, player: PlayerKey, name: String, seat: Int?, text: String,
    kind: Kind = .text
  ) {
    self.index = index
    self.at = at
    self.player = player
    self.name = name
    self.seat = seat
    self.text = text
    self.kind = kind
  }
}
