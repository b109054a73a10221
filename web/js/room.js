// @ts-check
/**
 * A room on screen (`/play/ROOM`, or a new game from `?game=…`): the game's screen below the
 * room's notices (watching, countdown, abandoned), its table once a `table` message comes,
 * stepping through a finished game, and what the page last received of it. One `RoomScreen`
 * is made for each visit of a room and dropped whole when the page goes elsewhere.
 * @module room
 */
import { el, setText } from './dom.js';
import { announce } from './a11y.js';
import * as player from './player.js';
import { gameInfo, optionsAt } from './catalog.js';
import { Stepper } from './replay.js';
import { createTable } from './table.js';
import { createChat } from './chat.js';
import { soundFor } from './sound.js';
import { helpButton } from './help.js';
import { dayText } from './games/ending.js';

/** @typedef {import('./protocol.js').ServerMessage} ServerMessage */
/** @typedef {import('./protocol.js').GameView} GameView */
/** @typedef {import('./protocol.js').GameInfo} GameInfo */
/** @typedef {import('./protocol.js').GameScreen<import('./protocol.js').AnyUpdate>} GameScreen */

/**
 * What the page hands every screen it makes.
 * @typedef {object} PageContext
 * @property {import('./connection.js').Connection} conn
 * @property {HTMLElement} main  the screen's container
 * @property {HTMLElement} toolbar  the top bar's right end
 * @property {(text: string) => void} setTitle
 * @property {(url: string) => void} navigate
 * @property {Readonly<Record<string, import('./protocol.js').GameModule>>} screens  games/index.js
 */

/**
 * Tells a refusal that concerns the player (watching, resuming, a closed room, a lost save).
 * @param {import('./protocol.js').ErrorMessage} message
 * @param {boolean} atTable  whether the room on screen is a table's
 */
export function announceRefusal(message, atTable) {
  const code = message.error?.code;
  if (code === 'watching') announce(atTable ? 'You are watching: this table’s game started without you.' : 'You are watching: only the player who started this game can play.');
  else if (code === 'resuming') announce('The game is about to resume.');
  else if (code === 'room-closed') announce('This game was abandoned.');
  else if (code === 'storage-unavailable') announce('The server could not save that move. Try again.');
}

export class RoomScreen {
  /**
   * A room on screen, before its game's screen is mounted: `open`, `deal`, or the `joined`
   * of a table just hosted or joined mounts it.
   * @param {PageContext} ctx
   */
  constructor(ctx) {
    this.ctx = ctx;
    /** @type {string|null} the room the address names, until a `joined` names one */
    this.asked = null;
    /**
     * The room on screen, as the last `joined` told it.
     * @type {string|null}
     */
    this.room = null;
    /** @type {'player'|'watcher'|null} */
    this.role = null;
    /** @type {string|null} */
    this.status = null;
    /** Seconds before a woken room's clock runs again. */
    this.countdown = 0;
    this.countdownTimer = 0;
    /**
     * The latest update of the game on screen.
     * @type {{version: number, lastView: GameView|null, game: string|null, seed: number|string|null}}
     */
    this.latest = { version: -1, lastView: null, game: null, seed: null };
    /** @type {GameScreen|null} */
    this.screen = null;
    /** @type {string|null} the game of the mounted screen */
    this.game = null;
    /** @type {import('./table.js').TableView|null} the room's table, once a `table` message came */
    this.table = null;
    /** @type {import('./chat.js').ChatView|null} the table's chat, made with the table */
    this.chat = null;
    /** @type {HTMLElement|null} the room's notices (watching, countdown, abandoned) and the stepper */
    this.notices = null;
    /** @type {Stepper|null} */
    this.stepper = null;
    /** @type {HTMLElement|null} */
    this.stepButton = null;
    /** False once the address turned out to name no room that can be opened: nothing to leave. */
    this.inRoom = true;
    this.disposed = false;
    /** @type {string|null} the day of today's deal, when the game on screen is one */
    this.today = null;
    const room = this;
    /** @type {import('./protocol.js').Session} */
    this.session = Object.freeze({
      get room() { return room.room; },
      get role() { return room.role; },
      // NB: at a table, a player without a seat (removed in the lobby, or gone) only watches.
      get readOnly() {
        return room.role === 'watcher' || room.status === 'abandoned' || room.countdown > 0 || (!!room.table?.info && !room.table.sitting);
      },
      get table() { return room.table?.info ?? null; },
      // NB: a game of one's own is played by the engine's one player, `You`.
      get me() { return room.table ? room.table.me ?? null : room.role === 'player' ? 'You' : null; },
      /** @param {string} name */
      away(name) { return room.table?.awayFor(name) ?? null; },
      rematch() { room.table?.acceptRematch(); },
    });
  }

