import CardLayout
import GameWire

#if canImport(Glibc)
  import Glibc
#endif

/// The terminal client's loop: keys and clicks in, protocol messages out, the server's
/// messages in, frames out — all on one thread, waiting in `poll(2)` on the keyboard, the
/// signals and the link.
public final class TerminalApp {
  /// What the app does first.
  public enum Start: Equatable, Sendable {
    /// The menu of the games (and of unfinished ones to continue).
    case menu
    /// A new game: its wire name, options and seed (nil: the server picks one).
    case new(game: String, options: JSON, seed: JSON?)
    /// The player's latest unfinished game.
    case resume
    /// A seat at a table by its code.
    case join(code: String)
    /// A new table of a game, hosted here.
    case host(game: String, options: JSON)
    /// A room by its id (a table's link).
    case open(room: String)
  }

  /// How it ended: the exit status and the line printed once the terminal is back.
  public struct Outcome: Sendable {
    public var status: Int32
    public var line: String
  }

  private let terminal: Terminal
  private let link: any Link
  private let glyphs: Glyphs
  private let start: Start
  private let name: String?
  /// Where a room can be opened again, for the final line (`http://host:port`), or nil.
  private let web: String?
  private let saveToken: (String) -> Void
  /// A transfer code to take the player of before starting (`--claim`), until it is answered.
  private var claim: String?
  private var session = Session()
  private var ui = UIState()
  private var decoder = InputDecoder()
  private var targets: [CellRect] = []
  private var running = true
  /// The player left a table whose game was not over: the farewell says so, whatever the
  /// leaving did to the game.
  private var leftDuringPlay = false
  private var outcome: Outcome?
  /// When the latest update arrived, so the clock on screen runs between updates.
  private var updateAt = 0.0
  private var pendingSince: Double?

  public init(
    terminal: Terminal, link: any Link, glyphs: Glyphs, start: Start, token: String?,
    name: String?, web: String?, claim: String? = nil, saveToken: @escaping (String) -> Void
  ) {
    self.claim = claim
    self.terminal = terminal
    self.link = link
    self.glyphs = glyphs
    self.start = start
    self.name = name
    self.web = web
    self.saveToken = saveToken
    session.token = token
    if let socket = link as? WebSocketLink {
      socket.reconnect = { [unowned self] in self.greeting(reconnecting: true) }
    }
  }

  /// The messages that say who this terminal is, and on a new connection where it was.
  private func greeting(reconnecting: Bool) -> [JSON] {
    var messages: [JSON] = [
      session.token.map { ["cmd": "hello", "token": .string($0)] } ?? ["cmd": "hello"]
    ]
    if reconnecting, let room = session.room {
      messages.append(["cmd": "open", "room": .string(room)])
    }
    return messages
  }

  /// Runs until the player quits or a signal ends it; the terminal is restored before it
  /// returns, whatever happened.
  public func run() -> Outcome {
    let signals: SignalPipe
    do {
      signals = try SignalPipe(signals: [SIGWINCH, SIGTSTP, SIGCONT, SIGTERM, SIGHUP, SIGINT])
      try terminal.enter()
    } catch {
      terminal.leave()
      return Outcome(status: 1, line: "cardtable: cannot use this terminal: \(error)")
    }
    defer {
      terminal.leave()
      signals.restoreDefaults()
    }
    if !(link is WebSocketLink) { greeting(reconnecting: false).forEach(link.send) }
    begin()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while running {
      pump()
      guard running else { break }
      draw()
      var polls = [
        pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
        pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
      ]
      for descriptor in link.descriptors {
        polls.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
      }
      let now = Clock.now()
      var wait = 1.0
      if let deadline = link.deadline { wait = min(wait, max(0, deadline - now)) }
      if decoder.isPending { wait = min(wait, InputDecoder.escapeDelay) }
      let ready = poll(&polls, nfds_t(polls.count), Int32((wait * 1000).rounded(.up)))
      if ready < 0 && errno != EINTR { break }
      if polls[1].revents != 0 { handle(signals: signals.take()) }
      if polls[0].revents & Int16(POLLIN) != 0 {
        let count = read(0, &buffer, buffer.count)
        if count > 0 {
          for key in decoder.feed(buffer[0..<count]) { handle(key) }
          pendingSince = decoder.isPending ? Clock.now() : nil
        } else if count == 0 {
          // NB: the terminal went away (the window closed): the game is kept as it is.
          finish()
        }
      } else if decoder.isPending, let since = pendingSince,
        Clock.now() - since >= InputDecoder.escapeDelay
      {
        for key in decoder.flush() { handle(key) }
        pendingSince = nil
      }
      if polls[0].revents & Int16(POLLHUP | POLLERR) != 0 && polls[0].revents & Int16(POLLIN) == 0 {
        finish()
      }
    }
    return outcome ?? finalOutcome()
  }

