// @ts-check
/**
 * The matching games' history (RULES §1): the History dialog with its scrubber, and Set cards
 * in entries drawn as coloured symbols.
 * @module games/matching/history
 */
import { el, showDialog } from '../../dom.js';
import { setSymbolsInline } from '../../cards.js';

const SET_TEXT = /(?:diamond|squiggle|oval):(?:red|green|purple):(?:solid|striped|open):[123]/g;

/**
 * An entry (or status line) as nodes: in Set, card texts become coloured symbols; other text
 * stays text.
 * @param {string} entry
 * @param {'matchismo'|'set'} game
 * @returns {(string|HTMLElement)[]}
 */
export function entryNodes(entry, game) {
  if (game !== 'set') return [entry];
  const nodes = [];
  let last = 0;
  for (const m of entry.matchAll(SET_TEXT)) {
    const at = m.index ?? 0;
    nodes.push(entry.slice(last, at), setSymbolsInline(m[0]));
    last = at + m[0].length;
  }
  nodes.push(entry.slice(last));
  return nodes;
}

/**
 * The History dialog: the numbered entries (`%2d: entry`, a blank line between), oldest
 * first, with a scrubber that steps back through them (older entries dimmed, later ones hidden).
 * @param {string[]} entries
 * @param {'matchismo'|'set'} game
 */
export function openHistory(entries, game) {
  const lines = entries.map((entry, i) => el('span.history-entry', {}, `${String(i + 1).padStart(2, ' ')}: `, ...entryNodes(entry, game)));
  const pre = el('pre.history-text', { tabindex: '0', 'aria-label': 'History entries' });
  lines.forEach((line, i) => { if (i) pre.append('\n\n'); pre.append(line); });
  if (!entries.length) pre.append('No moves yet.');
  const scrubber = /** @type {HTMLInputElement} */ (el('input.scrubber', { type: 'range', min: 1, max: Math.max(1, entries.length), value: Math.max(1, entries.length), 'aria-label': 'History position', disabled: entries.length < 2 }));
  const current = el('p.history-current', { 'aria-live': 'polite' });
  const show = () => {
    const at = Number(scrubber.value);
    // The chosen entry: dimmed while it is an old one, at full strength when it is the newest.
    current.replaceChildren(...(entries[at - 1] ? [`${String(at).padStart(2, ' ')}: `, ...entryNodes(entries[at - 1], game)] : []));
    current.classList.toggle('old', at < entries.length);
    scrubber.setAttribute('aria-valuetext', entries[at - 1] ? `${at}: ${entries[at - 1]}` : 'empty');
    lines.forEach((line, i) => {
      line.classList.toggle('older', i + 1 < at);
      line.hidden = i + 1 > at;
      // NB: hidden entries also drop their separating blank line.
      if (line.previousSibling?.nodeType === Node.TEXT_NODE) line.previousSibling.textContent = i + 1 > at ? '' : '\n\n';
    });
  };
  scrubber.addEventListener('input', show);
  show();
  showDialog({ title: 'History', body: el('div.history-body', {}, scrubber, current, pre), className: 'history-dialog', buttons: [{ label: 'Close', value: 'close', primary: true }] });
}
