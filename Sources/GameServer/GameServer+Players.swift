import CardTableCore
import GameStore
import GameWire

// Players: the token a connection plays as, and its `hello`.

extension GameServer {
  // MARK: Players

  /// The player of `client`: the one it said it was, or a new one with a new token (sent to it
  /// first with `hello`).
  @discardableResult
  func player(of client: ClientID) throws(WireError) -> PlayerRecord {
    if let player = connections[client]?.player { return player }
    let player = try identify(client, token: nil)
    sendHello(client, player, reply: nil)
    return player
  }

  func identify(_ client: ClientID, token given: PlayerToken?) throws(WireError)
    -> PlayerRecord
  {
    let token = given ?? PlayerToken.random(using: &random)
    let player: PlayerRecord
    do {
      player = try store.player(token, at: wallClock())
    } catch {
      log("cardtable: could not read a player: \(error)")
      throw .storageUnavailable
    }
    connections[client]?.player = player
    connections[client]?.token = token
    return player
  }

  func sendHello(_ client: ClientID, _ player: PlayerRecord, reply: JSON?) {
    guard let token = connections[client]?.token else { return }
    let settings = (try? JSON(parsing: player.settings)) ?? [:]
    send(Hello(token: token.rawValue, settings: settings, reply: reply), to: client)
  }
}
