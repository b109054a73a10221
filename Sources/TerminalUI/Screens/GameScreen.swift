import CardLayout
import GameWire

/// What a key or a click asks of the app, beyond moving the cursor.
public enum Intent: Equatable, Sendable {
  /// Send this message to the room.
  case send(JSON)
  /// Open or close a game's panel (Matchismo's and Set's History, Snap!'s receipts).
  case togglePanel
}

/// What a screen knows of the moment it draws: the session, the cursor and the character set.
public struct ScreenContext {
  public var session: Session
  public var view: JSON
  /// The card place under the cursor.
  public var cursor: Int
  public var glyphs: Glyphs
  /// Seconds on the game's clock, for the time shown.
  public var now: Double

  public init(session: Session, view: JSON, cursor: Int, glyphs: Glyphs, now: Double) {
    self.session = session
    self.view = view
    self.cursor = cursor
    self.glyphs = glyphs
    self.now = now
  }

  /// An action of the room's player, as `act` sends it.
  func act(_ action: JSON) -> Intent {
    .send(["cmd": "act", "action": action, "version": JSON(integerLiteral: session.version)])
  }
}

/// One game's part of the terminal: the table between the top bar and the key line, the keys
/// that only it has, and what choosing one of its card places does. Renderers are pure: the
/// same view, cursor and size give the same cells.
public protocol GameScreen: Sendable {
  /// Draws the table into `area` and returns the places a cursor or click can choose, in
  /// reading order; nil when `area` is too small for this view.
  func draw(_ context: ScreenContext, in area: CellRect, into grid: inout Grid) -> [CellRect]?
  /// What choosing place `index` does.
  func choose(_ index: Int, _ context: ScreenContext) -> Intent?
  /// What a key that only this game has does (nil: not one of them).
  func key(_ key: Key, _ context: ScreenContext) -> Intent?
  /// The key line's words, shortest first ways of saying them.
  func keyLine(_ context: ScreenContext) -> String
  /// The keys explained, for help.
  func keyHelp(_ glyphs: Glyphs) -> [String]
  /// The top bar's right side: score, moves, time.
  func figures(_ context: ScreenContext) -> String
  /// The panel's lines (History, receipts), when the game has one.
  func panel(_ context: ScreenContext) -> (title: String, lines: [String])?
  /// A line of the rules' text (the status, a History entry) as the screen shows it.
  func line(_ text: String, _ glyphs: Glyphs) -> String
}

extension GameScreen {
  public func panel(_ context: ScreenContext) -> (title: String, lines: [String])? { nil }
  public func line(_ text: String, _ glyphs: Glyphs) -> String { glyphs.text(text) }
}

/// The screen of each game, by wire name.
public enum Screens {
  public static func screen(for game: String) -> (any GameScreen)? {
    switch game {
    case "memory": PairsScreen(removesPairs: true)
    case "concentration": PairsScreen(removesPairs: false)
    case "matchismo": ChoiceScreen(set: false)
    case "set": ChoiceScreen(set: true)
    case "snap": SnapScreen()
    default: nil
    }
  }

  /// `m:ss`.
  static func time(_ seconds: Double) -> String {
    let whole = max(0, Int(seconds))
    return "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
  }
}

// MARK: Memory and Concentration

/// Memory and Concentration: a grid of face-down cards, two turned at a time.
public struct PairsScreen: GameScreen {
  /// Memory's pairs leave the board; Concentration's stay face up.
  public var removesPairs: Bool

  public func draw(_ context: ScreenContext, in area: CellRect, into grid: inout Grid)
    -> [CellRect]?
  {
    let board = context.view["board"]?.arrayValue ?? []
    // NB: Memory keeps the original's grid (4×3, 6×4, 8×4); Concentration's 52 fit as they best can.
    let columns = removesPairs ? context.view["columns"]?.intValue : nil
    guard
      let fit = CellFit(
        count: board.count, in: area, minimum: (5, 3), maximum: (13, 9), columns: columns)
    else { return nil }
    for (index, place) in board.enumerated() {
      let frame = fit.frames[index]
      CardArt.draw(
        look(place), in: frame, into: &grid, glyphs: context.glyphs,
        focused: index == context.cursor)
    }
    return fit.frames
  }

