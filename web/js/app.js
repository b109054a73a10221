// @ts-check
/**
 * CardTable's page: routing by address, the rooms, the player's identity, and the screens.
 *
 *   /                                  the home screen: the games, Your games, Your name
 *   /?game=memory                      Memory's menu (EASY / MEDIUM / HARD)
 *   /?game=memory&difficulty=easy&seed=42   a new Memory game (`new`), dealt from seed 42
 *   /?game=concentration|matchismo|set|snap[&seed=N]   a new game of that kind
 *   /play/ROOM                         that room (`open`): its player plays, anyone else watches;
 *                                      a table's room seats you while it is in its lobby
 *   /?game=snap|set|memory|concentration&table=host   the host form of a table of that game
 *   /?join[=CODE]                      the join form (a table's code), and the open tables
 *   /scores                            the high scores and statistics
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
 *   `lastRequest`  the id of the newest request the page sent (0 before the first);
 *   `replied(id)`  whether the reply to request `id` — the update, answer or error carrying
 *                  `reply: id` — has arrived and the page has handled it;
 *   `reply(id)`    that reply (null until then; the newest 100 replies are kept);
 *   `send(message)`  sends a request on the page's connection; returns its id.
 * @module app
 */
import { Connection } from './connection.js';
import { el, setText } from './dom.js';
import { cardFaceSVG } from './cards.js';
import { announce } from './a11y.js';
import * as player from './player.js';
import { renderHome } from './home.js';
import { renderScores } from './scores.js';
import { Stepper } from './replay.js';
import { GAMES } from './catalog.js';
import * as memory from './games/memory.js';
import * as concentration from './games/concentration.js';
import * as matchismo from './games/matchismo.js';
import * as set from './games/set.js';
import * as snap from './games/snap.js';
import { createTable, renderHostForm, renderJoinForm, TABLE_GAMES } from './table.js';
import { setUpTheme } from './theme.js';
import { soundFor, soundSwitch } from './sound.js';
import { sizeSwitch } from './size.js';
import { helpButton, tileHelpButton } from './help.js';

/** @typedef {import('./protocol.js').AnyUpdate} AnyUpdate */
/** @typedef {import('./protocol.js').ServerMessage} ServerMessage */
/** @typedef {import('./protocol.js').GameName} GameName */
/** @typedef {import('./protocol.js').GameScreen<AnyUpdate>} Screen */

/** @type {Record<GameName, {mount: (ctx: import('./protocol.js').GameContext) => Screen}>} */
const SCREENS = { memory, concentration, matchismo, set, snap };

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const toolbar = /** @type {HTMLElement} */ (document.getElementById('toolbar-end'));
const title = /** @type {HTMLElement} */ (document.getElementById('page-title'));
const banner = /** @type {HTMLElement} */ (document.getElementById('connection-banner'));
setUpTheme(/** @type {HTMLButtonElement|null} */ (document.getElementById('theme-switch')));

/** @type {{version: number, lastView: import('./protocol.js').GameView|null, game: string|null, seed: number|string|null}} */
const latest = { version: -1, lastView: null, game: null, seed: null };
/**
 * The room on screen, as the last `joined` told it.
 * @type {{room: string|null, role: 'player'|'watcher'|null, status: string|null, countdown: number}}
 */
const session = { room: null, role: null, status: null, countdown: 0 };
/** @type {import('./protocol.js').Session} */
const sessionView = Object.freeze({
  get room() { return session.room; },
  get role() { return session.role; },
  // NB: at a table, a player without a seat (removed in the lobby, or gone) only watches.
  get readOnly() {
    return session.role === 'watcher' || session.status === 'abandoned' || session.countdown > 0 || (!!tableView?.info && !tableView.sitting);
  },
  get table() { return tableView?.info ?? null; },
  get me() { return tableView?.me ?? null; },
  /** @param {string} name */
  away(name) { return tableView?.awayFor(name) ?? null; },
});
/**
 * The replies handled so far by request id, newest last.
 * @type {Map<import('./protocol.js').RequestId, ServerMessage>}
 */