  // MARK: Starting

  private func begin() {
    if let claim {
      // NB: the player moves here first; what was asked for starts once the code is answered.
      ui.waiting = "Moving your player here…"
      link.send(["cmd": "claim", "code": .string(claim), "id": "claim"])
      return
    }
    switch start {
    case .menu:
      ui.inMenu = true
      ui.menu = GameCatalog.names.map { .game($0) }
      link.send(["cmd": "rooms"])
    case .new(let game, let options, let seed):
      newGame(game, options: options, seed: seed)
    case .resume:
      ui.waiting = "Looking for your unfinished game…"
      link.send(["cmd": "rooms", "id": "resume"])
    case .join(let code):
      ui.waiting = "Joining table \(code)…"
      if let name { link.send(["cmd": "settings", "settings": ["name": .string(name)]]) }
      link.send(["cmd": "join", "code": .string(code)])
    case .open(let room):
      ui.waiting = "Opening the table…"
      if let name { link.send(["cmd": "settings", "settings": ["name": .string(name)]]) }
      link.send(["cmd": "open", "room": .string(room)])
    case .host(let game, let options):
      ui.waiting = "Opening a table…"
      if let name { link.send(["cmd": "settings", "settings": ["name": .string(name)]]) }
      link.send(["cmd": "host", "game": .string(game), "options": options])
    }
  }

  /// The transfer code was answered: with its player's token, this terminal plays as them
  /// (kept for next time, said with hello); then what was asked for starts.
  private func claimed(_ token: String?) {
    claim = nil
    if let token {
      session.token = token
      saveToken(token)
      link.send(["cmd": "hello", "token": .string(token)])
    }
    begin()
  }

  private func newGame(_ game: String, options: JSON, seed: JSON?) {
    ui.inMenu = false
    ui.waiting = "Dealing…"
    ui.cursor = 0
    ui.endDismissed = false
    var message: JSON = ["cmd": "new", "game": .string(game), "options": options]
    if let seed, case .object(var members) = message {
      members.append(("seed", seed))
      message = .object(members)
    }
    link.send(message)
  }

  // MARK: Messages

  private func pump() {
    link.service(now: Clock.now())
    let messages = link.receive()
    for message in messages {
      let now = Clock.now()
      let type = session.take(message, now: now)
      switch type {
      case "hello":
        if let token = session.token { saveToken(token) }
      case "update":
        updateAt = now
        ui.waiting = nil
        ui.message = nil
        if !session.over { ui.endDismissed = false }
      case "answer" where message["cmd"]?.stringValue == "claim":
        claimed(message["token"]?.stringValue)
      case "error" where message["reply"]?.stringValue == "claim":
        claimed(nil)
        ui.message = message["error"]?["message"]?.stringValue
      case "answer" where message["cmd"]?.stringValue == "rooms":
        roomsArrived(resume: message["reply"]?.stringValue == "resume")
      case "table":
        ui.waiting = nil
      default:
        break
      }
    }
    if let trouble = link.trouble { ui.message = trouble }
  }

  private func roomsArrived(resume: Bool) {
    let rooms = session.unfinished ?? []
    if resume {
      if let latest = rooms.first {
        ui.waiting = "Opening your game…"
        link.send(["cmd": "open", "room": .string(latest.room)])
      } else {
        ui.inMenu = true
        ui.waiting = nil
        ui.menu = GameCatalog.names.map { .game($0) }
        ui.message = "No unfinished game to continue: choose a new one."
      }
      return
    }
    guard ui.inMenu else { return }
    ui.menu = rooms.prefix(3).map { .resume($0) } + GameCatalog.names.map { .game($0) }
  }

  // MARK: Keys

