// @ts-check
/**
 * Types only (for `tsc --checkJs`, nothing here runs): the WebSocket protocol's messages
 * (docs/PROTOCOL.md), the games' player views and events (docs/ENGINE.md), and the contract
 * between the page (app.js) and a game's screen.
 * @module protocol
 */

/** @typedef {'memory'|'concentration'|'matchismo'|'set'|'snap'} GameName */
/**
 * The `id` a request carries; the server copies it into its answer's `reply`.
 * @typedef {string|number} RequestId
 */

// ----- client → server -----

/**
 * Deals a new game in a new room; without `seed` the server picks one. `seed` is sent as the
 * decimal string the page was given (JavaScript numbers are exact only up to 2^53).
 * @typedef {{cmd: 'new', game: GameName, options?: Record<string, unknown>, seed?: number|string, today?: boolean}} NewGame
 */
/**
 * The player's action; `version` is the last version the page saw.
 * @typedef {{cmd: 'act', action: {type: string} & Record<string, unknown>, version: number}} Act
 */
/**
 * The player's own settings: `name`, and per game an options object as `new` takes it.
 * @typedef {{name?: string, matchismo?: Record<string, unknown>, set?: Record<string, unknown>,
 *   snap?: Record<string, unknown>, memory?: Record<string, unknown>}} PlayerSettings
 */
/**
 * A request as the page sends it (Connection.send adds the `id`).
 * @typedef {NewGame|Act
 *   | {cmd: 'hello', token?: string}
 *   | {cmd: 'open', room: string}
 *   | {cmd: 'view-at', version: number}
 *   | {cmd: 'scores', game?: GameName, sort?: ScoreSort}
 *   | {cmd: 'settings', settings?: PlayerSettings}
 *   | {cmd: 'restart'|'results'|'state'|'hint'|'history'|'abandon'|'leave'|'rooms'|'stats'|'start'|'tables'}
 *   | HostTable
 *   | {cmd: 'join', code: string}
 *   | {cmd: 'seat', computer: true}
 *   | {cmd: 'unseat', seat: number}} Request
 */
/**
 * Hosts a table of `game` (docs/PROTOCOL.md, "Tables: playing together"); `seed` makes it practice.
 * @typedef {{cmd: 'host', game: GameName, options?: Record<string, unknown>, public?: boolean, seed?: number|string}} HostTable
 */
/** @typedef {'date'|'score'|'duration'} ScoreSort */

// ----- server → client -----

/** @typedef {{type: 'welcome', protocol: number, games: string[], shared?: boolean}} Welcome */

/**
 * The answer to `hello`: the token this connection plays as, and the player's settings.
 * @typedef {{type: 'hello', token: string, settings: PlayerSettings, reply?: RequestId}} Hello
 */

/**
 * The connection is now in room `room`. `countdown`: seconds before the room's clock starts
 * again (Snap! woken from the store); meanwhile actions are refused `resuming`.
 * @typedef {object} Joined
 * @property {'joined'} type
 * @property {string} room
 * @property {GameName} game
 * @property {'player'|'watcher'} role
 * @property {'playing'|'over'|'abandoned'} status
 * @property {number} [countdown]
 * @property {RequestId} [reply]
 */

/** @typedef {{type: 'closed', room: string, status: 'abandoned', reply?: RequestId}} Closed */
/** @typedef {{type: 'left', reply?: RequestId}} Left */

/**
 * A game's state as this player may see it, with what happened since the last update.
 * `reply` is the id of the request that caused it (absent when a timer fired).
 * @template View, Event
 * @typedef {object} Update
 * @property {'update'} type
 * @property {GameName} game
 * @property {number|string|null} seed  the deal's seed when the page chose it or the game is over
 * @property {number} version
 * @property {Event[]} events
 * @property {View} view
 * @property {RequestId} [reply]
 */

/**
 * One of the player's unfinished rooms (`rooms`).
 * @typedef {object} RoomSummary
 * @property {string} room
 * @property {GameName} game
 * @property {Record<string, unknown>} options  as the game was dealt
 * @property {number} version
 * @property {number} created  ms since 1970
 * @property {number} updated  ms since 1970
 */

