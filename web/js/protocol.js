// @ts-check
/**
 * Types only (for `tsc --checkJs`, nothing here runs): the WebSocket protocol's messages
 * (docs/PROTOCOL.md), the game catalog, and the contract between the page (app.js) and a
 * game's screen. Each game's own view and events are in games/views.js.
 * @module protocol
 */

/**
 * A game's wire name, as the catalog lists it (`GameInfo.name`).
 * @typedef {string} GameName
 */
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
 * The player's own settings: `name`, `profile` (whether others may see the player's page),
 * and per game (by its name) an options object as `new` takes it.
 * @typedef {{name?: string, profile?: boolean} & Record<string, unknown>} PlayerSettings
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
 *   | {cmd: 'profile', player?: string}
 *   | HostTable
 *   | {cmd: 'join', code: string}
 *   | {cmd: 'seat', computer: true}
 *   | {cmd: 'unseat', seat: number}
 *   | {cmd: 'rename', name: string}
 *   | {cmd: 'rematch'}
 *   | {cmd: 'transfer'}
 *   | {cmd: 'claim', code: string}
 *   | Say
 *   | {cmd: 'mute'|'unmute', name: string}
 *   | {cmd: 'chat-settings', watchers: boolean}} Request
 */
/**
 * A line of a table's chat: text (at most 200 characters once trimmed), or a quick reaction.
 * @typedef {{cmd: 'say', text: string}|{cmd: 'say', reaction: ChatReaction}} Say
 */
/**
 * The quick reactions a table's chat takes (`say`'s `reaction`).
 * @typedef {'clap'|'wow'|'laugh'|'oops'|'snap'|'gg'} ChatReaction
 */
/**
 * Hosts a table of `game` (docs/PROTOCOL.md, "Tables: playing together"); `seed` makes it practice.
 * @typedef {{cmd: 'host', game: GameName, options?: Record<string, unknown>, public?: boolean, seed?: number|string, deck?: string[]}} HostTable
 */
/** @typedef {'date'|'score'|'duration'} ScoreSort */

// ----- server → client -----

/**
 * Sent first on every connection: the games the server runs, with its catalog of them.
 * @typedef {{type: 'welcome', protocol: number, games: string[], catalog?: GameInfo[], shared?: boolean}} Welcome
 */

// ----- the catalog -----

/**
 * One value of an option that takes one of a list.
 * @typedef {object} OptionChoice
 * @property {string|number|boolean} value
 * @property {string} label  the value as a button or menu shows it: `EASY`, `Quick`
 * @property {string} [description]  what it means, in a phrase the help puts in its text
 */

/**
 * An option a player may choose, and where it is asked: before a game of one's own is dealt
 * (`menu`), on the form that hosts a table (`host`), among the game's settings (`settings`), on the screen of a game of one's own (`screen`).
 * @typedef {object} GameOption
 * @property {string} name  the member of `options` it sets, e.g. `difficulty`
 * @property {string} label  the form's label
 * @property {OptionChoice[]} choices  empty for a number from `min` to `max`
 * @property {number} [min]
 * @property {number} [max]
 * @property {string|number|boolean} default
 * @property {string} [hint]  a short note beside the control
 * @property {('menu'|'host'|'settings'|'screen')[]} places
 */

/**
 * What the page needs to know about one game to offer it (`welcome`'s `catalog`). Help
 * paragraphs may name the value in force of an option (`{name}`, `{name*4|points}`:
 * catalog.js `filled`).
 * @typedef {object} GameInfo
 * @property {GameName} name
 * @property {string} title
 * @property {string} blurb  one line on the home screen's tile
 * @property {string} face  the card on the tile, as a card text
 * @property {number} minSeats
 * @property {number} maxSeats
 * @property {'turns'|'race'|'realTime'|null} together  how a table plays it; null: no table
 * @property {boolean} computers  whether a table's host may seat computer players
 * @property {string|null} call  what a call or claim is named in a receipt
 * @property {GameOption[]} options
 * @property {{play: string[], scoring: string[], together: string[]}} help
 * @property {string[]} tableHelp  how playing together works, in short
 * @property {Record<string, string>} sounds  the sound effect of each event type
 */

/**
 * The answer to `hello`: the token this connection plays as, and the player's settings.
 * @typedef {{type: 'hello', token: string, settings: PlayerSettings, reply?: RequestId}} Hello
 */

/**
 * The connection is now in room `room`. `countdown`: seconds before the room's clock starts
 * again (a room of a game played against the clock, woken from the store); meanwhile actions
 * are refused `resuming`.
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
 * @property {string} [today]  the day (`YYYY-MM-DD`, UTC) whose *Today's deal* this is, if it is one
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
 * A player's rating in one game and mode (`stats`' `ratings`, a player's page; docs/RATINGS.md).
 * @typedef {object} RatingEntry
 * @property {GameName} game
 * @property {string} options  the rating mode, e.g. `difficulty easy, players 2`
 * @property {number} rating  a whole number; everyone starts at 1500
 * @property {number} games  the rated games it rests on
 * @property {boolean} [provisional]  while they are fewer than 10
 */

/**
 * One of the latest games that count on a player's page (`profile`'s `recent`); `/play/ROOM`
 * replays it.
 * @typedef {object} RecentGame
 * @property {string} room
 * @property {GameName} game
 * @property {Record<string, unknown>|string} options
 * @property {number} end  ms since 1970
 * @property {number} duration  seconds
 * @property {boolean} won
 * @property {string|null} [winner]
 * @property {number|null} [score]
 */