  private func handle(_ key: Key) {
    if case .control("c") = key {
      finish()
      return
    }
    #if DEBUG
      // NB: a real Swift trap on purpose, for the test that the terminal is restored after a
      // crash (docs/TERMINAL.md); debug builds only, and only when asked for.
      if case .control("\\") = key, ProcessInfoLite.environment("CARDTABLE_TERMINAL_CRASH") == "1" {
        fatalError("the crash a test asked for (CARDTABLE_TERMINAL_CRASH)")
      }
    #endif
    if case .control("l") = key {
      terminal.forgetFrame()
      return
    }
    if ui.inMenu {
      menuKey(key)
      return
    }
    switch ui.overlay {
    case .quit:
      switch key {
      case .character("y"), .character("Y"), .character("q"), .enter: leave()
      case .character("n"), .character("N"), .escape: ui.overlay = .none
      default: break
      }
      return
    case .endGame:
      switch key {
      case .character("y"), .character("Y"), .enter:
        link.send(["cmd": "abandon"])
        pump()
        finish()
      case .character("n"), .character("N"), .escape: ui.overlay = .none
      default: break
      }
      return
    case .help(let scroll):
      switch key {
      case .pageDown, .down: ui.overlay = .help(scroll: scroll + (key == .pageDown ? 10 : 1))
      case .mouse(let mouse) where mouse.action == .wheelDown:
        ui.overlay = .help(scroll: scroll + 3)
      case .mouse(let mouse) where mouse.action == .wheelUp:
        ui.overlay = .help(scroll: max(0, scroll - 3))
      case .mouse: break
      case .pageUp, .up: ui.overlay = .help(scroll: max(0, scroll - (key == .pageUp ? 10 : 1)))
      case .character("q"): ui.overlay = .quit
      default: ui.overlay = .none
      }
      return
    case .panel(let scroll):
      switch key {
      case .pageUp, .up: ui.overlay = .panel(scroll: scroll + (key == .pageUp ? 10 : 1))
      case .pageDown, .down:
        ui.overlay = .panel(scroll: max(0, scroll - (key == .pageDown ? 10 : 1)))
      case .mouse(let mouse) where mouse.action == .wheelUp: ui.overlay = .panel(scroll: scroll + 3)
      case .mouse(let mouse) where mouse.action == .wheelDown:
        ui.overlay = .panel(scroll: max(0, scroll - 3))
      case .mouse: break
      default: ui.overlay = .none
      }
      return
    case .chat(let draft):
      chatKey(key, draft: draft)
      return
    case .none:
      break
    }
    // NB: Tab, because every letter is some game's key (Set's cards are a–z).
    if key == .tab, session.table != nil {
      session.error = nil
      ui.overlay = .chat(draft: "")
      return
    }
    if session.view == nil, session.tablePhase == "lobby" {
      lobbyKey(key)
      return
    }
    if session.view == nil {
      if key == .character("q") || key == .escape { finish() }
      return
    }
    gameKey(key)
  }

  private func gameKey(_ key: Key) {
    guard let game = session.game, let screen = Screens.screen(for: game), let view = session.view
    else { return }
    let context = ScreenContext(
      session: session, view: view, cursor: ui.cursor, glyphs: glyphs, now: Clock.now())
    session.error = nil
    ui.message = nil
    switch key {
    case .character("q"):
      if session.over || !session.playing { finish() } else { ui.overlay = .quit }
      return
    case .character("?"):
      ui.overlay = .help(scroll: 0)
      return
    case .character("E") where session.table == nil && session.playing && !session.over:
      ui.overlay = .endGame
      return
    case .escape:
      if session.over { ui.endDismissed = true }
      if hasChoice(view) {
        // NB: Esc clears a choice by choosing its cards again (the engine's own un-choose).
        for (index, place) in (view["table"]?.arrayValue ?? []).enumerated()
        where place["chosen"]?.boolValue == true && place["matched"]?.boolValue != true {
          if case .send(let message)? = screen.choose(index, context) { link.send(message) }
        }
      }
      return
    default:
      break
    }
    guard session.playing else { return }
    if session.over && !ui.endDismissed {
      switch key {
      case .character("N"),
        .character("n") where !(view["canStartNextRound"]?.boolValue ?? false):
        playAgain()
        return
      default:
        break
      }
    }
    if let intent = screen.key(key, context) {
      perform(intent)
      return
    }
    if case .character("N") = key {
      playAgain()
      return
    }
    switch key {
    case .left, .right, .up, .down, .home, .end:
      ui.cursor = Cursor.move(ui.cursor, key, targets)
    case .enter, .character(" "):
      if let intent = screen.choose(ui.cursor, context) { perform(intent) }
    case .mouse(let mouse) where mouse.action == .press && mouse.button == 0:
      if let index = targets.firstIndex(where: { $0.contains(x: mouse.x, y: mouse.y) }) {
        ui.cursor = index
        if let intent = screen.choose(index, context) { perform(intent) }
      }
    default:
      break
    }
  }