/**
 * A high score (`scores`, RULES §1.5).
 * @typedef {object} ScoreEntry
 * @property {GameName} game
 * @property {Record<string, unknown>|string} options
 * @property {number|null} score
 * @property {number} moves
 * @property {number} start  ms since 1970
 * @property {number} end  ms since 1970
 * @property {number} duration  seconds
 * @property {string} room
 * @property {('lowest'|'highest'|'shortest'|'longest')[]} marks
 */

/**
 * Statistics of one game and setting (`stats`).
 * @typedef {object} StatsEntry
 * @property {GameName} game
 * @property {Record<string, unknown>|string} options
 * @property {number} played
 * @property {number} won
 * @property {number|null} bestScore
 * @property {number|null} bestTime  seconds
 * @property {number} streak
 * @property {number} bestStreak
 */

/**
 * The answer to a command: `hint` (`cards`, table indexes), `results`, `history`, `view-at`,
 * `rooms`, `scores`, `stats` or `settings`.
 * @typedef {object} Answer
 * @property {'answer'} type
 * @property {string} cmd
 * @property {number[]} [cards]
 * @property {Record<string, unknown>[]} [results]
 * @property {{text: string, version: number}[]} [entries]
 * @property {number} [version]
 * @property {GameView} [view]
 * @property {RoomSummary[]} [rooms]
 * @property {string|null} [game]
 * @property {ScoreSort} [sort]
 * @property {'higher'|'lower'|null} [better]
 * @property {ScoreEntry[]} [scores]
 * @property {StatsEntry[]} [stats]
 * @property {OpenTable[]} [tables]
 * @property {PlayerSettings} [settings]
 * @property {RequestId} [reply]
 */

/**
 * A refused request: nothing changed.
 * @typedef {object} ErrorMessage
 * @property {'error'} type
 * @property {{code: string, message: string}} error
 * @property {RequestId} [reply]
 */

/**
 * One seat of a table.
 * @typedef {object} TableSeat
 * @property {number} seat
 * @property {string} name
 * @property {boolean} computer
 * @property {boolean} connected
 * @property {boolean} [left]
 * @property {boolean} [you]  the receiver's own seat
 */

/**
 * A table's seats and phase: after `joined` and whenever a seat or the phase changes.
 * @typedef {object} TableMessage
 * @property {'table'} type
 * @property {string} room
 * @property {string} code  e.g. `KXQ-4TP`
 * @property {GameName} game
 * @property {'lobby'|'playing'|'over'} phase
 * @property {number} host  the host's seat
 * @property {TableSeat[]} seats
 * @property {number} minSeats
 * @property {number} maxSeats
 * @property {boolean} public
 * @property {number} watchers
 * @property {RequestId} [reply]
 */

/**
 * A seated player's connection dropped (`connected: false`, leaving in `leavesIn` seconds) or came back.
 * @typedef {{type: 'seat', seat: number, name: string, connected: boolean, leavesIn?: number}} SeatMessage
 */

/**
 * A Snap! call or a Set claim at a table, as the server decided it.
 * @typedef {object} Receipt
 * @property {'receipt'} type
 * @property {string} player
 * @property {'correct'|'tooLate'|'wrong'} result
 * @property {number|null} after  seconds after the card was turned (Snap!) or the table last changed (Set)
 * @property {string} [reason]
 */

/**
 * A public table in its lobby (`tables`).
 * @typedef {{room: string, code: string, game: GameName, host: string, seats: number, players: number}} OpenTable
 */

/** @typedef {Welcome|Hello|Joined|Closed|Left|AnyUpdate|Answer|ErrorMessage|TableMessage|SeatMessage|Receipt} ServerMessage */

// ----- Memory and Concentration -----

/**
 * @typedef {object} MemorySpot
 * @property {string|null} card  null while face down
 * @property {boolean} faceUp
 * @property {boolean} removed
 */

