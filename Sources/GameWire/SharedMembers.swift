import CardTableCore

/// The texts of a view's members that are the same for every player and watcher of one version
/// (``WireMembers/shared(_:_:)``), as a session's encoder wrote them for the first viewer of
/// that version: every other viewer's view copies them (docs/PERFORMANCE.md "Views that share
/// what is the same for every seat").
///
/// The referee, who may see more in the same member (Set's players' selections), has texts of
/// its own. A new version forgets every text of the one before.
final class SharedMembers {
  /// A member of one view type.
  struct Key: Hashable {
    let object: ObjectIdentifier
    let name: UnsafeRawPointer

    init<Object>(object: Object.Type, name: StaticString) {
      self.object = ObjectIdentifier(object)
      self.name = UnsafeRawPointer(name.utf8Start)
    }
  }

  /// The version whose texts are kept.
  private var version = -1
  /// Players' and watchers' texts, then the referee's.
  private var texts: [[Key: [UInt8]]] = [[:], [:]]
  /// Which of ``texts`` the view being written reads and adds to.
  private var group = 0

  /// Starts writing `viewer`'s view of `version`.
  func begin(version: Int, viewer: Viewer) {
    if version != self.version {
      self.version = version
      for index in texts.indices { texts[index].removeAll(keepingCapacity: true) }
    }
    group = viewer == .referee ? 1 : 0
  }

  /// Forgets every text: the match was rewound, so a version may come again with other views.
  func forget() {
    version = -1
    for index in texts.indices { texts[index].removeAll(keepingCapacity: true) }
  }

  func text(of key: Key) -> [UInt8]? { texts[group][key] }

  func keep(_ text: [UInt8], of key: Key) { texts[group][key] = text }
}
