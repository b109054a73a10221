// @ts-check
/**
 * A player's page (`/players/ID`, docs/RATINGS.md): their name, ratings, statistics and latest
 * games, each with its replay (`/play/ROOM`). The server shows a page to others only when its
 * player lets them (the `profile` setting, on the Scores page); for a page not shown, as for
 * an id it does not know, it answers `no-such-player`, and the page says there is none here.
 * The ratings and statistics are drawn as the Scores page draws them (scores.js).
 * @module players
 */
import { el, setText } from './dom.js';
import { describeOptions, titleOf } from './catalog.js';
import { ratingsTable, recordsTable, statsTable } from './scores.js';

/** @typedef {import('./protocol.js').Answer} Answer */
/** @typedef {import('./protocol.js').RecentGame} RecentGame */

/** What the page says for `no-such-player`. */
const NO_PAGE = 'There is no player\'s page at this link.';

/**
 * Draws the page of the player `player` names into `root`.
 * @param {{root: HTMLElement, conn: import('./connection.js').Connection, player: string}} ctx
 * @returns {() => void} loads the page again (after a reconnect)
 */
export function renderPlayer({ root, conn, player }) {
  const status = el('p.loading', { role: 'status', text: 'Loading the player’s page…' });
  const screen = el('section.scores-screen.player-screen', { 'aria-busy': 'true' }, status);
  root.replaceChildren(screen);
  let asked = 0;

  async function load() {
    const ask = ++asked;
    const reply = await conn.request({ cmd: 'profile', player });
    if (ask !== asked || !screen.isConnected) return;
    if (reply === null) {
      setText(status, 'The connection was lost: the page loads once it is back.');
      return;
    }
    if (reply.type === 'error') {
      if (reply.error.code === 'no-such-player') missing();
      else setText(status, `The player’s page could not be read: ${reply.error.message}`);
      return;
    }
    if (reply.type === 'answer') show(reply);
  }

  /** No page at this link (an unknown id, or a page its player does not show). */
  function missing() {
    screen.setAttribute('aria-busy', 'false');
    screen.replaceChildren(el('section.no-room.no-player', { 'aria-labelledby': 'no-player-title' },
      el('h2', { id: 'no-player-title', text: NO_PAGE }),
      el('p', { text: 'The link may be mistyped, or its player keeps their page to themselves.' }),
      el('a.btn.primary', { href: '/', dataset: { nav: '' }, text: 'Back to the games' })));
  }

  /** @param {Answer} page  the `profile` answer */
  function show(page) {
    const ratings = ratingsTable();
    ratings.fill(page.ratings ?? []);
    const stats = statsTable();
    stats.fill(page.stats ?? []);
    const recent = recentTable();
    recent.fill(page.recent ?? []);
    const own = page.you
      ? el('p.note.own-page-note', {},
        page.public
          ? 'This is your page. Others can see it: share its link. '
          : 'This is your page. Only you can see it: others who open its link are told there is none. ',
        el('a', { href: '/scores', dataset: { nav: '' }, text: 'Choose who sees it on the Scores page' }), '.')
      : null;
    screen.setAttribute('aria-busy', 'false');
    screen.replaceChildren(
      el('header.player-header', {},
        el('h2.player-name', { id: 'player-name', text: page.name ?? 'A player without a name' }), own),
      el('section.ratings', { 'aria-labelledby': 'player-ratings-title' },
        el('h3', { id: 'player-ratings-title', text: 'Ratings' }), ...ratings.nodes),
      el('section.statistics', { 'aria-labelledby': 'player-stats-title' },
        el('h3', { id: 'player-stats-title', text: 'Statistics' }), ...stats.nodes),
      el('section.recent-games', { 'aria-labelledby': 'player-recent-title' },
        el('h3', { id: 'player-recent-title', text: 'Recent games' }), ...recent.nodes),
      el('p.home-links', {}, el('a.btn', { href: '/', dataset: { nav: '' }, text: 'Back to the games' })));
  }

  load();
  return load;
}

/**
 * The latest games that count, newest first, each with its replay.
 * @returns {{nodes: HTMLElement[], fill: (games: RecentGame[]) => void}}
 */
function recentTable() {
  return recordsTable({
    className: 'recent-table',
    caption: 'The latest games that count, newest first; Replay opens the game as it ended.',
    columns: ['Game', 'Setting', 'Ended', 'Result', 'Score', 'Replay'],
    empty: 'No finished games yet.',
    /** @param {RecentGame} game */
    row: (game) => {
      const title = titleOf(game.game);
      const ended = new Date(game.end).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
      return [
        title,
        describeOptions(game.options) || '—',
        ended,
        game.won ? 'Won' : 'Lost',
        game.score === null || game.score === undefined ? '—' : String(game.score),
        el('a.replay-link', { href: `/play/${encodeURIComponent(game.room)}`, dataset: { nav: '' } },
          'Replay', el('span.visually-hidden', { text: ` ${title}, ${ended}` })),
      ];
    },
  });
}
