// What a session keeps from one view to the next, so that what did not change is not made
// again (docs/PERFORMANCE.md "Views that share what is the same for every seat").

/// The history texts a session has written, so that each entry is put in words once, not
/// once per message.
public struct TextCache<Entry: Equatable & Sendable>: ViewCache {
  private var plays: [Entry] = []
  private var texts: [String] = []
  private let holdsHistory: Bool

  public init() {
    holdsHistory = false
  }

  /// A cache that keeps the history it was last given, not a copy: given the same array again
  /// (every seat's view of one version), it compares nothing.
  ///
  /// NB: for a history that seldom grows (a race's claims): the game's next entry then copies
  /// the array the cache holds. A history that grows with every move (the plays) would be
  /// copied with every move.
  public init(holdingHistory: Bool) {
    holdsHistory = holdingHistory
  }

  /// The texts of `history`, in order: the ones written before, and `text(entry)` for the rest.
  ///
  /// An entry is reused only where the history still holds an equal entry at its place, so
  /// a new deal's history is written anew.
  public mutating func texts(of history: [Entry], _ text: (Entry) -> String) -> [String] {
    if holdsHistory, history.isSameArray(as: plays) { return texts }
    var valid = 0
    while valid < min(plays.count, history.count), plays[valid] == history[valid] {
      valid += 1
    }
    if valid < texts.count { texts.removeSubrange(valid...) }
    for entry in history[valid...] {
      texts.append(text(entry))
    }
    if holdsHistory {
      // NB: the held array is replaced, not cut: cutting it would copy it first.
      plays = history
    } else {
      if valid < plays.count { plays.removeSubrange(valid...) }
      plays.append(contentsOf: history[valid...])
    }
    return texts
  }

}

/// What a function makes of an array, made again only when given another array: every seat's
/// view of one version is made from the game state's own arrays, which the game's views share.
///
/// NB: it holds the array it was last given, so the game's next change to it copies it: for an
/// array that seldom changes (the sets found), not one that changes with every move.
public struct ArrayMapCache<Element: Sendable, Made: Sendable>: Sendable {
  private var source: [Element] = []
  private var made: Made?

  public init() {}

  /// `make(array)`, or what it made last if `array` is the array it was given then.
  public mutating func value(of array: [Element], _ make: ([Element]) -> Made) -> Made {
    if let made, array.isSameArray(as: source) { return made }
    let value = make(array)
    (source, made) = (array, value)
    return value
  }
}

extension Array {
  /// Whether the two arrays are one: the same elements in the same storage, which stays as it
  /// is while anyone holds it.
  func isSameArray(as other: [Element]) -> Bool {
    count == other.count
      && withUnsafeBufferPointer { one in
        other.withUnsafeBufferPointer { one.baseAddress == $0.baseAddress }
      }
  }
}
