import CardTableCore
import CardTableTesting
import GameStore
import GameWire
import Testing

@testable import GameServer

/// Whole multiplayer games at tables, played by scripted clients through the server, and every
/// message each seated client and a watcher received checked against what the referee's state
/// says they may know (issue 10's leak test; `SecretsPropertyTests` checks the engine's views).
///
/// After every step (one message, or one timer) the watch reads the room's own state — the
/// referee's — and grows the set of cards that have been shown to the table: Snap!'s open piles
/// this round, Memory's positions turned up, the cards that have lain on Set's table. Then every
/// new message to every client must name only those cards, every Memory position it shows face
/// up must be one turned up, a Set racer's chosen marks must be their own selection, and no
/// number may be a seed of a deal not yet over (or what SplitMix64 makes of it), nor half of the
/// room's secret later-deal key.
@Suite struct LeakTests {
  @Test(arguments: 0..<4) func memoryAndConcentrationInTurnsLeakNothing(batch: Int) throws {
    var played = 0
    let games = Soak.count(20, soak: 450)
    for game in 0..<games {
      let seed = UInt64(batch * 1_000 + game)
      let kind = game % 5 == 4 ? "concentration" : "memory"
      let difficulty = ["easy", "medium", "hard"][game % 3]
      let options = kind == "memory" ? #"{"difficulty":"\#(difficulty)"}"# : "{}"
      let watch = try LeakWatch(kind, options: options, seats: 2 + Int(seed % 3), seed: seed)
      try watch.playMemory()
      played += watch.finished ? 1 : 0
      #expect(watch.messages > 0)
    }
    #expect(played == games, "every game played to its end")
  }

  @Test(arguments: 0..<2) func setRacesLeakNothing(batch: Int) throws {
    var played = 0
    let games = Soak.count(4, soak: 60)
    for game in 0..<games {
      let seed = UInt64(batch * 1_000 + game)
      let watch = try LeakWatch(
        "set", options: game % 2 == 0 ? #"{"refill":true}"# : "{}", seats: 2 + Int(seed % 3),
        seed: seed)
      try watch.playSet(games: game % 5 == 0 ? 2 : 1)
      played += watch.finished ? 1 : 0
    }
    #expect(played == games)
  }

