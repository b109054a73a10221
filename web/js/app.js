// @ts-check
/**
 * CardTable's page: the connection, the player's identity, and the screen the address asks
 * for (route.js reads it):
 *
 *   /                                  the home screen: the games, Your games, Your name
 *   /?game=NAME                        a new game of that kind (`new`); for a game with an
 *                                      option placed `menu` (a table size, say), its menu first
 *   /?game=NAME&OPTION=VALUE&seed=42   a new game with those options, dealt from seed 42
 *   /play/ROOM                         that room (`open`): its player plays, anyone else watches;
 *                                      a table's room seats you while it is in its lobby
 *   /?game=NAME&table=host             the host form of a table of that game (one with tables)
 *   /?join[=CODE]                      the join form (a table's code), and the open tables
 *   /scores                            the high scores, ratings and statistics, and the
 *                                      player's own page's link
 *   /players/ID                        a player's page (players.js): shown to others only
 *                                      when its player lets them
 *
 * The games are the server's catalog (`welcome`, catalog.js) that have a screen in games/:
 * every screen that names games is drawn once the first catalog has come.
 *
 * A game started from `?game=…` takes its room's address (`/play/ROOM`, replacing the
 * `?game=…` one) as soon as the server has dealt it, so reload, Back and Forward, a bookmark
 * or a second tab return to the same game. On every connection the page says `hello` with
 * its token first; after a reconnect it opens the room on screen again — it never deals a new
 * game unasked.
 *
 * For tests, `window.cardtable` is a read-only view of what the page received:
 *   `version`, `lastView`, `game`, `seed`  the latest update of the game on screen;
 *   `room`, `role`  the room on screen and this page's role in it (`player`/`watcher`);
 *   `table`  the room's latest `table` message (null for a game of one's own);
 *   `lastRequest`  the id of the newest request the page sent (0 before the first), but for
 *                  the reads it makes by itself (a game's end asks for its `results`);
 *   `replied(id)`  whether the reply to request `id` — the update, answer or error carrying
 *                  `reply: id` — has arrived and the page has handled it;
 *   `reply(id)`    that reply (null until then; the newest 100 replies are kept);
 *   `send(message)`  sends a request on the page's connection; returns its id.
 * @module app
 */
import { Connection } from './connection.js';
import { el, setText } from './dom.js';
import * as player from './player.js';
import { catalogReady, games, hasCatalog, setCatalog } from './catalog.js';
import { parseRoute } from './route.js';
import { RoomScreen, announceRefusal } from './room.js';
import { renderHome } from './home.js';
import { renderMenu } from './menu.js';
import { renderScores } from './scores.js';
import { renderPlayer } from './players.js';
import { renderHostForm, renderJoinForm } from './table.js';
import { SCREENS } from './games/index.js';
import { setUpTheme } from './theme.js';
import { soundSwitch } from './sound.js';
import { sizeSwitch } from './size.js';
import { setUpTopBar } from './topbar.js';

/** @typedef {import('./protocol.js').ServerMessage} ServerMessage */
/** @typedef {import('./protocol.js').Request} Request */

/**
 * The screen on screen: a room (RoomScreen), or a page without one. Made for each address and
 * dropped whole (`dispose`) when the page goes elsewhere.
 * @typedef {object} Page
 * @property {(message: ServerMessage) => void} handle  takes every server message but `welcome` and `hello`
 * @property {boolean} [inRoom]  the address names a room (or a new game's): a reconnect continues it
 * @property {string|null} [reopen]  the room to open again after a reconnect
 * @property {boolean} [entering]  the host and join forms: the `joined` of a table makes its room the page
 * @property {number} [joinAsked]  the id of the form's `host` or `join` (a `joined` answering an earlier
 *   request, such as the `new` of the game screen just left, is not the table's)
 * @property {boolean} [seated]  leaving gives up a seat at a table in play
 * @property {() => Promise<boolean>} [confirmLeave]
 * @property {() => void} [refresh]  loads its lists again after a reconnect
 * @property {() => void} [dispose]
 */

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const toolbar = /** @type {HTMLElement} */ (document.getElementById('toolbar-end'));
const title = /** @type {HTMLElement} */ (document.getElementById('page-title'));
const banner = /** @type {HTMLElement} */ (document.getElementById('connection-banner'));
setUpTheme(/** @type {HTMLButtonElement|null} */ (document.getElementById('theme-switch')));

