// @ts-check
/**
 * CardTable's page: the home screen, Memory's menu, and routing by URL parameters.
 *
 *   ?game=memory                       Memory's menu (EASY / MEDIUM / HARD)
 *   ?game=memory&difficulty=easy&seed=42   a Memory game, dealt from seed 42
 *   ?game=concentration|matchismo|set|snap[&seed=N]
 *   (no game)                          the home screen
 *
 * For tests, `window.cardtable` is a read-only view of what the page received:
 *   `version`, `lastView`, `game`, `seed`  the latest update of the game on screen;
 *   `lastRequest`  the id of the newest request the page sent (0 before the first);
 *   `replied(id)`  whether the reply to request `id` — the update, answer or error carrying
 *                  `reply: id` — has arrived and the page has handled it;
 *   `reply(id)`    that reply (null until then; the newest 100 replies are kept).
 * @module app
 */
import { Connection } from './connection.js';
import { el, setText } from './dom.js';
import { cardFaceSVG } from './cards.js';

/** @typedef {import('./protocol.js').AnyUpdate} AnyUpdate */
/** @typedef {import('./protocol.js').Answer|import('./protocol.js').ErrorMessage} Reply */
/**
 * @typedef {object} GameInfo
 * @property {string} title
 * @property {() => Promise<{mount: (ctx: import('./protocol.js').GameContext) => import('./protocol.js').GameScreen<AnyUpdate>}>} load
 * @property {string} blurb
 * @property {string} face  the card on its home-screen tile
 */

/**
 * Game modules, loaded on demand.
 * @type {Record<string, GameInfo>}
 */
const GAMES = {
  memory: { title: 'Memory', load: () => import('./games/memory.js'), blurb: 'Find the pairs: three sizes of table.', face: 'K♥' },
  concentration: { title: 'Concentration', load: () => import('./games/concentration.js'), blurb: 'All 52 cards, tilted on the table. Match ranks.', face: 'Q♠' },
  matchismo: { title: 'Matchismo', load: () => import('./games/matchismo.js'), blurb: 'Match suits and ranks for points, 2 or 3 at a time.', face: 'A♥' },
  set: { title: 'Set', load: () => import('./games/set.js'), blurb: 'Find three cards that are all same or all different.', face: 'squiggle:purple:striped:2' },
  snap: { title: 'Snap!', load: () => import('./games/snap.js'), blurb: 'Turn cards with Ray, Lucy and Steve; shout Snap! first.', face: 'J♣' },
};

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const toolbar = /** @type {HTMLElement} */ (document.getElementById('toolbar-end'));
const title = /** @type {HTMLElement} */ (document.getElementById('page-title'));
const banner = /** @type {HTMLElement} */ (document.getElementById('connection-banner'));

/** @type {{version: number, lastView: import('./protocol.js').GameView|null, game: string|null, seed: number|null}} */
const latest = { version: -1, lastView: null, game: null, seed: null };
/**
 * The replies handled so far by request id, newest last.
 * @type {Map<import('./protocol.js').RequestId, AnyUpdate|Reply>}
 */
const replies = new Map();
const KEPT_REPLIES = 100;
Object.defineProperty(window, 'cardtable', {
  value: Object.freeze({
    get version() { return latest.version; },
    get lastView() { return latest.lastView; },
    get game() { return latest.game; },
    get seed() { return latest.seed; },
    get lastRequest() { return conn?.lastId ?? 0; },
    /** @param {import('./protocol.js').RequestId} id */
    replied(id) { return replies.has(id); },
    /** @param {import('./protocol.js').RequestId} id */
    reply(id) { return replies.get(id) ?? null; },
  }),
});

/** @type {Connection|null} */
let conn = null;
/**
 * The mounted game's screen, if any.
 * @type {import('./protocol.js').GameScreen<AnyUpdate>|null}
 */
let current = null;
/** @type {string|null} */
let currentGame = null;
let routeToken = 0;

