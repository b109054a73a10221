import CardLayout
import GameWire

/// What the terminal shows besides the server's messages: where the cursor is, which box is
/// open, the menu's choice.
public struct UIState: Equatable, Sendable {
  public enum Overlay: Equatable, Sendable {
    case none
    /// The game's help and keys, scrolled by this many lines.
    case help(scroll: Int)
    /// "Leave?" before quitting an unfinished game or a table.
    case quit
    /// "End this game?" before giving up an unfinished game (`abandon`).
    case endGame
    /// History or the receipts, scrolled back by this many lines.
    case panel(scroll: Int)
    /// The table's chat, with the line being written.
    case chat(draft: String)
  }

  /// One line of the menu.
  public enum MenuEntry: Equatable, Sendable {
    case resume(Session.Unfinished)
    case game(String)
  }

  public var overlay: Overlay = .none
  public var cursor = 0
  /// The end box was closed (Esc) to look at the table.
  public var endDismissed = false
  /// The menu's lines and the chosen one.
  public var menu: [MenuEntry] = []
  public var menuChoice = 0
  /// Per game, the index of its menu option's choice (Memory's EASY / MEDIUM / HARD).
  public var menuOptions: [String: Int] = [:]
  /// Per game, the index of its opponent's choice (Memory's and Concentration's "Play against":
  /// Nobody, or Ray at a level), changed with `o`.
  public var menuOpponents: [String: Int] = [:]
  /// Shown in the menu or over the table until the next key: what went wrong.
  public var message: String?
  /// The app is in the menu (no room yet).
  public var inMenu = false
  /// What the screen says while it waits for the server (connecting, joining).
  public var waiting: String?

  public init() {}
}

/// Turns the session and the terminal's own state into a grid of cells: the pure part of the
/// terminal, tested as text snapshots.
public enum ScreenRenderer {
  /// The grid for a window of `width` × `height`, and the card places a click can choose.
  public static func render(
    session: Session, ui: UIState, width: Int, height: Int, glyphs: Glyphs, now: Double
  ) -> (grid: Grid, targets: [CellRect]) {
    var grid = Grid(width: width, height: height)
    if ui.inMenu {
      menu(ui, into: &grid, glyphs: glyphs)
      return (grid, [])
    }
    guard let game = session.game, let view = session.view, let screen = Screens.screen(for: game)
    else {
      if session.tablePhase == "lobby" {
        lobby(session, into: &grid, glyphs: glyphs)
        chatOverlay(session, ui, into: &grid, glyphs: glyphs)
      } else {
        grid.center(ui.waiting ?? "Connecting…", y: height / 2, style: .bold)
        if let message = ui.message ?? session.error {
          grid.center(message, y: height / 2 + 2, style: Style(foreground: .red))
        }
      }
      return (grid, [])
    }
    let info = GameCatalog.info(game)
    let title = info?.title ?? game
    guard width >= Chrome.minimumWidth, height >= Chrome.minimumHeight else {
      Chrome.tooSmall(title, into: &grid, glyphs: glyphs)
      return (grid, [])
    }
    let context = ScreenContext(
      session: session, view: view, cursor: ui.cursor, glyphs: glyphs, now: now)
    var heading = title
    if let option = info?.options(at: .menu).first,
      let value = view["settings"]?[option.name]
        ?? session.settings[game]?[option.name] ?? difficulty(view, option)
    {
      heading += " · " + (option.choices.first { $0.value == value }?.label.titleCased ?? "")
    }
    if session.role == "watcher" { heading += " · watching" }
    if let table = session.table, let code = table["code"]?.stringValue {
      heading += " · table \(code)"
    }
    Chrome.topBar(heading, screen.figures(context), into: &grid)
    var status = screen.line(view["status"]?.stringValue ?? "", glyphs)
    // NB: while turned cards are resolved the table takes no card: said, so nobody wonders.
    if view["waiting"]?.boolValue == true { status += "  (wait)" }
    // NB: a line longer than the window (long names at a table of four) says that it goes on.
    grid.put(
      " " + glyphs.text(Chrome.clipped(status, to: width - 1)), x: 0, y: 1, style: .bold,
      limit: width)
    let area = CellRect(x: 0, y: 2, width: width, height: height - 4)
    guard let targets = screen.draw(context, in: area, into: &grid) else {
      grid = Grid(width: width, height: height)
      Chrome.tooSmall(title, into: &grid, glyphs: glyphs)
      return (grid, [])
    }
    // The message line: a refusal, a seat's news, the latest receipt.
    if let error = session.error {
      grid.put(
        " " + glyphs.text(error), x: 0, y: height - 2, style: Style(foreground: .red, bold: true),
        limit: width)
    } else if let message = ui.message {
      grid.put(" " + glyphs.text(message), x: 0, y: height - 2, style: .bold, limit: width)
    } else if session.chatIsNewest, let line = session.chat.last {
      grid.put(
        " " + glyphs.text(line.shown), x: 0, y: height - 2, style: Style(foreground: .purple),
        limit: width)
    } else if let receipt = session.receipts.last {
      let call = info?.call ?? "Call"
      grid.put(
        " " + glyphs.text(Receipts.text(receipt, call: call, you: session.yourName)), x: 0,
        y: height - 2,
        style: Style(foreground: .cyan), limit: width)
    } else if let notice = session.notice {
      grid.put(
        " " + glyphs.text(notice), x: 0, y: height - 2, style: Style(foreground: .yellow),
        limit: width)
    } else if session.countingDown(at: now), let at = session.resumesAt {
      grid.put(
        " The game goes on in \(Int((at - now).rounded(.up))) s…", x: 0, y: height - 2, style: .bold
      )
    }
    var keys =
      session.role == "watcher"
      ? "watching: the table plays by itself  ? help  q quit" : screen.keyLine(context)
    if session.table != nil { keys = "Tab chat  " + keys }
    grid.put(" " + keys, x: 0, y: height - 1, style: .dim, limit: width)
    overlays(session, ui, screen, context, info, into: &grid)
    chatOverlay(session, ui, into: &grid, glyphs: glyphs)
    return (grid, targets)
  }

