// @ts-check
/**
 * The "Large cards" switch in the top bar's More menu (topbar.js): bigger cards on every table (docs/WEB.md, Layout).
 * Remembered in localStorage (`cardtable.cards`: `large`/`normal`) like the theme and the
 * sound, and shown as `data-cards="large"` on <html>. The game screens listen for the
 * `cardtable:cards` event on window and lay their tables out again.
 * @module size
 */
import { el } from './dom.js';

const KEY = 'cardtable.cards';
export const CARDS_EVENT = 'cardtable:cards';

/** @returns {boolean} whether the player chose large cards */
export function largeCards() {
  try {
    return localStorage.getItem(KEY) === 'large';
  } catch {
    return false;
  }
}

let large = largeCards();

/** @returns {boolean} large cards on screen now (the choice, or this page's own without storage) */
export function cardsLarge() {
  return large;
}

/** @param {HTMLElement} button */
function show(button) {
  if (large) document.documentElement.dataset.cards = 'large';
  else delete document.documentElement.dataset.cards;
  button.setAttribute('aria-pressed', String(large));
  button.title = large ? 'Large cards on: press for the usual size' : 'Large cards off: press for bigger cards';
}

/**
 * The switch (a toggle button: pressed means large cards).
 * @returns {HTMLButtonElement}
 */
export function sizeSwitch() {
  const button = /** @type {HTMLButtonElement} */ (el('button.btn.ghost.size-switch', { type: 'button' },
    el('span.menu-icon', { 'aria-hidden': 'true', text: '⤢' }), el('span.size-word', { text: 'Large cards' })));
  show(button);
  button.addEventListener('click', () => {
    large = !large;
    // NB: without storage (private mode) the choice holds for this page only.
    try { localStorage.setItem(KEY, large ? 'large' : 'normal'); } catch { /* not remembered */ }
    show(button);
    window.dispatchEvent(new Event(CARDS_EVENT));
  });
  return button;
}
