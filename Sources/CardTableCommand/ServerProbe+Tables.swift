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