  /// Memory's difficulty comes from the view's grid when the settings do not say it.
  static func difficulty(_ view: JSON, _ option: GameInfo.Option) -> JSON? {
    guard option.name == "difficulty", let pairs = view["pairs"]?.intValue else { return nil }
    return option.choices.first { $0.description == "\(pairs) pairs" }?.value
  }

  static func overlays(
    _ session: Session, _ ui: UIState, _ screen: any GameScreen, _ context: ScreenContext,
    _ info: GameInfo?, into grid: inout Grid
  ) {
    let glyphs = context.glyphs
    switch ui.overlay {
    case .help(let scroll):
      // NB: the keys first: they are what a player opening help in a terminal looks for.
      var lines = ["Keys"] + screen.keyHelp(glyphs)
      if session.table == nil { lines.append("E: end the game (it is recorded as abandoned)") }
      lines.append("")
      if let info {
        let values = session.settings[info.name]?.objectMembers ?? [:]
        for paragraph in info.help.play + info.help.scoring {
          lines.append(info.filled(paragraph, values: values))
        }
        if session.table != nil { lines += info.help.together }
      }
      Chrome.dialog(
        "How to play \(info?.title ?? "")", lines.map(glyphs.text),
        footer: "Esc close  PgUp/PgDn scroll",
        into: &grid, glyphs: glyphs, width: 76, scroll: scroll)
    case .quit:
      let table = session.table != nil
      let lines =
        table
        ? ["Leave the table? The others play on without you."]
        : ["Leave this game? It is kept: `cardtable play --resume` brings it back."]
      Chrome.dialog(
        "Quit", lines, footer: "y leave  n stay", into: &grid, glyphs: glyphs, width: 60)
    case .endGame:
      Chrome.dialog(
        "End the game",
        ["End this game? It is recorded as abandoned and cannot be continued."],
        footer: "y end it  n keep playing", into: &grid, glyphs: glyphs, width: 60)
    case .panel(let scroll):
      guard let panel = screen.panel(context) else { break }
      let lines = panel.lines.isEmpty ? ["Nothing yet."] : panel.lines
      Chrome.dialog(
        panel.title, lines, footer: "Esc close  PgUp/PgDn, wheel scroll", into: &grid,
        glyphs: glyphs, width: 70, scroll: scroll, anchorBottom: true)
    case .chat:
      // NB: drawn over everything by ``chatOverlay``, in the lobby too.
      break
    case .none:
      if session.over && !ui.endDismissed && session.playing {
        var lines: [String] = []
        if let title = context.view["title"]?.stringValue { lines.append(title) }
        lines.append(screen.line(context.view["status"]?.stringValue ?? "", glyphs))
        lines.append(screen.figures(context))
        if let table = session.table { lines += rematchLines(table) }
        if session.closed { lines = ["This room was closed."] }
        let next =
          context.view["canStartNextRound"]?.boolValue == true
          ? "n next round  " : session.table != nil ? "N rematch  " : "N new game  "
        Chrome.dialog(
          "Game over", lines, footer: "\(next)Esc look  q quit", into: &grid, glyphs: glyphs,
          width: 56)
      }
    }
  }

