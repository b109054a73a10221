import CardTableCore
import Testing

@testable import GameServer

/// The server's connections by client (``ClientTable``): whatever is put in, replaced and
/// removed, in any order, the table holds what a `Dictionary` of the same changes holds — each
/// client's value, the count, and every pair when walked through — while it grows and empties.
@Suite struct ClientTableTests {
  /// How the clients' numbers are drawn: as a transport counts them, at random, or as
  /// multiples of a large power of two (which all want the same few homes).
  enum Keys: CaseIterable, CustomTestStringConvertible {
    case counted, random, crowded

    var testDescription: String { "\(self)" }

    func key(_ random: inout SplitMix64) -> UInt64 {
      switch self {
      case .counted: random.next() % 600
      case .random: random.next()
      case .crowded: (random.next() % 600) << 40
      }
    }
  }

  @Test(arguments: Keys.allCases, 0..<UInt64(8))
  func itHoldsWhatADictionaryHolds(keys: Keys, seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var table = ClientTable<Int>()
    var reference: [UInt64: Int] = [:]
    for step in 0..<4_000 {
      let key = keys.key(&random)
      // NB: more puts than removals at first, then more removals, so that the table both
      // grows and empties.
      if random.next() % 100 < (step < 2_000 ? 70 : 30) {
        table[ClientID(key)] = step
        reference[key] = step
      } else {
        // NB: mostly a client that is there, so that removals shift entries back.
        let present = Array(reference.keys)
        let gone = present.isEmpty ? key : present[random.nextInt(below: present.count)]
        table[ClientID(gone)] = nil
        reference[gone] = nil
      }
      #expect(table.count == reference.count)
      #expect(table[ClientID(key)] == reference[key], "step \(step)")
      if step % 200 == 0 || step == 3_999 {
        for (key, value) in reference {
          #expect(table[ClientID(key)] == value, "step \(step), client \(key)")
        }
        let walked = Dictionary(uniqueKeysWithValues: table.map { ($0.key.rawValue, $0.value) })
        #expect(walked == reference, "step \(step)")
      }
    }
  }
}
