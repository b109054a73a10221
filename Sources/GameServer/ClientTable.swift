/// Values by ``ClientID``: a hash table of open addressing for a key that is a number.
///
/// NB: the server looks its connections up by client some twenty times an action (the sender,
/// each seat it writes to, whose view, whether a batch holds it). A `Dictionary` hashes each
/// key with SipHash, whose finalization alone is some 75 instructions; a client id is a
/// number the transport gave, not a text a client chose, so a multiplication spreads it
/// (Fibonacci hashing) and a lookup is a few instructions. Linear probing, at most three
/// quarters full; a removal moves the entries after it back, so that no lookup meets a
/// tombstone. A key and its value lie side by side, so that a lookup reads one place: at 10,000
/// clients the table is larger than the caches.
struct ClientTable<Value>: Sequence {
  private struct Entry {
    var key: UInt64
    /// nil in an empty slot.
    var value: Value?
  }

  private var entries: [Entry]
  /// `capacity - 1`, the capacity being a power of two.
  private var mask: Int
  /// `64 - log2(capacity)`: a key's home is the top bits of its product.
  private var shift: UInt64
  private(set) var count = 0

  init() {
    entries = Array(repeating: Entry(key: 0, value: nil), count: 16)
    mask = 15
    shift = 60
  }

  /// Where `key` is looked for first.
  @inline(__always)
  private func home(of key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> shift)
  }

  /// The slot that holds `key`, if one does.
  @inline(__always)
  private func slot(of key: UInt64) -> Int? {
    var index = home(of: key)
    while entries[index].value != nil {
      if entries[index].key == key { return index }
      index = (index + 1) & mask
    }
    return nil
  }

  subscript(client: ClientID) -> Value? {
    get {
      guard let index = slot(of: client.rawValue) else { return nil }
      return entries[index].value
    }
    set {
      if let newValue {
        insert(newValue, for: client.rawValue)
      } else {
        remove(client.rawValue)
      }
    }
  }

  private mutating func insert(_ value: Value, for key: UInt64) {
    if let index = slot(of: key) {
      entries[index].value = value
      return
    }
    if (count + 1) * 4 > entries.count * 3 { grow() }
    var index = home(of: key)
    while entries[index].value != nil { index = (index + 1) & mask }
    entries[index] = Entry(key: key, value: value)
    count += 1
  }

  private mutating func remove(_ key: UInt64) {
    guard var hole = slot(of: key) else { return }
    entries[hole].value = nil
    count -= 1
    // NB: each entry after the hole, up to the first empty slot, moves back into it unless
    // its home lies after the hole (it would then no longer be found from its home).
    var index = (hole + 1) & mask
    while entries[index].value != nil {
      let fromHome = (index - home(of: entries[index].key)) & mask
      let fromHole = (index - hole) & mask
      if fromHome >= fromHole {
        entries[hole] = entries[index]
        entries[index].value = nil
        hole = index
      }
      index = (index + 1) & mask
    }
  }

  private mutating func grow() {
    let old = entries
    let capacity = entries.count * 2
    entries = Array(repeating: Entry(key: 0, value: nil), count: capacity)
    mask = capacity - 1
    shift -= 1
    count = 0
    for entry in old {
      if let value = entry.value { insert(value, for: entry.key) }
    }
  }

  /// Every client and its value, in no particular order.
  func makeIterator() -> some IteratorProtocol<(key: ClientID, value: Value)> {
    entries.lazy.compactMap { entry in
      entry.value.map { (key: ClientID(entry.key), value: $0) }
    }.makeIterator()
  }
}
