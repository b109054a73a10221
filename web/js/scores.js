// @ts-check
/**
 * The scores screen (`/scores`): the high scores of one game (RULES §1.5), sorted by the
 * server by date, score or duration, with the lowest and highest score and the shortest and
 * longest duration marked; below, the player's ratings (docs/RATINGS.md) and statistics per
 * game and setting, and the player's own page (`/players/ID`, players.js): its link, and
 * whether others may see it (the `profile` setting).
 * The page ranks nothing itself: it shows the server's order and marks.
 * The ratings and statistics tables are drawn here for the players' pages too.
 * @module scores
 */
import { el, setText } from './dom.js';
import { announce } from './a11y.js';
import * as player from './player.js';
import { describeOptions, games, titleOf } from './catalog.js';

/** @typedef {import('./protocol.js').ScoreEntry} ScoreEntry */
/** @typedef {import('./protocol.js').StatsEntry} StatsEntry */
/** @typedef {import('./protocol.js').RatingEntry} RatingEntry */
/** @typedef {import('./protocol.js').ScoreSort} ScoreSort */
/** @typedef {import('./protocol.js').GameName} GameName */

/** @type {[ScoreSort, string][]} */
const SORTS = [['date', 'Date'], ['score', 'Score'], ['duration', 'Duration']];
/** @type {Record<string, string>} */
const MARKS = { lowest: 'lowest score', highest: 'highest score', shortest: 'shortest game', longest: 'longest game' };

/**
 * One high score as RULES §1.5 writes it: `<type>: <score>, (<end date/time>, <duration>s)`.
 * @param {ScoreEntry} entry
 */
export function scoreText(entry) {
  const type = titleOf(entry.game);
  const score = entry.score === null || entry.score === undefined ? '–' : String(entry.score);
  return `${type}: ${score}, (${new Date(entry.end).toLocaleString()}, ${Math.round(entry.duration)}s)`;
}

/** What the `?` after a provisional rating means (its tooltip, and what a screen reader says). */
export const PROVISIONAL = 'provisional: fewer than 10 rated games';

/**
 * A rating as the seats and tables show it: `1520`, and `?` after it while it is provisional.
 * @param {number} rating
 * @param {boolean|undefined} provisional
 * @returns {(Node|string)[]}
 */
export function ratingNodes(rating, provisional) {
  return [String(rating), provisional
    ? el('span.provisional', { role: 'img', 'aria-label': PROVISIONAL, title: PROVISIONAL, text: '?' })
    : ''];
}

/**
 * A table of records with its caption and column heads, and the text it shows instead while
 * it has no row; `fill` draws the rows. The table's first column heads each row.
 * @template T
 * @param {{className: string, caption: string, columns: string[], empty: string,
 *   row: (entry: T) => (Node|string)[]}} spec  `row` gives the cells of one entry, the first
 *   the row's head
 * @returns {{nodes: HTMLElement[], fill: (entries: T[]) => void}}
 */
export function recordsTable({ className, caption, columns, empty, row }) {
  const body = el('tbody');
  const table = el(`table.records-table.${className}`, { hidden: true },
    el('caption', { text: caption }),
    el('thead', {}, el('tr', {}, ...columns.map((text) => el('th', { scope: 'col', text })))),
    body);
  const none = el(`p.empty.${className}-empty`, { hidden: true, text: empty });
  return {
    /** @type {HTMLElement[]} the table and its empty-state text, to place together */
    nodes: [table, none],
    /** @param {T[]} entries */
    fill(entries) {
      body.replaceChildren(...entries.map((entry) => {
        const [head, ...cells] = row(entry);
        return el('tr', {}, el('th', { scope: 'row' }, head), ...cells.map((cell) => el('td', {}, cell)));
      }));
      table.hidden = entries.length === 0;
      none.hidden = entries.length > 0;
      table.dataset.loaded = 'true';
    },
  };
}

/**
 * The statistics per game and setting (`stats`, and a player's page).
 * @returns {{nodes: HTMLElement[], fill: (rows: StatsEntry[]) => void}}
 */
