import CardTableCore

/// The texts of a view's members that are the same for every player and watcher of one version
/// (``WireMembers/shared(_:_:)``), as a session's encoder wrote them for the first viewer of
/// that version: every other viewer's view copies them (docs/PERFORMANCE.md "Views that share
/// what is the same for every seat").
///
/// The referee, who may see more in the same member (Set's players' selections), has texts of
/// its own. A new version forgets every text of the one before, but for the elements of its
/// shared lists (``WireMembers/shared(_:_:)-(_,WritableKeyPath<Object,[Element]>)``): the next
/// version's first view of the group copies the text of each element equal to the one at its
/// place, so that a board where one card turned writes one card (docs/PERFORMANCE.md "The
/// console at ten times Python").
///
/// NB: a text is not copied out when it is written: it is kept as its place in the body it was
/// written in (``EncodedMembers``), which the session keeps anyway; and a view's shared members
/// come in the order they are declared, so the texts are a list read in that order (each
/// checked against its member), not a table that hashes. A session with one viewer per version
/// (the console's referee) so pays little more than noting where its members are. Its state is
/// behind a pointer for the reason ``StreamEncoder``'s is.
final class SharedMembers {
  /// A member of one view type.
  struct Key: Equatable {
    let object: ObjectIdentifier
    let name: UnsafeRawPointer

    init<Object>(object: Object.Type, name: StaticString) {
      self.object = ObjectIdentifier(object)
      self.name = UnsafeRawPointer(name.utf8Start)
    }
  }

  /// A member's text: its bytes in a written body.
  struct Text {
    let key: Key
    let body: [UInt8]
    let range: Range<Int>
    /// Where, in the body, the values that each viewer writes for itself were written, in
    /// order: a list's elements' member that differs between viewers
    /// (``WireMembers/shared(_:_:varying:_:)``); none for any other member.
    let holes: [Range<Int>]
  }

  /// A shared list's elements as a view of its group last wrote them: their texts' places in
  /// that view's body. One per list member and group, rewritten in place with every version.
  class ListTexts {
    let key: Key
    /// The body the texts are in, once kept.
    var body: [UInt8] = []
    /// Where each text was written in the body's writer.
    var ranges: [Range<Int>] = []
    /// How many of the writer's first bytes the body leaves out: a text at `range` of the
    /// writer is at `range` less this in the body.
    var dropped = 0
    /// Written in the body being written and not yet kept: its texts are not in `body`.
    var pending = false
    /// The ranges of the version before, kept for their array's room.
    var spare: [Range<Int>] = []

    init(key: Key) {
      self.key = key
    }

    /// Forgets the elements: nothing is copied from them.
    func clear() {
      ranges.removeAll(keepingCapacity: true)
      pending = false
    }
  }

  /// ``ListTexts`` with the elements' values, to be compared with the next version's.
  final class ElementTexts<Element>: ListTexts {
    var values: [Element] = []

    override func clear() {
      super.clear()
      values = []
    }
  }

  struct State {
    /// The version whose texts are kept.
    var version = -1
    /// Players' and watchers' texts, then the referee's, each in the order written.
    var texts: [[Text]] = [[], []]
    /// Which of ``texts`` the view being written reads and adds to.
    var group = 0
    /// How many shared members the view being written has come to.
    var next = 0
    /// The members written (not copied) in the body being written, where in its writer, and
    /// where their values of each viewer's own are (``Text/holes``).
    var written: [(key: Key, range: Range<Int>, holes: [Range<Int>])] = []
    /// Each group's shared lists as last kept, from this version or an earlier one.
    var lists: [[ListTexts]] = [[], []]
    /// The lists written in the body being written (``ListTexts/pending``).
    var listsWritten: [ListTexts] = []
  }

  private let state: UnsafeMutablePointer<State>

  init() {
    state = .allocate(capacity: 1)
    state.initialize(to: State())
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Starts writing `viewer`'s view of `version`.
  func begin(version: Int, viewer: Viewer) {
    if version != state.pointee.version {
      state.pointee.version = version
      state.pointee.texts[0].removeAll(keepingCapacity: true)
      state.pointee.texts[1].removeAll(keepingCapacity: true)
    }
    state.pointee.group = viewer == .referee ? 1 : 0
    state.pointee.next = 0
    state.pointee.written.removeAll(keepingCapacity: true)
    // NB: a body that was written but not kept (it failed) left its lists' texts nowhere.
    for list in state.pointee.listsWritten { list.clear() }
    state.pointee.listsWritten.removeAll(keepingCapacity: true)
  }

  /// Forgets every text: the match was rewound, so a version may come again with other views.
  func forget() {
    state.pointee.version = -1
    state.pointee.texts[0].removeAll()
    state.pointee.texts[1].removeAll()
    state.pointee.written.removeAll()
    state.pointee.lists = [[], []]
    state.pointee.listsWritten.removeAll()
  }

  /// The text of the next shared member, `key`, written for another viewer of this version,
  /// if any.
  func text(of key: Key) -> Text? {
    let index = state.pointee.next
    state.pointee.next += 1
    let group = state.pointee.group
    guard index < state.pointee.texts[group].count, state.pointee.texts[group][index].key == key
    else { return nil }
    return state.pointee.texts[group][index]
  }

  /// Notes that the member `key` was written at `range` of the body's writer.
  func wrote(_ key: Key, at range: Range<Int>, holes: [Range<Int>] = []) {
    state.pointee.written.append((key, range, holes))
  }

  /// The shared list `key` as this group's views last wrote it (with no elements the first
  /// time).
  func list<Element>(_ key: Key, of element: Element.Type) -> ElementTexts<Element> {
    let group = state.pointee.group
    for list in state.pointee.lists[group] where list.key == key {
      // NB: a key names a member of one view type, so its elements are of one type.
      return unsafeDowncast(list, to: ElementTexts<Element>.self)
    }
    let list = ElementTexts<Element>(key: key)
    state.pointee.lists[group].append(list)
    return list
  }

  /// Notes that the shared list `list` was written with `values`, their texts at `ranges` of
  /// the body's writer; its old ranges go to `spare`.
  func wrote<Element>(_ list: ElementTexts<Element>, values: [Element], ranges: [Range<Int>]) {
    list.spare = list.ranges
    list.ranges = ranges
    list.values = values
    list.pending = true
    state.pointee.listsWritten.append(list)
  }

  /// Keeps the members written in the body just finished, whose text is `body` with the
  /// writer's first `dropped` bytes (the object's brace) left out: the version's first body
  /// of its group only.
  func keep(_ body: [UInt8], dropped: Int) {
    let group = state.pointee.group
    for list in state.pointee.listsWritten {
      list.body = body
      list.dropped = dropped
      list.pending = false
    }
    state.pointee.listsWritten.removeAll(keepingCapacity: true)
    guard state.pointee.texts[group].isEmpty else { return }
    for (key, range, holes) in state.pointee.written {
      state.pointee.texts[group].append(
        Text(
          key: key, body: body, range: (range.lowerBound - dropped)..<(range.upperBound - dropped),
          holes: holes.isEmpty
            ? [] : holes.map { ($0.lowerBound - dropped)..<($0.upperBound - dropped) }))
    }
  }
}