const conn = new Connection();
/** What finds the settings older pages kept, per game. */
const movers = Object.values(SCREENS).flatMap((module) => (module.movedSettings ? [module.movedSettings] : []));
/** @type {import('./room.js').PageContext} */
const ctx = { conn, main, toolbar, setTitle, navigate, screens: SCREENS };

/**
 * A page without a room: it only tells the refusals that concern the player.
 * @param {Omit<Page, 'handle'>} [more]
 * @returns {Page}
 */
function plainPage(more = {}) {
  return { handle: (message) => { if (message.type === 'error') announceRefusal(message, false); }, ...more };
}

/** @type {Page} the screen the address asks for */
let page = plainPage();

/**
 * The replies handled so far by request id, newest last.
 * @type {Map<import('./protocol.js').RequestId, ServerMessage>}
 */
const replies = new Map();
const KEPT_REPLIES = 100;
/** @returns {RoomScreen|null} */
const roomOnScreen = () => (page instanceof RoomScreen ? page : null);
Object.defineProperty(window, 'cardtable', {
  value: Object.freeze({
    get version() { return roomOnScreen()?.latest.version ?? -1; },
    get lastView() { return roomOnScreen()?.latest.lastView ?? null; },
    get game() { return roomOnScreen()?.latest.game ?? null; },
    get seed() { return roomOnScreen()?.latest.seed ?? null; },
    get today() { return roomOnScreen()?.today ?? null; },
    get room() { return roomOnScreen()?.room ?? null; },
    get role() { return roomOnScreen()?.role ?? null; },
    get table() { return roomOnScreen()?.table?.info ?? null; },
    get lastRequest() { return conn.lastAsked; },
    /** @param {import('./protocol.js').RequestId} id */
    replied(id) { return replies.has(id); },
    /** @param {import('./protocol.js').RequestId} id */
    reply(id) { return replies.get(id) ?? null; },
    /** @param {Request} message */
    send(message) { return conn.send(message); },
  }),
});

conn.greet = (/** @type {boolean} */ reopen) => {
  /** @type {Request[]} */
  const first = [player.hello()];
  // NB: after a drop the server has no room for this connection: open the one on screen
  // again (a join still waiting is sent again by the connection itself).
  const room = page.reopen;
  if (reopen && room && !conn.joining) first.push({ cmd: 'open', room });
  return first;
};
conn.addEventListener('message', (event) => {
  const message = /** @type {CustomEvent<ServerMessage>} */ (event).detail;
  handle(message);
  // NB: recorded after the screen has drawn it: a reply counts as handled once it shows.
  if ('reply' in message && message.reply !== undefined && message.type !== 'joined') {
    replies.set(message.reply, message);
    if (replies.size > KEPT_REPLIES) replies.delete(replies.keys().next().value);
  }
});
let bannerTimer = 0;
conn.addEventListener('close', () => {
  window.clearTimeout(bannerTimer);
  banner.hidden = false;
  setText(banner, 'Connection lost — reconnecting…');
});
conn.addEventListener('open', () => { banner.hidden = true; });
conn.addEventListener('reopen', () => {
  setText(banner, page.inRoom ? 'Reconnected — your game continues.' : 'Reconnected.');
  banner.hidden = false;
  window.clearTimeout(bannerTimer);
  bannerTimer = window.setTimeout(() => { banner.hidden = true; }, 4000);
  page.refresh?.();
});

/** @param {ServerMessage} message */
function handle(message) {
  switch (message.type) {
    case 'welcome':
      // NB: a game the server offers but this page has no screen for is not offered.
      setCatalog((message.catalog ?? []).filter((info) => Object.hasOwn(SCREENS, info.name)));
      return;
    case 'hello':
      player.helloAnswered(message, conn, movers);
      return;
    case 'error':
      console.info('CardTable server refused:', message.error);
      break;
    case 'joined':
      // The table hosted or joined: its room becomes the page (nothing to leave).
      if (page.entering && page.joinAsked === conn.answered && !conn.joining) show(new RoomScreen(ctx));
      break;
    default:
      break;
  }
  page.handle(message);
}

/**
 * Makes `next` the page, dropping the one before.
 * @template {Page} P
 * @param {P} next
 * @returns {P}
 */
function show(next) {
  const previous = page;
  page = next;
  previous.dispose?.();
  return next;
}

/**
 * Goes to an address of this page without reloading.
 * @param {string} url  e.g. `/?game=NAME`, `/scores`, `/play/ROOM`, `/players/ID`
 */
