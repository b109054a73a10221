/// A key the player pressed, or a mouse report: what ``InputDecoder`` makes of the bytes a
/// terminal sends.
public enum Key: Sendable, Hashable {
  /// A printable character, `" "` for the space bar; several UTF-8 bytes make one.
  case character(Character)
  /// Return or Enter (CR or LF; SS3 M on a keypad).
  case enter
  /// Esc on its own, or the Alt of an Alt-key (then the key follows).
  case escape
  /// Tab.
  case tab
  /// Shift-Tab (CSI Z).
  case backTab
  /// Backspace (DEL or BS).
  case backspace
  /// The Delete key (CSI 3~).
  case delete
  /// An arrow key, with or without modifiers (which are ignored).
  case up, down, left, right
  /// Home and End, in each of the forms terminals send them.
  case home, end
  /// Page Up and Page Down (CSI 5~, 6~).
  case pageUp, pageDown
  /// Another control byte, as the letter pressed with Ctrl: Ctrl-C is `.control("c")`.
  /// NUL and 0x1C–0x1F are `@`, `\`, `]`, `^` and `_`.
  case control(Character)
  /// A click, a release, a drag or the wheel.
  case mouse(Mouse)
  /// A sequence not understood, as its text without the ESC (`"[15~"` for F5); `"\u{FFFD}"`
  /// for bytes that are not UTF-8. Never dropped, so a screen can show it was seen.
  case unknown(String)
}

/// A mouse report (SGR form, `CSI < b ; x ; y M` or `m`), in 0-based cells.
public struct Mouse: Sendable, Hashable {
  /// What the mouse did.
  public enum Action: Sendable, Hashable { case press, release, drag, wheelUp, wheelDown }

  public var action: Action
  /// 0 left, 1 middle, 2 right, for a press, a release or a drag; 0 for the wheel.
  public var button: Int
  /// The column, from 0.
  public var x: Int
  /// The row, from 0.
  public var y: Int

  public init(action: Action, button: Int, x: Int, y: Int) {
    self.action = action
    self.button = button
    self.x = x
    self.y = y
  }
}

/// Turns the bytes read from a terminal into ``Key``s, however the reads split them.
///
/// A read may end inside a sequence (an escape sequence, a UTF-8 character): its start is kept
/// until the rest comes. Only a lone ESC is ambiguous — Esc pressed, or the start of a sequence
/// still on its way — so the caller waits up to ``escapeDelay`` while ``isPending``, then
/// calls ``flush()`` (PLATFORM.md "Escape delay").
public struct InputDecoder: Sendable {
  /// How long to wait, in seconds, for the rest of what ``isPending`` says has begun.
  public static let escapeDelay: Double = 0.025

  /// The bytes of a key begun but not finished.
  private var pending: [UInt8] = []

  /// The longest escape sequence taken in; a longer one is reported as ``Key/unknown(_:)``.
  static let longestSequence = 64

  public init() {}

