// @ts-check
/**
 * Types only (for `tsc --checkJs`, nothing here runs): each game's player view and events
 * (docs/ENGINE.md), as its screen reads them. The page (protocol.js) knows views only as
 * `GameView`; a game's own screen knows its own.
 * @module games/views
 */

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
 * A player at a Memory or Concentration table, taking turns (`computer` for a computer player's seat).
 * @typedef {{player: string, pairs: number, left: boolean, computer?: boolean}} BoardPlayer
 */

/** @typedef {BoardView & {board: MemorySpot[], players?: BoardPlayer[], turn?: string, computerLevel?: string}} MemoryView */

/**
 * @typedef {object} ConcentrationSpot
 * @property {string|null} card
 * @property {boolean} faceUp
 * @property {boolean} matched
 */

/** @typedef {BoardView & {board: ConcentrationSpot[], moves: number, tilt: number[], players?: BoardPlayer[], turn?: string, computerLevel?: string}} ConcentrationView */

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
 * @property {{player: string, score: number, chosen?: number, askedForThree?: boolean, left?: boolean, computer?: boolean}[]} [players]
 *   two-player Set, and Set as a race at a table (each racer's score, and whether they agreed to +3)
 * @property {string} [current]  two-player Set: whose turn it is
 * @property {string} [viewer]  Set in a race (at a table, or alone against the computer): the racer looking
 * @property {string} [computerLevel]  Set: how quickly the computer racers find sets, when some race
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

/**
 * @template View, Event
 * @typedef {import('../protocol.js').Update<View, Event>} Update
 */
/** @typedef {Update<MemoryView, MemoryEvent>} MemoryUpdate */
/** @typedef {Update<ConcentrationView, MemoryEvent>} ConcentrationUpdate */
/** @typedef {Update<MatchingView, MatchingEvent>} MatchingUpdate */
/** @typedef {Update<SnapView, SnapEvent>} SnapUpdate */

export {};
