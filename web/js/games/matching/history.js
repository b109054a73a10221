// @ts-check
/**
 * The matching games' history (RULES §1): the History dialog with its scrubber, which shows
 * the table as it was at the chosen entry (the server's `view-at` for that entry's version),
 * and Set cards in entries drawn as coloured symbols.
 * @module games/matching/history
 */
import { el, showDialog } from '../../dom.js';
import { cardImage, setSymbolsInline } from '../../cards.js';

/** @typedef {import('../views.js').MatchingView} MatchingView */

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
 * A table drawn small and read-only: one card picture per position (face-down cards as
 * backs), chosen and matched cards marked.
 * @param {MatchingView} view
 * @returns {HTMLElement[]}
 */
export function miniTable(view) {
  return view.table.map((slot, i) => {
    const card = cardImage(slot.card, 'mini-card');
    const chosen = slot.chosen && !slot.matched;
    card.classList.toggle('chosen', chosen);
    card.classList.toggle('matched', slot.matched);
    card.dataset.index = String(i);
    const state = slot.matched ? ', matched' : chosen ? ', chosen' : '';
    card.setAttribute('aria-label', `${card.getAttribute('aria-label')}${state}`);
    return card;
  });
}

/**
 * The History dialog: the numbered entries (`%2d: entry`, a blank line between), oldest
 * first, with a scrubber that steps back through them (older entries in a quieter but
 * readable ink, later ones hidden) and the table as it was after the chosen entry.
 * It opens at the newest entry, scrolled into view; its size is fixed (css/features.css),
 * so the scrubber stays put under the pointer while it is dragged.
 * @param {{entries: string[], game: 'matchismo'|'set', conn: import('../../connection.js').Connection}} options
 */
export function openHistory({ entries, game, conn }) {
  /** @type {(number|null)[]} each entry's version, once the server has said */
  let versions = entries.map(() => null);
  const lines = entries.map((entry, i) => el('span.history-entry', {}, `${String(i + 1).padStart(2, ' ')}: `, ...entryNodes(entry, game)));
  const pre = el('pre.history-text', { tabindex: '0', 'aria-label': 'History entries' });
  lines.forEach((line, i) => { if (i) pre.append('\n\n'); pre.append(line); });
  if (!entries.length) pre.append('No moves yet.');
  const scrubber = /** @type {HTMLInputElement} */ (el('input.scrubber', { type: 'range', min: 1, max: Math.max(1, entries.length), value: Math.max(1, entries.length), 'aria-label': 'History position', disabled: entries.length < 2 }));
  const current = el('p.history-current', { 'aria-live': 'polite' });
  const tableTitle = el('p.history-table-title', { id: 'history-table-title' });
  const table = el('div.history-table', { role: 'group', 'aria-labelledby': 'history-table-title', hidden: !entries.length });
  let asked = 0;

  /** Draws the table as it was after the chosen entry. */
  async function showTable() {
    const at = Number(scrubber.value);
    const version = versions[at - 1];
    if (version === null || version === undefined) return;
    const ask = ++asked;
    table.setAttribute('aria-busy', 'true');
    const reply = await conn.request({ cmd: 'view-at', version });
    if (ask !== asked || !table.isConnected) return;
    if (reply?.type !== 'answer' || !reply.view) return;
    table.replaceChildren(...miniTable(/** @type {MatchingView} */ (reply.view)));
    tableTitle.textContent = `The table after entry ${at}`;
    table.dataset.entry = String(at);
    table.dataset.version = String(version);
    table.setAttribute('aria-busy', 'false');
    keepInView();
  }
  /** The chosen entry is the last one shown: scrolls the entries to it. */
  const keepInView = () => { pre.scrollTop = pre.scrollHeight; };

  const show = () => {
    const at = Number(scrubber.value);
    // The chosen entry: dimmed while it is an old one, at full strength when it is the newest.
    current.replaceChildren(...(entries[at - 1] ? [`${String(at).padStart(2, ' ')}: `, ...entryNodes(entries[at - 1], game)] : []));
    current.classList.toggle('old', at < entries.length);
    scrubber.setAttribute('aria-valuetext', entries[at - 1] ? `${at}: ${entries[at - 1]}` : 'empty');
    lines.forEach((line, i) => {
      line.classList.toggle('older', i + 1 < at);
      if (i + 1 === at) line.setAttribute('aria-current', 'true');
      else line.removeAttribute('aria-current');
      line.hidden = i + 1 > at;
      // NB: hidden entries also drop their separating blank line.
      if (line.previousSibling?.nodeType === Node.TEXT_NODE) line.previousSibling.textContent = i + 1 > at ? '' : '\n\n';
    });
    keepInView();
    showTable();
  };
  scrubber.addEventListener('input', show);
  show();
  if (entries.length) {
    conn.request({ cmd: 'history' }).then((reply) => {
      if (reply?.type !== 'answer' || !Array.isArray(reply.entries)) return;
      versions = entries.map((_, i) => reply.entries?.[i]?.version ?? null);
      showTable();
    });
  }
  showDialog({
    title: 'History', className: 'history-dialog', buttons: [{ label: 'Close', value: 'close', primary: true }],
    body: el('div.history-body', {}, scrubber, current, tableTitle, table, pre),
  });
  // NB: open now (showModal has run): the newest entry, at the end, is scrolled into view.
  keepInView();
}
