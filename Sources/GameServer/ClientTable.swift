/// Values by ``ClientID``: a hash table of open addressing for a key that is a number.
///
/// NB: the server looks its connections up by client some twenty times an action (the sender,
/// each seat it writes to, whose view, whether a batch holds it). A `Dictionary` hashes each
/// key with SipHash, whose finalization alone is some 75 instructions; a client id is a
/// number the transport gave, not a text a client chose, so a multiplication spreads it
/// (Fibonacci hashing) and a lookup is a few instructions. Linear probing, at most half full;
/// a removal moves the entries after it back, so that no lookup meets a tombstone.
struct ClientTable<Value>: Sequence {
  private var keys: [UInt64]
  private var values: [Value?]
  /// `capacity - 1`, the capacity being a power of two.
  private var mask: Int
  /// `64 - log2(capacity)`: a key's home is the top bits of its product.
  private var shift: UInt64
  private(set) var count = 0

  init() {
    keys = Array(repeating: 0, count: 16)
    values = Array(repeating: nil, count: 16)
    mask = 15
    shift = 60
  }

  var isEmpty: Bool { count == 0 }

  /// Where `key` is looked for first.
  @inline(__always)
  private func home(of key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> shift)
  }

  /// The slot that holds `key`, if one does.
  @inline(__always)
  private func slot(of key: UInt64) -> Int? {
    var index = home(of: key)
    while values[index] != nil {
      if keys[index] == key { return index }
      index = (index + 1) & mask
    }
    return nil
  }

  subscript(client: ClientID) -> Value? {
    get {
      guard let index = slot(of: client.rawValue) else { return nil }
      return values[index]
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
      values[index] = value
      return
    }
    if (count + 1) * 2 > values.count { grow() }
    var index = home(of: key)
    while values[index] != nil { index = (index + 1) & mask }
    keys[index] = key
    values[index] = value
    count += 1
  }

  private mutating func remove(_ key: UInt64) {
    guard var hole = slot(of: key) else { return }
    values[hole] = nil
    count -= 1
    // NB: each entry after the hole, up to the first empty slot, moves back into it unless
    // its home lies after the hole (it would then no longer be found from its home).
    var index = (hole + 1) & mask
    while values[index] != nil {
      let fromHome = (index - home(of: keys[index])) & mask
      let fromHole = (index - hole) & mask
      if fromHome >= fromHole {
        keys[hole] = keys[index]
        values[hole] = values[index]
        values[index] = nil
        hole = index
      }
      index = (index + 1) & mask
    }
  }

  private mutating func grow() {
    let old = zip(keys, values)
    let capacity = values.count * 2
    keys = Array(repeating: 0, count: capacity)
    values = Array(repeating: nil, count: capacity)
    mask = capacity - 1
    shift -= 1
    count = 0
    for (key, value) in old {
      if let value { insert(value, for: key) }
    }
  }

  /// Every client and its value, in no particular order.
  func makeIterator() -> some IteratorProtocol<(key: ClientID, value: Value)> {
    zip(keys, values).lazy.compactMap { key, value in
      value.map { (key: ClientID(key), value: $0) }
    }.makeIterator()
  }
}