/**
 * @typedef {object} BoardView  what Memory and Concentration share
 * @property {number} score
 * @property {string} status
 * @property {string|null} title  `Great!` / `Cleared!` at the end
 * @property {boolean} over
 * @property {number} columns
 * @property {number} rows
 * @property {number} pairsFound
 * @property {number} pairs
 * @property {number} flips
 * @property {boolean} waiting  a pair is being resolved (or, in Concentration, the second after a match)
 * @property {number} clock  seconds on the game's clock
 * @property {number} [began]  Concentration: the clock when its first card was turned (its timer starts there)
 */

/**
 * A player at a Memory or Concentration table, taking turns.
 * @typedef {{player: string, pairs: number, left: boolean}} BoardPlayer
 */

/** @typedef {BoardView & {board: MemorySpot[], players?: BoardPlayer[], turn?: string}} MemoryView */

/**
 * @typedef {object} ConcentrationSpot
 * @property {string|null} card
 * @property {boolean} faceUp
 * @property {boolean} matched
 */

/** @typedef {BoardView & {board: ConcentrationSpot[], moves: number, tilt: number[], players?: BoardPlayer[], turn?: string}} ConcentrationView */

/**
 * @typedef {{type: 'flipped', card: number, face: string}
 *   | {type: 'matched'|'mismatched'|'removed'|'turnedDown', cards: number[]}
 *   | {type: 'finished', score: number, moves: number}} MemoryEvent
 */

// ----- Matchismo and Set -----

/**
 * @typedef {object} TableSlot
 * @property {string|null} card  null while neither chosen nor matched (Matchismo)
 * @property {boolean} chosen
 * @property {boolean} matched
 * @property {boolean} hinted
 */

/**
 * @typedef {object} FoundMatch
 * @property {string[]} cards
 * @property {number} points
 * @property {{text: string}} reason
 */

/** @typedef {{matchBonus: number, mismatchPenalty: number, costToChoose: number}} Scoring */

/**
 * @typedef {object} MatchingView  Matchismo's and Set's view
 * @property {number} score
 * @property {string} status
 * @property {number} flips
 * @property {string[]} history  oldest first
 * @property {number} mode  cards per match: 2 or 3
 * @property {boolean} [modeLocked]  Matchismo only
 * @property {number} deckCount
 * @property {boolean} over
 * @property {TableSlot[]} table
 * @property {string[]} found
 * @property {FoundMatch[]} foundMatches
 * @property {number[]} hint
 * @property {Scoring & {cards?: number, refill?: boolean, twoPlayer?: boolean}} settings
 * @property {{player: string, score: number, chosen?: number, askedForThree?: boolean, left?: boolean}[]} [players]
 *   two-player Set, and Set as a race at a table (each racer's score, and whether they agreed to +3)
 * @property {string} [current]  two-player Set: whose turn it is
 * @property {string} [viewer]  Set at a table: the racer looking
 */

/**
 * @typedef {{type: 'chosen', card: number, face: string} | {type: 'unchosen', card: number}
 *   | {type: 'matched', cards: number[], points: number, reason: {text: string}}
 *   | {type: 'mismatched', cards: number[], penalty: number}
 *   | {type: 'removed'|'hinted', cards: number[]}
 *   | {type: 'refilled', cards: number[], faces: string[]}
 *   | {type: 'dealtThree', cards: number[], faces: string[], charge: number}
 *   | {type: 'modeSet', mode: number} | {type: 'turnPassed', to: string}
 *   | {type: 'dealt', seed: number|null, abandoned: object|null} | {type: 'gameOver', result: object}} MatchingEvent
 */

// ----- Snap! -----

/** @typedef {'bottom'|'left'|'top'|'right'} Position */

/**
 * @typedef {object} SnapPlayer
 * @property {string} name
 * @property {Position} seat
 * @property {Position} position  the seat as this viewer sees it
 * @property {number} closedCount
 * @property {number} openCount
 * @property {string|null} openTop
 * @property {number} gamesWon
 * @property {string} won  `"<n> Won"`
 * @property {boolean} computer
 * @property {boolean} host
 * @property {boolean} left
 */

