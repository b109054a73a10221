import CardTableCore
import Foundation
import Testing

@Suite struct SplitMix64Tests {
  @Test func sequenceMatchesTheReferenceImplementation() {
    // NB: reference values of Vigna's splitmix64.c for the seed 1234567.
    var generator = SplitMix64(seed: 1_234_567)
    let expected: [UInt64] = [
      6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
      4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
    ]
    #expect((0..<5).map { _ in generator.next() } == expected)
  }

  @Test func seedZeroStartsWithTheKnownValue() {
    var generator = SplitMix64(seed: 0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
  }

  @Test func boundedDrawsStayInRangeAndCoverIt() {
    var generator = SplitMix64(seed: 99)
    var seen = Set<Int>()
    for _ in 0..<1000 {
      let value = generator.nextInt(below: 7)
      #expect((0..<7).contains(value))
      seen.insert(value)
    }
    #expect(seen.count == 7)
  }

  @Test func unitDrawsAreInTheHalfOpenInterval() {
    var generator = SplitMix64(seed: 5)
    for _ in 0..<1000 {
      let value = generator.nextUnit()
      #expect(value >= 0 && value < 1)
    }
  }

  @Test func shuffleIsFixedByTheSeed() {
    var generator = SplitMix64(seed: 42)
    let shuffled = generator.shuffled(Array(0..<10))
    // NB: pinned so that a change to the algorithm cannot pass unnoticed.
    #expect(shuffled == SplitMix64Tests.pinnedShuffleOfSeed42)
    #expect(shuffled.sorted() == Array(0..<10))
  }

  @Test func sameSeedSameShuffleDifferentSeedDifferentShuffle() {
    var a = SplitMix64(seed: 7)
    var b = SplitMix64(seed: 7)
    var c = SplitMix64(seed: 8)
    let deck = Array(0..<52)
    let first = a.shuffled(deck)
    #expect(first == b.shuffled(deck))
    #expect(first != c.shuffled(deck))
  }

  static let pinnedShuffleOfSeed42 = [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]

  /// The exponential draw is −ln(1 − u) of the same uniform draw, its logarithm the C
  /// library's to the last bits, and its mean 1.
  @Test func exponentialDrawsAreMinusTheLogOfAUniformDraw() {
    var uniform = SplitMix64(seed: 77)
    var exponential = SplitMix64(seed: 77)
    var total = 0.0
    for _ in 0..<100_000 {
      let u = uniform.nextUnit()
      let e = exponential.nextExponential()
      #expect(abs(e + log(1 - u)) <= 1e-12 * max(1, e))
      total += e
    }
    #expect(abs(total / 100_000 - 1) < 0.01)
  }
}