  private func hasChoice(_ view: JSON) -> Bool {
    (view["table"]?.arrayValue ?? []).contains {
      $0["chosen"]?.boolValue == true && $0["matched"]?.boolValue != true
    }
  }

  private func perform(_ intent: Intent) {
    switch intent {
    case .send(let message): link.send(message)
    case .togglePanel: ui.overlay = .panel(scroll: 0)
    }
  }

  /// *Play again* with the same settings: the room's own deal for the games that have one
  /// (Matchismo's and Set's Deal), else a new room of the same game and options; at a table,
  /// the player accepts the rematch.
  private func playAgain() {
    guard let game = session.game else { return }
    if session.table != nil {
      link.send(["cmd": "rematch"])
      return
    }
    ui.endDismissed = false
    if game == "matchismo" || game == "set" {
      link.send(["cmd": "act", "action": ["type": "deal"]])
      return
    }
    newGame(game, options: currentOptions(game), seed: nil)
  }

  /// The options of the game on screen, for *Play again*: Memory's difficulty, and the
  /// computer opponent of a game alone (You and one computer player).
  private func currentOptions(_ game: String) -> JSON {
    var members: [(String, JSON)] = []
    if let option = GameCatalog.info(game)?.options(at: .menu).first, let view = session.view,
      let value = ScreenRenderer.difficulty(view, option)
    {
      members.append((option.name, value))
    }
    if let players = session.view?["players"]?.arrayValue, players.count == 2,
      players[1]["computer"]?.boolValue == true,
      let level = session.view?["computerLevel"]
    {
      members.append(("opponent", level))
    }
    return .object(members)
  }

  private func menuKey(_ key: Key) {
    ui.message = nil
    let count = ui.menu.count
    guard count > 0 else { return }
    switch key {
    case .up: ui.menuChoice = (ui.menuChoice + count - 1) % count
    case .down, .tab: ui.menuChoice = (ui.menuChoice + 1) % count
    case .home: ui.menuChoice = 0
    case .end: ui.menuChoice = count - 1
    case .left, .right:
      if case .game(let name) = ui.menu[ui.menuChoice],
        let option = GameCatalog.info(name)?.options(at: .menu).first
      {
        let step = key == .left ? option.choices.count - 1 : 1
        ui.menuOptions[name] = ((ui.menuOptions[name] ?? 0) + step) % option.choices.count
      }
    case .character("o"):
      if case .game(let name) = ui.menu[ui.menuChoice],
        let option = GameCatalog.info(name)?.opponentOption
      {
        ui.menuOpponents[name] = ((ui.menuOpponents[name] ?? 0) + 1) % option.choices.count
      }
    case .enter, .character(" "):
      openMenuEntry(ui.menu[ui.menuChoice])
    case .mouse(let mouse) where mouse.action == .press:
      let index = mouse.y - 4
      if index >= 0 && index < count {
        ui.menuChoice = index
        openMenuEntry(ui.menu[index])
      }
    case .character("q"), .escape:
      finish()
    default:
      break
    }
  }

  private func openMenuEntry(_ entry: UIState.MenuEntry) {
    switch entry {
    case .resume(let room):
      ui.inMenu = false
      ui.waiting = "Opening your game…"
      link.send(["cmd": "open", "room": .string(room.room)])
    case .game(let name):
      var members: [(String, JSON)] = []
      if let option = GameCatalog.info(name)?.options(at: .menu).first,
        let choice = option.choices[safe: ui.menuOptions[name] ?? 0]
      {
        members.append((option.name, choice.value))
      }
      if let option = GameCatalog.info(name)?.opponentOption, let index = ui.menuOpponents[name],
        index > 0, let choice = option.choices[safe: index]
      {
        members.append((option.name, choice.value))
      }
      newGame(name, options: .object(members), seed: nil)
    }
  }