  /// The table's chat over the screen, while it is open: the latest lines and the one being
  /// written.
  static func chatOverlay(_ session: Session, _ ui: UIState, into grid: inout Grid, glyphs: Glyphs)
  {
    guard case .chat(let draft) = ui.overlay else { return }
    var lines = session.chat.suffix(12).map { glyphs.text($0.shown) }
    if lines.isEmpty { lines = ["Nobody has said anything yet."] }
    if let error = session.error { lines += ["", glyphs.text(error)] }
    lines += ["", "> " + draft + "_"]
    Chrome.dialog(
      "Table chat", lines, footer: "Enter send  Esc close", into: &grid, glyphs: glyphs,
      width: 70, anchorBottom: true)
  }

  /// At a table whose game is over: the games won there, and who has accepted the rematch.
  static func rematchLines(_ table: JSON) -> [String] {
    let seats = table["seats"]?.arrayValue ?? []
    let name = { (seat: JSON) in
      seat["you"]?.boolValue == true ? "You" : seat["name"]?.stringValue ?? "?"
    }
    var lines: [String] = []
    if let wins = table["wins"] {
      let counts = seats.filter { $0["left"]?.boolValue != true }.map { seat in
        "\(name(seat)) \(wins[seat["name"]?.stringValue ?? ""]?.intValue ?? 0)"
      }
      lines.append("Games won: " + counts.joined(separator: " – "))
    }
    // NB: a person's rating in the game's mode (docs/RATINGS.md); `?` while provisional.
    let rated = seats.compactMap { seat -> String? in
      guard let rating = seat["rating"]?.intValue else { return nil }
      return "\(name(seat)) \(rating)\(seat["provisional"]?.boolValue == true ? "?" : "")"
    }
    if !rated.isEmpty { lines.append("Ratings: " + rated.joined(separator: " · ")) }
    let accepted = Set((table["rematch"]?.arrayValue ?? []).compactMap(\.intValue))
    let asked = seats.filter { accepted.contains($0["seat"]?.intValue ?? -1) }.map(name)
    if !asked.isEmpty { lines.append("Rematch accepted by " + asked.joined(separator: ", ")) }
    return lines
  }

