// @ts-check
/**
 * Stepping through a finished game move by move: First, Previous, Next and Last, a position
 * readout (`Move 3 of 17`) and Back to the game. Each position is the server's `view-at`
 * view (what this player saw after that many actions), drawn read-only by the game's own
 * screen. Keys inside the bar: ←/→ a move, Home/End the ends, Escape back to the game.
 * @module replay
 */
import { el, setText } from './dom.js';

/** @typedef {import('./protocol.js').GameView} GameView */

export class Stepper {
  /**
   * @param {{conn: import('./connection.js').Connection, total: number,
   *   draw: (view: GameView) => void, onExit: () => void}} options
   *   `total`: the live game's version (its number of actions)
   */
  constructor({ conn, total, draw, onExit }) {
    this.conn = conn;
    this.total = total;
    this.draw = draw;
    this.onExit = onExit;
    this.position = 0;
    /** @type {number} the position drawn (-1: none yet) */
    this.shown = -1;
    this.asked = 0;
    const button = (/** @type {string} */ text, /** @type {string} */ label, /** @type {() => void} */ onclick) =>
      el('button.btn.step', { type: 'button', text, 'aria-label': label, onclick });
    this.first = button('First', 'First move', () => this.go(0));
    this.previous = button('◀ Previous', 'Previous move', () => this.go(this.position - 1));
    this.next = button('Next ▶', 'Next move', () => this.go(this.position + 1));
    this.last = button('Last', 'Last move', () => this.go(this.total));
    this.readout = el('output.step-position', { 'aria-live': 'polite' });
    this.back = el('button.btn.primary.step-back', { type: 'button', text: 'Back to the game', onclick: () => this.close() });
    this.root = el('section.stepper', { 'aria-label': 'Step through the game' },
      el('span.step-title', { text: 'Stepping through' }),
      this.first, this.previous, this.readout, this.next, this.last, this.back);
    this.root.addEventListener('keydown', (event) => {
      /** @type {Record<string, () => void>} */
      const keys = {
        ArrowLeft: () => this.go(this.position - 1), ArrowRight: () => this.go(this.position + 1),
        Home: () => this.go(0), End: () => this.go(this.total), Escape: () => this.close(),
      };
      const action = keys[event.key];
      if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      action();
    });
  }

  /** Shows the deal (position 0) and puts the focus on Next. */
  start() {
    this.go(0);
    /** @type {HTMLElement} */ (this.next).focus();
  }

  /**
   * The live game moved on (a watcher sees the player's moves): more positions to step to.
   * @param {number} version
   */
  live(version) {
    if (version < this.total) return;
    this.total = version;
    this.enable();
  }

  /**
   * Goes to a position and draws the view the server gives for it.
   * @param {number} position
   */
  async go(position) {
    const to = Math.max(0, Math.min(this.total, position));
    this.position = to;
    this.enable();
    const ask = ++this.asked;
    const reply = await this.conn.request({ cmd: 'view-at', version: to });
    if (ask !== this.asked || !this.root.isConnected) return;
    if (reply?.type !== 'answer' || !reply.view) {
      setText(this.readout, reply?.type === 'error' ? `Move ${to} cannot be shown: ${reply.error.message}` : 'The connection was lost.');
      return;
    }
    this.draw(reply.view);
    this.shown = to;
    this.root.dataset.shown = String(to);
    setText(this.readout, `Move ${to} of ${this.total}`);
  }

  /** Greys out the buttons that cannot move (kept focusable, so the focus stays put). */
  enable() {
    const atStart = this.position <= 0, atEnd = this.position >= this.total;
    this.first.setAttribute('aria-disabled', String(atStart));
    this.previous.setAttribute('aria-disabled', String(atStart));
    this.next.setAttribute('aria-disabled', String(atEnd));
    this.last.setAttribute('aria-disabled', String(atEnd));
  }

  /** Back to the live game. */
  close() {
    if (!this.root.isConnected) return;
    this.asked++;
    this.root.remove();
    this.onExit();
  }
}