/**
 * @typedef {object} SnapView
 * @property {'dealing'|'playing'|'roundOver'|'gameOver'} phase
 * @property {string} status
 * @property {string|null} active
 * @property {boolean} over
 * @property {number} round
 * @property {string} starting
 * @property {boolean} turned
 * @property {string|null} winner
 * @property {string} host
 * @property {string} viewer
 * @property {{caller: string, result: string, moved: boolean}|null} pause
 * @property {boolean} canTurn
 * @property {boolean} canSnap
 * @property {boolean} canStartNextRound
 * @property {SnapPlayer[]} players
 */

/**
 * @typedef {{type: 'dealt', round: number, starting: string}
 *   | {type: 'activated', player: string}
 *   | {type: 'recycled', player: string, count: number}
 *   | {type: 'turned', player: string, card: string}
 *   | {type: 'snap', player: string, result: 'correct'|'tooLate'|'wrong', matching?: string[]}
 *   | {type: 'pileWon', player: string, from: string, count: number}
 *   | {type: 'paid', player: string, to: string, card: string|null}
 *   | {type: 'roundWon', player: string, gamesWon: number}
 *   | {type: 'left', player: string, given: {to: string, card: string|null}[]}
 *   | {type: 'gameOver', reason: string}} SnapEvent
 */

// ----- updates by game -----

/** @typedef {Update<MemoryView, MemoryEvent>} MemoryUpdate */
/** @typedef {Update<ConcentrationView, MemoryEvent>} ConcentrationUpdate */
/** @typedef {Update<MatchingView, MatchingEvent>} MatchingUpdate */
/** @typedef {Update<SnapView, SnapEvent>} SnapUpdate */
/** @typedef {MemoryUpdate|ConcentrationUpdate|MatchingUpdate|SnapUpdate} AnyUpdate */
/** @typedef {MemoryView|ConcentrationView|MatchingView|SnapView} GameView */

// ----- the page and a game's screen -----

/**
 * What the page tells a screen about the room on screen.
 * @typedef {object} Session
 * @property {string|null} room
 * @property {'player'|'watcher'|null} role
 * @property {boolean} readOnly  a watcher, a closed room, or a Snap! countdown running: no control acts
 * @property {TableMessage|null} table  the room's table (null for a game of one's own)
 * @property {string|null} me  the name of this page's seat at the table
 * @property {(name: string) => number|null} away  seconds before a dropped player leaves, null when connected
 */

/**
 * What the page hands a game's `mount`.
 * @typedef {object} GameContext
 * @property {HTMLElement} root  the screen's container (`<main>`)
 * @property {HTMLElement} toolbar  the top bar's right end
 * @property {import('./connection.js').Connection} conn
 * @property {URLSearchParams} params  the page's URL parameters (`?game=…`; empty for `/play/ROOM`)
 * @property {boolean} fresh  true: mounted from `?game=…`, the screen deals with `new`; false:
 *   mounted from `/play/ROOM`, the page has opened the room and its update follows
 * @property {Session} session
 * @property {(url: string) => void} navigate
 * @property {(title: string) => void} setTitle
 * @property {() => void} stepThrough  steps through the finished game (drawn with `showPast`)
 */

/**
 * A mounted game's screen, as its `mount` returns it: `update` draws an update, `answer` and
 * `error` take the answers and refusals, `redraw` draws again when the session changed (a
 * watcher, a countdown ending), `showPast` draws an earlier view read-only (stepping through)
 * and `showPast(null)` the live game again, `destroy` lets go of listeners and timers.
 * NB: methods, not function properties: the page passes a screen the updates of its own game
 * only, so a `GameScreen<MemoryUpdate>` may stand for a `GameScreen<AnyUpdate>`.
 * @template U  the game's update message
 * @typedef {{
 *   update(message: U): void,
 *   answer?(message: Answer): void,
 *   error?(message: ErrorMessage): void,
 *   redraw(): void,
 *   showPast(view: GameView|null): void,
 *   tableChanged?(): void,
 *   destroy(): void,
 * }} GameScreen
 */

export {};