  /**
   * Opens the room an address names (`open`); its `joined` mounts the game's screen.
   * @param {string} room
   */
  open(room) {
    this.asked = room;
    document.body.dataset.screen = 'opening';
    this.ctx.setTitle('Opening the game…');
    this.ctx.main.replaceChildren(el('p.loading', { text: 'Opening the game…' }));
    this.ctx.conn.send({ cmd: 'open', room });
  }

  /**
   * Mounts a game's screen that deals a new game (`new`), once the player's settings are known.
   * @param {GameInfo} info
   * @param {URLSearchParams} params  the address's (a seed, options, `today`)
   */
  async deal(info, params) {
    document.body.dataset.screen = info.name;
    this.ctx.setTitle(info.title);
    this.ctx.main.replaceChildren(el('p.loading', { text: 'Shuffling…' }));
    // NB: a new game takes the player's settings, which come with the answer to `hello`.
    await player.ready;
    if (this.disposed || this.screen) return;
    this.mount(info.name, true, params);
  }

  /** @returns {string|null} the room to open again after a reconnect */
  get reopen() {
    return this.inRoom ? this.room ?? this.asked : null;
  }

  /** @returns {boolean} whether leaving this page gives up a seat at a table in play */
  get seated() {
    return this.table?.seated ?? false;
  }

  /** @returns {Promise<boolean>} whether the player confirmed leaving the table */
  confirmLeave() {
    return this.table?.confirmLeave() ?? Promise.resolve(true);
  }

  /** @param {ServerMessage} message */
  handle(message) {
    if (!this.inRoom) {
      if (message.type === 'error') announceRefusal(message, false);
      return;
    }
    switch (message.type) {
      case 'joined':
        this.joined(message);
        break;
      case 'update':
        // NB: while a join is on its way, updates are of the room being left.
        if (!this.screen || this.ctx.conn.joining || !this.room || message.game !== this.game) return;
        this.latest = { version: message.version, lastView: message.view, game: message.game, seed: message.seed };
        if ((message.today ?? null) !== this.today) {
          this.today = message.today ?? null;
          this.showNotices();
        }
        this.screen.update(message);
        soundFor(message);
        this.stepper?.live(message.version);
        this.showStepButton();
        break;
      case 'answer':
        this.screen?.answer?.(message);
        break;
      case 'error':
        this.refused(message);
        break;
      case 'table':
        if (message.room === this.room && this.screen) {
          this.tableFor(message.game)?.table(message);
          this.chat?.table(message);
        }
        break;
      case 'chat':
        if (message.room === this.room) this.chat?.chat(message);
        break;
      case 'seat':
        this.table?.seat(message);
        break;
      case 'receipt':
        this.table?.receipt(message);
        break;
      case 'closed':
        if (message.room === this.room) {
          this.status = 'abandoned';
          this.showNotices();
          this.screen?.redraw();
        }
        break;
      default:
        break;
    }
  }

