// @ts-check
/**
 * "How to play": each game's rules in short (RULES.md, in CardTable's own words), with the
 * scoring of the settings in play, and how the game goes at a table with friends. Shown as a
 * modal dialog (dom.js `showDialog`: the focus moves in, Escape closes, the focus comes back),
 * from each home tile and from the `?` button on the game's screen.
 * @module help
 */
import { el, showDialog } from './dom.js';
import { GAMES } from './catalog.js';
import { gameSettings } from './games/matching/settings.js';

/** @typedef {import('./protocol.js').GameName} GameName */
/** @typedef {import('./protocol.js').Scoring} Scoring */

/**
 * Snap!'s computer players' delays, in seconds, by speed (docs/ENGINE.md, `computerSpeed`).
 * @type {Record<string, [string, number, number]>}
 */
const SPEEDS = {
  relaxed: ['relaxed', 1.0, 4.0],
  original: ['the original’s', 0.5, 2.5],
  quick: ['quick', 0.15, 1.15],
  sharp: ['sharp', 0.1, 0.5],
};

/** @param {number} n */
const points = (n) => `${n} ${n === 1 ? 'point' : 'points'}`;

/**
 * A help page: paragraphs about playing, about scoring, and about playing together.
 * @typedef {{play: string[], scoring: string[], together: string[]}} Help
 */

/**
 * The scoring constants of the game on screen, else the ones a new game would take.
 * @param {'matchismo'|'set'} game
 * @param {Record<string, any>|null} view
 * @returns {Scoring}
 */
function scoringOf(game, view) {
  const s = view?.settings;
  if (s && [s.matchBonus, s.mismatchPenalty, s.costToChoose].every(Number.isFinite)) return s;
  return gameSettings(game);
}

/**
 * The help for `game`, with the numbers of `view` (the game on screen), if any.
 * @param {GameName} game
 * @param {Record<string, any>|null} view  a view of that game, or null (from the home screen)
 * @returns {Help}
 */
export function helpFor(game, view) {
  switch (game) {
    case 'matchismo': {
      const { matchBonus: bonus, mismatchPenalty: penalty, costToChoose: cost } = scoringOf(game, view);
      const mode = view?.mode === 3 ? 3 : 2;
      return {
        play: [
          `Tap face-down cards to turn them up and look for cards that belong together: ${mode === 3 ? 'three' : 'two'} at a time in the ${mode}-card mode (pick 2 or 3 before the first card; Deal unlocks it again).`,
          'Cards of the same suit go together, and so do cards of the same rank. Tap a face-up card to turn it back for free. Matched cards stay on the table, dimmed. The game ends when no match is left; Deal starts again with a fresh deck, and Hint shows a match.',
        ],
        scoring: [
          `With the settings in play: a suit pair scores ${points(bonus)} (1 × the match bonus ${bonus}), a rank pair ${points(4 * bonus)} (4 × ${bonus}). In 3-card mode every pair among the three counts.`,
          `Cards that do not belong together cost ${points(penalty)} (the mismatch penalty), and every card you turn up costs ${points(cost)} (the cost to choose). Settings change these from the next Deal.`,
        ],
        together: ['Matchismo is a game for one: there is no table with friends.'],
      };
    }
    case 'set': {
      const { matchBonus: bonus, mismatchPenalty: penalty, costToChoose: cost } = scoringOf(game, view);
      return {
        play: [
          'Find a set: three cards where each of the four features — number, symbol, shading and colour — is either the same on all three cards or different on all three.',
          'Tap three cards to claim them. A set leaves the table; fresh cards take its place while the deck lasts. +3 deals three more cards when you see no set. The game ends when the deck is empty and no set is left. Hint shows a set.',
        ],
        scoring: [
          `With the settings in play: a set scores ${points(4 * bonus)} (4 × the match bonus ${bonus}); three cards that are not a set cost ${points(penalty)}; every card you choose costs ${points(cost)}.`,
          `+3 is free when no set is on the table; if one was there, it costs ${points(3 * penalty)} first (3 × the mismatch penalty ${penalty}).`,
        ],
        together: [
          'At a table with friends, Set is a race: everyone plays the same cards at once, each of you picks your own three, and a set scores for whoever claims it first. Each player keeps their own score.',
          '+3 deals only when every player has asked for it. There are no hints in a race.',
        ],
      };
    }
    case 'memory': {
      const pairs = Number.isInteger(view?.pairs) ? view?.pairs : null;
      return {
        play: [
          `The cards lie face down, and every card is there twice${pairs ? ` — ${pairs} pairs on this table` : ' (Easy 6 pairs, Medium 12, Hard 16)'}. Turn two cards: if they are the same card, rank and suit, they are a pair and leave the board after a second; if not, they turn back after two seconds.`,
          'You win when the last pair has left the board.',
        ],
        scoring: [
          'The score counts mistakes: every two cards that are not a pair add 1. Lower is better; a perfect game scores 0.',
        ],
        together: [
          'At a table with friends, players take turns. A pair is yours and keeps the turn; two cards that are not a pair pass it to the next player. Each player counts their own pairs.',
        ],
      };
    }
    case 'concentration':
      return {
        play: [
          'All 52 cards lie face down, each tilted a little. Turn two cards of the same rank — any suits — to match them: they stay face up for the rest of the game. Two of different ranks turn back after one and a half seconds.',
          'After a match the table flashes green and takes no card for one second. The table is cleared when all 26 pairs are face up.',
        ],
        scoring: [
          'There are no points: the moves count every two cards turned, and the timer starts with the first card you turn, not when the cards are dealt. Fewer moves and less time are better.',
        ],
        together: [
          'At a table with friends, players take turns. A pair is yours and keeps the turn; two different ranks pass it on. Each player counts their own pairs.',
        ],
      };
    case 'snap': {
      const [speed, low, high] = SPEEDS[typeof view?.computerSpeed === 'string' ? view.computerSpeed : 'original'] ?? SPEEDS.original;
      return {
        play: [
          'The whole deck is dealt face down to the players; then, after a pause of 5.2 seconds while the cards are dealt, each player in turn, clockwise, turns the top card of their stack onto their open pile (T, Enter, or a tap on your stack).',
          'When two open piles show the same rank, call Snap! (S, or the Snap! button). The first call after a card is turned is the one that counts: if it is right, the caller takes every matching open pile under their stack. A player who holds all 52 cards wins the round.',
        ],
        scoring: [
          'A wrong Snap! — no two open piles of the same rank — costs the caller one card from their stack to every other player who still has cards. A call after the first one is simply too late and costs nothing.',
          `The computer players (Ray, Lucy and Steve when you play alone) play at ${speed} speed: each takes ${low} to ${high} seconds to turn a card, and as long to call Snap! when they see a match (now and then they call one by mistake).`,
        ],
        together: [
          'At a table with friends, Snap! is for 2 to 4 players in real time: everyone sees the table from the bottom seat, anyone may call Snap! at any moment, and the server decides who was first. The host can fill empty seats with computer players and starts every round.',
        ],
      };
    }
    default:
      return { play: [], scoring: [], together: [] };
  }
}

