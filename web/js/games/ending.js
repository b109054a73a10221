// @ts-check
/**
 * The end of a game, the same in every game: a summary that fits the game (what was found,
 * the score, the time), *New best* when the server says the game bettered the player's
 * earlier ones (`results`' `best`, docs/PROTOCOL.md), and for today's deal a short text to
 * share, copied with one click. The ways on (Play again, Step through, the menu) are the
 * screen's own buttons; the screens also time the game on screen with `gameClock`.
 * @module games/ending
 */
import { el, setText } from '../dom.js';
import { announce } from '../a11y.js';

/** @typedef {[label: string, value: string]} Fact */

/**
 * `m:ss` (or `h:mm:ss`) of a number of seconds.
 * @param {number} seconds
 * @returns {string}
 */
export function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * Each player's pairs at a table played in turns (Memory, Concentration): `You 1 pair`.
 * @param {{player: string, pairs: number}[]} players
 * @param {string|null} me
 * @returns {Fact[]}
 */
export function pairFacts(players, me) {
  return players.map((p) => [p.player === me ? 'You' : p.player, `${p.pairs} ${p.pairs === 1 ? 'pair' : 'pairs'}`]);
}

/**
 * The date of today's deal as people write it: `2026-12-02` → `2 Dec 2026`.
 * @param {string} day  `YYYY-MM-DD` (UTC)
 * @returns {string}
 */
export function dayText(day) {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/**
 * The time of the game on screen: the server's clock at the last update (`clock`, and `began`
 * when the game's time began later than the match's deal), run on locally while it plays.
 */
export class GameClock {
  constructor() {
    this.base = 0;
    this.began = 0;
    this.at = 0;
    this.started = true;
    this.running = false;
  }

  /**
   * @param {{clock?: number, began?: number|null, over?: boolean}} view
   * @param {boolean} [started]  false while the game's time has not begun (Concentration
   *   before its first card)
   */
  update(view, started = true) {
    this.base = view.clock ?? 0;
    this.began = view.began ?? 0;
    this.at = performance.now();
    this.started = started;
    this.running = started && !view.over;
  }

  /** @returns {number} seconds of the game so far */
  get seconds() {
    if (!this.started) return 0;
    return Math.max(0, this.base - this.began + (this.running ? (performance.now() - this.at) / 1000 : 0));
  }

  /** @returns {string} */
  get text() {
    return clockText(this.seconds);
  }
}

/**
 * The summary of a game that just ended, drawn into a section; the time and a new best come
 * from the room's `results` (the record of the game just finished), when the server answers.
 * @param {object} args
 * @param {import('../connection.js').Connection} args.conn
 * @param {string} args.title  the game's title, e.g. `Set`
 * @param {Fact[]} args.facts  what the game counts, e.g. `['Sets found', '27']`
 * @param {string} args.headline  the share text's words, e.g. `27 sets`
 * @param {string|null} args.today  the day of today's deal (`YYYY-MM-DD`), or null
 * @param {number} args.seconds  the time on screen, until the record's comes
 * @returns {HTMLElement}
 */
export function endSummary({ conn, title, facts, headline, today, seconds }) {
  const time = el('dd.summary-time', { text: clockText(seconds) });
  const list = el('dl.summary-facts', {},
    ...facts.flatMap(([label, value]) => [el('dt', { text: label }), el('dd', { text: value })]),
    el('dt', { text: 'Time' }), time);
  const best = el('p.new-best', { hidden: true, role: 'status' });
  const root = el('section.end-summary', { 'aria-label': 'Summary' }, list, best);
  const share = today ? shareBox(`CardTable ${title} — ${dayText(today)} — ${headline}`, seconds) : null;
  if (share) root.append(share.root);
  conn.request({ cmd: 'results' }, { quiet: true }).then((reply) => {
    if (!reply || reply.type !== 'answer') return;
    const results = /** @type {{duration?: number, ending?: string, best?: string[]}[]} */ (reply.results ?? []);
    const last = results[results.length - 1];
    if (!last || last.ending !== 'finished') return;
    if (typeof last.duration === 'number') {
      setText(time, clockText(last.duration));
      share?.time(last.duration);
    }
    // NB: the server marks only the asking player's own won games (the page ranks nothing).
    const bests = last.best ?? [];
    const words = bests.includes('score') && bests.includes('time') ? 'New best score and time!'
      : bests.includes('score') ? 'New best score!' : bests.includes('time') ? 'New best time!' : '';
    if (words) {
      setText(best, words);
      best.hidden = false;
      announce(words);
    }
  });
  return root;
}

/**
 * Today's deal's text to share and its Copy button.
 * @param {string} words  the text before the time
 * @param {number} seconds
 */
function shareBox(words, seconds) {
  const text = (/** @type {number} */ s) => `${words}, ${clockText(s)}`;
  const output = /** @type {HTMLInputElement} */ (el('input.share-text', { type: 'text', readOnly: true, 'aria-label': 'Text to share', value: text(seconds) }));
  const done = el('span.share-done', { role: 'status' });
  const copy = el('button.btn.share-copy', { type: 'button', text: 'Copy', onclick: async () => {
    try {
      await navigator.clipboard.writeText(output.value);
    } catch {
      // NB: without the clipboard API (an insecure origin, a refused permission) the text is
      // selected and copied the old way.
      output.select();
      document.execCommand('copy');
    }
    setText(done, 'Copied');
  } });
  const root = el('div.share', {}, el('p.share-label', { text: 'Share today’s deal:' }), el('div.share-row', {}, output, copy), done);
  return {
    root,
    /** @param {number} s  the record's time */
    time(s) { output.value = text(s); },
  };
}