  func look(_ place: JSON) -> CardLook {
    if place["removed"]?.boolValue == true { return CardLook(.gone) }
    guard place["faceUp"]?.boolValue == true, let card = place["card"]?.stringValue else {
      return CardLook(.back)
    }
    return CardLook(.playing(card), matched: place["matched"]?.boolValue == true)
  }

  public func choose(_ index: Int, _ context: ScreenContext) -> Intent? {
    context.act(["type": "flip", "card": JSON(integerLiteral: index)])
  }

  public func key(_ key: Key, _ context: ScreenContext) -> Intent? { nil }

  public func keyLine(_ context: ScreenContext) -> String {
    "\(context.glyphs.arrows) move  Enter turn  N new game  ? help  q quit"
  }

  public func keyHelp(_ glyphs: Glyphs) -> [String] {
    [
      "\(glyphs.arrows), Home, End: move the cursor over the cards",
      "Enter or Space (or a click): turn the card under the cursor",
      "N: a new game    ? help    Esc: close    q: quit (the game is kept)",
    ]
  }

  public func figures(_ context: ScreenContext) -> String {
    let view = context.view
    let found = view["pairsFound"]?.intValue ?? 0
    let pairs = view["pairs"]?.intValue ?? 0
    let clock = view["clock"]?.doubleValue ?? 0
    if removesPairs {
      return
        "Pairs \(found)/\(pairs)  Score \(view["score"]?.intValue ?? 0)  \(Screens.time(clock))"
    }
    // NB: a move is two cards turned (RULES: Concentration's moves).
    let moves = (view["flips"]?.intValue ?? 0) / 2
    return "Pairs \(found)/\(pairs)  Moves \(moves)  \(Screens.time(clock))"
  }
}

// MARK: Matchismo and Set

/// Matchismo and Set: a table of face-up cards to choose 2 or 3 of, History and the found
/// matches under the table.
public struct ChoiceScreen: GameScreen {
  public var set: Bool

  /// The letters that choose cards, in table order: every lower-case letter but `q`.
  static let letters = Array("abcdefghijklmnoprstuvwxyz")

  public func draw(_ context: ScreenContext, in area: CellRect, into grid: inout Grid)
    -> [CellRect]?
  {
    let table = context.view["table"]?.arrayValue ?? []
    let found = context.view["foundMatches"]?.arrayValue ?? []
    // NB: the found matches have the last two rows of the table area, kept from the start so
    // that the table does not move when the first match is found.
    let foundRows = 2
    var cards = area
    cards.height -= foundRows
    let minimum = set ? (width: 7, height: 3) : (width: 5, height: 3)
    guard let fit = CellFit(count: table.count, in: cards, minimum: minimum, maximum: (15, 9))
    else { return nil }
    for (index, place) in table.enumerated() {
      CardArt.draw(
        look(place, index: index), in: fit.frames[index], into: &grid,
        glyphs: context.glyphs, focused: index == context.cursor)
    }
    if !found.isEmpty {
      let words = found.map { match -> String in
        let cards = (match["cards"]?.arrayValue ?? []).compactMap(\.stringValue)
        let shown = cards.map { set ? setShort($0, context.glyphs) : context.glyphs.text($0) }
        let points = match["points"]?.intValue ?? 0
        return shown.joined(separator: " ") + " (\(points >= 0 ? "+" : "")\(points))"
      }
      let label = set ? "Sets found: " : "Found matches: "
      var lines = [label]
      for word in words {
        if (lines[lines.count - 1] + word).count + 3 > area.width { lines.append("  ") }
        lines[lines.count - 1] += (lines[lines.count - 1].hasSuffix(" ") ? "" : " · ") + word
      }
      for (offset, line) in lines.suffix(foundRows).enumerated() {
        grid.put(
          line, x: area.x + 1, y: area.maxY - foundRows + offset, style: Style(foreground: .gray),
          limit: area.width - 2)
      }
    }
    return fit.frames
  }

