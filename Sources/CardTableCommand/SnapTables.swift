import GameWire

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