export function navigate(url) {
  history.pushState(null, '', url || '/');
  route();
}

/** Draws the screen the address asks for. */
async function route() {
  const waiting = show(plainPage());
  moreMenu.close();
  toolbar.replaceChildren();
  document.body.dataset.screen = '';
  // NB: a room's address needs no catalog before its `joined`, which comes after `welcome`.
  if (!hasCatalog() && !location.pathname.startsWith('/play/')) {
    main.replaceChildren(el('p.loading', { text: 'Connecting…' }));
    await catalogReady;
    if (page !== waiting) return;
  }
  const where = parseRoute(location, games());
  switch (where.kind) {
    case 'room':
      show(new RoomScreen(ctx)).open(where.room);
      return;
    case 'new':
      show(new RoomScreen(ctx)).deal(where.game, where.params);
      return;
    case 'scores':
      document.body.dataset.screen = 'scores';
      setTitle('Scores');
      show(plainPage({ refresh: renderScores({ root: main, conn }) }));
      return;
    case 'player':
      document.body.dataset.screen = 'player';
      setTitle('Player’s page');
      show(plainPage({ refresh: renderPlayer({ root: main, conn, player: where.player }) }));
      return;
    case 'join': {
      document.body.dataset.screen = 'join';
      setTitle('Join a table');
      const join = show(plainPage({ entering: true }));
      await player.ready;
      if (page !== join) return;
      join.refresh = renderJoinForm({ root: main, conn, code: where.code, join: (code) => enterTable(join, { cmd: 'join', code }) });
      return;
    }
    case 'host': {
      document.body.dataset.screen = 'host';
      setTitle(`${where.game.title} with friends`);
      const host = show(plainPage({ entering: true }));
      await player.ready;
      if (page !== host) return;
      renderHostForm({ root: main, conn, info: where.game, params: where.params, host: async (message) => (await enterTable(host, message))?.error.message ?? null });
      return;
    }
    case 'menu': {
      const { game, option, seed } = where;
      document.body.dataset.screen = `${game.name}-menu`;
      setTitle(game.title);
      renderMenu({ main, info: game, option, seed, label: SCREENS[game.name]?.menuLabel ?? `Choose the ${option.label.toLowerCase()}` });
      show(plainPage());
      return;
    }
    default:
      document.body.dataset.screen = 'home';
      setTitle('Pick a game');
      show(plainPage({ refresh: renderHome({ main, conn }) }));
  }
}

/**
 * Sends `host` or `join` from its form; the `joined` that answers it makes the table's room the page.
 * @param {Page} form  the form's page
 * @param {Request} message
 * @returns {Promise<import('./protocol.js').ErrorMessage|null>} the refusal, or null once at the table
 */
async function enterTable(form, message) {
  const replied = conn.request(message);
  form.joinAsked = conn.lastId;
  const reply = await replied;
  if (page !== form) return null;
  if (reply === null) return { type: 'error', error: { code: 'connection-lost', message: 'The connection was lost. Try again.' } };
  return reply.type === 'error' ? reply : null;
}

/** @param {string} text */
function setTitle(text) {
  setText(title, text);
  document.title = text === 'Pick a game' ? 'CardTable' : `${text} — CardTable`;
}

// Links marked data-nav route inside the page.
document.addEventListener('click', (event) => {
  const link = /** @type {HTMLElement} */ (event.target)?.closest?.('a[data-nav]');
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  const href = link.getAttribute('href') ?? '/';
  // NB: leaving the page of a table in play gives up the seat (its room sends `leave`): ask first.
  if (page.seated && page.confirmLeave) page.confirmLeave().then((ok) => { if (ok) navigate(href); });
  else navigate(href);
});
document.addEventListener('keydown', (event) => {
  // Space activates the menu links that act as buttons.
  const link = /** @type {HTMLElement} */ (event.target);
  if (event.key === ' ' && link?.matches?.('a[role="button"]')) { event.preventDefault(); link.click(); }
});
const morePanel = /** @type {HTMLElement} */ (document.getElementById('more-panel'));
morePanel.prepend(soundSwitch(), sizeSwitch());
const moreMenu = setUpTopBar({
  bar: /** @type {HTMLElement} */ (document.querySelector('.topbar')), title, toolbar,
  button: /** @type {HTMLButtonElement} */ (document.getElementById('more-button')), panel: morePanel,
});
window.addEventListener('popstate', route);
conn.connect();
route();
