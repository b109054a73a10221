// @ts-check
/**
 * A game's menu before a game of one's own is dealt: a flat button per choice of its option
 * placed `menu` (the catalog's), each a link to a new game with that choice (Memory's EASY /
 * MEDIUM / HARD, on a green-sea table).
 * @module menu
 */
import { el } from './dom.js';

/**
 * Draws the menu into `main` and focuses its first button.
 * @param {{main: HTMLElement, info: import('./protocol.js').GameInfo,
 *   option: import('./protocol.js').GameOption, seed: string|null, label: string}} ctx
 *   `seed` goes with every choice (a practice deal); `label` names the menu
 */
export function renderMenu({ main, info, option, seed, label }) {
  const button = (/** @type {import('./protocol.js').OptionChoice} */ choice) => {
    const value = String(choice.value);
    return el(`a.menu-button.${value.replace(/[^A-Za-z0-9_-]/g, '-')}`, {
      href: `/?game=${encodeURIComponent(info.name)}&${encodeURIComponent(option.name)}=${encodeURIComponent(value)}${seed ? `&seed=${encodeURIComponent(seed)}` : ''}`,
      dataset: { nav: '' }, role: 'button', text: choice.label,
    });
  };
  main.replaceChildren(el(`section.${info.name.replace(/[^A-Za-z0-9_-]/g, '-')}-menu`, { 'aria-label': label }, ...option.choices.map(button)));
  main.querySelector('a')?.focus();
}