  /// A Set card in three cells: number, symbol, colour's initial (`2◍R`).
  func setShort(_ text: String, _ glyphs: Glyphs) -> String {
    guard let parts = CardArt.SetParts(text) else { return text }
    return setShort(parts, glyphs)
  }

  func setShort(_ parts: CardArt.SetParts, _ glyphs: Glyphs) -> String {
    "\(parts.number)"
      + CardArt.setSymbol(shape: parts.shape, shading: parts.shading, glyphs: glyphs)
      + parts.colour.prefix(1).uppercased()
  }

  func look(_ place: JSON, index: Int) -> CardLook {
    let label = index < Self.letters.count ? Self.letters[index] : nil
    // NB: Matchismo's cards lie face down until chosen; Set's place without a card is empty.
    guard let card = place["card"]?.stringValue else {
      return set ? CardLook(.gone) : CardLook(.back, label: label)
    }
    let matched = place["matched"]?.boolValue == true
    return CardLook(
      set ? .set(card) : .playing(card), chosen: place["chosen"]?.boolValue == true && !matched,
      matched: matched, hinted: place["hinted"]?.boolValue == true, label: matched ? nil : label)
  }

  public func choose(_ index: Int, _ context: ScreenContext) -> Intent? {
    var action: JSON = ["type": "choose", "card": JSON(integerLiteral: index)]
    // NB: at a race the card is named as this player saw it, so that a set another player
    // just took is refused rather than the card now in its place chosen.
    if set, context.session.table != nil,
      let face = context.view["table"]?.arrayValue?[safe: index]?["card"]?.stringValue
    {
      action = ["type": "choose", "card": JSON(integerLiteral: index), "face": .string(face)]
    }
    return context.act(action)
  }

  public func key(_ key: Key, _ context: ScreenContext) -> Intent? {
    guard case .character(let character) = key else { return nil }
    if let index = Self.letters.firstIndex(of: character) {
      let count = context.view["table"]?.arrayValue?.count ?? 0
      return index < count ? choose(index, context) : nil
    }
    switch character {
    case "!": return .send(["cmd": "hint"])
    case "H": return .togglePanel
    case "N": return context.act(["type": "deal"])
    case "+" where set: return context.act(["type": "dealThree"])
    case "M" where !set:
      let mode = context.view["mode"]?.intValue == 3 ? 2 : 3
      return context.act(["type": "setMode", "mode": JSON(integerLiteral: mode)])
    default: return nil
    }
  }

  public func keyLine(_ context: ScreenContext) -> String {
    let extra =
      set ? "+ three more" : "M \(context.view["mode"]?.intValue == 3 ? "2" : "3")-card mode"
    return "a-z/Enter choose  \(extra)  ! hint  H history  N deal  ? help  q quit"
  }

  public func keyHelp(_ glyphs: Glyphs) -> [String] {
    var lines = [
      "a-z (the letter on a card, q excepted) or Enter/Space/click: choose that card",
      "\(glyphs.arrows), Home, End: move the cursor",
      "!: a hint    H: History (PageUp/PageDown, the wheel)    N: deal a new game",
    ]
    if set {
      lines.append("+: three more cards")
      lines.append(
        "Symbols: \(CardArt.setSymbol(shape: "diamond", shading: "solid", glyphs: glyphs)) diamond  \(CardArt.setSymbol(shape: "oval", shading: "solid", glyphs: glyphs)) oval  \(CardArt.setSymbol(shape: "squiggle", shading: "solid", glyphs: glyphs)) squiggle; filled solid, outline open, marked striped"
      )
    } else {
      lines.append("M: 2- or 3-card mode, before the first choice")
    }
    return lines
  }

  public func figures(_ context: ScreenContext) -> String {
    let view = context.view
    let clock = Screens.time(view["clock"]?.doubleValue ?? 0)
    if let players = view["players"]?.arrayValue, !players.isEmpty {
      let scores = players.map {
        "\($0["player"]?.stringValue ?? "?") \($0["score"]?.intValue ?? 0)"
      }
      return scores.joined(separator: "  ") + "  \(clock)"
    }
    let deck = view["deckCount"]?.intValue.map { "  Deck \($0)" } ?? ""
    return "Score \(view["score"]?.intValue ?? 0)\(deck)  \(clock)"
  }