  /** @param {import('./protocol.js').Joined} message */
  joined(message) {
    // A later join is on its way.
    if (this.ctx.conn.joining) return;
    if (this.screen && this.game !== message.game) return;
    if (!this.screen && !this.mount(message.game, false, new URLSearchParams())) return;
    this.room = message.room;
    this.role = message.role;
    this.status = message.status;
    const address = `/play/${encodeURIComponent(message.room)}`;
    if (location.pathname !== address || location.search) history.replaceState(null, '', address);
    this.startCountdown(message.countdown ?? 0);
    this.showNotices();
    this.screen?.redraw();
  }

  /** @param {import('./protocol.js').ErrorMessage} message */
  refused(message) {
    const code = message.error?.code;
    if (code === 'no-such-room' || code === 'replay-failed') {
      this.noSuchRoom(code);
      return;
    }
    // NB: the chat's own requests: their refusals are the chat panel's to tell.
    if (this.chat?.asked(message.reply)) return;
    announceRefusal(message, !!this.table);
    this.screen?.error?.(message);
  }

  /**
   * Mounts a game's screen below the room's notices.
   * @param {string} game
   * @param {boolean} fresh  true: the screen deals a new game
   * @param {URLSearchParams} params
   * @returns {boolean} whether the page has that game's screen
   */
  mount(game, fresh, params) {
    const { conn, main, toolbar, setTitle, navigate, screens } = this.ctx;
    const info = gameInfo(game);
    const module = Object.hasOwn(screens, game) ? screens[game] : undefined;
    if (!info || !module) return false;
    document.body.dataset.screen = game;
    setTitle(info.title);
    const notices = el('div.room-notices');
    this.notices = notices;
    main.replaceChildren(notices);
    toolbar.replaceChildren();
    this.game = game;
    this.screen = module.mount({
      root: main, toolbar, conn, params, fresh, session: this.session, navigate, setTitle, stepThrough: () => this.stepThrough(),
    });
    this.stepButton = el('button.btn.ghost.step-through', { type: 'button', text: 'Step through', hidden: true, onclick: () => this.stepThrough() });
    toolbar.append(this.stepButton, helpButton(info, () => this.latest.lastView));
    if (info.together !== null) {
      // NB: the host form's options and a chosen seed (a practice deal, as browser tests use) go with it.
      const carried = new URLSearchParams({ game, table: 'host' });
      for (const key of [...optionsAt(info, 'host').map((option) => option.name), 'seed']) {
        const value = params.get(key);
        if (value) carried.set(key, value);
      }
      toolbar.append(el('a.btn.ghost.play-with-friends', { href: `/?${carried}`, dataset: { nav: '' } },
        el('span.long-label', { text: 'Play with ' }), 'friends'));
    }
    return true;
  }

  /**
   * The room's table, made when its first `table` message comes.
   * @param {string} game
   * @returns {import('./table.js').TableView|null}
   */
  tableFor(game) {
    if (this.table) return this.table;
    const info = gameInfo(game);
    if (!info) return null;
    const { conn, toolbar, navigate } = this.ctx;
    const view = createTable({
      conn, info, toolbar, navigate,
      gameOver: () => this.latest.lastView?.over === true,
      changed: () => { this.screen?.tableChanged?.(); },
    });
    this.table = view;
    toolbar.querySelector('.play-with-friends')?.remove();
    this.notices?.after(view.root);
    // NB: the chat goes below the game's screen (or the lobby, while it shows).
    this.chat = createChat({ conn });
    this.ctx.main.append(this.chat.root);
    this.showNotices();
    return view;
  }

  /** Shows Step through in the top bar once the game (or a round) is over. */
  showStepButton() {
    if (!this.stepButton) return;
    const view = this.latest.lastView;
    this.stepButton.hidden = !(view && (view.over === true || view.phase === 'roundOver')) || this.stepper !== null;
  }

