import CardTableCore

/// *Today's deal* (RULES §7): one seed per game and calendar day (UTC), the same for everyone on
/// every server, so that friends can compare scores on the same cards.
///
/// The seed is SipHash-2-4 of the game's name under a key of the day: anyone can compute it,
/// so a game of today's deal is practice, kept out of the high scores as a chosen seed is.
public enum TodaysDeal {
  /// The seed of `game`'s deal on `date` (`YYYY-MM-DD`).
  ///
  /// - Throws: `bad-request` for a text that is not a calendar date from 1970 on.
  public static func seed(of game: String, on date: String) throws(WireError) -> UInt64 {
    guard let day = day(of: date) else {
      throw .badRequest("new: \"today\" must be a date such as \"2026-12-01\", not \"\(date)\".")
    }
    var name: UInt64 = 0
    for byte in game.utf8.prefix(8) { name = name << 8 | UInt64(byte) }
    // NB: "cardtoda" and the day make the key; the game's name is the message.
    return SipHash24.hash(name, key: (0x6361_7264_746F_6461, UInt64(day)))
  }

  /// Days since 1970-01-01 of a `YYYY-MM-DD` date, or nil.
  static func day(of date: String) -> Int? {
    let parts = date.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      year >= 1970, (1...12).contains(month), (1...daysIn(month, of: year)).contains(day)
    else { return nil }
    return daysFromCivil(year, month, day)
  }

  /// The UTC date of `milliseconds` since 1970, as `YYYY-MM-DD`.
  public static func date(atMilliseconds milliseconds: Int64) -> String {
    let (year, month, day) = civil(
      fromDays: Int(milliseconds.quotientAndRemainder(dividingBy: 86_400_000).quotient))
    func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
    return "\(year)-\(two(month))-\(two(day))"
  }

  static func daysIn(_ month: Int, of year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of a day since 1970-01-01 (the inverse of ``daysFromCivil(_:_:_:)``).
  static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