const replies = new Map();
const KEPT_REPLIES = 100;
Object.defineProperty(window, 'cardtable', {
  value: Object.freeze({
    get version() { return latest.version; },
    get lastView() { return latest.lastView; },
    get game() { return latest.game; },
    get seed() { return latest.seed; },
    get room() { return session.room; },
    get role() { return session.role; },
    get table() { return tableView?.info ?? null; },
    get lastRequest() { return conn?.lastId ?? 0; },
    /** @param {import('./protocol.js').RequestId} id */
    replied(id) { return replies.has(id); },
    /** @param {import('./protocol.js').RequestId} id */
    reply(id) { return replies.get(id) ?? null; },
    /** @param {import('./protocol.js').Request} message */
    send(message) { return connection().send(message); },
  }),
});

/** @type {Connection|null} */
let conn = null;
/**
 * What the address asks for: `game` (a game screen, from `?game=…` or `/play/ROOM`), else a
 * page without a room.
 * @type {{kind: 'home'|'scores'|'menu'|'game'|'host'|'join', room: string|null}}
 */
let route_ = { kind: 'home', room: null };
/** @type {Screen|null} */
let current = null;
/** @type {import('./table.js').TableView|null} the table of the room on screen, once a `table` message came */
let tableView = null;
/** @type {GameName|null} */
let currentGame = null;
/** @type {HTMLElement|null} the room's notices (watching, countdown, abandoned) and the stepper */
let notices = null;
/** @type {Stepper|null} */
let stepper = null;
/** @type {HTMLElement|null} */
let stepButton = null;
/** @type {(() => void)|null} what the home or scores screen does after a reconnect */
let refreshPage = null;
let countdownTimer = 0;
let bannerTimer = 0;
let routeToken = 0;

/** @returns {Connection} the page's one connection, opened on first use. */
function connection() {
  if (conn) return conn;
  const c = new Connection();
  conn = c;
  c.greet = (reopen) => {
    /** @type {import('./protocol.js').Request[]} */
    const first = [player.hello()];
    // NB: after a drop the server has no room for this connection: open the one on screen
    // again (a join still waiting is sent again by the connection itself).
    if (reopen && route_.kind === 'game' && !c.joining) {
      const room = session.room ?? route_.room;
      if (room) first.push({ cmd: 'open', room });
    }
    return first;
  };
  c.addEventListener('message', (event) => {
    const message = /** @type {CustomEvent<ServerMessage>} */ (event).detail;
    handle(message);
    // NB: recorded after the screen has drawn it: a reply counts as handled once it shows.
    if ('reply' in message && message.reply !== undefined && message.type !== 'joined') {
      replies.set(message.reply, message);
      if (replies.size > KEPT_REPLIES) replies.delete(replies.keys().next().value);
    }
  });
  c.addEventListener('close', () => {
    window.clearTimeout(bannerTimer);
    banner.hidden = false;
    setText(banner, 'Connection lost — reconnecting…');
  });
  c.addEventListener('open', () => { banner.hidden = true; });
  c.addEventListener('reopen', () => {
    setText(banner, route_.kind === 'game' ? 'Reconnected — your game continues.' : 'Reconnected.');
    banner.hidden = false;
    window.clearTimeout(bannerTimer);
    bannerTimer = window.setTimeout(() => { banner.hidden = true; }, 4000);
    refreshPage?.();
  });
  c.connect();
  return c;
}

/** @param {ServerMessage} message */
function handle(message) {
  const c = /** @type {Connection} */ (conn);
  switch (message.type) {
    case 'hello':
      player.helloAnswered(message, c);
      break;
    case 'joined':
      joined(message);
      break;
    case 'update':
      // NB: while a join is on its way, updates are of the room being left.
      if (!current || c.joining || !session.room || message.game !== currentGame) return;
      latest.version = message.version;
      latest.lastView = message.view;
      latest.game = message.game;
      latest.seed = message.seed;
      current.update(message);
      soundFor(message);
      stepper?.live(message.version);
      showStepButton();
      break;
    case 'answer':
      current?.answer?.(message);
      break;
    case 'error':
      refused(message);
      break;
    case 'table':
      if (message.room === session.room && current) tableFor(message.game).table(message);
      break;
    case 'seat':
      tableView?.seat(message);
      break;
    case 'receipt':
      tableView?.receipt(message);
      break;
    case 'closed':
      if (message.room === session.room) {
        session.status = 'abandoned';
        showNotices();
        current?.redraw();
      }
      break;
    default:
      break;
  }
}