  /** Steps through the game on screen, move by move (`view-at`), on its own table. */
  stepThrough() {
    if (this.stepper || !this.screen || !this.notices || this.latest.version < 0) return;
    const screen = this.screen;
    this.stepper = new Stepper({
      conn: this.ctx.conn,
      total: this.latest.version,
      draw: (view) => screen.showPast(view),
      onExit: () => {
        this.stepper = null;
        screen.showPast(null);
        this.showStepButton();
        this.stepButton?.focus();
      },
    });
    this.notices.append(this.stepper.root);
    this.showStepButton();
    this.stepper.start();
  }

  /** The room's notices: watching, abandoned, the countdown. */
  showNotices() {
    const notices = this.notices;
    if (!notices) return;
    for (const node of notices.querySelectorAll('.notice')) node.remove();
    document.body.dataset.role = this.role ?? '';
    const add = (/** @type {string} */ cls, /** @type {string} */ text) => notices.prepend(el(`p.notice.${cls}`, { role: 'status', text }));
    if (this.status === 'abandoned') {
      add('closed-notice', this.table?.info?.phase === 'lobby' ? 'The host closed this table before it started.' : 'This game was abandoned: it can be looked at, not played.');
    }
    // NB: appended, not prepended: the day's note comes after what asks for attention.
    if (this.today) notices.append(el('p.notice.todays-deal', { text: `Today’s deal · ${dayText(this.today)} · the same cards for everyone today` }));
    if (this.role === 'watcher') add('watching', this.table ? 'Watching — this table’s game started without you.' : 'Watching — only the player who started this game can play.');
    if (this.countdown > 0) {
      notices.prepend(el('p.notice.countdown', { role: 'timer', 'aria-live': 'assertive', text: `Resuming in ${this.countdown}…` }));
    }
  }

  /**
   * Counts down the seconds before a woken room's clock runs again.
   * @param {number} seconds
   */
  startCountdown(seconds) {
    window.clearInterval(this.countdownTimer);
    this.countdown = Math.max(0, Math.ceil(seconds));
    if (!this.countdown) return;
    const end = performance.now() + seconds * 1000;
    this.countdownTimer = window.setInterval(() => {
      const left = Math.ceil((end - performance.now()) / 1000);
      if (left === this.countdown) return;
      this.countdown = Math.max(0, left);
      const node = this.notices?.querySelector('.countdown');
      if (this.countdown > 0) {
        if (node) setText(node, `Resuming in ${this.countdown}…`);
        return;
      }
      window.clearInterval(this.countdownTimer);
      node?.remove();
      announce('The game continues.');
      this.screen?.redraw();
    }, 100);
  }

  /**
   * The page for a link whose room does not exist, or cannot be opened any more.
   * @param {string} code  `no-such-room` or `replay-failed`
   */
  noSuchRoom(code) {
    this.screen?.destroy();
    this.screen = null;
    this.chat?.destroy();
    this.chat = null;
    this.game = null;
    this.room = null;
    this.inRoom = false;
    const { main, toolbar, setTitle } = this.ctx;
    toolbar.replaceChildren();
    document.body.dataset.screen = 'no-room';
    setTitle('No game here');
    const lost = code === 'replay-failed';
    main.replaceChildren(el('section.no-room', { 'aria-labelledby': 'no-room-title' },
      el('h2', { id: 'no-room-title', text: lost ? 'This game can no longer be opened' : 'There is no game at this link' }),
      el('p', { text: lost ? 'Its stored moves no longer replay through the rules.' : 'The link may be mistyped, or the game is no longer kept.' }),
      el('a.btn.primary', { href: '/', dataset: { nav: '' }, text: 'Back to the games' })));
  }

  /** Lets go of the room: its screen, table and timers; leaves it (its clock stops once nobody has it open). */
  dispose() {
    this.disposed = true;
    this.stepper = null;
    this.screen?.destroy();
    this.screen = null;
    this.table?.destroy();
    this.table = null;
    this.chat?.destroy();
    this.chat = null;
    window.clearInterval(this.countdownTimer);
    this.countdown = 0;
    delete document.body.dataset.role;
    if (this.inRoom) this.ctx.conn.send({ cmd: 'leave' });
  }
}
