import CardTableCore
import MatchingGame
import MemoryGame
import SetGame
import SnapGame
import Testing

@testable import GameWire

/// Each game's actions are declared once as a ``WireChoice``: every kind is written as its
/// `type` and members, a player's kinds read back as they were written, and a kind that only a
/// timer performs is written (in a log) but refused when sent, with the names that may be.
@Suite struct WireChoiceTests {
  @Test func eachGameListsTheActionsAPlayerMaySendInTheOrderDeclared() {
    #expect(MemoryGame.Action.typeNames == ["flip", "leave"])
    #expect(MatchingGame.Action.typeNames == ["choose", "deal", "setMode", "hint"])
    #expect(SetGame.Action.typeNames == ["choose", "dealThree", "deal", "hint", "leave"])
    #expect(SnapGame.Action.typeNames == ["turn", "snap", "leave", "nextRound"])
  }

  @Test func everyKindIsWrittenWithItsMembersAndAPlayersReadsBack() throws {
    try check(MemoryGame.Action.flip(3), #"{"type":"flip","card":3}"#)
    try check(MemoryGame.Action.leave, #"{"type":"leave"}"#)
    try check(MemoryGame.Action.resolve, #"{"type":"resolve"}"#, sent: false)
    try check(MatchingGame.Action.choose(11), #"{"type":"choose","card":11}"#)
    try check(MatchingGame.Action.deal, #"{"type":"deal"}"#)
    try check(MatchingGame.Action.setMode(3), #"{"type":"setMode","mode":3}"#)
    try check(MatchingGame.Action.hint, #"{"type":"hint"}"#)
    let face = SetCard.fullDeck[40]
    try check(SetGame.Action.choose(0), #"{"type":"choose","card":0}"#)
    try check(
      SetGame.Action.chooseCard(face, at: 7), #"{"type":"choose","card":7,"face":"\#(face)"}"#)
    for (action, name) in [
      (SetGame.Action.dealThree, "dealThree"), (.deal, "deal"), (.hint, "hint"), (.leave, "leave"),
    ] {
      try check(action, #"{"type":"\#(name)"}"#)
    }
    for (action, name) in [
      (SnapGame.Action.turn, "turn"), (.snap, "snap"), (.leave, "leave"),
      (.nextRound, "nextRound"),
    ] {
      try check(action, #"{"type":"\#(name)"}"#)
    }
    for (action, name) in [
      (SnapGame.Action.start, "start"), (.activateNext, "activateNext"), (.resume, "resume"),
    ] {
      try check(action, #"{"type":"\#(name)"}"#, sent: false)
    }
  }

  @Test func aTypeAPlayerMayNotSendIsRefusedWithTheNamesThatMayBe() throws {
    #expect(
      throws: InputError.unknownName(
        member: "type", value: "resume", expected: ["turn", "snap", "leave", "nextRound"])
    ) {
      try WireDecoder().decode(SnapGame.Action.self, from: JSON(parsing: #"{"type":"resume"}"#))
    }
    #expect(
      throws: InputError.refused(code: "mode-fixed", message: "Set is always played with 3 cards.")
    ) {
      try WireDecoder().decode(
        SetGame.Action.self, from: JSON(parsing: #"{"type":"setMode","mode":2}"#))
    }
    // NB: a kind's member is read as any member is: missing, it is the decoder's own refusal.
    #expect(throws: DecodingError.self) {
      try WireDecoder().decode(MemoryGame.Action.self, from: JSON(parsing: #"{"type":"flip"}"#))
    }
  }

  /// The plain reader (``WireChoice/init(plain:)``), which reads an action as it arrives with
  /// every move, reads each text as `Decodable` does, or leaves it to `Decodable`: it never
  /// reads a value `Decodable` would refuse or read otherwise.
  @Test func thePlainReaderReadsEveryTextAsDecodableDoesOrLeavesItToIt() throws {
    let face = SetCard.fullDeck[40]
    let memory = [
      #"{"type":"flip","card":3}"#, #"{"card":3,"type":"flip"}"#,
      #"{"type":"flip","card":3,"player":"Ann"}"#, #"{"type":"flip","card":3,"card":5}"#,
      #"{"type":"flip","type":"leave","card":1}"#, #"{"type":"flip","card":3.0}"#,
      #"{"type":"flip","card":1e1}"#, #"{"type":"flip","card":"3"}"#,
      #"{"type":"flip","card":null}"#, #"{"type":"flip","card":-1}"#, #"{"type":"flip"}"#,
      #"{"type":"flip","card":99999999999999999999}"#, #"{"type":"resolve"}"#,
      #"{"type":"leave"}"#, #"{"type":"Flip","card":3}"#, #"{"type":3}"#, #"{"card":3}"#,
      #"[{"type":"leave"}]"#, #""leave""#, #"{"type":"leave","card":[1]}"#,
    ]
    let plain = try memory.map { try same(MemoryGame.Action.self, $0) }
    #expect(plain.filter { $0 }.count == 10, "\(zip(memory, plain).filter { $0.1 })")
    for text in [
      #"{"type":"choose","card":11}"#, #"{"type":"setMode","mode":3}"#,
      #"{"type":"setMode","mode":"3"}"#, #"{"type":"setMode"}"#, #"{"type":"hint"}"#,
    ] {
      _ = try same(MatchingGame.Action.self, text)
    }
    for text in [
      #"{"type":"choose","card":7}"#, #"{"type":"choose","card":7,"face":"\#(face)"}"#,
      #"{"type":"choose","card":7,"face":null}"#, #"{"type":"choose","card":7,"face":"red"}"#,
      #"{"type":"choose","card":7,"face":1}"#, #"{"type":"setMode","mode":2}"#,
      #"{"type":"dealThree"}"#,
    ] {
      _ = try same(SetGame.Action.self, text)
    }
    for text in [#"{"type":"snap"}"#, #"{"type":"start"}"#, #"{"type":"nextRound","x":1}"#] {
      _ = try same(SnapGame.Action.self, text)
    }
    #expect(try MemoryGame.Action(plain: JSON(parsing: #"{"card":3,"type":"flip"}"#)) == .flip(3))
    // NB: of a member named twice, JSON's reader keeps the last.
    #expect(
      try MemoryGame.Action(plain: JSON(parsing: #"{"type":"flip","card":3,"card":5}"#)) == .flip(5)
    )
  }

  /// Whether the plain reader read `text` (as `Decodable` reads it); fails if it read it
  /// otherwise, or read what `Decodable` refuses.
  func same<Action: WireChoice>(_ type: Action.Type, _ text: String) throws -> Bool {
    let json = try JSON(parsing: text)
    let decoded = try? WireDecoder().decode(Action.self, from: json)
    guard let plain = Action(plain: json) else { return false }
    #expect(decoded == plain, "\(text): plain \(plain), Decodable \(String(describing: decoded))")
    return true
  }

  /// `action` is written as `text`; read back, it is itself when a player may send it, and
  /// refused as an unknown `type` when not.
  func check<Action: WireChoice>(_ action: Action, _ text: String, sent: Bool = true) throws {
    let written = try WireEncoder().json(of: action)
    #expect(written.text == text)
    let read = Result { try WireDecoder().decode(Action.self, from: written) }
    if let plain = Action(plain: written) { #expect(sent && plain == action, "\(text)") }
    if sent {
      #expect(try read.get() == action, "\(text)")
    } else {
      guard case .failure(let error) = read, case InputError.unknownName = error else {
        Issue.record("\(text) read back: \(read)")
        return
      }
    }
  }
}
