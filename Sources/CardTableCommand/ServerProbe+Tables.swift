import GameWire

extension ServerProbe {
  /// Waits until every seat of every table has the update of its table's move (receipts and
  /// table messages come besides); returns the first seat's. A refused move fails the run
  /// with its error, so that the figures never count one.
  static func tableRound(_ swarm: SocketSwarm, actors seat: Int) throws -> String {
    var updated = [String?](repeating: nil, count: swarm.count)
    var waiting = swarm.count
    let deadline = ContinuousClock.now + .seconds(10)
    while waiting > 0 {
      let seconds = try secondsLeft(until: deadline) {
        "no update within 10 s for \(updated.indices.filter { updated[$0] == nil }.prefix(10))"
      }
      for (client, text) in try swarm.receive(timeout: seconds) {
        if client % 4 == seat, text.hasPrefix(#"{"type":"error""#) {
          throw SocketSwarm.Failure(description: "client \(client)'s move was refused: \(text)")
        }
        guard updated[client] == nil, text.hasPrefix(#"{"type":"update""#) else { continue }
        updated[client] = text
        waiting -= 1
      }
    }
    return updated[0] ?? ""
  }

  /// Seats the swarm's clients at tables of four of `game`, in the order they came: each
  /// first one hosts, the next three join by its code, the host starts; every client then has
  /// read all that setting up sent it.
  static func seatTables(_ swarm: SocketSwarm, game: String, options: String) throws {
    let all = Array(0..<swarm.count)
    for client in all { try swarm.send(#"{"cmd":"hello","id":"hello"}"#, from: client) }
    _ = try swarm.replies(to: "hello", from: all, timeout: 10)
    let hosts = all.filter { $0 % 4 == 0 }
    for host in hosts {
      try swarm.send(
        #"{"cmd":"host","game":"\#(game)","seed":\#(host),"options":\#(options),"id":"host"}"#,
        from: host)
    }
    let hosted = try swarm.replies(to: "host", from: hosts, timeout: 10)
    var joiners: [Int] = []
    for host in hosts {
      guard let text = hosted[host], let code = try JSON(parsing: text)["code"]?.stringValue
      else {
        throw SocketSwarm.Failure(description: "host: no table code in \(hosted[host] ?? "")")
      }
      for seat in host + 1..<min(host + 4, swarm.count) {
        try swarm.send(#"{"cmd":"join","code":"\#(code)","id":"join"}"#, from: seat)
        joiners.append(seat)
      }
    }
    _ = try swarm.replies(to: "join", from: joiners, timeout: 10)
    for host in hosts { try swarm.send(#"{"cmd":"start","id":"start"}"#, from: host) }
    _ = try swarm.replies(to: "start", from: hosts, timeout: 10)
    for client in all { try swarm.send(#"{"cmd":"state","id":"ready"}"#, from: client) }
    _ = try swarm.replies(to: "ready", from: all, timeout: 10)
  }

  /// The seconds until `deadline`, or the failure `missing` describes once it has passed.
  static func secondsLeft(
    until deadline: ContinuousClock.Instant, _ missing: () -> String
  ) throws -> Double {
    let left = (deadline - ContinuousClock.now).components
    let seconds = Double(left.seconds) + Double(left.attoseconds) * 1e-18
    guard seconds > 0 else { throw SocketSwarm.Failure(description: missing()) }
    return seconds
  }
}

/// Snap! tables of four seated by ``ServerProbe/seatTables(_:game:options:)``, played a turn a
/// round: at each table the seat whose turn it is turns a card, and the round ends when all
/// four seats have seen the next player made active. Nobody calls Snap!, so the game never
/// ends: a player whose closed pile is empty recycles the open one.
final class SnapTables {
  /// What a seat last saw: its view's version, and whether it may turn a card.
  private struct Seat {
    var version = -1
    var canTurn = false
  }

  private let swarm: SocketSwarm
  private var seats: [Seat]
  /// The seat of each table that turns next.
  private var actors: [Int] = []

  /// Waits for the deal to end at every table.
  ///
  /// NB: every seat asks for its view first: the deal may have ended while the seating read
  /// and dropped what came before its replies, the update that made a player active with it.
  init(_ swarm: SocketSwarm) throws {
    self.swarm = swarm
    seats = Array(repeating: Seat(), count: swarm.count)
    for client in 0..<swarm.count { try swarm.send(#"{"cmd":"state"}"#, from: client) }
    _ = try settle(after: Array(repeating: -1, count: swarm.count / 4))
  }

  /// Each table's active seat turns its card; returns the first seat's last update, once every
  /// table has its next player active. A refused turn fails the run with its error.
  func playRound() throws -> String {
    let before = actors.map { seats[$0].version }
    for actor in actors {
      try swarm.send(#"{"cmd":"act","action":{"type":"turn"}}"#, from: actor)
    }
    return try settle(after: before)
  }

  /// Reads until every table's four seats have one version after `versions` (by table) in
  /// which one of them may turn; that seat acts next. Returns the first seat's last update.
  private func settle(after versions: [Int]) throws -> String {
    var last = ""
    let deadline = ContinuousClock.now + .seconds(10)
    var settled = [Bool](repeating: false, count: versions.count)
    var waiting = versions.count
    actors = Array(repeating: 0, count: versions.count)
    while waiting > 0 {
      let seconds = try ServerProbe.secondsLeft(until: deadline) {
        let late = settled.indices.filter { !settled[$0] }
        return "no next player within 10 s at tables \(late.prefix(10))"
      }
      let arrived = try swarm.receive(timeout: seconds)
      for (client, text) in arrived {
        if text.hasPrefix(#"{"type":"error""#) {
          throw SocketSwarm.Failure(description: "client \(client) was refused: \(text)")
        }
        guard text.hasPrefix(#"{"type":"update""#) else { continue }
        let update = try JSON(parsing: text)
        seats[client] = Seat(
          version: update["version"]?.intValue ?? -1,
          canTurn: update["view"]?["canTurn"]?.boolValue == true)
        if client == 0 { last = text }
        let table = client / 4
        let four = seats[table * 4..<table * 4 + 4]
        let version = four.first?.version ?? -1
        guard !settled[table], version > versions[table],
          four.allSatisfy({ $0.version == version }),
          let actor = four.indices.first(where: { seats[$0].canTurn })
        else { continue }
        settled[table] = true
        actors[table] = actor
        waiting -= 1
      }
    }
    return last
  }
}
