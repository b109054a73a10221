import CardTableCore
import GameStore
import GameWire

// Your player on another device (docs/PROTOCOL.md "Moving a player"): a one-time code shown on
// one device and entered on another gives the second the first's token, so that its games,
// settings and statistics follow. Codes are short-lived, single use, rate-limited and never
// logged; the store keeps each as a hash with the token sealed by the code, so that any server
// sharing the database takes it. No password and no e-mail.
extension GameServer {
  /// Seconds a transfer code can be used.
  public static let transferLifetime = 600.0
  /// The most codes a player may make in an hour.
  public static let transfersPerHour = 10
  /// The most codes naming none that an address may try in a minute.
  public static let wrongTransfersPerMinute = 10

  /// `transfer`: a new code for the connection's player (replacing any code they had).
  func makeTransfer(for client: ClientID, at now: Double, reply: JSON?) throws(WireError) {
    let player = try player(of: client)
    guard let token = connections[client]?.token else { throw .badRequest("Say hello first.") }
    let made = (transfersMade[player.key] ?? []).filter { now - $0 < 3600 }
    guard made.count < Self.transfersPerHour else {
      throw WireError(
        code: "too-many-transfers",
        message: "Too many transfer codes in an hour; use the last one or try again later.")
    }
    forgetTransfers(at: now)
    // NB: 40 random bits: two codes alike would fail the store's key, and be refused.
    let code = TransferCode.random(using: &random)
    let wall = wallClock()
    do {
      try store.keepTransfer(
        TransferRecord(
          code: TransferRecord.hash(code: code), player: player.key,
          sealed: TransferRecord.seal(token, code: code),
          expires: wall + Int64(Self.transferLifetime * 1000)), now: wall)
    } catch {
      log("cardtable: could not keep a transfer code: \(error)")
      throw .storageUnavailable
    }
    transfersMade[player.key] = made + [now]
    let answer: JSON = [
      "code": .string(TransferCode.spaced(code)), "expiresIn": JSON(Self.transferLifetime),
    ]
    send(Answer(cmd: "transfer", body: GameAnswerBody(answer: answer), reply: reply), to: client)
  }

  /// `claim`: the token of the player who made `code`, once; the code is gone after.
  func claimTransfer(_ request: JSON, for client: ClientID, at now: Double, reply: JSON?)
    throws(WireError)
  {
    let typed = try request.requiredString("code", in: "claim")
    let guesser = connections[client]?.address ?? client.description
    var tried = (wrongTransfers[guesser] ?? []).filter { now - $0 < 60 }
    guard tried.count < Self.wrongTransfersPerMinute else {
      throw WireError(
        code: "too-many-codes", message: "Too many wrong codes; wait a minute and try again.")
    }
    forgetTransfers(at: now)
    let code = TransferCode.normalized(typed)
    var token: PlayerToken?
    if let code {
      do {
        token = try store.takeTransfer(TransferRecord.hash(code: code), now: wallClock()).flatMap {
          TransferRecord.open($0, code: code)
        }
      } catch {
        log("cardtable: could not read a transfer code: \(error)")
        throw .storageUnavailable
      }
    }
    guard let token else {
      tried.append(now)
      wrongTransfers[guesser] = tried
      if wrongTransfers.count >= 10_000 {
        wrongTransfers = wrongTransfers.filter { $0.value.contains { now - $0 < 60 } }
      }
      // NB: one answer for a code never made, used or out of time: nothing to learn from it.
      throw WireError(
        code: "no-such-code",
        message:
          "That code moves no player: it was used, it is more than ten minutes old, or it was mistyped."
      )
    }
    let answer: JSON = ["token": .string(token.rawValue)]
    send(Answer(cmd: "claim", body: GameAnswerBody(answer: answer), reply: reply), to: client)
  }

  /// Forgets the counts of codes made over an hour ago.
  private func forgetTransfers(at now: Double) {
    if transfersMade.count >= 10_000 {
      transfersMade = transfersMade.filter { $0.value.contains { now - $0 < 3600 } }
    }
  }
}

/// A transfer code: eight characters from the table codes' alphabet (40 random bits), shown
/// `ABCD-EFGH`, typed in any case with or without the dash.
enum TransferCode {
  static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
  static let length = 8

  static func random(using generator: inout some RandomNumberGenerator) -> String {
    String(
      (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
  }

  /// The code as typed, in capitals without dashes or spaces, if it can be one.
  static func normalized(_ typed: String) -> String? {
    let kept = typed.uppercased().filter { $0 != "-" && $0 != " " }
    guard kept.count == length, kept.allSatisfy(alphabet.contains) else { return nil }
    return kept
  }

  /// `ABCD-EFGH`.
  static func spaced(_ code: String) -> String {
    String(code.prefix(4)) + "-" + String(code.suffix(4))
  }
}