export function statsTable() {
  return recordsTable({
    className: 'stats-table',
    caption: 'Per game and setting. Practice games and replays do not count.',
    columns: ['Game', 'Setting', 'Played', 'Won', 'Best score', 'Best time', 'Streak', 'Best streak'],
    empty: 'No finished games yet.',
    /** @param {StatsEntry} row */
    row: (row) => [
      titleOf(row.game),
      describeOptions(row.options) || '—',
      String(row.played),
      String(row.won),
      row.bestScore === null || row.bestScore === undefined ? '—' : String(row.bestScore),
      row.bestTime === null || row.bestTime === undefined ? '—' : `${Math.round(row.bestTime)}s`,
      String(row.streak),
      String(row.bestStreak),
    ],
  });
}

/**
 * The ratings per game and mode (`stats`' `ratings`, and a player's page), most recently
 * played first as the server lists them.
 * @returns {{nodes: HTMLElement[], fill: (rows: RatingEntry[]) => void}}
 */
export function ratingsTable() {
  return recordsTable({
    className: 'ratings-table',
    caption: 'Per game and mode, from finished table games between people; everyone starts at 1500. ? marks a provisional rating (fewer than 10 rated games).',
    columns: ['Game', 'Mode', 'Rating', 'Rated games'],
    empty: 'No rated games yet: ratings come from finished table games between people.',
    /** @param {RatingEntry} row */
    row: (row) => [
      titleOf(row.game),
      describeOptions(row.options) || '—',
      el('span.rating', {}, ...ratingNodes(row.rating, row.provisional)),
      String(row.games),
    ],
  });
}

/**
 * Draws the scores screen into `root`.
 * @param {{root: HTMLElement, conn: import('./connection.js').Connection}} ctx
 * @returns {() => void} loads the scores and statistics again (after a reconnect)
 */