  static func menu(_ ui: UIState, into grid: inout Grid, glyphs: Glyphs) {
    Chrome.topBar("CardTable", "", into: &grid)
    var row = 2
    grid.put(" Choose a game: \(glyphs.arrows) and Enter, or a click.", x: 0, y: row, style: .bold)
    row += 2
    for (index, entry) in ui.menu.enumerated() {
      let chosen = index == ui.menuChoice
      let style = chosen ? Style(foreground: .yellow, bold: true, reverse: true) : .plain
      let marker = chosen ? (glyphs.unicode ? "▶ " : "> ") : "  "
      switch entry {
      case .resume(let room):
        let title = GameCatalog.info(room.game)?.title ?? room.game
        let moves = room.version == 1 ? "1 move" : "\(room.version) moves"
        grid.put(
          " \(marker)Continue \(title) (\(moves))", x: 0, y: row, style: style, limit: grid.width)
      case .game(let name):
        guard let info = GameCatalog.info(name) else { continue }
        var line = " \(marker)\(info.title)"
        if let option = info.options(at: .menu).first {
          let choice = ui.menuOptions[name] ?? 0
          let label = option.choices[safe: choice]?.label ?? ""
          line += glyphs.unicode ? "  ◀ \(label) ▶" : "  < \(label) >"
        }
        if let opponent = info.opponentOption, let choice = ui.menuOpponents[name], choice > 0,
          let label = opponent.choices[safe: choice]?.label
        {
          line += "  vs \(label)"
        }
        let end = grid.put(line, x: 0, y: row, style: style, limit: grid.width)
        grid.put(
          "  " + glyphs.text(info.blurb), x: max(end, 34), y: row, style: .dim,
          limit: grid.width - 36)
      }
      row += 1
    }
    if let message = ui.message {
      grid.put(" " + message, x: 0, y: row + 1, style: Style(foreground: .red), limit: grid.width)
    }
    grid.put(
      " \(glyphs.arrows) choose  o opponent  Enter play  q quit", x: 0, y: grid.height - 1,
      style: .dim)
  }

  static func lobby(_ session: Session, into grid: inout Grid, glyphs: Glyphs) {
    guard let table = session.table else { return }
    let game = table["game"]?.stringValue ?? ""
    let title = GameCatalog.info(game)?.title ?? game
    let code = table["code"]?.stringValue ?? ""
    Chrome.topBar("\(title) · table \(code)", "lobby", into: &grid)
    let invitation =
      "Table code \(code): friends join with it in a browser, or with `cardtable join \(code)`."
    for (offset, line) in Chrome.wrap(invitation, width: grid.width - 2).prefix(2).enumerated() {
      grid.put(line, x: 1, y: 2 + offset, style: .bold)
    }
    let seats = table["seats"]?.arrayValue ?? []
    let maxSeats = table["maxSeats"]?.intValue ?? seats.count
    var host = false
    for index in 0..<maxSeats {
      let seat = seats.first { $0["seat"]?.intValue == index }
      var line = "  Seat \(index + 1): "
      if let seat {
        line += seat["name"]?.stringValue ?? "?"
        if seat["computer"]?.boolValue == true { line += " (computer)" }
        if seat["you"]?.boolValue == true {
          line += " (you)"
          host = table["host"]?.intValue == index
        }
        if table["host"]?.intValue == index { line += " (host)" }
        if seat["connected"]?.boolValue == false { line += " (away)" }
      } else {
        line += "free"
      }
      grid.put(line, x: 0, y: 5 + index, style: seat == nil ? .dim : .plain, limit: grid.width)
    }
    if let help = GameCatalog.info(game)?.tableHelp.first {
      for (offset, line) in Chrome.wrap(glyphs.text(help), width: grid.width - 4).enumerated() {
        grid.put(line, x: 2, y: 6 + maxSeats + offset, style: .dim)
      }
    }
    if let error = session.error {
      grid.put(
        " " + error, x: 0, y: grid.height - 2, style: Style(foreground: .red, bold: true),
        limit: grid.width)
    }
    if session.error == nil, let line = session.chat.last {
      grid.put(
        " " + glyphs.text(line.shown), x: 0, y: grid.height - 2,
        style: Style(foreground: .purple), limit: grid.width)
    }
    let computers = GameCatalog.info(game)?.computers == true ? "c add a computer  " : ""
    let keys =
      host
      ? "Enter start  \(computers)Tab chat  q close the table"
      : "Waiting for the host to start  Tab chat  q leave"
    grid.put(" " + keys, x: 0, y: grid.height - 1, style: .dim, limit: grid.width)
  }
}

extension String {
  /// `EASY` as `Easy`.
  var titleCased: String { prefix(1).uppercased() + dropFirst().lowercased() }
}

extension JSON {
  /// An object's members as a dictionary.
  var objectMembers: [String: JSON]? {
    guard case .object(let members) = self else { return nil }
    return Dictionary(members, uniquingKeysWith: { first, _ in first })
  }
}
