// @ts-check
/**
 * "How to play": each game's rules in short, with the values in force of its options (the
 * scoring of the settings in play), and how the game goes at a table with friends — the
 * catalog's help (docs/PROTOCOL.md), its placeholders filled. Shown as a modal dialog (dom.js
 * `showDialog`: the focus moves in, Escape closes, the focus comes back), from each home tile
 * and from the `?` button on the game's screen.
 * @module help
 */
import { el, showDialog } from './dom.js';
import { filled, valuesInForce } from './catalog.js';
import * as player from './player.js';

/** @typedef {import('./protocol.js').GameInfo} GameInfo */

/**
 * A help page: paragraphs about playing, about scoring, and about playing together.
 * @typedef {{play: string[], scoring: string[], together: string[]}} Help
 */

/**
 * The help of a game, with the values of `view` (the game on screen), else those a new game
 * would take (the player's settings, the defaults).
 * @param {GameInfo} info
 * @param {Record<string, any>|null} view  a view of that game, or null (from the home screen)
 * @returns {Help}
 */
export function helpFor(info, view) {
  const kept = player.currentSettings()[info.name];
  const values = valuesInForce(info, view, kept && typeof kept === 'object' ? /** @type {Record<string, unknown>} */ (kept) : {});
  const fill = (/** @type {string[]} */ texts) => texts.map((text) => filled(info, text, values));
  return { play: fill(info.help.play), scoring: fill(info.help.scoring), together: fill(info.help.together) };
}

/**
 * Shows the "How to play" dialog of a game.
 * @param {GameInfo} info
 * @param {Record<string, any>|null} [view]  the game on screen, for its numbers
 * @returns {Promise<string>}
 */
export function openHelp(info, view = null) {
  const help = helpFor(info, view);
  const section = (/** @type {string} */ heading, /** @type {string[]} */ texts) => texts.length
    ? el('section.help-section', {}, el('h3', { text: heading }), ...texts.map((text) => el('p', { text })))
    : null;
  const body = el('div.help-body.how-to-play-body', {},
    section('Playing', help.play), section('Scoring', help.scoring), section('With friends', help.together));
  return showDialog({ title: `How to play ${info.title}`, body, buttons: [{ label: 'Close', value: 'close', primary: true }], className: 'how-to-play' });
}

/**
 * The `?` button of a game's screen, named "How to play": opens the game's "How to play" with
 * the numbers of the game on screen.
 * @param {GameInfo} info
 * @param {() => Record<string, any>|null} view  the game's latest view
 * @returns {HTMLElement}
 */
export function helpButton(info, view) {
  // NB: named "How to play", not "How to play <title>": the screen's own buttons (a call
  // button named as the game is) keep names that no other button contains.
  return el('button.btn.ghost.how-to-play-button', {
    type: 'button', text: '?', 'aria-label': 'How to play', title: `How to play ${info.title}`, 'aria-haspopup': 'dialog',
    onclick: () => openHelp(info, view()),
  });
}

/**
 * The "How to play" button of a home tile (the numbers of a new game).
 * @param {GameInfo} info
 * @returns {HTMLElement}
 */
export function tileHelpButton(info) {
  return el('button.btn.ghost.tile-help', {
    type: 'button', 'aria-label': `How to play ${info.title}`, 'aria-haspopup': 'dialog', onclick: () => openHelp(info, null),
  }, el('span', { 'aria-hidden': 'true', text: '?' }), el('span', { text: 'How to play' }));
}