  /// A key while the table's chat is open: typing, Backspace, Enter to send, Esc to close.
  private func chatKey(_ key: Key, draft: String) {
    switch key {
    case .escape, .tab:
      ui.overlay = .none
    case .enter:
      // NB: the server trims the line and says what it refuses.
      guard draft.contains(where: { !$0.isWhitespace }) else { return }
      session.error = nil
      link.send(["cmd": "say", "text": .string(draft)])
      ui.overlay = .chat(draft: "")
    case .backspace:
      ui.overlay = .chat(draft: String(draft.dropLast()))
    case .character(let character) where draft.count < 200:
      ui.overlay = .chat(draft: draft + String(character))
    default:
      break
    }
  }

  private func lobbyKey(_ key: Key) {
    switch key {
    case .character("q"), .escape:
      leave()
    case .enter, .character("s"):
      link.send(["cmd": "start"])
    case .character("c"):
      link.send(["cmd": "seat", "computer": true])
    default:
      break
    }
  }

  /// Leaves the room as the rules say (a table's seat, a game kept) and ends.
  private func leave() {
    if session.table != nil {
      // NB: a game the leaving ends (the last one in at Snap!) must not make the farewell its
      // result: whether that update comes before the end is a race the player cannot see.
      leftDuringPlay = !session.over
      link.send(["cmd": "leave"])
      pump()
    }
    finish()
  }

  private func finish() {
    running = false
  }

  // MARK: Signals and drawing

  private func handle(signals: [Int32]) {
    for signal in signals {
      switch signal {
      case SIGTSTP:
        terminal.suspend()
      case SIGCONT, SIGWINCH:
        terminal.forgetFrame()
      default:
        // NB: SIGTERM, SIGHUP, SIGINT: every accepted action is kept already; leave cleanly.
        running = false
      }
    }
  }

  private func draw() {
    let size = terminal.size()
    let now = Clock.now()
    var shown = session
    if var view = session.view, !session.over, let clock = view["clock"]?.doubleValue,
      clock > 0 || session.version > 0, case .object(var members) = view,
      let index = members.firstIndex(where: { $0.0 == "clock" })
    {
      members[index].1 = .number(String(clock + (now - updateAt)))
      view = .object(members)
      shown.view = view
    }
    let rendered = ScreenRenderer.render(
      session: shown, ui: ui, width: size.width, height: size.height, glyphs: glyphs, now: now)
    targets = rendered.targets
    if ui.cursor >= targets.count { ui.cursor = max(0, targets.count - 1) }
    terminal.draw(rendered.grid)
  }

  private func finalOutcome() -> Outcome {
    guard let game = session.game, let room = session.room else {
      return Outcome(status: 0, line: "")
    }
    let title = GameCatalog.info(game)?.title ?? game
    let place = web.map { "\($0)/play/\(room)" } ?? "room \(room)"
    if session.closed {
      return Outcome(status: 0, line: "\(title) ended; it is recorded as abandoned (\(place)).")
    }
    if session.table != nil, leftDuringPlay {
      return Outcome(status: 0, line: "You left the \(title) table (\(place)).")
    }
    if session.over, let view = session.view {
      let status = view["status"]?.stringValue ?? "Game over."
      let time = Screens.time(view["clock"]?.doubleValue ?? 0)
      return Outcome(status: 0, line: "\(title): \(status) (\(time)) — \(place)")
    }
    if session.table != nil {
      return Outcome(status: 0, line: "You left the \(title) table (\(place)).")
    }
    return Outcome(
      status: 0,
      line: "\(title) is kept: `cardtable play --resume` brings it back (\(place)).")
  }
}

/// Moving a cursor over card places: ← → in reading order, wrapping from one row to the
/// next; ↑ ↓ to the nearest place of the row above or below; Home and End.
public enum Cursor {
  public static func move(_ index: Int, _ key: Key, _ places: [CellRect]) -> Int {
    let count = places.count
    guard count > 0 else { return 0 }
    let current = min(max(0, index), count - 1)
    switch key {
    case .left: return (current + count - 1) % count
    case .right: return (current + 1) % count
    case .home: return 0
    case .end: return count - 1
    case .up, .down:
      let here = places[current]
      let rows = Set(places.map(\.y)).sorted()
      guard let row = rows.firstIndex(of: here.y) else { return current }
      let target = key == .up ? row - 1 : row + 1
      guard target >= 0, target < rows.count else { return current }
      let candidates = places.indices.filter { places[$0].y == rows[target] }
      return candidates.min { abs(places[$0].midX - here.midX) < abs(places[$1].midX - here.midX) }
        ?? current
    default: return current
    }
  }
}

/// The environment, read without Foundation.
enum ProcessInfoLite {
  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
