// @ts-check
/**
 * The home screen: Your games first when there are any (this player's unfinished rooms, to
 * resume or abandon; the newest two, the rest a button away), Play together (Join a table),
 * a tile per game of the catalog (with its "How to play"), the open public tables, Today's
 * deal, a link to the scores, and Your name. On a phone Join a table is on the first screen,
 * Your games or not.
 * @module home
 */
import { el, setText } from './dom.js';
import { announce } from './a11y.js';
import { cardFaceSVG } from './cards.js';
import { describeOptions, games as catalogGames, optionsAt, titleOf } from './catalog.js';
import { transferSection } from './transfer.js';
import { tileHelpButton } from './help.js';
import * as player from './player.js';
import { renderOpenTables } from './table.js';

/** @typedef {import('./protocol.js').GameInfo} GameInfo */
/** @typedef {import('./protocol.js').RoomSummary} RoomSummary */

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
/** @type {[Intl.RelativeTimeFormatUnit, number][]} */
const UNITS = [['year', 365 * 86400], ['month', 30 * 86400], ['week', 7 * 86400], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];

/**
 * `5 minutes ago`, `yesterday`, `now`.
 * @param {number} when  ms since 1970
 * @param {number} [now]
 */
export function timeAgo(when, now = Date.now()) {
  const seconds = Math.round((when - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      return Math.abs(seconds) < 10 && unit === 'second' ? relative.format(0, 'second') : relative.format(Math.round(seconds / size), unit);
    }
  }
  return '';
}

/**
 * Resolves with the `closed` message of `room` (the answer to `abandon` may be it).
 * @param {import('./connection.js').Connection} conn
 * @param {string} room
 * @returns {Promise<import('./protocol.js').ServerMessage>}
 */
function closedMessage(conn, room) {
  return new Promise((resolve) => {
    /** @param {Event} event */
    const listener = (event) => {
      const message = /** @type {CustomEvent<import('./protocol.js').ServerMessage>} */ (event).detail;
      if (message.type !== 'closed' || message.room !== room) return;
      conn.removeEventListener('message', listener);
      resolve(message);
    };
    conn.addEventListener('message', listener);
  });
}

/** Your games shown until Show all is pressed: Play together stays on a phone's first screen. */
const FIRST_GAMES = 2;

/** How a table plays, in the order the home screen names the games that have tables. */
const TOGETHER = ['realTime', 'race', 'turns'];

/**
 * `A, B, C or D`.
 * @param {string[]} words
 */