/** @param {import('./protocol.js').Joined} message */
function joined(message) {
  const c = /** @type {Connection} */ (conn);
  // A later join is on its way, or this page shows no game (Abandon on the home screen).
  if (c.joining || !['game', 'host', 'join'].includes(route_.kind)) return;
  if (route_.kind !== 'game') route_ = { kind: 'game', room: message.room };
  if (current && currentGame !== message.game) return;
  const token = routeToken;
  if (!current) mountScreen(message.game, false, new URLSearchParams());
  if (token !== routeToken) return;
  session.room = message.room;
  session.role = message.role;
  session.status = message.status;
  const address = `/play/${encodeURIComponent(message.room)}`;
  if (location.pathname !== address || location.search) history.replaceState(null, '', address);
  route_.room = message.room;
  startCountdown(message.countdown ?? 0);
  showNotices();
  current?.redraw();
}

/** @param {import('./protocol.js').ErrorMessage} message */
function refused(message) {
  const code = message.error?.code;
  console.info('CardTable server refused:', message.error);
  if ((code === 'no-such-room' || code === 'replay-failed') && route_.kind === 'game') {
    noSuchRoom(code);
    return;
  }
  if (code === 'watching') announce(tableView ? 'You are watching: this table’s game started without you.' : 'You are watching: only the player who started this game can play.');
  else if (code === 'resuming') announce('The game is about to resume.');
  else if (code === 'room-closed') announce('This game was abandoned.');
  else if (code === 'storage-unavailable') announce('The server could not save that move. Try again.');
  current?.error?.(message);
}

/**
 * Mounts a game's screen below the room's notices.
 * @param {GameName} game
 * @param {boolean} fresh  true: the screen deals a new game
 * @param {URLSearchParams} params
 */
function mountScreen(game, fresh, params) {
  const info = GAMES[game];
  document.body.dataset.screen = game;
  setTitle(info.title);
  notices = el('div.room-notices');
  main.replaceChildren(notices);
  toolbar.replaceChildren();
  currentGame = game;
  current = SCREENS[game].mount({
    root: main, toolbar, conn: connection(), params, fresh, session: sessionView, navigate, setTitle, stepThrough,
  });
  stepButton = el('button.btn.ghost.step-through', { type: 'button', text: 'Step through', hidden: true, onclick: stepThrough });
  toolbar.append(stepButton, helpButton(game, () => latest.lastView));
  if (TABLE_GAMES.includes(game)) {
    // NB: the size and a chosen seed (a practice deal, as browser tests use) go with it.
    const carried = new URLSearchParams({ game, table: 'host' });
    for (const key of ['difficulty', 'seed']) { const value = params.get(key); if (value) carried.set(key, value); }
    toolbar.append(el('a.btn.ghost.play-with-friends', { href: `/?${carried}`, dataset: { nav: '' } },
      el('span.long-label', { text: 'Play with ' }), 'friends'));
  }
}

/**
 * The table of the room on screen, made when its first `table` message comes.
 * @param {GameName} game
 * @returns {import('./table.js').TableView}
 */
function tableFor(game) {
  if (tableView) return tableView;
  const view = createTable({
    conn: connection(), game, toolbar, navigate,
    gameOver: () => /** @type {{over?: boolean}|null} */ (latest.lastView)?.over === true,
    changed: () => { current?.tableChanged?.(); },
  });
  tableView = view;
  toolbar.querySelector('.play-with-friends')?.remove();
  notices?.after(view.root);
  showNotices();
  return view;
}

/** Shows Step through in the top bar once the game (or Snap!'s round) is over. */
function showStepButton() {
  if (!stepButton) return;
  const view = /** @type {Record<string, unknown>|null} */ (latest.lastView);
  stepButton.hidden = !(view && (view.over === true || view.phase === 'roundOver')) || stepper !== null;
}

/** Steps through the game on screen, move by move (`view-at`), on its own table. */
function stepThrough() {
  if (stepper || !current || !notices || latest.version < 0) return;
  const screen = current;
  stepper = new Stepper({
    conn: connection(),
    total: latest.version,
    draw: (view) => screen.showPast(view),
    onExit: () => {
      stepper = null;
      screen.showPast(null);
      showStepButton();
      stepButton?.focus();
    },
  });
  notices.append(stepper.root);
  showStepButton();
  stepper.start();
}

