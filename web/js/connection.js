// @ts-check
/**
 * The WebSocket to `cardtable serve` (docs/PROTOCOL.md): one connection to `/ws` on the
 * page's own host, reconnected with exponential backoff, with request ids.
 *
 * Events dispatched (CustomEvent, `detail` = the server message):
 *   `welcome`, `update`, `answer`, `error` — as the server sends them;
 *   `open`, `reopen` (after a reconnect: the server dropped the old room), `close`.
 * @module connection
 */

const MIN_DELAY = 400;
const MAX_DELAY = 8000;

export class Connection extends EventTarget {
  /** @param {string} [url]  defaults to ws(s)://<this host>/ws */
  constructor(url) {
    super();
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.url = url ?? `${scheme}//${location.host}/ws`;
    /** @type {WebSocket|null} */
    this.socket = null;
    /**
     * Messages sent while the socket was not open, sent on open.
     * @type {string[]}
     */
    this.queue = [];
    this.nextId = 1;
    this.delay = MIN_DELAY;
    this.everOpened = false;
    this.closedByUs = false;
  }

  /** Opens the socket (again). */
  connect() {
    this.closedByUs = false;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.delay = MIN_DELAY;
      const type = this.everOpened ? 'reopen' : 'open';
      this.everOpened = true;
      const pending = this.queue.splice(0);
      for (const text of pending) socket.send(text);
      this.emit(type, null);
    });
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
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

  /**
   * Sends a message, adding a fresh request id; queued while disconnected.
   * @param {import('./protocol.js').Request} message  e.g. `{cmd: 'act', action: {...}, version: 3}`
   * @returns {number} the request id (the server copies it into `reply`)
   */
  send(message) {
    const id = this.nextId++;
    const text = JSON.stringify({ ...message, id });
    if (this.socket && this.isOpen) this.socket.send(text);
    else this.queue.push(text);
    return id;
  }

  /** @param {string} data */
  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      console.warn('CardTable: a message that is not JSON', data);
      return;
    }
    if (message && typeof message.type === 'string') this.emit(message.type, message);
  }

  /**
   * @param {string} type
   * @param {import('./protocol.js').ServerMessage|null} detail
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
