// @ts-check
/**
 * Set's colours: the standard red, green and purple, or a colour-blind-safe palette (after
 * Okabe & Ito: a dark vermillion, their bluish green and a deep purple), apart in greyscale too.
 * The cards keep their names (red, green, purple): those are the card's identity, only the ink
 * changes. The choice is this browser's look, not a game option, so it is kept in localStorage
 * (`cardtable.setPalette`) and shown as `data-set-palette` on <html>; css/features.css holds
 * both palettes as `--set-red`, `--set-green` and `--set-purple`, which js/cards.js paints with.
 * @module palette
 */

const KEY = 'cardtable.setPalette';

/** @typedef {'standard'|'safe'} SetPalette */

/** @returns {SetPalette} the palette this browser chose (standard unless it chose the safe one) */
export function setPalette() {
  try {
    return localStorage.getItem(KEY) === 'safe' ? 'safe' : 'standard';
  } catch {
    return 'standard';
  }
}

/** @param {SetPalette} palette */
function show(palette) {
  if (palette === 'safe') document.documentElement.dataset.setPalette = 'safe';
  else delete document.documentElement.dataset.setPalette;
}

/**
 * Keeps and shows a palette.
 * @param {SetPalette} palette
 */
export function chooseSetPalette(palette) {
  // NB: without storage (private mode) the choice holds for this page only.
  try {
    if (palette === 'safe') localStorage.setItem(KEY, 'safe');
    else localStorage.removeItem(KEY);
  } catch { /* not remembered */ }
  show(palette);
}

show(setPalette());
