/// What every client needs to know about one game to offer it: its title and tile, the options
/// a player chooses and their defaults, how many sit at a table and how they play there, what a
/// call is named, the help, and which events make which sound (docs/PROTOCOL.md "Catalog").
///
/// Each game's wire adapter declares its entries (``WireGame/catalog``); the server sends them
/// all in `welcome`, and the web client and the terminal build their menus, host forms, help
/// and table bars from them, so that no client names a game in its own code.
public struct GameInfo: Sendable, Equatable, Encodable {
  /// How a table of several players plays a game.
  public enum Together: String, Sendable, Encodable {
    /// One player at a time; a match keeps the turn (Memory, Concentration).
    case turns
    /// Everyone plays the same cards at once; the first valid claim counts (Set).
    case race
    /// Everyone at once against the clock, calls decided in the order received (Snap!).
    case realTime
  }

  /// An option a player may choose, with its default.
  public struct Option: Sendable, Equatable, Encodable {
    /// Where a client asks for the option.
    public enum Place: String, Sendable, Encodable {
      /// Before a game of one's own is dealt (Memory's EASY / MEDIUM / HARD).
      case menu
      /// On the form that hosts a table.
      case host
      /// Among the game's settings, for the next deal.
      case settings
      /// On the screen of a game of one's own, dealing a new game when changed (Memory's
      /// opponent).
      case screen
    }

    /// One value of an option that takes one of a list.
    public struct Choice: Sendable, Equatable, Encodable {
      public var value: JSON
      /// The value as a button or menu shows it: `EASY`, `Quick`.
      public var label: String
      /// What the value means, in a phrase the help puts in its text.
      public var description: String?

      public init(_ value: JSON, _ label: String, description: String? = nil) {
        self.value = value
        self.label = label
        self.description = description
      }
    }

    /// The member of `options` it sets, e.g. `difficulty`.
    public var name: String
    /// The form's label: `Table size`.
    public var label: String
    /// The values it may take, in order; empty for a number in ``range``.
    public var choices: [Choice]
    /// For a number: the smallest and largest it may be.
    public var range: ClosedRange<Int>?
    public var `default`: JSON
    /// A short note beside the control, if it needs one.
    public var hint: String?
    public var places: [Place]

    public init(
      _ name: String, label: String, choices: [Choice] = [], range: ClosedRange<Int>? = nil,
      default value: JSON, hint: String? = nil, places: [Place]
    ) {
      self.name = name
      self.label = label
      self.choices = choices
      self.range = range
      self.default = value
      self.hint = hint
      self.places = places
    }

    enum CodingKeys: String, CodingKey {
      case name, label, choices, min, max, `default`, hint, places
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(label, forKey: .label)
      try container.encode(choices, forKey: .choices)
      try container.encodeIfPresent(range?.lowerBound, forKey: .min)
      try container.encodeIfPresent(range?.upperBound, forKey: .max)
      try container.encode(`default`, forKey: .default)
      try container.encodeIfPresent(hint, forKey: .hint)
      try container.encode(places, forKey: .places)
    }
  }

  /// The help, "How to play": paragraphs about playing, scoring, and playing together.
  ///
  /// A paragraph may name the value in force of an option: `{computerSpeed}` is the chosen
  /// value's description (or label), `{matchBonus}` a number, `{matchBonus*4}` four times it,
  /// `{mode|number}` a choice's value as a number, and `{…|points}` a number with its word,
  /// `1 point`, `8 points` (``filled(_:values:)``).
  public struct Help: Sendable, Equatable, Encodable {
    public var play: [String]
    public var scoring: [String]
    public var together: [String]

    public init(play: [String], scoring: [String], together: [String]) {
      self.play = play
      self.scoring = scoring
      self.together = together
    }
  }

  /// The wire name: `memory`.
  public var name: String
  public var title: String
  /// One line on the game's tile.
  public var blurb: String
  /// The card on the tile, as a card text (`K♥`, `squiggle:purple:striped:2`).
  public var face: String
  /// Seats at a table, computer players included.
  public var seats: ClosedRange<Int>
  /// How a table plays the game; nil for a game of one player only (Matchismo).
  public var together: Together?
  /// Whether the host may seat computer players.
  public var computers: Bool
  /// What a call or claim is called in a receipt (`Snap!`, `Set`), for a game that has them.
  public var call: String?
  public var options: [Option]
  public var help: Help
  /// How playing together works, in short, for the lobby and the table's Help.
  public var tableHelp: [String]
  /// The sound each event type makes (`turn`, `match`, `mismatch`, `call`, `win`).
  public var sounds: [(event: String, effect: String)]

