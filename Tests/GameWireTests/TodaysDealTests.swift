import CardTableCore
import Testing

@testable import GameWire

@Suite struct TodaysDealTests {
  @Test(arguments: [
    (0 as Int64, "1970-01-01"), (951_782_400_000, "2000-02-29"), (1_800_000_000_000, "2027-01-15"),
    (1_796_083_199_999, "2026-11-30"), (1_796_083_200_000, "2026-12-01"),
  ])
  func aMomentFallsOnItsUTCDate(milliseconds: Int64, date: String) {
    #expect(TodaysDeal.date(atMilliseconds: milliseconds) == date)
    #expect(TodaysDeal.day(of: date) == Int(milliseconds / 86_400_000))
  }

  @Test func everyDayHasItsDateBackAndForth() {
    for day in stride(from: 0, to: 80_000, by: 1) {
      let date = TodaysDeal.civil(fromDays: day)
      #expect(TodaysDeal.daysFromCivil(date.year, date.month, date.day) == day)
      if day % 997 == 0 {
        let text = TodaysDeal.date(atMilliseconds: Int64(day) * 86_400_000)
        #expect(TodaysDeal.day(of: text) == day)
      }
    }
  }

  @Test func oneSeedPerGameAndDayTheSameForEveryone() throws {
    let seed = try TodaysDeal.seed(of: "memory", on: "2026-12-01")
    #expect(try TodaysDeal.seed(of: "memory", on: "2026-12-01") == seed)
    #expect(try TodaysDeal.seed(of: "memory", on: "2026-12-02") != seed)
    #expect(try TodaysDeal.seed(of: "set", on: "2026-12-01") != seed)
    #expect(seed == SipHash24.hash(0x6D65_6D6F_7279, key: (0x6361_7264_746F_6461, 20_788)))
  }

  @Test(arguments: [
    "2026-13-01", "2026-02-29", "2026-1-01", "1969-12-31", "today", "2026-12-01T00",
  ])
  func aTextThatIsNoDateIsRefused(text: String) {
    #expect(throws: WireError.self) { try TodaysDeal.seed(of: "memory", on: text) }
  }

  @Test func newDealsTodaysSeedAsPractice() throws {
    let new = try NewGame(["game": "memory", "today": "2026-12-01"], newSeed: { 7 })
    #expect(new.seed == (try TodaysDeal.seed(of: "memory", on: "2026-12-01")))
    #expect(new.seedChosen, "a seed anyone can compute is practice")
    #expect(throws: WireError.self) {
      try NewGame(["game": "memory", "today": "2026-12-01", "seed": 3], newSeed: { 7 })
    }
    #expect(throws: WireError.self) { try NewGame(["game": "memory", "today": 5], newSeed: { 7 }) }
  }
}
