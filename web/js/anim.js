// @ts-check
/**
 * Decorative animations: cards flying between piles, splashes and table flashes.
 * They never change game state and are skipped entirely under prefers-reduced-motion.
 * @module anim
 */
import { el } from './dom.js';
import { reducedMotion } from './a11y.js';
import { backSVG, cardFaceSVG } from './cards.js';

/**
 * Flies a card image from one element's box to another's.
 * @param {Element} from
 * @param {Element} to
 * @param {{face?: string|null, delay?: number, duration?: number}} options
 *   `face`: card text to show face up (else a card back)
 * @returns {Promise<void>} resolves when the card has landed
 */
export function flyCard(from, to, { face = null, delay = 0, duration = 320 } = {}) {
  if (reducedMotion() || !from || !to) return Promise.resolve();
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return Promise.resolve();
  const ghost = el('div.flying-card', { 'aria-hidden': 'true' });
  ghost.append(face ? cardFaceSVG(face) : backSVG());
  // NB: invisible until its delay is over (cards waiting their turn would pile up their shadows).
  Object.assign(ghost.style, { left: `${a.left}px`, top: `${a.top}px`, width: `${a.width}px`, height: `${a.height}px`, opacity: '0' });
  document.body.append(ghost);
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top + b.height / 2 - (a.top + a.height / 2);
  const scale = b.width / a.width;
  const animation = ghost.animate([
    { transform: 'translate(0, 0) rotate(0deg)', opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) rotate(${dx > 0 ? 8 : -8}deg) scale(${scale})`, opacity: 1 },
  ], { duration, delay, easing: 'cubic-bezier(.2,.7,.3,1)', fill: 'forwards' });
  return animation.finished.catch(() => {}).then(() => ghost.remove());
}

/**
 * Shows a big short-lived word over an element (Snap! verdicts).
 * @param {Element} over
 * @param {string} text
 * @param {'good'|'bad'|'late'} kind
 */
export function splash(over, text, kind) {
  if (!over) return;
  const r = over.getBoundingClientRect();
  const node = el(`div.splash.splash-${kind}`, { 'aria-hidden': 'true', text });
  Object.assign(node.style, { left: `${r.left + r.width / 2}px`, top: `${r.top + r.height / 2}px` });
  document.body.append(node);
  const ms = reducedMotion() ? 900 : 1100;
  if (!reducedMotion()) {
    node.animate([
      { transform: 'translate(-50%, -50%) scale(.4) rotate(-8deg)', opacity: 0 },
      { transform: 'translate(-50%, -50%) scale(1.1) rotate(-4deg)', opacity: 1, offset: 0.2 },
      { transform: 'translate(-50%, -50%) scale(1) rotate(-4deg)', opacity: 1, offset: 0.8 },
      { transform: 'translate(-50%, -60%) scale(1) rotate(-4deg)', opacity: 0 },
    ], { duration: ms, easing: 'ease-out', fill: 'both' });
  }
  window.setTimeout(() => node.remove(), ms);
}

/**
 * Flashes an element with a CSS class (e.g. the green match flash).
 * @param {HTMLElement} node
 * @param {string} className
 * @param {number} [ms]
 */
export function flash(node, className, ms = 650) {
  node.classList.remove(className);
  void node.offsetWidth; // restart the CSS animation
  node.classList.add(className);
  window.setTimeout(() => node.classList.remove(className), ms);
}