/** The room's notices: watching, abandoned. */
function showNotices() {
  if (!notices) return;
  for (const node of notices.querySelectorAll('.notice')) node.remove();
  document.body.dataset.role = session.role ?? '';
  const add = (/** @type {string} */ cls, /** @type {string} */ text) => notices?.prepend(el(`p.notice.${cls}`, { role: 'status', text }));
  if (session.status === 'abandoned') {
    add('closed-notice', tableView?.info?.phase === 'lobby' ? 'The host closed this table before it started.' : 'This game was abandoned: it can be looked at, not played.');
  }
  if (session.role === 'watcher') add('watching', tableView ? 'Watching — this table’s game started without you.' : 'Watching — only the player who started this game can play.');
  if (session.countdown > 0) {
    notices.prepend(el('p.notice.countdown', { role: 'timer', 'aria-live': 'assertive', text: `Resuming in ${session.countdown}…` }));
  }
}

/**
 * Counts down the seconds before a woken room's clock runs again (Snap!: 3).
 * @param {number} seconds
 */
function startCountdown(seconds) {
  window.clearInterval(countdownTimer);
  session.countdown = Math.max(0, Math.ceil(seconds));
  if (!session.countdown) return;
  const end = performance.now() + seconds * 1000;
  countdownTimer = window.setInterval(() => {
    const left = Math.ceil((end - performance.now()) / 1000);
    if (left === session.countdown) return;
    session.countdown = Math.max(0, left);
    const node = notices?.querySelector('.countdown');
    if (session.countdown > 0) {
      if (node) setText(node, `Resuming in ${session.countdown}…`);
      return;
    }
    window.clearInterval(countdownTimer);
    node?.remove();
    announce('The game continues.');
    current?.redraw();
  }, 100);
}

/**
 * The page for a link whose room does not exist, or cannot be opened any more.
 * @param {string} code  `no-such-room` or `replay-failed`
 */
function noSuchRoom(code) {
  current?.destroy();
  current = null;
  currentGame = null;
  session.room = null;
  route_ = { kind: 'home', room: null };
  toolbar.replaceChildren();
  document.body.dataset.screen = 'no-room';
  setTitle('No game here');
  const lost = code === 'replay-failed';
  main.replaceChildren(el('section.no-room', { 'aria-labelledby': 'no-room-title' },
    el('h2', { id: 'no-room-title', text: lost ? 'This game can no longer be opened' : 'There is no game at this link' }),
    el('p', { text: lost ? 'Its stored moves no longer replay through the rules.' : 'The link may be mistyped, or the game is no longer kept.' }),
    el('a.btn.primary', { href: '/', dataset: { nav: '' }, text: 'Back to the games' })));
}

/**
 * Goes to an address of this page without reloading.
 * @param {string} url  e.g. `/?game=memory`, `/scores`, `/play/ROOM`
 */
export function navigate(url) {
  history.pushState(null, '', url || '/');
  route();
}

/** Draws the screen the address asks for. */
async function route() {
  const token = ++routeToken;
  const c = connection();
  const wasInRoom = route_.kind === 'game';
  stepper = null;
  current?.destroy();
  current = null;
  currentGame = null;
  tableView?.destroy();
  tableView = null;
  notices = null;
  stepButton = null;
  refreshPage = null;
  session.room = null;
  session.role = null;
  session.status = null;
  window.clearInterval(countdownTimer);
  session.countdown = 0;
  delete document.body.dataset.role;
  latest.version = -1;
  latest.lastView = null;
  latest.game = null;
  latest.seed = null;
  toolbar.replaceChildren();
  document.body.dataset.screen = '';
  // NB: the room's clock stops once nobody has it open.
  if (wasInRoom) c.send({ cmd: 'leave' });

  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  if (path.startsWith('/play/')) {
    const room = decodeURIComponent(path.slice('/play/'.length));
    route_ = { kind: 'game', room };
    document.body.dataset.screen = 'opening';
    setTitle('Opening the game…');
    main.replaceChildren(el('p.loading', { text: 'Opening the game…' }));
    c.send({ cmd: 'open', room });
    return;
  }
  if (path === '/scores') {
    route_ = { kind: 'scores', room: null };
    document.body.dataset.screen = 'scores';
    setTitle('Scores');
    refreshPage = renderScores({ root: main, conn: c });
    return;
  }
  if (params.has('join')) {
    route_ = { kind: 'join', room: null };
    document.body.dataset.screen = 'join';
    setTitle('Join a table');
    await player.ready;
    if (token !== routeToken) return;
    refreshPage = renderJoinForm({ root: main, conn: c, code: params.get('join') ?? '', join: (code) => enterTable({ cmd: 'join', code }, 'join') });
    return;
  }
  const game = /** @type {GameName|null} */ (params.get('game'));
  const info = game && GAMES[game];
  if (info && params.get('table') === 'host' && TABLE_GAMES.includes(game)) {
    route_ = { kind: 'host', room: null };
    document.body.dataset.screen = 'host';
    setTitle(`${info.title} with friends`);
    await player.ready;
    if (token !== routeToken) return;
    renderHostForm({ root: main, conn: c, game, params, host: async (message) => (await enterTable(message, 'host'))?.error.message ?? null });
    return;
  }
  if (!game || !info) {
    route_ = { kind: 'home', room: null };
    home();
    return;
  }
  if (game === 'memory' && !['easy', 'medium', 'hard'].includes(params.get('difficulty') ?? '')) {
    route_ = { kind: 'menu', room: null };
    memoryMenu();
    return;
  }
  route_ = { kind: 'game', room: null };
  document.body.dataset.screen = game;
  setTitle(info.title);
  main.replaceChildren(el('p.loading', { text: 'Shuffling…' }));
  // NB: a new game takes the player's settings, which come with the answer to `hello`.
  await player.ready;
  if (token !== routeToken) return;
  mountScreen(game, true, params);
}

