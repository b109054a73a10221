// @ts-check
/**
 * The top bar on one row at every width, and its **More** menu (docs/WEB.md, Top bar).
 *
 * More holds what a player seldom needs — the Sound switch, Large cards, the Dark theme switch
 * and the link to the scores — behind one disclosure button. Its button says whether the panel
 * is open (`aria-expanded`); the panel follows it in the tab order, and its controls keep their
 * own roles and names. Escape closes the panel and gives the focus back to the button; a click
 * outside, the focus going elsewhere, or following a link closes it too.
 *
 * The bar never wraps: the title keeps its whole width, and when the screen's buttons do not
 * fit beside it (a phone, after Step through has come), the least needed of them — How to play,
 * Play against, Play with friends, Step through (each game's end shows its own), the CardTable
 * home link, then
 * the screen's others from the last — leave the bar for the top of the panel, each as a button
 * or link of the same name that does what it does. They come back as soon as there is room.
 * @module topbar
 */
import { el } from './dom.js';

/** The buttons that leave a full bar first, in this order. */
const FIRST_TO_GO = ['.how-to-play-button', '.table-help-button', '.opponent-choice', '.play-with-friends', '.step-through'];
/** What a stand-in copies from the button it stands for. */
const COPIED = ['title', 'aria-haspopup', 'aria-disabled', 'aria-pressed'];

/**
 * Wires the More button to its panel, and keeps `toolbar` (the screen's buttons) on the bar's row.
 * @param {{bar: HTMLElement, title: HTMLElement, toolbar: HTMLElement, button: HTMLButtonElement, panel: HTMLElement}} parts
 *   `button` has `aria-controls` naming `panel`, which starts `hidden`
 * @returns {{close: () => void}}
 */
export function setUpTopBar({ bar, title, toolbar, button, panel }) {
  const menu = /** @type {HTMLElement} */ (button.parentElement);
  const brand = /** @type {HTMLElement} */ (bar.querySelector('.brand'));
  const moved = el('div.more-moved', { hidden: true });
  panel.prepend(moved);
  const open = () => panel.hidden === false;
  /** @param {boolean} value */
  function show(value) {
    panel.hidden = !value;
    button.setAttribute('aria-expanded', String(value));
  }
  /** @param {boolean} [refocus]  gives the focus back to the button */
  function close(refocus = false) {
    if (!open()) return;
    show(false);
    if (refocus) button.focus();
  }
  button.addEventListener('click', () => show(!open()));
  menu.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !open()) return;
    // NB: this Escape is the menu's, not a game's key.
    event.stopPropagation();
    close(true);
  });
  document.addEventListener('pointerdown', (event) => {
    if (!menu.contains(/** @type {Node} */ (event.target))) close();
  }, { capture: true });
  menu.addEventListener('focusout', (event) => {
    const next = /** @type {Node|null} */ (event.relatedTarget);
    if (next && !menu.contains(next)) close();
  });
  panel.addEventListener('click', (event) => {
    if (/** @type {HTMLElement} */ (event.target).closest?.('a')) close();
  });
  show(false);

  /**
   * A stand-in in the panel for `item`, which has left the bar.
   * @param {HTMLElement} item
   */
  function standIn(item) {
    // NB: a choice (Play against) stands in as a copy of itself whose change is the original's.
    const select = item.querySelector('select');
    if (select) {
      const copy = /** @type {HTMLElement} */ (item.cloneNode(true));
      copy.classList.remove('overflowed');
      const mirror = /** @type {HTMLSelectElement} */ (copy.querySelector('select'));
      mirror.value = select.value;
      mirror.addEventListener('change', () => {
        close(true);
        select.value = mirror.value;
        select.dispatchEvent(new Event('change'));
      });
      return copy;
    }
    // NB: a button named by aria-label ("How to play", shown as "?") shows its name here.
    const text = item.getAttribute('aria-label') ?? item.textContent ?? '';
    const copy = item instanceof HTMLAnchorElement
      ? el('a.btn.ghost', { href: item.getAttribute('href') ?? '/', dataset: { ...item.dataset }, text })
      : el('button.btn.ghost', { type: 'button', text, disabled: /** @type {HTMLButtonElement} */ (item).disabled, onclick: () => {
        // NB: a dialog it opens gives the focus back to More, which stays on the bar.
        close(true);
        item.click();
      } });
    for (const name of COPIED) {
      const value = item.getAttribute(name);
      if (value !== null) copy.setAttribute(name, value);
    }
    return copy;
  }

  let fitting = 0;
  /** Puts back every button, then sends the least needed to the panel until the row fits. */
  function fit() {
    fitting = 0;
    const items = /** @type {HTMLElement[]} */ ([brand, ...toolbar.children]);
    for (const item of items) item.classList.remove('overflowed');
    const shown = items.filter((item) => item !== brand && item.getClientRects().length > 0);
    const order = [
      ...FIRST_TO_GO.flatMap((selector) => shown.filter((item) => item.matches(selector))),
      brand,
      ...shown.filter((item) => !FIRST_TO_GO.some((selector) => item.matches(selector))).reverse(),
    ];
    const full = () => bar.scrollWidth > bar.clientWidth + 0.5 || title.scrollWidth > title.clientWidth + 0.5;
    /** @type {HTMLElement[]} */
    const out = [];
    for (const item of order) {
      if (!full()) break;
      item.classList.add('overflowed');
      out.push(item);
    }
    // The more needed of those sent away come back where the room left allows (the home link
    // beside a title that kept its row by a wide button's going).
    for (const item of out.slice(0, -1).reverse()) {
      item.classList.remove('overflowed');
      if (full()) item.classList.add('overflowed');
    }
    const gone = items.filter((item) => item.classList.contains('overflowed'));
    moved.replaceChildren(...gone.map(standIn));
    moved.hidden = gone.length === 0;
    // NB: for tests: the width the bar was last fitted to.
    bar.dataset.fitted = String(bar.clientWidth);
  }
  const later = () => {
    // NB: for tests: a fit is due, so the width last fitted to no longer says the bar fits (a
    // button added after a fit showed it fitted for a frame while it overflowed).
    delete bar.dataset.fitted;
    if (!fitting) fitting = requestAnimationFrame(fit);
  };
  new ResizeObserver(later).observe(bar);
  // NB: not `class`: fit() sets it.
  new MutationObserver(later).observe(toolbar, {
    childList: true, subtree: true, characterData: true, attributes: true,
    attributeFilter: ['hidden', 'disabled', 'aria-disabled', 'aria-label', 'aria-pressed', 'title', 'href'],
  });
  new MutationObserver(later).observe(title, { childList: true, subtree: true, characterData: true });
  // A table's screen shows fewer of the bar's buttons (app.css, body[data-table]).
  new MutationObserver(later).observe(document.body, { attributes: true, attributeFilter: ['data-table', 'data-screen'] });
  document.fonts?.ready.then(later);
  later();
  return { close: () => close() };
}
