import CardTableCore
import Testing

@testable import GameWire

/// A list that every viewer of a version sees alike but for one member of each element
/// (``WireMembers/shared(_:_:varying:_:)``, Snap!'s seats) is written once per version: the
/// next viewer's text is the first's with its own values of that member, byte for byte the
/// text of its view written whole.
@Suite struct SharedVaryingListTests {
  struct Spot: WireObject, Equatable {
    var name = ""
    var place = 0
    var note: String?

    init() {}

    init(_ name: String, place: Int, note: String? = nil) {
      (self.name, self.place, self.note) = (name, place, note)
    }

    static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
      try m.member("name", \.name)
      try m.member("place", \.place)
      try m.optional("note", \.note)
    }
  }

  /// A view whose spots differ between viewers in their `place`.
  struct Board: WireObject {
    var title = ""
    var spots: [Spot] = []
    var mine = 0

    init() {}

    static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
      try m.member("title", \.title)
      try m.shared("spots", \.spots, varying: "place", \.place)
      try m.member("mine", \.mine)
    }
  }

  /// The same view with a member named that its elements do not have.
  struct Misdeclared: WireObject {
    var spots: [Spot] = []

    init() {}

    static func members<M: WireMembers<Self>>(_ m: inout M) throws(M.Failure) {
      try m.shared("spots", \.spots, varying: "nowhere", \.place)
    }
  }

  /// `viewer`'s text of `view` at `version` as a session writes it, keeping what it shares.
  func written(
    _ view: some WireObject, version: Int, for viewer: Viewer, sharing shared: SharedMembers
  ) throws -> String {
    let members = try EncodedMembers(view) { writer in
      try WireEncoder().encode(view: view, of: version, for: viewer, sharing: shared, into: &writer)
    }
    shared.keep(members.bytes, dropped: 1)
    return "{" + String(decoding: members.bytes, as: UTF8.self) + "}"
  }

  func board(_ places: [Int], note: String? = nil, mine: Int) -> Board {
    var board = Board()
    board.title = "a \"quoted\" title"
    board.spots = zip(["Ann", "Bob", "Cy"], places).map { Spot($0, place: $1, note: note) }
    board.mine = mine
    return board
  }

  @Test func everyViewerOfAVersionGetsItsOwnValuesInTheSharedText() throws {
    let shared = SharedMembers()
    let views: [(Viewer, Board)] = [
      (.player("Ann"), board([0, 1, 2], mine: 0)),
      (.player("Bob"), board([2, 0, 1], mine: 1)),
      (.player("Eve"), board([0, 1, 2], mine: -1)),
      (.player("Cy"), board([1, 2, 10_000], mine: 2)),
    ]
    for (viewer, view) in views {
      let text = try written(view, version: 3, for: viewer, sharing: shared)
      #expect(text == (try WireEncoder().text(of: view)), "\(viewer)")
    }
    // NB: the next version writes its list anew: its notes changed.
    for (viewer, view) in views.reversed() {
      var changed = view
      changed.spots = view.spots.map { Spot($0.name, place: $0.place, note: "ready") }
      let text = try written(changed, version: 4, for: viewer, sharing: shared)
      #expect(text == (try WireEncoder().text(of: changed)), "\(viewer)")
      #expect(text.contains("\"note\":\"ready\""))
    }
  }

  @Test func anElementWithoutTheVaryingMemberIsWrittenAnewForEveryViewer() throws {
    let shared = SharedMembers()
    for (index, viewer) in [Viewer.player("Ann"), .player("Bob")].enumerated() {
      var view = Misdeclared()
      view.spots = [Spot("Ann", place: index), Spot("Bob", place: 1 - index)]
      let text = try written(view, version: 1, for: viewer, sharing: shared)
      #expect(text == (try WireEncoder().text(of: view)))
    }
  }
}