/**
 * Sends `host` or `join` from its form; the `joined` that answers it mounts the table's screen.
 * @param {import('./protocol.js').Request} message
 * @param {'host'|'join'} kind  the form's route
 * @returns {Promise<import('./protocol.js').ErrorMessage|null>} the refusal, or null once at the table
 */
async function enterTable(message, kind) {
  const token = routeToken;
  const reply = await connection().request(message);
  if (token !== routeToken) return null;
  if (reply === null) return { type: 'error', error: { code: 'connection-lost', message: 'The connection was lost. Try again.' } };
  if (reply.type === 'error') {
    route_ = { kind, room: null };
    return reply;
  }
  return null;
}

/** @param {string} text */
function setTitle(text) {
  setText(title, text);
  document.title = text === 'Pick a game' ? 'CardTable' : `${text} — CardTable`;
}

/** The home screen: one tile per game, then Your games and Your name. */
function home() {
  document.body.dataset.screen = 'home';
  setTitle('Pick a game');
  const tiles = Object.entries(GAMES).map(([name, info]) => el('li', {},
    el('a.game-tile', { href: `/?game=${name}`, dataset: { nav: '' } },
      el('span.tile-card', { 'aria-hidden': 'true' }, cardFaceSVG(info.face)),
      el('span.tile-text', {}, el('strong', { text: info.title }), el('span', { text: info.blurb }))),
    tileHelpButton(/** @type {GameName} */ (name))));
  const section = el('section.home', { 'aria-labelledby': 'page-title' }, el('ul.game-list', {}, ...tiles));
  main.replaceChildren(section);
  refreshPage = renderHome({ root: section, conn: connection() });
}

/** Memory's menu: the original's three flat buttons on a green-sea table. */
function memoryMenu() {
  document.body.dataset.screen = 'memory-menu';
  setTitle('Memory');
  const seed = new URLSearchParams(location.search).get('seed');
  const button = (/** @type {string} */ level, /** @type {string} */ label) => el(`a.menu-button.${level}`, {
    href: `/?game=memory&difficulty=${level}${seed ? `&seed=${encodeURIComponent(seed)}` : ''}`, dataset: { nav: '' }, role: 'button', text: label,
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
  const href = link.getAttribute('href') ?? '/';
  // NB: leaving the page of a table in play gives up the seat (route sends `leave`): ask first.
  if (tableView?.seated) tableView.confirmLeave().then((ok) => { if (ok) navigate(href); });
  else navigate(href);
});
document.addEventListener('keydown', (event) => {
  // Space activates the menu links that act as buttons.
  const link = /** @type {HTMLElement} */ (event.target);
  if (event.key === ' ' && link?.matches?.('a[role="button"]')) { event.preventDefault(); link.click(); }
});
toolbar.after(soundSwitch(), sizeSwitch());
window.addEventListener('popstate', route);
route();