  /// Decodes `bytes`, after whatever an earlier feed left unfinished.
  ///
  /// - Returns: every key the bytes complete, in order; an unfinished one waits for the next
  ///   feed or ``flush()``.
  public mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var start = 0
    while start < pending.count, let (decoded, next) = Self.decode(pending, at: start) {
      keys.append(contentsOf: decoded)
      start = next
    }
    pending.removeFirst(start)
    return keys
  }

  /// Whether the bytes so far end inside something that may go on: a lone ESC, a sequence
  /// without its final byte, part of a UTF-8 character.
  public var isPending: Bool { !pending.isEmpty }

  /// What is pending, as keys, once no more bytes came in time.
  ///
  /// A lone ESC is ``Key/escape``; ESC followed by the start of a sequence is
  /// ``Key/escape`` and then the rest: a lone `[` or `O` as a character (Alt-[, Alt-O), more
  /// as ``Key/unknown(_:)``. Part of a UTF-8 character is ``Key/unknown(_:)``.
  public mutating func flush() -> [Key] {
    defer { pending.removeAll() }
    guard let first = pending.first else { return [] }
    guard first == 0x1B else { return [.unknown("\u{FFFD}")] }
    let rest = pending.dropFirst()
    if rest.isEmpty { return [.escape] }
    if rest.count == 1, let only = rest.first,
      only == UInt8(ascii: "[") || only == UInt8(ascii: "O")
    {
      return [.escape, .character(Character(Unicode.Scalar(only)))]
    }
    if rest.first == UInt8(ascii: "[") || rest.first == UInt8(ascii: "O") {
      return [.escape, .unknown(String(decoding: rest, as: UTF8.self))]
    }
    // NB: ESC and part of a UTF-8 character (Alt-é cut short).
    return [.escape, .unknown("\u{FFFD}")]
  }

  /// The keys the bytes from `start` begin with and the index after them, or nil when the
  /// bytes end before the key does.
  static func decode(_ bytes: [UInt8], at start: Int) -> ([Key], Int)? {
    let byte = bytes[start]
    switch byte {
    case 0x1B: return decodeEscape(bytes, at: start)
    case 0x0D, 0x0A: return ([.enter], start + 1)
    case 0x09: return ([.tab], start + 1)
    case 0x7F, 0x08: return ([.backspace], start + 1)
    case 0x01...0x1A: return ([.control(Character(Unicode.Scalar(byte + 0x60)))], start + 1)
    case 0x00, 0x1C...0x1F:
      return ([.control(Character(Unicode.Scalar(byte + 0x40)))], start + 1)
    case 0x20..<0x7F: return ([.character(Character(Unicode.Scalar(byte)))], start + 1)
    default: return decodeUTF8(bytes, at: start)
    }
  }

  /// A character of two to four UTF-8 bytes, or ``Key/unknown(_:)`` for bytes that are not one.
  static func decodeUTF8(_ bytes: [UInt8], at start: Int) -> ([Key], Int)? {
    let length: Int
    switch bytes[start] {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return ([.unknown("\u{FFFD}")], start + 1)
    }
    var end = start + 1
    while end < start + length {
      guard end < bytes.count else { return nil }
      guard (0x80...0xBF).contains(bytes[end]) else { return ([.unknown("\u{FFFD}")], end) }
      end += 1
    }
    guard let text = String(validating: bytes[start..<end], as: UTF8.self),
      let character = text.first
    else { return ([.unknown("\u{FFFD}")], end) }
    return ([.character(character)], end)
  }

  /// What starts with ESC: a CSI or SS3 sequence, an Alt-key, or Esc itself.
  static func decodeEscape(_ bytes: [UInt8], at start: Int) -> ([Key], Int)? {
    guard start + 1 < bytes.count else { return nil }
    switch bytes[start + 1] {
    case UInt8(ascii: "["): return decodeCSI(bytes, at: start)
    case UInt8(ascii: "O"):
      guard start + 2 < bytes.count else { return nil }
      let final = bytes[start + 2]
      guard (0x40...0x7E).contains(final) else {
        // NB: ESC O then a control byte: Alt-O, then that byte.
        return ([.escape, .character("O")], start + 2)
      }
      return ([ss3Key(final)], start + 3)
    case 0x1B: return ([.escape], start + 1)
    default:
      guard let (keys, next) = decode(bytes, at: start + 1) else { return nil }
      return ([.escape] + keys, next)
    }
  }

  /// The key of `ESC O final`: arrows, Home and End in application mode, keypad Enter.
  static func ss3Key(_ final: UInt8) -> Key {
    switch final {
    case UInt8(ascii: "A"): .up
    case UInt8(ascii: "B"): .down
    case UInt8(ascii: "C"): .right
    case UInt8(ascii: "D"): .left
    case UInt8(ascii: "H"): .home
    case UInt8(ascii: "F"): .end
    case UInt8(ascii: "M"): .enter
    default: .unknown("O" + String(Character(Unicode.Scalar(final))))
    }
  }

  /// `ESC [`, parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F), a final byte
  /// (0x40–0x7E); or an X10 mouse report, `ESC [ M` and three bytes.
  static func decodeCSI(_ bytes: [UInt8], at start: Int) -> ([Key], Int)? {
    let body = start + 2
    if body < bytes.count, bytes[body] == UInt8(ascii: "M") {
      guard body + 3 < bytes.count else { return nil }
      return ([x10Mouse(bytes[body + 1], bytes[body + 2], bytes[body + 3])], body + 4)
    }
    var index = body
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x40...0x7E:
        return ([csiKey(parameters: bytes[body..<index], final: byte)], index + 1)
      case 0x20...0x3F where index - start < longestSequence:
        index += 1
      default:
        // NB: cut short by a byte that cannot be in it (another ESC, a control): report what
        // came, then decode that byte afresh.
        return ([.unknown(String(decoding: bytes[(start + 1)..<index], as: UTF8.self))], index)
      }
    }
    return nil
  }

  /// The key of a complete CSI sequence.
  static func csiKey(parameters: ArraySlice<UInt8>, final: UInt8) -> Key {
    let unknown = Key.unknown(
      "[" + String(decoding: parameters, as: UTF8.self) + String(Character(Unicode.Scalar(final))))
    if parameters.first == UInt8(ascii: "<"),
      final == UInt8(ascii: "M") || final == UInt8(ascii: "m")
    {
      return sgrMouse(parameters.dropFirst(), released: final == UInt8(ascii: "m")) ?? unknown
    }
    // NB: a key's parameters are numbers and `;` (modifiers, ignored); a private marker
    // (`?`, `<`, `=`, `>`) or an intermediate byte is a report, not a key.
    guard let numbers = Self.numbers(parameters) else { return unknown }
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "Z"): return .backTab
    case UInt8(ascii: "~"):
      switch numbers.first {
      case 1, 7: return .home
      case 4, 8: return .end
      case 3: return .delete
      case 5: return .pageUp
      case 6: return .pageDown
      default: return unknown
      }
    default: return unknown
    }
  }

  /// The numbers of `1;5` (missing ones as 0), or nil when the bytes are not digits and `;`.
  static func numbers(_ parameters: some Collection<UInt8>) -> [Int]? {
    var numbers: [Int] = []
    var current = 0
    for byte in parameters {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        current = min(current * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
      case UInt8(ascii: ";"):
        numbers.append(current)
        current = 0
      default: return nil
      }
    }
    if !parameters.isEmpty { numbers.append(current) }
    return numbers
  }

  /// `b;x;y` of an SGR report: b's low bits are the button, 32 a drag, 64 the wheel (4, 8 and
  /// 16 are Shift, Alt and Ctrl, ignored); x and y count from 1.
  static func sgrMouse(_ parameters: ArraySlice<UInt8>, released: Bool) -> Key? {
    guard let numbers = numbers(parameters), numbers.count == 3 else { return nil }
    let code = numbers[0] & ~(4 | 8 | 16)
    let x = max(0, numbers[1] - 1)
    let y = max(0, numbers[2] - 1)
    let button = code & 3
    let action: Mouse.Action
    if code & 64 != 0 {
      guard !released, button < 2 else { return nil }
      action = button == 0 ? .wheelUp : .wheelDown
      return .mouse(Mouse(action: action, button: 0, x: x, y: y))
    }
    // NB: button 3 is motion with no button held, which the modes enabled never report.
    guard button < 3 else { return nil }
    if released {
      action = .release
    } else {
      action = code & 32 != 0 ? .drag : .press
    }
    return .mouse(Mouse(action: action, button: button, x: x, y: y))
  }

  /// An X10 report (`ESC [ M` and three bytes, each 32 more than its value; x and y from 1),
  /// which a terminal without SGR reports sends. Button 3 is a release of an unknown button.
  static func x10Mouse(_ code: UInt8, _ column: UInt8, _ row: UInt8) -> Key {
    let value = (Int(code) - 32) & ~(4 | 8 | 16)
    let x = max(0, Int(column) - 33)
    let y = max(0, Int(row) - 33)
    let button = value & 3
    let action: Mouse.Action
    switch (value & 64 != 0, button) {
    case (true, 0): return .mouse(Mouse(action: .wheelUp, button: 0, x: x, y: y))
    case (true, 1): return .mouse(Mouse(action: .wheelDown, button: 0, x: x, y: y))
    case (true, _):
      return .unknown(String(decoding: [0x5B, 0x4D, code, column, row], as: UTF8.self))
    case (false, 3): return .mouse(Mouse(action: .release, button: 0, x: x, y: y))
    default: action = value & 32 != 0 ? .drag : .press
    }
    return .mouse(Mouse(action: action, button: button, x: x, y: y))
  }
}
