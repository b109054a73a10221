// @ts-check
/**
 * Snap!'s dealing countdown: while the cards are dealt (RULES §7, a 5.2 s pause before play),
 * a visible timer shows the seconds left — `Play starts in 5`, `4`, … — for everyone, and
 * above all under reduced motion, where the deal shows at once and nothing else moves.
 *
 * The time left comes from the view's clock: round 1 is dealt at 0 on the match's clock, a
 * later round at the clock of the update that brings its `dealt` event. Between updates the
 * page counts down on its own clock from the moment the update arrived.
 * @module games/dealing
 */
import { el, setText } from '../dom.js';

/** RULES §7: the pause after the cards are dealt, in seconds. */
export const DEALING_PAUSE = 5.2;

/**
 * @typedef {object} DealCountdown
 * @property {HTMLElement} root  the timer (hidden when no deal is on)
 * @property {(view: import('./views.js').SnapView & {clock?: number}, events: {type: string}[]) => void} update
 *   takes a live update's view and events
 * @property {() => void} stop  hides the timer (e.g. while stepping through)
 */

/** @returns {DealCountdown} */
export function dealCountdown() {
  const root = el('p.deal-countdown', { role: 'timer', 'aria-live': 'polite', 'aria-atomic': 'true', hidden: true });
  /** @type {{round: number, dealtAt: number}|null} when the round on screen was dealt, on the game's clock */
  let deal = null;
  let end = 0;
  let timer = 0;
  let shown = -1;

  function tick() {
    // NB: never 0 while the view still says dealing: play starts when the server says so.
    const left = Math.max(1, Math.round((end - performance.now()) / 1000));
    if (left !== shown) {
      shown = left;
      setText(root, `Play starts in ${left}`);
    }
  }

  function stop() {
    window.clearInterval(timer);
    timer = 0;
    shown = -1;
    root.hidden = true;
    root.textContent = '';
  }

  return {
    root,
    stop,
    update(view, events) {
      if (view.phase !== 'dealing') { stop(); return; }
      const clock = typeof view.clock === 'number' ? view.clock : null;
      if (events.some((e) => e.type === 'dealt') && clock !== null) deal = { round: view.round, dealtAt: clock };
      else if (deal?.round !== view.round) {
        // NB: round 1 is dealt by `new` (or `start`) at 0; a later round opened mid-deal
        // without its `dealt` event counts the whole pause from now.
        deal = { round: view.round, dealtAt: view.round === 1 || clock === null ? 0 : clock };
      }
      const left = clock === null ? DEALING_PAUSE : Math.min(DEALING_PAUSE, Math.max(0, DEALING_PAUSE - (clock - deal.dealtAt)));
      end = performance.now() + left * 1000;
      root.hidden = false;
      tick();
      if (!timer) timer = window.setInterval(tick, 100);
    },
  };
}