export function renderScores({ root, conn }) {
  /** @type {GameName} the catalog's first game, to begin with */
  let game = games()[0]?.name ?? '';
  /** @type {ScoreSort} */
  let sort = 'date';
  let asked = 0;

  const select = /** @type {HTMLSelectElement} */ (el('select.btn', { id: 'score-game' },
    ...games().map((info) => el('option', { value: info.name, text: info.title }))));
  select.addEventListener('change', () => { game = select.value; loadScores(); });
  const sortButtons = SORTS.map(([value, label]) => {
    const button = el('button.btn.sort', { type: 'button', text: label, 'aria-pressed': String(value === sort), dataset: { sort: value } });
    button.addEventListener('click', () => { sort = value; loadScores(); });
    return button;
  });
  const list = el('ol.score-list', { 'aria-labelledby': 'scores-title', 'aria-busy': 'true' });
  const empty = el('p.empty', { hidden: true, text: 'No finished games yet.' });
  const summary = el('p.score-summary', { role: 'status' });

  const stats = statsTable();
  const ratings = ratingsTable();

  // ----- the player's own page: its link, and whether others may see it -----
  const shown = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', id: 'profile-public', disabled: true, 'aria-describedby': 'profile-note' }));
  const pageLink = /** @type {HTMLAnchorElement} */ (el('a.btn.profile-link', { hidden: true, dataset: { nav: '' }, text: 'Your player’s page' }));
  const pageNote = el('p.form-note.profile-note', { id: 'profile-note', role: 'status' });
  shown.addEventListener('change', async () => {
    const wanted = shown.checked;
    shown.disabled = true;
    setText(pageNote, 'Saving…');
    const failed = await player.saveSettings({ profile: wanted }, conn);
    if (!shown.isConnected) return;
    shown.disabled = false;
    if (failed) {
      shown.checked = !wanted;
      setText(pageNote, `Not saved: ${failed}`);
      return;
    }
    setText(pageNote, profileNote(wanted));
  });

  root.replaceChildren(el('section.scores-screen', {},
    el('section.high-scores', { 'aria-labelledby': 'scores-title' },
      el('h2', { id: 'scores-title', text: 'High scores' }),
      el('div.score-controls', {},
        el('label.control', { for: 'score-game' }, el('span', { text: 'Game' }), select),
        el('div.sort-group', { role: 'group', 'aria-label': 'Sort by' }, el('span.group-label', { 'aria-hidden': 'true', text: 'Sort by' }), ...sortButtons)),
      summary, list, empty),
    el('section.ratings', { 'aria-labelledby': 'ratings-title' },
      el('h2', { id: 'ratings-title', text: 'Ratings' }), ...ratings.nodes),
    el('section.statistics', { 'aria-labelledby': 'stats-title' },
      el('h2', { id: 'stats-title', text: 'Statistics' }), ...stats.nodes),
    el('section.own-page', { 'aria-labelledby': 'own-page-title' },
      el('h2', { id: 'own-page-title', text: 'Your player’s page' }),
      el('p', { text: 'Your page shows your name, ratings, statistics and latest games. You can always see it; others only once you let them.' }),
      el('div.form-row', {}, el('label.toggle', { for: 'profile-public' }, shown, el('span', { text: 'Let others see my page' }))),
      pageNote,
      el('p.home-links', {}, pageLink)),
    el('p.home-links', {}, el('a.btn', { href: '/', dataset: { nav: '' }, text: 'Back to the games' }))));

  async function loadScores() {
    const ask = ++asked;
    for (const button of sortButtons) button.setAttribute('aria-pressed', String(button.dataset.sort === sort));
    list.setAttribute('aria-busy', 'true');
    const reply = await conn.request({ cmd: 'scores', game, sort });
    if (ask !== asked || !list.isConnected) return;
    if (reply?.type !== 'answer') {
      setText(summary, reply?.type === 'error' ? `The scores could not be read: ${reply.error.message}` : 'The connection was lost.');
      return;
    }
    const scores = reply.scores ?? [];
    list.replaceChildren(...scores.map((entry) => {
      const marks = (entry.marks ?? []).filter((mark) => mark in MARKS);
      const options = describeOptions(entry.options);
      return el(`li.score-entry${marks.map((mark) => `.mark-${mark}`).join('')}`, {},
        el('span.score-text', { text: scoreText(entry) }),
        options ? el('span.score-options', { text: options }) : null,
        ...marks.map((mark) => el(`span.mark.mark-label-${mark}`, { text: MARKS[mark] })));
    }));
    empty.hidden = scores.length > 0;
    list.hidden = scores.length === 0;
    const sortName = SORTS.find(([value]) => value === sort)?.[1].toLowerCase() ?? sort;
    setText(summary, scores.length ? `${titleOf(game)}: ${scores.length} ${scores.length === 1 ? 'game' : 'games'}, by ${sortName}.` : '');
    list.dataset.game = game;
    list.dataset.sort = sort;
    list.setAttribute('aria-busy', 'false');
    if (scores.length) announce(`Sorted by ${sortName}.`);
  }

  async function loadStats() {
    const reply = await conn.request({ cmd: 'stats' });
    if (!list.isConnected || reply?.type !== 'answer') return;
    stats.fill(reply.stats ?? []);
    ratings.fill(reply.ratings ?? []);
  }

  async function loadProfile() {
    const reply = await conn.request({ cmd: 'profile' });
    if (!list.isConnected) return;
    if (reply?.type !== 'answer' || !reply.player) {
      setText(pageNote, reply?.type === 'error' ? `Your page could not be read: ${reply.error.message}` : 'The connection was lost.');
      return;
    }
    pageLink.href = `/players/${encodeURIComponent(reply.player)}`;
    pageLink.hidden = false;
    shown.checked = !!reply.public;
    shown.disabled = false;
    setText(pageNote, profileNote(!!reply.public));
  }

  const load = () => { loadScores(); loadStats(); loadProfile(); };
  load();
  return load;
}

/**
 * Who may see the player's own page.
 * @param {boolean} shown  the `profile` setting
 */
function profileNote(shown) {
  return shown
    ? 'Others can see your page: share its link.'
    : 'Only you can see your page: others who open its link are told there is none.';
}
