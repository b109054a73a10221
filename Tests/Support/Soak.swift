#if canImport(Glibc)
  import Glibc
#endif

/// How many seeded cases a property test plays: enough in `make test` to meet every rule and
/// path many times over, and the long run's count with `CARDTABLE_SOAK=1` (before a release,
/// or after a change to what the property checks).
///
/// NB: the seeds of the usual run are the first ones of the long run, so a failure found in a
/// soak is the same game when it falls within the usual count.
public enum Soak {
  /// Whether this run is a soak (`CARDTABLE_SOAK=1`).
  public static var enabled: Bool {
    getenv("CARDTABLE_SOAK").map { $0.pointee == 0x31 } ?? false
  }

  /// `usual` cases, or `soak` in a soak.
  public static func count(_ usual: Int, soak: Int) -> Int {
    enabled ? soak : usual
  }
}
