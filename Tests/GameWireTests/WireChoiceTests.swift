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

  /// `action` is written as `text`; read back, it is itself when a player may send it, and
  /// refused as an unknown `type` when not.
  func check<Action: WireChoice>(_ action: Action, _ text: String, sent: Bool = true) throws {
    let written = try WireEncoder().json(of: action)
    #expect(written.text == text)
    let read = Result { try WireDecoder().decode(Action.self, from: written) }
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