/** @returns {Connection} the page's one connection, opened on first use. */
function connection() {
  if (conn) return conn;
  conn = new Connection();
  conn.addEventListener('update', (event) => {
    const message = /** @type {CustomEvent<AnyUpdate>} */ (event).detail;
    if (message.game !== currentGame) return;
    latest.version = message.version;
    latest.lastView = message.view;
    latest.game = message.game;
    latest.seed = message.seed;
    current?.update?.(message);
  });
  conn.addEventListener('answer', (event) => current?.answer?.(/** @type {CustomEvent<import('./protocol.js').Answer>} */ (event).detail));
  conn.addEventListener('error', (event) => {
    const message = /** @type {CustomEvent<import('./protocol.js').ErrorMessage>} */ (event).detail;
    console.info('CardTable server refused:', message?.error);
    current?.error?.(message);
  });
  // NB: added after the listeners above, so it runs after them: a reply counts as handled
  // once the screen has drawn it.
  for (const type of ['update', 'answer', 'error']) {
    conn.addEventListener(type, (event) => {
      const message = /** @type {CustomEvent<AnyUpdate|Reply>} */ (event).detail;
      if (message.reply === undefined) return;
      replies.set(message.reply, message);
      if (replies.size > KEPT_REPLIES) replies.delete(replies.keys().next().value);
    });
  }
  conn.addEventListener('close', () => {
    banner.hidden = false;
    setText(banner, 'Connection lost — reconnecting…');
  });
  const opened = () => { banner.hidden = true; };
  conn.addEventListener('open', opened);
  conn.addEventListener('reopen', () => { opened(); current?.reopen?.(); });
  conn.connect();
  return conn;
}

/**
 * Goes to a URL of this page without reloading.
 * @param {string} search  e.g. `?game=memory`
 */
export function navigate(search) {
  history.pushState(null, '', search || location.pathname);
  route();
}

/** Draws the screen the URL asks for. */
async function route() {
  const token = ++routeToken;
  current?.destroy?.();
  current = null;
  currentGame = null;
  latest.version = -1;
  latest.lastView = null;
  toolbar.replaceChildren();
  document.body.dataset.screen = '';
  const params = new URLSearchParams(location.search);
  const game = params.get('game');
  const info = game && GAMES[game];
  if (!info) return home();
  if (game === 'memory' && !['easy', 'medium', 'hard'].includes(params.get('difficulty') ?? '')) return memoryMenu();
  document.body.dataset.screen = game;
  setTitle(info.title);
  main.replaceChildren(el('p.loading', { text: 'Shuffling…' }));
  const module = await info.load();
  if (token !== routeToken) return;
  main.replaceChildren();
  currentGame = game;
  current = module.mount({ root: main, toolbar, conn: connection(), params, navigate, setTitle });
}

/** @param {string} text */
function setTitle(text) {
  setText(title, text);
  document.title = text === 'Pick a game' ? 'CardTable' : `${text} — CardTable`;
}

/** The home screen: one tile per game. */
function home() {
  document.body.dataset.screen = 'home';
  setTitle('Pick a game');
  const tiles = Object.entries(GAMES).map(([name, info]) => el('li', {},
    el('a.game-tile', { href: `?game=${name}`, dataset: { nav: '' } },
      el('span.tile-card', { 'aria-hidden': 'true' }, cardFaceSVG(info.face)),
      el('span.tile-text', {}, el('strong', { text: info.title }), el('span', { text: info.blurb })))));
  main.replaceChildren(el('section.home', { 'aria-labelledby': 'page-title' }, el('ul.game-list', {}, ...tiles)));
}

/** Memory's menu: the original's three flat buttons on a green-sea table. */
function memoryMenu() {
  document.body.dataset.screen = 'memory-menu';
  setTitle('Memory');
  const seed = new URLSearchParams(location.search).get('seed');
  const button = (/** @type {string} */ level, /** @type {string} */ label) => el(`a.menu-button.${level}`, {
    href: `?game=memory&difficulty=${level}${seed ? `&seed=${encodeURIComponent(seed)}` : ''}`, dataset: { nav: '' }, role: 'button', text: label,
  });
  main.replaceChildren(el('section.memory-menu', { 'aria-label': 'Choose a difficulty' },
    button('easy', 'EASY'), button('medium', 'MEDIUM'), button('hard', 'HARD')));
  main.querySelector('a')?.focus();
}

// Links marked data-nav route inside the page.
document.addEventListener('click', (event) => {
  const link = /** @type {HTMLElement} */ (event.target)?.closest?.('a[data-nav]');
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  const href = link.getAttribute('href') ?? '';
  navigate(href === './' ? '' : href);
});
document.addEventListener('keydown', (event) => {
  // Space activates the menu links that act as buttons.
  const link = /** @type {HTMLElement} */ (event.target);
  if (event.key === ' ' && link?.matches?.('a[role="button"]')) { event.preventDefault(); link.click(); }
});
window.addEventListener('popstate', route);
route();
