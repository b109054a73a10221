import CardTableCore

/// The playing card a test names by its text (`"A♥"`, `"10C"`); a bad text is the test's bug.
public func playingCard(_ text: some StringProtocol) -> PlayingCard {
  guard let card = PlayingCard(text) else {
    preconditionFailure("\"\(text)\" is not a playing card")
  }
  return card
}

/// The Set card a test names by its text (`"oval:red:solid:2"`).
public func setCard(_ text: some StringProtocol) -> SetCard {
  guard let card = SetCard(text) else { preconditionFailure("\"\(text)\" is not a Set card") }
  return card
}