/**
 * The answer to a command: `hint` (`cards`, table indexes), `results`, `history`, `view-at`,
 * `rooms`, `scores`, `stats`, `profile` (a player's page: `player` its id, `name`, `public`,
 * `you`, `ratings`, `stats`, `recent`) or `settings`.
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
 * @property {RatingEntry[]} [ratings]  `stats`, `profile`
 * @property {string} [player]  `profile`: the page's id (`/players/ID`)
 * @property {string|null} [name]  `profile`: the player's name, if they gave one
 * @property {boolean} [public]  `profile`: whether others may see the page
 * @property {boolean} [you]  `profile`: whether it is the asker's own page
 * @property {RecentGame[]} [recent]  `profile`: the latest games that count, newest first
 * @property {OpenTable[]} [tables]
 * @property {string} [code]  `transfer`: the one-time code, `ABCD-EFGH`
 * @property {number} [expiresIn]  `transfer`: the seconds it can be used
 * @property {string} [token]  `claim`: the token of the player the code moves
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
 * @property {number} [rating]  a person's rating in the table's game and mode, once it is dealt
 * @property {boolean} [provisional]  the rating rests on fewer than 10 rated games
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
 * @property {Record<string, number>} [wins]  the games each seated name won at this table, once one has finished
 * @property {number[]} [rematch]  the seats that accepted a rematch of the game just over
 * @property {boolean} [watcherChat]  false while the host has turned watchers' chat off (absent: on)
 * @property {string[]} [muted]  the names whose chat lines this client muted (absent: none)
 * @property {RequestId} [reply]
 */

/**
 * A seated player's connection dropped (`connected: false`, leaving in `leavesIn` seconds) or came back.
 * @typedef {{type: 'seat', seat: number, name: string, connected: boolean, leavesIn?: number}} SeatMessage
 */

/**
 * A call or a claim at a table (the game's `call` names it), as the server decided it.
 * @typedef {object} Receipt
 * @property {'receipt'} type
 * @property {string} player
 * @property {'correct'|'tooLate'|'wrong'} result
 * @property {number|null} after  seconds after the card was turned or the table last changed
 * @property {string} [reason]
 */

/**
 * A public table in its lobby (`tables`).
 * @typedef {{room: string, code: string, game: GameName, host: string, seats: number, players: number}} OpenTable
 */

/**
 * One line of a table's chat: a seated player's (`seat`) or a watcher's (`watcher`), text or
 * a quick reaction; `you` on the receiver's own lines. `at`: ms since 1970; `index` counts the
 * table's lines from 0.
 * @typedef {object} ChatLine
 * @property {number} index
 * @property {number} at
 * @property {string} name
 * @property {number} [seat]
 * @property {boolean} [watcher]
 * @property {string} [text]
 * @property {ChatReaction} [reaction]
 * @property {boolean} [you]
 */

/**
 * A table's chat: each new line as it is said, or (`history`) the last lines, right after the
 * `table` message of a room entered.
 * @typedef {{type: 'chat', room: string, lines: ChatLine[], history?: boolean, reply?: RequestId}} ChatMessage
 */

/** @typedef {Welcome|Hello|Joined|Closed|Left|AnyUpdate|Answer|ErrorMessage|TableMessage|SeatMessage|Receipt|ChatMessage} ServerMessage */

// ----- views and updates, as the page knows them -----

/**
 * A game's view as the page knows it: an object whose members only the game's own screen reads
 * (games/views.js), but for `over` (the game has ended).
 * @typedef {{over?: boolean} & Record<string, any>} GameView
 */
/** @typedef {{type: string} & Record<string, any>} GameEvent */
/** @typedef {Update<GameView, GameEvent>} AnyUpdate */

// ----- the page and a game's screen -----

/**
 * What the page tells a screen about the room on screen.
 * @typedef {object} Session
 * @property {string|null} room
 * @property {'player'|'watcher'|null} role
 * @property {boolean} readOnly  a watcher, a closed room, or a countdown running: no control acts
 * @property {TableMessage|null} table  the room's table (null for a game of one's own)
 * @property {string|null} me  the name of this page's seat at the table (`You` in a game of one's
 *   own, null for a watcher)
 * @property {(name: string) => number|null} away  seconds before a dropped player leaves, null when connected
 * @property {() => void} rematch  accepts a rematch of the table's game just over
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
 * only, so a game's `GameScreen<ItsUpdate>` may stand for a `GameScreen<AnyUpdate>`.
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

/**
 * What a game's module (games/*.js, listed in games/index.js) exports: `mount`, and what the
 * page asks of the game beyond the catalog.
 * @typedef {object} GameModule
 * @property {(ctx: GameContext) => GameScreen<AnyUpdate>} mount
 * @property {string} [menuLabel]  the name of the menu of the game's `menu` option
 * @property {(kept: PlayerSettings) => SettingsMove|null} [movedSettings]  settings an older
 *   page kept in localStorage, to move to the server once
 */

/**
 * Settings to save on the server (`changes`, maybe none), and the localStorage keys that held
 * them, to forget once saved.
 * @typedef {{changes: PlayerSettings, keys: string[]}} SettingsMove
 */

export {};
