// @ts-check
/**
 * The scores screen (`/scores`): the high scores of one game (RULES §1.5), sorted by the
 * server by date, score or duration, with the lowest and highest score and the shortest and
 * longest duration marked; below, the statistics per game and setting.
 * The page ranks nothing itself: it shows the server's order and marks.
 * @module scores
 */
import { el, setText } from './dom.js';
import { announce } from './a11y.js';
import { describeOptions, games, titleOf } from './catalog.js';

/** @typedef {import('./protocol.js').ScoreEntry} ScoreEntry */
/** @typedef {import('./protocol.js').StatsEntry} StatsEntry */
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

  const statsBody = el('tbody');
  const statsTable = el('table.stats-table', { hidden: true },
    el('caption', { text: 'Per game and setting. Practice games and replays do not count.' }),
    el('thead', {}, el('tr', {}, ...['Game', 'Setting', 'Played', 'Won', 'Best score', 'Best time', 'Streak', 'Best streak']
      .map((text) => el('th', { scope: 'col', text })))),
    statsBody);
  const statsEmpty = el('p.empty', { hidden: true, text: 'No finished games yet.' });

  root.replaceChildren(el('section.scores-screen', {},
    el('section.high-scores', { 'aria-labelledby': 'scores-title' },
      el('h2', { id: 'scores-title', text: 'High scores' }),
      el('div.score-controls', {},
        el('label.control', { for: 'score-game' }, el('span', { text: 'Game' }), select),
        el('div.sort-group', { role: 'group', 'aria-label': 'Sort by' }, el('span.group-label', { 'aria-hidden': 'true', text: 'Sort by' }), ...sortButtons)),
      summary, list, empty),
    el('section.statistics', { 'aria-labelledby': 'stats-title' },
      el('h2', { id: 'stats-title', text: 'Statistics' }), statsTable, statsEmpty),
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
    if (!statsBody.isConnected || reply?.type !== 'answer') return;
    const stats = reply.stats ?? [];
    statsBody.replaceChildren(...stats.map((row) => el('tr', {},
      el('th', { scope: 'row', text: titleOf(row.game) }),
      el('td', { text: describeOptions(row.options) || '—' }),
      el('td', { text: String(row.played) }),
      el('td', { text: String(row.won) }),
      el('td', { text: row.bestScore === null || row.bestScore === undefined ? '—' : String(row.bestScore) }),
      el('td', { text: row.bestTime === null || row.bestTime === undefined ? '—' : `${Math.round(row.bestTime)}s` }),
      el('td', { text: String(row.streak) }),
      el('td', { text: String(row.bestStreak) }))));
    statsTable.hidden = stats.length === 0;
    statsEmpty.hidden = stats.length > 0;
    statsTable.dataset.loaded = 'true';
  }

  const load = () => { loadScores(); loadStats(); };
  load();
  return load;
}