  public init(
    name: String, title: String, blurb: String, face: String, seats: ClosedRange<Int>,
    together: Together?, computers: Bool = false, call: String? = nil, options: [Option],
    help: Help, tableHelp: [String], sounds: [(event: String, effect: String)]
  ) {
    self.name = name
    self.title = title
    self.blurb = blurb
    self.face = face
    self.seats = seats
    self.together = together
    self.computers = computers
    self.call = call
    self.options = options
    self.help = help
    self.tableHelp = tableHelp
    self.sounds = sounds
  }

  public static func == (a: GameInfo, b: GameInfo) -> Bool {
    a.name == b.name && a.title == b.title && a.blurb == b.blurb && a.face == b.face
      && a.seats == b.seats && a.together == b.together && a.computers == b.computers
      && a.call == b.call && a.options == b.options && a.help == b.help
      && a.tableHelp == b.tableHelp && a.sounds.elementsEqual(b.sounds, by: { $0 == $1 })
  }

  enum CodingKeys: String, CodingKey {
    case name, title, blurb, face, minSeats, maxSeats, together, computers, call, options, help
    case tableHelp, sounds
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(title, forKey: .title)
    try container.encode(blurb, forKey: .blurb)
    try container.encode(face, forKey: .face)
    try container.encode(seats.lowerBound, forKey: .minSeats)
    try container.encode(seats.upperBound, forKey: .maxSeats)
    try container.encode(together, forKey: .together)
    try container.encode(computers, forKey: .computers)
    try container.encode(call, forKey: .call)
    try container.encode(options, forKey: .options)
    try container.encode(help, forKey: .help)
    try container.encode(tableHelp, forKey: .tableHelp)
    let sounds = JSON.object(sounds.map { ($0.event, JSON.string($0.effect)) })
    try container.encode(sounds, forKey: .sounds)
  }

  /// The option named `name`, if the game has it.
  public func option(_ name: String) -> Option? {
    options.first { $0.name == name }
  }

  /// The options asked at `place`.
  public func options(at place: Option.Place) -> [Option] {
    options.filter { $0.places.contains(place) }
  }

  /// The computer opponent of a game alone, asked on the game's screen ("Play against":
  /// Memory's and Concentration's `opponent`, its first choice nobody).
  public var opponentOption: Option? {
    options(at: .screen).first { $0.name == "opponent" }
  }

  /// `text` with its `{…}` placeholders filled (``Help``): each name is looked up in `values`
  /// (the view's settings, say), else the option's default; a choice's value becomes its
  /// description. A placeholder naming nothing known is left as it is.
  public func filled(_ text: String, values: [String: JSON] = [:]) -> String {
    var result = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      result += rest[..<open]
      let inside = rest[rest.index(after: open)..<close]
      result += fill(inside, values) ?? String(rest[open...close])
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }

  private func fill(_ placeholder: Substring, _ values: [String: JSON]) -> String? {
    let parts = placeholder.split(separator: "|", maxSplits: 1)
    let filter = parts.count == 2 ? parts[1] : nil
    let product = parts[0].split(separator: "*", maxSplits: 1)
    guard let option = option(String(product[0])),
      let factor = product.count == 2 ? Int(product[1]) : 1
    else { return nil }
    let value = values[option.name] ?? option.default
    if filter == nil, product.count == 1,
      let choice = option.choices.first(where: { $0.value == value })
    {
      return choice.description ?? choice.label
    }
    guard let number = value.intValue else { return value.stringValue }
    let total = number * factor
    return filter == "points" ? "\(total) \(total == 1 ? "point" : "points")" : "\(total)"
  }
}

extension GameInfo.Option {
  /// One level of a game's computer players, as its options show it.
  public typealias Level = (value: String, label: String, description: String)

  /// The level of the computer players a table's host adds (`computerLevel`, on the host form).
  static func computerLevel(label: String, _ levels: [Level], default value: String) -> Self {
    GameInfo.Option(
      "computerLevel", label: label,
      choices: levels.map { .init(.string($0.value), $0.label, description: $0.description) },
      default: .string(value), hint: "for the computer players you add", places: [.host])
  }

  /// The computer opponent of a game alone (`opponent`, on the game's screen): Nobody, or Ray
  /// at each level.
  static func opponent(_ levels: [Level]) -> Self {
    GameInfo.Option(
      "opponent", label: "Play against",
      choices: [.init("none", "Nobody", description: "play alone")]
        + levels.map {
          .init(
            .string($0.value), "\($0.label) computer", description: "Ray, who \($0.description)")
        }, default: "none", places: [.screen])
  }
}
