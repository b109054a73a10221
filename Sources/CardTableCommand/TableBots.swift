import CardTableCore
import GameWire
import SetGame

/// How the load of `cardtable bench tables` plays a seat: like a quick person, from the seat's
/// own view only. The server decides every move; a bot's refused move is counted, not fatal.
struct TableBot {
  /// What the bot does next, and after how long.
  struct Move {
    var delay: Double
    /// A `cmd` with its members (an `act`'s action inside).
    var message: JSON
  }

  let game: String
  /// The name the seat plays as.
  var me = ""
  /// Memory: the faces this seat has seen, by board place.
  private var seen: [Int: String] = [:]
  /// Set: the cards of the set this seat is claiming, by their faces.
  private var target: [String] = []
  private var random: SplitMix64

  init(game: String, seed: UInt64) {
    self.game = game
    random = SplitMix64(seed: seed)
  }

  /// Forgets what it knew of the last deal (a rematch deals anew).
  mutating func newDeal() {
    seen = [:]
    target = []
  }

  /// The next move from `view`, or nil when it has nothing to do until the next update.
  mutating func next(_ view: JSON) -> Move? {
    if view["over"]?.boolValue == true, view["canStartNextRound"]?.boolValue != true {
      return nil
    }
    switch game {
    case "snap": return snap(view)
    case "memory", "concentration": return memory(view)
    case "set": return set(view)
    default: return nil
    }
  }

  private mutating func between(_ low: Double, _ high: Double) -> Double {
    low + (high - low) * random.nextUnit()
  }

  private static func act(_ action: JSON) -> JSON { ["cmd": "act", "action": action] }

  /// Calls Snap! 0.2–0.5 s after it sees two open piles of one rank, turns its card 0.1–0.3 s
  /// after it is its turn, and deals the next round.
  private mutating func snap(_ view: JSON) -> Move? {
    // NB: the open cards are looked at only when a call is allowed: most updates allow none.
    if view["canSnap"]?.boolValue == true {
      let ranks = (view["players"]?.arrayValue ?? []).compactMap { $0["openTop"]?.stringValue }
        .map { $0.dropLast() }
      if Set(ranks).count < ranks.count {
        return Move(delay: between(0.2, 0.5), message: Self.act(["type": "snap"]))
      }
    }
    if view["canTurn"]?.boolValue == true {
      return Move(delay: between(0.1, 0.3), message: Self.act(["type": "turn"]))
    }
    if view["canStartNextRound"]?.boolValue == true {
      return Move(delay: 0.5, message: Self.act(["type": "nextRound"]))
    }
    return nil
  }

  /// In its turn, turns a card it knows the partner of, else one it has not seen: a player with
  /// a good memory, 0.3–0.7 s a card.
  private mutating func memory(_ view: JSON) -> Move? {
    let board = view["board"]?.arrayValue ?? []
    for (index, place) in board.enumerated() {
      if let face = place["card"]?.stringValue { seen[index] = face }
      if place["removed"]?.boolValue == true { seen[index] = nil }
    }
    // NB: a game alone has no turns.
    let alone = view["players"] == nil
    guard alone || view["turn"]?.stringValue == me, view["waiting"]?.boolValue != true else {
      return nil
    }
    let up = board.indices.filter {
      board[$0]["faceUp"]?.boolValue == true && board[$0]["removed"]?.boolValue != true
    }
    let down = board.indices.filter {
      board[$0]["faceUp"]?.boolValue != true && board[$0]["removed"]?.boolValue != true
    }
    guard up.count < 2, !down.isEmpty else { return nil }
    let unseen = down.filter { seen[$0] == nil }
    var card: Int?
    if let open = up.first {
      card = down.first { seen[$0] == seen[open] }
    } else {
      card = down.first { place in
        down.contains { $0 != place && seen[$0] != nil && seen[$0] == seen[place] }
      }
    }
    let pool = unseen.isEmpty ? down : unseen
    let chosen = card ?? pool[Int(random.next() % UInt64(pool.count))]
    return Move(
      delay: between(0.3, 0.7), message: Self.act(["type": "flip", "card": JSON(chosen)]))
  }

  /// Finds a set on the table in 1–3 s and claims it card by card (0.2–0.4 s apart), letting go
  /// of cards it chose that are not in it; asks for three more when it sees none.
  private mutating func set(_ view: JSON) -> Move? {
    let table = view["table"]?.arrayValue ?? []
    var faces: [SetCard] = []
    var places: [Int] = []
    for (index, slot) in table.enumerated() where slot["matched"]?.boolValue != true {
      guard let text = slot["card"]?.stringValue, let card = SetCard(text) else { continue }
      faces.append(card)
      places.append(index)
    }
    let text = { (place: Int) in table[place]["card"]?.stringValue ?? "" }
    let chosen = places.filter { table[$0]["chosen"]?.boolValue == true }
    // NB: the set it was claiming is gone (another's, or its own): it looks again.
    if !target.allSatisfy({ face in places.contains { text($0) == face } }) { target = [] }
    if target.isEmpty {
      let showing = SetFinder.sets(in: faces)
      guard !showing.isEmpty else {
        let me = (view["players"]?.arrayValue ?? []).first { $0["player"]?.stringValue == self.me }
        guard (view["deckCount"]?.intValue ?? 0) > 0, me?["askedForThree"]?.boolValue != true
        else { return nil }
        return Move(delay: between(1.5, 3), message: Self.act(["type": "dealThree"]))
      }
      let pick = showing[Int(random.next() % UInt64(showing.count))]
      target = [pick[0], pick[1], pick[2]].map { text(places[$0]) }
      if let stray = chosen.first(where: { !target.contains(text($0)) }) {
        return Move(
          delay: between(1, 3), message: Self.act(["type": "choose", "card": JSON(stray)]))
      }
      let first = places.first { text($0) == target[0] } ?? 0
      return Move(delay: between(1, 3), message: Self.act(["type": "choose", "card": JSON(first)]))
    }
    if let stray = chosen.first(where: { !target.contains(text($0)) }) {
      return Move(
        delay: between(0.2, 0.4), message: Self.act(["type": "choose", "card": JSON(stray)]))
    }
    guard let next = places.first(where: { target.contains(text($0)) && !chosen.contains($0) })
    else { return nil }
    return Move(
      delay: between(0.2, 0.4), message: Self.act(["type": "choose", "card": JSON(next)]))
  }
}