function either(words) {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/**
 * The address of a new game of `info`, with the default of its menu's option (the menu is
 * skipped), and more parameters.
 * @param {GameInfo} info
 * @param {string} more  e.g. `&today`
 */
function newGameAddress(info, more) {
  const menu = optionsAt(info, 'menu').map((option) => `&${encodeURIComponent(option.name)}=${encodeURIComponent(String(option.default))}`);
  return `/?game=${encodeURIComponent(info.name)}${menu.join('')}${more}`;
}

/**
 * Draws the home screen into `main`.
 * @param {{main: HTMLElement, conn: import('./connection.js').Connection}} ctx
 * @returns {() => void} loads Your games and the open tables again (after a reconnect)
 */
export function renderHome({ main, conn }) {
  const offered = catalogGames();
  const tiles = offered.map((info) => el('li', {},
    el('a.game-tile', { href: `/?game=${encodeURIComponent(info.name)}`, dataset: { nav: '' } },
      el('span.tile-card', { 'aria-hidden': 'true' }, cardFaceSVG(info.face)),
      el('span.tile-text', {}, el('strong', { text: info.title }), el('span', { text: info.blurb }))),
    tileHelpButton(info)));
  const root = el('section.home', { 'aria-labelledby': 'page-title' });
  main.replaceChildren(root);
  const choice = el('section.game-choice', { 'aria-labelledby': 'games-title' },
    el('h2', { id: 'games-title', text: 'Games' }), el('ul.game-list', {}, ...tiles));
  const atTables = TOGETHER.flatMap((together) => offered.filter((info) => info.together === together)).map((info) => info.title);
  const list = el('ul.room-list', { id: 'your-games-list' });
  let showingAll = false;
  const showAll = /** @type {HTMLButtonElement} */ (el('button.btn.ghost.show-all-games', {
    type: 'button', hidden: true, 'aria-expanded': 'false', 'aria-controls': 'your-games-list',
    onclick: () => { showingAll = !showingAll; shorten(); },
  }));
  const games = el('section.your-games', { hidden: true, 'aria-labelledby': 'your-games-title' },
    el('h2', { id: 'your-games-title', text: 'Your games' }), list, showAll);
  const links = el('p.home-links', {}, el('a.btn', { href: '/scores', dataset: { nav: '' }, text: 'Scores and statistics' }));
  const openTables = el('section.open-tables', { 'aria-labelledby': 'open-tables-title' });
  const together = el('section.play-together', { 'aria-labelledby': 'together-title' },
    el('h2', { id: 'together-title', text: 'Play together' }),
    el('p', {}, el('a.btn.primary.join-link', { href: '/?join', dataset: { nav: '' }, text: 'Join a table' }),
      el('span.note.together-note', { text: ` Host a table with “Play with friends” on the screen of ${either(atTables)}.` })));

  const input = /** @type {HTMLInputElement} */ (el('input.name-input', {
    id: 'player-name', name: 'name', type: 'text', maxlength: 24, autocomplete: 'nickname', 'aria-describedby': 'name-note',
  }));
  const note = el('p.note.name-note', { id: 'name-note', role: 'status', text: 'Shown with your scores.' });
  const form = el('form.name-form', { 'aria-labelledby': 'name-title' },
    el('h2', { id: 'name-title', text: 'Your name' }),
    el('div.name-row', {}, el('label', { for: 'player-name', text: 'Name' }), input,
      el('button.btn.primary', { type: 'submit', text: 'Save name' })),
    note);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      setText(note, 'A name needs at least one letter or digit.');
      return;
    }
    const failed = await player.saveSettings({ name }, conn);
    setText(note, failed ? `Not saved: ${failed}` : 'Saved.');
    if (!failed) announce(`Name saved: ${name}`);
  });
  const today = el('section.todays-deal', { 'aria-labelledby': 'today-title' },
    el('h2', { id: 'today-title', text: 'Today’s deal' }),
    el('p.note', { text: 'The same cards for everyone today (UTC), to compare scores with friends. Practice: it stays out of the high scores.' }),
    el('p.today-links', {}, ...offered.map((info) =>
      el('a.btn', { href: newGameAddress(info, '&today'), dataset: { nav: '' }, text: info.title, 'aria-label': `Today’s ${info.title}` }))));
  root.append(games, together, choice, openTables, today, links, form, transferSection({ conn }));
  const loadTables = renderOpenTables({ root: openTables, conn });
  player.ready.then(() => {
    if (!input.isConnected || document.activeElement === input) return;
    input.value = player.currentSettings().name ?? '';
  });

  /** @param {RoomSummary} room */
  function item(room) {
    const gameTitle = titleOf(room.game);
    const options = describeOptions(room.options);
    const abandon = /** @type {HTMLButtonElement} */ (el('button.btn.ghost.abandon', {
      type: 'button', text: 'Abandon', 'aria-label': `Abandon ${gameTitle}${options ? ` (${options})` : ''}`,
    }));
    const li = el('li.room-item', { dataset: { room: room.room } },
      el('span.room-game', {}, el('strong', { text: gameTitle }), options ? el('span.room-options', { text: options }) : null),
      el('span.room-moves', { text: `Moves: ${room.version}` }),
      el('span.room-when', { text: `Last played ${timeAgo(room.updated)}`, title: new Date(room.updated).toLocaleString() }),
      el('span.room-actions', {},
        el('a.btn.primary.resume', { href: `/play/${encodeURIComponent(room.room)}`, dataset: { nav: '' }, text: 'Resume',
          'aria-label': `Resume ${gameTitle}${options ? ` (${options})` : ''}` }),
        abandon));
    abandon.addEventListener('click', async () => {
      abandon.disabled = true;
      // NB: `abandon` acts on the connection's room: open it, abandon it, leave it.
      const opened = await conn.request({ cmd: 'open', room: room.room });
      const done = opened?.type === 'error' ? opened : await Promise.race([conn.request({ cmd: 'abandon' }), closedMessage(conn, room.room)]);
      conn.send({ cmd: 'leave' });
      if (done?.type === 'error' && done.error.code !== 'no-such-room' && done.error.code !== 'room-closed') {
        abandon.disabled = false;
        announce(`Not abandoned: ${done.error.message}`);
        return;
      }
      if (done === null) {
        abandon.disabled = false;
        announce('The connection was lost. Try again.');
        return;
      }
      li.remove();
      games.hidden = list.childElementCount === 0;
      shorten();
      announce(`${gameTitle} abandoned.`);
      (/** @type {HTMLElement|null} */ (list.querySelector('a.resume')) ?? together.querySelector('a'))?.focus();
    });
    return li;
  }

  /** Shows the newest of Your games only, unless Show all was pressed. */
  function shorten() {
    const items = /** @type {HTMLElement[]} */ ([...list.children]);
    items.forEach((li, index) => { li.hidden = !showingAll && index >= FIRST_GAMES; });
    showAll.hidden = items.length <= FIRST_GAMES;
    showAll.setAttribute('aria-expanded', String(showingAll));
    setText(showAll, showingAll ? 'Show fewer' : `Show all ${items.length}`);
  }

  async function load() {
    const reply = await conn.request({ cmd: 'rooms' });
    if (!games.isConnected || reply?.type !== 'answer') return;
    const rooms = reply.rooms ?? [];
    list.replaceChildren(...rooms.map(item));
    shorten();
    games.hidden = rooms.length === 0;
    games.dataset.loaded = 'true';
  }
  load();
  return () => { load(); loadTables(); };
}