  public func panel(_ context: ScreenContext) -> (title: String, lines: [String])? {
    let lines = (context.view["history"]?.arrayValue ?? []).compactMap(\.stringValue)
    return ("History", lines.map { line($0, context.glyphs) })
  }

  /// Set's lines name each card in full (`diamond:purple:striped:1`): shown as on the table's
  /// found sets, in three cells (`1◈P`), so that a match's line fits an 80-column window.
  public func line(_ text: String, _ glyphs: Glyphs) -> String {
    guard set else { return glyphs.text(text) }
    let words = text.split(separator: " ", omittingEmptySubsequences: false).map {
      word -> String in
      // NB: a card's name ends in its number; what follows it (a comma, a full stop) stays.
      let end = word.lastIndex(where: \.isNumber).map(word.index(after:)) ?? word.startIndex
      let name = String(word[..<end])
      guard let parts = CardArt.SetParts(name), parts.isCard else {
        return glyphs.text(String(word))
      }
      return setShort(parts, glyphs) + glyphs.text(String(word[end...]))
    }
    return words.joined(separator: " ")
  }
}

// MARK: Snap!

/// Snap!: four seats around the table (the player at the bottom), each with a closed stack
/// and an open pile; turn in turn, call Snap! when two open piles show the same rank.
public struct SnapScreen: GameScreen {
  static let seatOrder = ["bottom", "left", "top", "right"]

  public func draw(_ context: ScreenContext, in area: CellRect, into grid: inout Grid)
    -> [CellRect]?
  {
    guard area.width >= 60, area.height >= 18 else { return nil }
    let players = context.view["players"]?.arrayValue ?? []
    let cardWidth = min(11, max(7, (area.width - 40) / 6))
    let cardHeight = min(7, max(4, (area.height - 3) / 3))
    let seatWidth = cardWidth * 2 + 1
    let seatHeight = cardHeight + 1
    let active = context.view["active"]?.stringValue
    let matching = Set((context.view["matching"]?.arrayValue ?? []).compactMap(\.stringValue))
    var targets: [CellRect] = []
    var ownStack: CellRect?
    for player in players {
      let position = player["position"]?.stringValue ?? "bottom"
      let origin: (x: Int, y: Int) =
        switch position {
        case "top": (area.x + (area.width - seatWidth) / 2, area.y)
        case "left": (area.x + 1, area.y + (area.height - seatHeight) / 2)
        case "right": (area.maxX - seatWidth - 1, area.y + (area.height - seatHeight) / 2)
        default: (area.x + (area.width - seatWidth) / 2, area.maxY - seatHeight)
        }
      let name = player["name"]?.stringValue ?? "?"
      let left = player["left"]?.boolValue == true
      let count = player["closedCount"]?.intValue ?? 0
      // NB: the bottom seat is this terminal's, named as the browser names it.
      let you = position == "bottom" && context.session.playing
      var label = "\(you ? "You" : name) \(count)"
      if let won = player["gamesWon"]?.intValue, won > 0 { label += " · \(won) won" }
      if left { label = "\(name) left" }
      let isActive = name == active
      let style =
        left
        ? Style(foreground: .gray, dim: true)
        : isActive
          ? Style(foreground: .yellow, bold: true)
          : position == "bottom" ? Style(foreground: .cyan, bold: true) : .bold
      let marker = isActive ? (context.glyphs.unicode ? "▶ " : "> ") : ""
      grid.put(marker + label, x: origin.x, y: origin.y, style: style, limit: seatWidth + 4)
      let stack = CellRect(x: origin.x, y: origin.y + 1, width: cardWidth, height: cardHeight)
      let pile = CellRect(
        x: origin.x + cardWidth + 1, y: origin.y + 1, width: cardWidth, height: cardHeight)
      CardArt.draw(
        CardLook(count > 0 ? .back : .gone), in: stack, into: &grid, glyphs: context.glyphs,
        focused: position == "bottom" && context.cursor == 0)
      if count > 0, cardHeight >= 4 {
        grid.center(
          "\(count)", x: stack.x + 1, y: stack.y + cardHeight / 2, width: cardWidth - 2,
          style: Style(foreground: .blue, bold: true))
      }
      if let top = player["openTop"]?.stringValue {
        var look = CardLook(.playing(top))
        look.hinted = matching.contains(name)
        CardArt.draw(look, in: pile, into: &grid, glyphs: context.glyphs, focused: false)
      } else {
        grid.frame(
          pile, lines: context.glyphs.lines, style: Style(foreground: .gray, dim: true))
      }
      if position == "bottom" { ownStack = stack }
    }
    // The middle: the Snap! button (the status is on the line under the top bar).
    let middle = area.y + area.height / 2
    let button = "[ Snap! ]"
    let buttonX = area.x + (area.width - button.count) / 2
    let snapStyle =
      context.view["canSnap"]?.boolValue == true
      ? Style(foreground: .red, bold: true, reverse: context.cursor == 1)
      : Style(dim: true, reverse: context.cursor == 1)
    grid.put(button, x: buttonX, y: middle, style: snapStyle)
    targets.append(ownStack ?? CellRect(x: 0, y: 0, width: 0, height: 0))
    targets.append(CellRect(x: buttonX, y: middle, width: button.count, height: 1))
    return targets
  }

