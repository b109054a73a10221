import GameWire
import Testing

@testable import TerminalUI

/// The table's chat in the terminal: what the session keeps of `chat` messages, and the chat
/// drawn over the lobby and the game.
@Suite struct TerminalChatTests {
  private func chat(_ lines: String, history: Bool = false) throws -> JSON {
    try JSON(
      parsing:
        #"{"type":"chat","room":"R","lines":[\#(lines)]\#(history ? #","history":true"# : "")}"#)
  }

  private var lobby: Session {
    var session = Session()
    session.take(
      (try? JSON(
        parsing: #"""
          {"type":"table","room":"R","code":"KXQ-4TP","game":"snap","phase":"lobby","host":0,
           "seats":[{"seat":0,"name":"Ann","computer":false,"connected":true,"you":true}],
           "minSeats":2,"maxSeats":4,"public":false,"watchers":0}
          """#)) ?? .null, now: 0)
    return session
  }

  @Test func historyReplacesTheLinesAndNewOnesFollowOnce() throws {
    var session = lobby
    session.take(
      try chat(
        #"{"index":0,"at":1,"name":"Bob","seat":1,"text":"hi"},{"index":1,"at":2,"name":"Zoe","watcher":true,"reaction":"clap"}"#,
        history: true), now: 0)
    #expect(session.chat.map(\.shown) == ["Bob: hi", "Zoe (watcher) 👏 Well played"])
    #expect(!session.chatIsNewest, "a history is no news")
    let mine = #"{"index":2,"at":3,"name":"Ann","seat":0,"text":"<b>yo</b>","you":true}"#
    session.take(try chat(mine), now: 0)
    session.take(try chat(mine), now: 0)
    #expect(session.chat.map(\.shown).last == "You: <b>yo</b>" && session.chat.count == 3)
    #expect(session.chatIsNewest)
    session.take(
      try JSON(parsing: #"{"type":"receipt","player":"Bob","result":"correct","after":0.3}"#),
      now: 0)
    #expect(!session.chatIsNewest, "a receipt after it is the newest news")
  }

  @Test func theChatIsDrawnOverTheLobbyWithTheLineBeingWritten() throws {
    var session = lobby
    var ui = UIState()
    var text = RendererSnapshotTests.render(session, ui).text
    #expect(text.contains("Tab chat"))
    ui.overlay = .chat(draft: "")
    text = RendererSnapshotTests.render(session, ui).text
    #expect(text.contains("Table chat") && text.contains("Nobody has said anything yet."))
    session.take(try chat(#"{"index":0,"at":1,"name":"Bob","seat":1,"text":"ready?"}"#), now: 0)
    ui.overlay = .chat(draft: "in a sec")
    text = RendererSnapshotTests.render(session, ui).text
    #expect(text.contains("Bob: ready?") && text.contains("> in a sec_"))
    #expect(text.contains("Enter send  Esc close"))
    // NB: closed, the lobby shows the latest line above its keys.
    text = RendererSnapshotTests.render(session, UIState()).text
    #expect(text.contains("Bob: ready?") && !text.contains("Table chat"))
  }
}

@Suite struct TerminalRatingTests {
  @Test func theEndOfATableGameSaysTheRatingsAtItsSeats() throws {
    let table = try JSON(
      parsing: #"""
        {"type":"table","phase":"over","seats":[
          {"seat":0,"name":"Ann","rating":1520,"provisional":true,"you":true},
          {"seat":1,"name":"Bob","rating":1611},{"seat":2,"name":"Ray","computer":true}],
         "wins":{"Ann":1,"Bob":0}}
        """#)
    #expect(
      ScreenRenderer.rematchLines(table) == [
        "Games won: You 1 – Bob 0 – Ray 0", "Ratings: You 1520? · Bob 1611",
      ])
  }
}
