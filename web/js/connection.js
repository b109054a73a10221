// @ts-check
/**
 * The WebSocket to `cardtable serve` (docs/PROTOCOL.md): one connection to `/ws` on the
 * page's own host, reconnected with exponential backoff, with request ids.
 *
 * On every open — the first and each reconnect — the messages `greet` returns (the page's
 * `hello`, then `open` for the room on screen) are sent first, before anything queued while
 * the socket was down.
 *
 * Several servers may share the rooms (`welcome` says `shared`, docs/PROTOCOL.md "Several
 * servers"): then the socket of a room is kept on the room's own address, `/ws?room=ID`, which
 * the proxy routes to the server running it. Once a `joined` names another room, the socket
 * moves there quietly (the room on screen is opened again on the new socket); a
 * `room-elsewhere` error (the room is moving between servers) reconnects, with backoff, and
 * sends the join again.
 *
 * Events dispatched (CustomEvent):
 *   `message` — `detail` is the server message, in the order they arrive;
 *   `open`, `reopen` (the socket is open again after a drop), `close` — `detail` is null.
 * @module connection
 */

/** @typedef {import('./protocol.js').Request} Request */
/** @typedef {import('./protocol.js').ServerMessage} ServerMessage */

const MIN_DELAY = 400;
const MAX_DELAY = 8000;
/** Requests that move the connection into a room (a game, a table): answered with `joined` (or an error). */
const JOINS = new Set(['new', 'open', 'host', 'join']);
/** A page's own address names its room: `/play/ID`. */
const PLAY_PATH = /^\/play\/([A-Za-z0-9_-]{16})(?:$|[/?#])/;

export class Connection extends EventTarget {
  /** @param {string} [url]  defaults to ws(s)://<this host>/ws */
  constructor(url) {
    super();
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.base = url ?? `${scheme}//${location.host}/ws`;
    /**
     * The room whose address the socket uses, once known (from the page's path, or the
     * latest `joined` when servers share the rooms).
     * @type {string|null}
     */
    this.room = PLAY_PATH.exec(location.pathname)?.[1] ?? null;
    /** The id of the join the latest `joined` answered (null before one, or for none waiting). */
    this.answered = null;
    /** Whether several servers share the rooms (the latest `welcome` said so). */
    this.shared = false;
    /** Whether the socket is being closed to move to the room's address (no `close` event). */
    this.moving = false;
    /** @type {WebSocket|null} */
    this.socket = null;
    /**
     * Messages sent while the socket was not open, sent on open (after the greeting).
     * @type {{id: number, text: string}[]}
     */
    this.queue = [];
    /**
     * The `new` and `open` requests not answered yet, oldest first, with their text (sent
     * again when the socket drops before their answer).
     * @type {{id: number, text: string, sent: boolean}[]}
     */
    this.joins = [];
    /**
     * Promises waiting for the reply to a request, by id.
     * @type {Map<number, {resolve: (message: ServerMessage|null) => void, sent: boolean}>}
     */
    this.waiting = new Map();
    /**
     * The messages to send first on every open; `reopen` is true after a drop.
     * @type {(reopen: boolean) => Request[]}
     */
    this.greet = () => [];
    this.nextId = 1;
    /** The newest request's id that is not a quiet one (`lastAsked`). */
    this.asked = 0;
    this.delay = MIN_DELAY;
    this.everOpened = false;
    this.closedByUs = false;
  }

  /** @returns {string} the address the socket opens: the room's own when it has one. */
  get url() {
    return this.room ? `${this.base}?room=${encodeURIComponent(this.room)}` : this.base;
  }

  /** Opens the socket (again). */
  connect() {
    this.closedByUs = false;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      if (this.socket !== socket) return;
      this.delay = MIN_DELAY;
      const reopen = this.everOpened;
      const moved = this.moving;
      this.moving = false;
      this.everOpened = true;
      for (const message of this.greet(reopen)) this.transmit(this.stamp(message));
      // NB: a join lost with the old socket goes first: the page is waiting for its room.
      const lost = this.joins.filter((join) => !join.sent && !this.queue.some((q) => q.id === join.id));
      for (const entry of [...lost, ...this.queue.splice(0)]) this.transmit(entry);
      this.emit(reopen && !moved ? 'reopen' : 'open', null);
    });
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      // What was sent on this socket will not be answered: joins are sent again on the next
      // open; other requests' waiters learn that their answer is lost.
      for (const join of this.joins) join.sent = false;
      for (const [id, waiter] of this.waiting) {
        if (!waiter.sent) continue;
        this.waiting.delete(id);
        waiter.resolve(null);
      }
      if (this.moving) {
        // NB: a move to the room's own address is no drop: straight on, nothing to tell.
        this.connect();
        return;
      }
      this.emit('close', null);
      if (this.closedByUs) return;
      const wait = this.delay * (0.75 + Math.random() * 0.5);
      this.delay = Math.min(MAX_DELAY, this.delay * 2);
      window.setTimeout(() => this.connect(), wait);
    });
  }

  /** @returns {boolean} whether the socket is open now. */
  get isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** @returns {number} the id of the newest request sent (0 before the first). */
  get lastId() {
    return this.nextId - 1;
  }

  /** @returns {number} the id of the newest request sent but not as a quiet one (0 before). */
  get lastAsked() {
    return this.asked;
  }

  /** @returns {boolean} whether a `new` or `open` is still waiting for its `joined`. */
  get joining() {
    return this.joins.length > 0;
  }

  /**
   * Gives a request its id and text; notes a join.
   * @param {Request} message
   * @param {boolean} [quiet]  a read the page makes by itself (not `lastAsked`)
   * @returns {{id: number, text: string}}
   */
  stamp(message, quiet = false) {
    const id = this.nextId++;
    if (!quiet) this.asked = id;
    const entry = { id, text: JSON.stringify({ ...message, id }) };
    if (JOINS.has(message.cmd)) this.joins.push({ ...entry, sent: false });
    return entry;
  }

  /**
   * Writes a stamped request to the open socket.
   * @param {{id: number, text: string}} entry
   */
  transmit(entry) {
    /** @type {WebSocket} */ (this.socket).send(entry.text);
    const join = this.joins.find((j) => j.id === entry.id);
    if (join) join.sent = true;
    const waiter = this.waiting.get(entry.id);
    if (waiter) waiter.sent = true;
  }

  /**
   * Sends a message, adding a fresh request id; queued while disconnected.
   * @param {Request} message  e.g. `{cmd: 'act', action: {...}, version: 3}`
   * @returns {number} the request id (the server copies it into `reply`)
   */
  send(message) {
    const entry = this.stamp(message);
    if (this.isOpen) this.transmit(entry);
    else this.queue.push(entry);
    return entry.id;
  }

  /**
   * Sends a message and resolves with its reply (an answer, update or error carrying its id),
   * or with null when the connection dropped before the reply came.
   * @param {Request} message
   * @param {{quiet?: boolean}} [how]  quiet: a read the page makes by itself, such as the end
   *   of a game's results (not counted as `lastAsked`)
   * @returns {Promise<ServerMessage|null>}
   */
  request(message, how = {}) {
    const entry = this.stamp(message, how.quiet === true);
    const promise = new Promise((resolve) => { this.waiting.set(entry.id, { resolve, sent: false }); });
    if (this.isOpen) this.transmit(entry);
    else this.queue.push(entry);
    return /** @type {Promise<ServerMessage|null>} */ (promise);
  }

  /** @param {string} data */
  receive(data) {
    /** @type {ServerMessage} */
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      console.warn('CardTable: a message that is not JSON', data);
      return;
    }
    if (!message || typeof message.type !== 'string') return;
    const reply = 'reply' in message ? message.reply : undefined;
    if (message.type === 'welcome') this.shared = message.shared === true;
    if (message.type === 'error' && message.error.code === 'room-elsewhere') {
      this.elsewhere(typeof reply === 'number' ? reply : null);
      return;
    }
    if (message.type === 'joined') {
      // NB: the server handles a connection's messages in order, so a `joined` answers the
      // oldest join waiting (when it carries no `reply` of its own).
      const at = typeof reply === 'number' ? this.joins.findIndex((j) => j.id === reply) : 0;
      this.answered = at >= 0 ? this.joins[at]?.id ?? null : null;
      if (at >= 0) this.joins.splice(0, at + 1);
    } else if (message.type === 'error' && typeof reply === 'number') {
      const at = this.joins.findIndex((j) => j.id === reply);
      if (at >= 0) this.joins.splice(at, 1);
    }
    this.emit('message', message);
    if (message.type === 'joined' && this.shared && message.room !== this.room) {
      this.room = message.room;
      this.moveSoon();
    }
    if (typeof reply === 'number' && message.type !== 'joined') {
      const waiter = this.waiting.get(reply);
      if (waiter) {
        this.waiting.delete(reply);
        waiter.resolve(message);
      }
    }
  }

  /** Moves the socket to the room's own address, once the page has drawn what came. */
  moveSoon() {
    window.setTimeout(() => {
      if (!this.socket || this.closedByUs || this.moving) return;
      this.moving = true;
      this.socket.close();
    }, 0);
  }

  /**
   * The room is run by another server (it is moving): connect again by its address, and send
   * the join that was refused (or open the room on screen) once there.
   * @param {number|null} reply  the refused request, if the error answered one
   */
  elsewhere(reply) {
    const join = this.joins.find((j) => j.id === reply);
    if (join) {
      const asked = JSON.parse(join.text);
      if (typeof asked.room === 'string') this.room = asked.room;
    }
    // NB: a request that is not a join is lost with the socket: its waiter learns so.
    this.socket?.close();
  }

  /**
   * @param {string} type
   * @param {ServerMessage|null} detail
   */
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /** Closes for good (no reconnect). */
  close() {
    this.closedByUs = true;
    this.socket?.close();
  }
}