  public func choose(_ index: Int, _ context: ScreenContext) -> Intent? {
    index == 0 ? context.act(["type": "turn"]) : context.act(["type": "snap"])
  }

  public func key(_ key: Key, _ context: ScreenContext) -> Intent? {
    switch key {
    case .character("t"), .character("T"), .character(" "), .enter:
      return context.act(["type": "turn"])
    case .character("s"), .character("S"):
      return context.act(["type": "snap"])
    case .character("n") where context.view["canStartNextRound"]?.boolValue == true:
      return context.act(["type": "nextRound"])
    case .character("R"):
      return .togglePanel
    default:
      return nil
    }
  }

  public func keyLine(_ context: ScreenContext) -> String {
    let next = context.view["canStartNextRound"]?.boolValue == true ? "n next round  " : ""
    return "Space/t turn  s Snap!  \(next)R receipts  ? help  q leave"
  }

  public func keyHelp(_ glyphs: Glyphs) -> [String] {
    [
      "Space, t, Enter (or a click on your stack): turn your top card",
      "s (or a click on [ Snap! ]): call Snap!",
      "n: the next round (the host)    R: the receipts of the round",
      "q: leave the table (asks first)",
    ]
  }

  public func figures(_ context: ScreenContext) -> String {
    let round = context.view["round"]?.intValue ?? 1
    return "Round \(round)  \(Screens.time(context.view["clock"]?.doubleValue ?? 0))"
  }

  public func panel(_ context: ScreenContext) -> (title: String, lines: [String])? {
    let lines = context.session.receipts.map { receipt -> String in
      Receipts.text(receipt, call: "Snap!", you: context.session.yourName)
    }
    return ("Receipts", lines.map { context.glyphs.text($0) })
  }
}

/// A receipt in words: `Ann: Snap! right, 312 ms after`; the terminal's own player is `You`.
public enum Receipts {
  public static func text(_ receipt: Session.Receipt, call: String, you: String? = nil) -> String {
    let result =
      switch receipt.result {
      case "correct": "right"
      case "tooLate": "too late"
      case "wrong": "wrong"
      default: receipt.result
      }
    let who = receipt.player == you ? "You" : receipt.player
    var text = "\(who): \(call) \(result)"
    if let after = receipt.after {
      text += ", \(Int((after * 1000).rounded())) ms after"
    }
    if let reason = receipt.reason, !reason.isEmpty { text += " (\(reason))" }
    return text
  }
}

extension Array {
  subscript(safe index: Int) -> Element? {
    index >= 0 && index < count ? self[index] : nil
  }
}
