import CardTableCore
import Testing

@Suite struct LaterSeedsTests {
  /// The reference vectors of SipHash-2-4 (key 00 01 … 0f, messages 00 01 … of each length).
  static let vectors: [UInt64] = [
    0x726f_db47_dd0e_0e31, 0x74f8_39c5_93dc_67fd, 0x0d6c_8009_d9a9_4f5a, 0x8567_6696_d7fb_7e2d,
    0xcf27_94e0_2771_87b7, 0x1876_5564_cd99_a68d, 0xcbc9_466e_58fe_e3ce, 0xab02_00f5_8b01_d137,
    0x93f5_f579_9a93_2462, 0x9e00_82df_0ba9_e4b0, 0x7a5d_bbc5_94dd_b9f3, 0xf4b3_2f46_226b_ada7,
    0x751e_8fbc_860e_e5fb, 0x14ea_5627_c084_3d90, 0xf723_ca90_8e7a_f2ee, 0xa129_ca61_49be_45e5,
    0x3f2a_cc7f_57c2_9bdb,
  ]
  static let key: (UInt64, UInt64) = (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908)

  @Test func sipHashMatchesTheReferenceVectors() {
    for (length, expected) in Self.vectors.enumerated() {
      let message = (0..<length).map { UInt8($0) }
      #expect(SipHash24.hash(message, key: Self.key) == expected, "length \(length)")
    }
    #expect(SipHash24.hash(0x0706_0504_0302_0100 as UInt64, key: Self.key) == Self.vectors[8])
  }

  @Test func laterSeedsAreTheKeysHashesOfOneTwoThree() {
    var seeds = LaterSeeds(key: (5, 6))
    let drawn = (0..<3).map { _ in seeds.next() }
    #expect(drawn == [1, 2, 3].map { SipHash24.hash($0 as UInt64, key: (5, 6)) })
    #expect(seeds.drawn == 3)
  }

  @Test func seedsDerivedFromTheSeedAreTheSameEveryTime() {
    var a = LaterSeeds(seed: 42)
    var b = LaterSeeds(seed: 42)
    var c = LaterSeeds(seed: 43)
    #expect(a.next() == b.next())
    #expect(a.next() != c.next())
  }

  @Test func noLaterSeedIsTheSeedsOwnGeneratorsNextOutput() {
    // NB: before later seeds were keyed, the next deal's seed was the first output of
    // SplitMix64(seed) — known to anyone who had seen the seed.
    for seed in UInt64(0)..<200 {
      var generator = SplitMix64(seed: seed)
      var later = LaterSeeds(key: (seed &* 7919, ~seed))
      #expect(later.next() != generator.next())
    }
  }
}
