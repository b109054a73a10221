// @ts-check
/**
 * Accessibility helpers: the live-region announcer, reduced motion and arrow-key grids.
 * @module a11y
 */

const motionQuery = window.matchMedia('(prefers-reduced-motion: reduce)');

/** @returns {boolean} true when the player asked the system for less motion. */
export function reducedMotion() {
  return motionQuery.matches;
}

let announceTimer = 0;
/**
 * Reads `text` to screen-reader users through the page's polite live region.
 * @param {string} text
 */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region || !text) return;
  clearTimeout(announceTimer);
  region.textContent = '';
  // NB: a fresh text node after a tick makes repeated messages be read again.
  announceTimer = window.setTimeout(() => { region.textContent = text; }, 30);
}

/**
 * Lets the arrow keys move the focus between the card buttons of a grid.
 * Left/Right step by one card, Up/Down by a row, Home/End jump to the first/last card.
 * @param {HTMLElement} container  the element holding the card buttons
 * @param {() => number|{across: number, down: number}} columns  the current number of columns (may
 *   change on resize), or the index steps of one card across and one row down (a transposed table)
 * @param {string} [selector]  which children are the cards
 */
export function gridKeys(container, columns, selector = 'button.card') {
  container.addEventListener('keydown', (event) => {
    const shape = columns();
    // A number: the columns of a grid in reading order; else the index steps across and down.
    const across = typeof shape === 'number' ? 1 : shape.across, down = typeof shape === 'number' ? shape : shape.down;
    /** @type {Record<string, number>} */
    const steps = { ArrowLeft: -across, ArrowRight: across, ArrowUp: -down, ArrowDown: down };
    const cards = [.../** @type {NodeListOf<HTMLElement>} */ (container.querySelectorAll(selector))];
    const from = cards.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (from < 0) return;
    let to;
    if (event.key in steps) {
      to = from + steps[event.key];
      const step = Math.sign(steps[event.key]);
      // Skip cards that left the table (hidden), in the direction of travel.
      while (to >= 0 && to < cards.length && !isVisible(cards[to])) to += step;
    } else if (event.key === 'Home') to = cards.findIndex(isVisible);
    else if (event.key === 'End') to = cards.map(isVisible).lastIndexOf(true);
    else return;
    if (to >= 0 && to < cards.length && isVisible(cards[to])) {
      event.preventDefault();
      cards[to].focus();
    }
  });
}

/** @param {HTMLElement} node */
function isVisible(node) {
  return !node.hidden && !node.classList.contains('gone');
}
