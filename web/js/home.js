// @ts-check
/**
 * The home screen below the game tiles: Play together (Join a table, the open public tables),
 * Your games (this player's unfinished rooms, to resume or abandon), a link to the scores, and
 * Your name.
 * @module home
 */
import { el, setText } from './dom.js';
import { announce } from './a11y.js';
import { GAMES, describeOptions } from './catalog.js';
import * as player from './player.js';
import { renderOpenTables } from './table.js';

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

/**
 * Adds Your games, Scores and Your name to the home screen.
 * @param {{root: HTMLElement, conn: import('./connection.js').Connection}} ctx
 * @returns {() => void} loads Your games again (after a reconnect)
 */
export function renderHome({ root, conn }) {
  const list = el('ul.room-list');
  const games = el('section.your-games', { hidden: true, 'aria-labelledby': 'your-games-title' },
    el('h2', { id: 'your-games-title', text: 'Your games' }), list);
  const links = el('p.home-links', {}, el('a.btn', { href: '/scores', dataset: { nav: '' }, text: 'Scores and statistics' }));
  const openTables = el('div.open-tables', { 'aria-labelledby': 'open-tables-title' });
  const together = el('section.play-together', { 'aria-labelledby': 'together-title' },
    el('h2', { id: 'together-title', text: 'Play together' }),
    el('p', {}, el('a.btn.primary.join-link', { href: '/?join', dataset: { nav: '' }, text: 'Join a table' }),
      el('span.note.together-note', { text: ' Host a table with “Play with friends” on the screen of Snap!, Set, Memory or Concentration.' })),
    openTables);

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
  const titles = { memory: 'Memory', concentration: 'Concentration', matchismo: 'Matchismo', set: 'Set', snap: 'Snap!' };
  const today = el('section.todays-deal', { 'aria-labelledby': 'today-title' },
    el('h2', { id: 'today-title', text: 'Today’s deal' }),
    el('p.note', { text: 'The same cards for everyone today (UTC), to compare scores with friends. Practice: it stays out of the high scores.' }),
    el('p.today-links', {}, ...Object.entries(titles).map(([game, title]) =>
      el('a.btn', { href: `/?game=${game}${game === 'memory' ? '&difficulty=easy' : ''}&today`, dataset: { nav: '' }, text: title, 'aria-label': `Today’s ${title}` }))));
  root.append(together, today, games, links, form);
  const loadTables = renderOpenTables({ root: openTables, conn });
  player.ready.then(() => {
    if (!input.isConnected || document.activeElement === input) return;
    input.value = player.currentSettings().name ?? '';
  });

  /** @param {RoomSummary} room */
  function item(room) {
    const info = GAMES[room.game];
    const gameTitle = info?.title ?? room.game;
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
      announce(`${gameTitle} abandoned.`);
      (/** @type {HTMLElement|null} */ (list.querySelector('a.resume')) ?? links.querySelector('a'))?.focus();
    });
    return li;
  }

  async function load() {
    const reply = await conn.request({ cmd: 'rooms' });
    if (!games.isConnected || reply?.type !== 'answer') return;
    const rooms = reply.rooms ?? [];
    list.replaceChildren(...rooms.map(item));
    games.hidden = rooms.length === 0;
    games.dataset.loaded = 'true';
  }
  load();
  return () => { load(); loadTables(); };
}