/**
 * Shows the "How to play" dialog of `game`.
 * @param {GameName} game
 * @param {Record<string, any>|null} [view]  the game on screen, for its numbers
 * @returns {Promise<string>}
 */
export function openHelp(game, view = null) {
  const help = helpFor(game, view);
  const title = GAMES[game]?.title ?? game;
  const section = (/** @type {string} */ heading, /** @type {string[]} */ texts) => texts.length
    ? el('section.help-section', {}, el('h3', { text: heading }), ...texts.map((text) => el('p', { text })))
    : null;
  const body = el('div.help-body.how-to-play-body', {},
    section('Playing', help.play), section('Scoring', help.scoring), section('With friends', help.together));
  return showDialog({ title: `How to play ${title}`, body, buttons: [{ label: 'Close', value: 'close', primary: true }], className: 'how-to-play' });
}

/**
 * The `?` button of a game's screen, named "How to play": opens the game's "How to play" with
 * the numbers of the game on screen.
 * @param {GameName} game
 * @param {() => Record<string, any>|null} view  the game's latest view
 * @returns {HTMLElement}
 */
export function helpButton(game, view) {
  const title = GAMES[game]?.title ?? game;
  // NB: named "How to play", not "How to play Snap!": the screen's own buttons (Snap!) keep
  // names that no other button contains.
  return el('button.btn.ghost.how-to-play-button', {
    type: 'button', text: '?', 'aria-label': 'How to play', title: `How to play ${title}`, 'aria-haspopup': 'dialog',
    onclick: () => openHelp(game, view()),
  });
}

/**
 * The "How to play" button of a home tile (the numbers of a new game).
 * @param {GameName} game
 * @returns {HTMLElement}
 */
export function tileHelpButton(game) {
  const title = GAMES[game]?.title ?? game;
  return el('button.btn.ghost.tile-help', {
    type: 'button', 'aria-label': `How to play ${title}`, 'aria-haspopup': 'dialog', onclick: () => openHelp(game, null),
  }, el('span', { 'aria-hidden': 'true', text: '?' }), el('span', { text: 'How to play' }));
}