  /// The watch's own reading: what it would not see, no test of it could catch.
  @Test func theWatchReadsEveryCardWordAndEveryNumberOfAMessage() throws {
    let message = try JSON(
      parsing: #"""
        {"type":"update","status":"Matched A♥, 10♦! (K♣) and diamond:purple:striped:1.",
         "history":[{"line":"two ♠ shapes: none","seed":12345678901234567,"at":3.5}],
         "code":"1234567","short":"123456","mixed":"12a4567","spades♠":"x"}
        """#)
    var words: [String] = []
    LeakWatch.forEachWord(in: message) { words.append(String($0)) }
    #expect(words == ["A♥", "10♦", "K♣", "diamond:purple:striped:1", "♠", "shapes"])
    var numbers: [String] = []
    LeakWatch.forEachNumber(in: message) { numbers.append($0) }
    #expect(numbers.sorted() == ["12345678901234567", "1234567", "3.5"].sorted())
  }

  @Test(arguments: 0..<4) func snapTablesOverSeveralRoundsLeakNothing(batch: Int) throws {
    var (rounds, planned) = (0, 0)
    let games = Soak.count(3, soak: 20)
    for game in 0..<games {
      planned += 1 + game % 3
      let seed = UInt64(batch * 1_000 + game)
      let watch = try LeakWatch(
        "snap", options: #"{"computerSpeed":"quick"}"#, seats: 2 + Int(seed % 3), seed: seed,
        computers: game % 4 == 0 ? 1 : 0)
      try watch.playSnap(rounds: 1 + game % 3)
      rounds += watch.roundsPlayed
      #expect(watch.finished, "seed \(seed): the game ended")
    }
    // NB: a game may end before its last round, when players leave; most are played out.
    #expect(rounds * 4 >= planned * 3, "rounds played to their end: \(rounds) of \(planned)")
  }
}

/// One table, its clients and what the referee has shown them so far.
final class LeakWatch {
  let test: TestServer
  let game: String
  let room: RoomID
  /// Each connection in the room and who it is: a seated player, or nil for a watcher.
  private(set) var clients: [ClientID: PlayerID?] = [:]
  private(set) var seated: [(client: ClientID, name: PlayerID)] = []
  private var random: SplitMix64
  /// The next connection's number (the host's is 1).
  private var nextClient: UInt64 = 2
  private(set) var now = 0.0
  private var checked = 0
  private(set) var messages = 0
  /// Card texts the table has been shown (Snap!: this round's open piles; Set: the table's).
  private var shownTexts: Set<String> = []
  /// Memory's positions that have been face up.
  private var shownPositions: Set<Int> = []
  private var round = 1
  private(set) var roundsPlayed = 0

  /// Hosts a table of `game` with `options`, seats `seats` people (and `computers` computer
  /// players), starts it with the server picking the seed, and brings in a watcher.
  init(_ game: String, options: String, seats: Int, seed: UInt64, computers: Int = 0) throws {
    test = try TestServer()
    var seeds = SplitMix64(seed: seed ^ 0x1EA4)
    test.nextSeed = seeds.next()
    self.game = game
    random = SplitMix64(seed: seed)
    let host = ClientID(1)
    test.hello(host)
    test.send(#"{"cmd":"settings","settings":{"name":"Seat 0"}}"#, from: host)
    let hosted = test.send(#"{"cmd":"host","game":"\#(game)","options":\#(options)}"#, from: host)
    let id = hosted.first { $0["type"] == "joined" }?["room"]?.stringValue ?? ""
    room = try #require(RoomID(rawValue: id), "hosted: \(hosted)")
    seated.append((host, "Seat 0"))
    for seat in 1..<seats {
      let guest = newClient()
      test.hello(guest)
      test.send(#"{"cmd":"settings","settings":{"name":"Seat \#(seat)"}}"#, from: guest)
      test.send(#"{"cmd":"open","room":"\#(id)"}"#, from: guest)
      seated.append((guest, PlayerID("Seat \(seat)")))
    }
    for _ in 0..<computers where seats < 4 {
      test.send(#"{"cmd":"seat","computer":true}"#, from: host)
    }
    test.send(#"{"cmd":"start"}"#, from: host)
    for (client, name) in seated { clients[client] = name }
    let watcher = newClient()
    test.hello(watcher)
    test.send(#"{"cmd":"open","room":"\#(id)"}"#, from: watcher)
    clients[watcher] = .some(nil)
    // NB: what the lobby said names no card; the checks start at the deal.
    try check()
  }

  private func newClient() -> ClientID {
    defer { nextClient += 1 }
    return ClientID(nextClient)
  }

  var session: any GameSession {
    get throws { try #require(test.server.rooms[room]?.session) }
  }

  var state: JSON {
    get throws { try session.stateJSON() }
  }

  var finished: Bool { (try? session.isFinished) ?? false }

  // MARK: Steps

  /// `client` sends `text`; then every message since is checked.
  func send(_ text: String, from client: ClientID) throws {
    test.server.received(text, from: client, at: now)
    try check()
  }

  func act(_ action: String, from client: ClientID) throws {
    try send(#"{"cmd":"act","action":\#(action)}"#, from: client)
  }

  /// Moves the clock on by `seconds`, firing every timer due by then, one at a time.
  func wait(_ seconds: Double) throws {
    now += seconds
    while let wake = test.host.wake, wake <= now {
      test.host.fire(test.server, at: wake)
      try check()
    }
  }

  /// A seated player's connection drops; they come back on a new one with their token after
  /// `away` seconds.
  func dropAndReturn(_ seat: Int, after away: Double) throws {
    let (old, name) = seated[seat]
    let token = try #require(test.tokens[old])
    test.server.disconnected(old, at: now)
    clients[old] = nil
    try check()
    try wait(away)
    let back = newClient()
    test.hello(back, token: token, at: now)
    clients[back] = name
    seated[seat].client = back
    try send(#"{"cmd":"open","room":"\#(room.rawValue)"}"#, from: back)
  }

  // MARK: The games

  func playMemory() throws {
    let pairs = { (a: String, b: String) in
      self.game == "memory" ? a == b : a.dropLast() == b.dropLast()
    }
    for _ in 0..<5_000 where !finished {
      let state = try state
      let board = state["board"]?.arrayValue ?? []
      let turn = state["turn"]?.stringValue
      guard let onTurn = seated.first(where: { $0.name.rawValue == turn }) else {
        try wait(1)
        continue
      }
      let hidden = board.indices.filter {
        board[$0]["faceUp"] != true && board[$0]["removed"] != true && board[$0]["matched"] != true
      }
      let up = board.indices.filter { board[$0]["faceUp"] == true && board[$0]["matched"] != true }
      if up.count >= 2 || hidden.isEmpty {
        try wait(0.5 + random.nextUnit())
        continue
      }
      var card = hidden[random.nextInt(below: hidden.count)]
      // NB: now and then the player remembers where the partner lies, so that games end.
      if up.count == 1, random.nextInt(below: 3) > 0,
        let first = board[up[0]]["card"]?.stringValue,
        let partner = hidden.first(where: { pairs(board[$0]["card"]?.stringValue ?? "", first) })
      {
        card = partner
      }
      if random.nextInt(below: 15) == 0, let other = seated.first(where: { $0 != onTurn }) {
        try act(#"{"type":"flip","card":\#(card)}"#, from: other.client)
      }
      try act(#"{"type":"flip","card":\#(card)}"#, from: onTurn.client)
      try wait(random.nextUnit() * 0.8)
    }
  }

  func playSet(games: Int) throws {
    var dealt = 1
    for _ in 0..<8_000 {
      let state = try state
      if state["over"] == true {
        guard dealt < games else { return }
        dealt += 1
        try act(#"{"type":"deal"}"#, from: seated[0].client)
        continue
      }
      let table = (state["table"]?.arrayValue ?? []).map { $0["card"]?.stringValue ?? "" }
      let seat = random.nextInt(below: seated.count)
      let player = seated[seat]
      let selection =
        state["players"]?.arrayValue?[seat]["selection"]?.arrayValue?
        .compactMap(\.intValue) ?? []
      guard let found = Self.firstSet(in: table) else {
        for (client, _) in seated { try act(#"{"type":"dealThree"}"#, from: client) }
        continue
      }
      let card: Int
      switch random.nextInt(below: 12) {
      case 0: card = random.nextInt(below: table.count)
      case 1:
        try act(#"{"type":"dealThree"}"#, from: player.client)
        continue
      default:
        card =
          selection.first { !found.contains($0) } ?? found.first { !selection.contains($0) }
          ?? found[0]
      }
      try act(
        #"{"type":"choose","card":\#(card),"face":"\#(table[card])"}"#, from: player.client)
      try wait(random.nextUnit())
    }
  }

  func playSnap(rounds: Int) throws {
    for _ in 0..<4_000 {
      let state = try state
      switch state["phase"]?.stringValue {
      case "gameOver":
        return
      case "roundOver":
        roundsPlayed += 1
        if roundsPlayed >= rounds {
          try send(#"{"cmd":"leave"}"#, from: seated[0].client)
        } else {
          try act(#"{"type":"nextRound"}"#, from: seated[0].client)
        }
        try wait(0.1)
        continue
      default:
        break
      }
      let active = state["active"]?.stringValue
      let matching = !(state["matching"]?.arrayValue ?? []).isEmpty
      let players = state["players"]?.arrayValue ?? []
      let playing = seated.indices.filter { seat in
        players.contains {
          $0["name"]?.stringValue == seated[seat].name.rawValue && $0["left"] != true
        }
      }
      switch random.nextInt(below: 40) {
      case 0 where playing.count > 2:
        let seat = playing[1 + random.nextInt(below: playing.count - 1)]
        try send(#"{"cmd":"leave"}"#, from: seated[seat].client)
        continue
      case 1:
        try dropAndReturn(playing[random.nextInt(below: playing.count)], after: 2)
        continue
      case 2...4:
        // NB: a wrong call now and then.
        try act(
          #"{"type":"snap"}"#, from: seated[playing[random.nextInt(below: playing.count)]].client)
      default:
        break
      }
      if matching {
        // NB: two callers at once, often: one wins and the other is too late.
        for _ in 0..<(1 + random.nextInt(below: 2)) {
          let seat = playing[random.nextInt(below: playing.count)]
          try act(#"{"type":"snap"}"#, from: seated[seat].client)
        }
      } else if let turner = seated.first(where: { $0.name.rawValue == active }) {
        try act(#"{"type":"turn"}"#, from: turner.client)
      }
      try wait(0.3 + random.nextUnit() * 0.5)
    }
    // NB: a round that has not ended by now is ended by its host leaving: the game is over.
    try send(#"{"cmd":"leave"}"#, from: seated[0].client)
  }

  /// The table positions of the first set among `cards` (texts `shape:colour:fill:number`).
  static func firstSet(in cards: [String]) -> [Int]? {
    let features = cards.map { $0.split(separator: ":") }
    for a in features.indices {
      for b in features.indices where b > a {
        for c in features.indices where c > b {
          let isSet = (0..<4).allSatisfy { index in
            let values = Set([features[a], features[b], features[c]].map { $0[index] })
            return values.count != 2
          }
          if isSet { return [a, b, c] }
        }
      }
    }
    return nil
  }

  // MARK: The checks

  /// Grows what the table has been shown from the referee's state, then checks every message
  /// sent since the last check.
  func check() throws {
    let session = try session
    let state = session.stateJSON()
    let version = session.version
    switch game {
    case "snap":
      let now = state["round"]?.intValue ?? 1
      if now != round {
        round = now
        shownTexts.removeAll()
      }
      for player in state["players"]?.arrayValue ?? [] {
        for card in player["open"]?.arrayValue ?? [] {
          card.stringValue.map { _ = shownTexts.insert($0) }
        }
      }
    case "set":
      for slot in state["table"]?.arrayValue ?? [] {
        slot["card"]?.stringValue.map { _ = shownTexts.insert($0) }
      }
    default:
      let board = state["board"]?.arrayValue ?? []
      for index in board.indices where board[index]["faceUp"] == true {
        shownPositions.insert(index)
        board[index]["card"]?.stringValue.map { _ = shownTexts.insert($0) }
      }
    }
    let secrets = Self.secrets(of: session)
    let sent = test.host.sent[checked...]
    checked = test.host.sent.count
    // NB: what several clients were sent alike is checked once, but for Set, whose chosen
    // marks are each viewer's own.
    var alike = Set<String>()
    for (client, text) in sent {
      guard let viewer = clients[client] else { continue }
      messages += 1
      guard game == "set" || alike.insert(text).inserted else { continue }
      let message = try JSON(parsing: text)
      // NB: the welcome is every connection's, before any room: the catalog's tile faces.
      if message["type"] == "welcome" { continue }
      let context =
        "\(game) seed \(test.nextSeed) v\(version) to \(viewer.map(\.rawValue) ?? "watcher")"
      Self.forEachWord(in: message) { word in
        guard let named = card(named: word), !shownTexts.contains(named) else { return }
        Issue.record("\(context): names \(named), not shown: \(text)")
      }
      Self.forEachNumber(in: message) { number in
        if secrets.contains(number) {
          Issue.record("\(context): a secret number \(number): \(text)")
        }
      }
      guard message["type"] == "update", let view = message["view"] else { continue }
      switch game {
      case "memory", "concentration":
        for (index, position) in (view["board"]?.arrayValue ?? []).enumerated()
        where position["card"] != nil && position["card"] != .null {
          #expect(shownPositions.contains(index), "\(context): position \(index) shown face up")
        }
      case "set" where message["version"]?.intValue == version:
        let table = view["table"]?.arrayValue ?? []
        let chosen = table.indices.filter { table[$0]["chosen"] == true }
        let own =
          viewer.flatMap { name in
            state["players"]?.arrayValue?.first { $0["player"]?.stringValue == name.rawValue }
          }?["selection"]?.arrayValue?.compactMap(\.intValue) ?? []
        #expect(chosen == own, "\(context): chosen marks \(chosen), not the viewer's \(own)")
      case "snap":
        for seat in view["players"]?.arrayValue ?? [] {
          #expect(seat["closed"] == nil && seat["open"] == nil, "\(context): a pile's cards")
        }
      default:
        break
      }
    }
  }

  /// Words read as cards so far: a card's text, or "" for a word that is none.
  private var cards: [Substring: String] = [:]

  /// The card `word` names, if it is one (only what could be is parsed: `shape:colour:fill:
  /// number`, or a rank and a suit sign).
  private func card(named word: Substring) -> String? {
    if let known = cards[word] { return known.isEmpty ? nil : known }
    let named: String?
    if game == "set" {
      named = word.utf8.count > 10 && word.contains(":") ? SetCard(word)?.description : nil
    } else {
      named =
        word.utf8.count <= 5 && word.last.map("♠♥♦♣".contains) == true
        ? PlayingCard(word)?.description : nil
    }
    cards[word] = named ?? ""
    return named
  }

  /// The numbers no client may be sent now: the seeds of the deals not yet over (the match's,
  /// then each later deal's: Snap!'s rounds, Set's *Deal*s) and what SplitMix64 makes of them,
  /// and the halves of the later-deal key.
  static func secrets(of session: any GameSession) -> Set<String> {
    var later = LaterSeeds(key: session.laterSeeds.key)
    var seeds = [session.seed]
    for _ in 0..<4 { seeds.append(later.next()) }
    var secret: Set<String> = [
      String(session.laterSeeds.key.0), String(session.laterSeeds.key.1),
    ]
    // NB: deal `g` is over once `g + 1` games of the match have ended.
    for (deal, seed) in seeds.enumerated() where deal >= session.resultCount {
      var mixer = SplitMix64(seed: seed)
      secret.formUnion([String(seed), String(mixer.next())])
    }
    return secret
  }

  /// Calls `body` with every word of every text in `json` (member names aside) that could name
  /// a card — one with a suit sign or a colon in it — punctuation around it dropped.
  ///
  /// NB: scans each text's UTF-8 bytes by offset: the words of every message of thousands of
  /// games are read, and in a debug build slicing and searching the `utf8` view asked the
  /// runtime for type metadata at every step (a quarter of a leak test's time).
  static func forEachWord(in json: JSON, _ body: (Substring) -> Void) {
    switch json {
    case .string(var text):
      text.withUTF8 { bytes in
        var start = 0
        while start < bytes.count {
          var end = start
          var candidate = false
          while end < bytes.count, bytes[end] != 0x20 {
            // NB: 0xE2 begins the suit signs ♠♥♦♣; Set's cards are `shape:colour:fill:number`.
            if bytes[end] == 0xE2 || bytes[end] == 0x3A { candidate = true }
            end += 1
          }
          var (first, last) = (start, end)
          start = end + 1
          guard candidate else { continue }
          while last > first, Self.isTrailingPunctuation(bytes[last - 1]) { last -= 1 }
          while first < last, bytes[first] == 0x28 { first += 1 }
          if first < last {
            body(
              Substring(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)
            )
          }
        }
      }
    case .array(let list): for item in list { forEachWord(in: item, body) }
    case .object(let members): for (_, value) in members { forEachWord(in: value, body) }
    default: break
    }
  }

  /// `. , ! : ; )`
  private static func isTrailingPunctuation(_ byte: UInt8) -> Bool {
    byte == 0x2E || byte == 0x2C || byte == 0x21 || byte == 0x3A || byte == 0x3B || byte == 0x29
  }

  /// Calls `body` with every number in `json` as its text, and every text of more than six
  /// digits.
  ///
  /// NB: a visit, not a list built of lists: `flatMap` over every message's members was a fifth
  /// of a leak test's time in a debug build. The secrets are ASCII digits, so a text of other
  /// numerals could not be one.
  static func forEachNumber(in json: JSON, _ body: (String) -> Void) {
    switch json {
    case .number(let text): body(text)
    case .string(let text)
    where text.utf8.count > 6 && text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }):
      body(text)
    case .array(let list): for item in list { forEachNumber(in: item, body) }
    case .object(let members): for (_, value) in members { forEachNumber(in: value, body) }
    default: break
    }
  }
}
