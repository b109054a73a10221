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
 * Shows a big short-lived word over an element (a call's verdict).
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

/**
 * FLIP: the boxes of `cards` now, by key (a card's face), to animate from after the layout changes.
 * @param {Iterable<HTMLElement>} cards
 * @param {(card: HTMLElement) => string|undefined} key
 * @returns {Map<string, DOMRect>}
 */
export function measure(cards, key) {
  /** @type {Map<string, DOMRect>} */
  const boxes = new Map();
  for (const card of cards) {
    const k = key(card);
    // NB: the box as drawn (a running move included), so that an interrupted move goes on from there.
    if (k && card.isConnected && card.getClientRects().length) boxes.set(k, card.getBoundingClientRect());
  }
  return boxes;
}

/**
 * FLIP, the rest: every card whose key was measured before and whose box changed glides from
 * its old box to its new one; cards new to the table grow in; cards that left fade out where
 * they were (`gone`: their old boxes and faces). Nothing moves under prefers-reduced-motion.
 * The moves are Web Animations on `transform` (composited onto the card's own), class
 * `flip-move` on the card while it moves.
 * @param {Map<string, DOMRect>} before  from `measure`
 * @param {Iterable<HTMLElement>} cards  the cards now
 * @param {(card: HTMLElement) => string|undefined} key
 * @param {{duration?: number, ghost?: (key: string) => Element|null}} [options]
 *   `ghost`: a picture of a card that left the table, to fade out at its old place
 */
export function glide(before, cards, key, options = {}) {
  const { duration = 360, ghost } = options;
  if (reducedMotion()) return;
  /** @type {Set<string>} */
  const present = new Set();
  const list = [...cards];
  for (const card of list) for (const running of card.getAnimations()) if (running.id === 'flip-move') running.cancel();
  for (const card of list) {
    const k = key(card);
    if (!k || !card.getClientRects().length) continue;
    present.add(k);
    const now = card.getBoundingClientRect();
    const was = before.get(k);
    if (!was) {
      if (before.size) {
        card.animate([{ transform: 'scale(.5)' }, { transform: 'scale(1)' }],
          { duration, easing: 'cubic-bezier(.2,.7,.3,1)', composite: 'add', id: 'flip-move' });
      }
      continue;
    }
    // NB: centre to centre, and scaled about the centre (the cards' own transform-origin).
    const dx = was.left + was.width / 2 - (now.left + now.width / 2), dy = was.top + was.height / 2 - (now.top + now.height / 2);
    const sx = now.width ? was.width / now.width : 1, sy = now.height ? was.height / now.height : 1;
    if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5 && Math.abs(sx - 1) < 0.01 && Math.abs(sy - 1) < 0.01) continue;
    const move = card.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` },
      { transform: 'translate(0, 0) scale(1, 1)' },
    ], { duration, easing: 'cubic-bezier(.2,.7,.3,1)', composite: 'add', id: 'flip-move' });
    card.classList.add('flip-move');
    move.finished.catch(() => {}).then(() => card.classList.remove('flip-move'));
  }
  if (!ghost) return;
  for (const [k, was] of before) {
    if (present.has(k)) continue;
    const picture = ghost(k);
    if (!picture) continue;
    const node = el('div.flying-card.leaving-card', { 'aria-hidden': 'true' }, picture);
    Object.assign(node.style, { left: `${was.left}px`, top: `${was.top}px`, width: `${was.width}px`, height: `${was.height}px` });
    document.body.append(node);
    node.animate([{ transform: 'none', opacity: 1 }, { transform: 'scale(.7) translateY(-20%)', opacity: 0 }],
      { duration, easing: 'ease-in', fill: 'forwards' }).finished.catch(() => {}).then(() => node.remove());
  }
}
