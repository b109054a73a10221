// @ts-check
/**
 * The games CardTable offers, as the server's catalog tells them (`welcome`, docs/PROTOCOL.md):
 * titles, tiles, options and where they are asked, tables, calls, help and sounds. The page
 * names no game of its own: every screen outside games/ reads this.
 *
 * The catalog of the latest `welcome` is kept: a reconnect's `welcome` replaces it, and the
 * screens drawn meanwhile go on with the one they had.
 * @module catalog
 */

/** @typedef {import('./protocol.js').GameInfo} GameInfo */
/** @typedef {import('./protocol.js').GameOption} GameOption */
/** @typedef {import('./protocol.js').OptionChoice} OptionChoice */
/** @typedef {import('./protocol.js').OptionChoice['value']} OptionValue */

/** @type {GameInfo[]|null} null until the first `welcome` */
let known = null;
/** @type {(() => void)|null} */
let markReady = null;
/** Resolves once the first catalog has come. */
export const catalogReady = new Promise((resolve) => { markReady = () => resolve(undefined); });

/**
 * Keeps the catalog of a `welcome`.
 * @param {GameInfo[]} games  in the home screen's order
 */
export function setCatalog(games) {
  known = games;
  markReady?.();
  markReady = null;
}

/** @returns {boolean} whether a catalog has come */
export function hasCatalog() {
  return known !== null;
}

/** @returns {GameInfo[]} every game, in the home screen's order (none before the first `welcome`) */
export function games() {
  return known ?? [];
}

/**
 * @param {string|null|undefined} name
 * @returns {GameInfo|null} the game of that name
 */
export function gameInfo(name) {
  return known?.find((info) => info.name === name) ?? null;
}

/**
 * @param {string} name
 * @returns {string} the game's title, else its name
 */
export function titleOf(name) {
  return gameInfo(name)?.title ?? name;
}

/**
 * The options of `info` asked at `place`, in the catalog's order.
 * @param {GameInfo} info
 * @param {GameOption['places'][number]} place
 * @returns {GameOption[]}
 */
export function optionsAt(info, place) {
  return info.options.filter((option) => option.places.includes(place));
}

/**
 * Whether `value` is one `option` may take: one of its choices, else a whole number in its range.
 * @param {GameOption} option
 * @param {unknown} value
 */
export function allowed(option, value) {
  if (option.choices.length) return option.choices.some((choice) => choice.value === value);
  return typeof value === 'number' && Number.isInteger(value)
    && (option.min === undefined || value >= option.min) && (option.max === undefined || value <= option.max);
}

/**
 * The choice of `option` that a URL parameter names (`?difficulty=easy`), if any.
 * @param {GameOption} option
 * @param {string|null} text
 * @returns {OptionChoice|null}
 */
export function choiceNamed(option, text) {
  if (text === null) return null;
  return option.choices.find((choice) => String(choice.value) === text) ?? null;
}

/**
 * The value in force of each option of a game: the game on screen's (a member of its view, or
 * of the view's `settings`), else the player's own settings (for options placed among the
 * settings), else the option's default.
 * @param {GameInfo} info
 * @param {Record<string, any>|null} view  the game on screen, or null (a new game)
 * @param {Record<string, unknown>} kept  the player's settings of this game
 * @returns {Record<string, OptionValue>}
 */
export function valuesInForce(info, view, kept) {
  /** @type {Record<string, OptionValue>} */
  const values = {};
  const settings = view?.settings && typeof view.settings === 'object' ? view.settings : {};
  for (const option of info.options) {
    const candidates = [view?.[option.name], settings[option.name]];
    if (option.places.includes('settings')) candidates.push(kept[option.name]);
    const value = candidates.find((candidate) => candidate !== undefined && candidate !== null && allowed(option, candidate));
    values[option.name] = value ?? option.default;
  }
  return values;
}

/**
 * `text` with its `{…}` placeholders filled, as GameInfo.filled(_:values:) in Swift: each names
 * an option of `info`, looked up in `values`, else its default. `{name}` is a choice's
 * description (or label) or the value itself, `{name*4}` four times a number, `{name|number}`
 * the value as a number, `{…|points}` a number with its word (`1 point`, `8 points`). A
 * placeholder naming nothing known is left as it is.
 * @param {GameInfo} info
 * @param {string} text
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export function filled(info, text, values = {}) {
  let result = '';
  let rest = text;
  for (;;) {
    const open = rest.indexOf('{');
    const close = open < 0 ? -1 : rest.indexOf('}', open);
    if (close < 0) break;
    result += rest.slice(0, open);
    result += fill(info, rest.slice(open + 1, close), values) ?? rest.slice(open, close + 1);
    rest = rest.slice(close + 1);
  }
  return result + rest;
}

/**
 * One placeholder's text, or null when it names nothing known.
 * @param {GameInfo} info
 * @param {string} placeholder  what is inside the braces
 * @param {Record<string, unknown>} values
 * @returns {string|null}
 */
function fill(info, placeholder, values) {
  const parts = splitOnce(placeholder, '|');
  if (!parts.length) return null;
  const filter = parts.length === 2 ? parts[1] : null;
  const product = splitOnce(parts[0], '*');
  const option = info.options.find((o) => o.name === product[0]);
  const factor = product.length === 2 ? (/^[+-]?\d+$/.test(product[1]) ? Number(product[1]) : null) : 1;
  if (!option || factor === null) return null;
  const value = values[option.name] !== undefined ? values[option.name] : option.default;
  if (filter === null && product.length === 1) {
    const choice = option.choices.find((c) => c.value === value);
    if (choice) return choice.description ?? choice.label;
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) return typeof value === 'string' ? value : null;
  const total = value * factor;
  return filter === 'points' ? `${total} ${total === 1 ? 'point' : 'points'}` : `${total}`;
}

/**
 * `text` split at the first `separator` that has text before it, empty parts left out (as
 * Swift's `split(separator:maxSplits: 1)`): `a|b` → `a`, `b`; `|b` → `b`; `a|` → `a`.
 * @param {string} text
 * @param {string} separator
 * @returns {string[]}
 */
function splitOnce(text, separator) {
  const parts = [];
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] !== separator) continue;
    const appended = i > start;
    if (appended) parts.push(text.slice(start, i));
    start = i + 1;
    if (appended) break;
  }
  if (start < text.length) parts.push(text.slice(start));
  return parts;
}

/** @type {Record<string, string>} */
const WORDS = { matchBonus: 'match bonus', mismatchPenalty: 'mismatch penalty', costToChoose: 'cost to choose' };

/**
 * A game's options as words, e.g. `difficulty easy`, `3-card matches, 12 cards`.
 * @param {Record<string, unknown>|string|null|undefined} options
 * @returns {string}
 */
export function describeOptions(options) {
  if (!options) return '';
  if (typeof options === 'string') return options;
  const parts = [];
  for (const [key, value] of Object.entries(options)) {
    if (value === null || value === undefined) continue;
    if (key === 'difficulty') parts.push(`difficulty ${value}`);
    else if (key === 'mode') parts.push(`${value}-card matches`);
    else if (key === 'cards') parts.push(`${value} cards`);
    else if (key === 'twoPlayer') { if (value) parts.push('two players'); }
    else if (key === 'players' || key === 'computer') continue;
    else if (key in WORDS) parts.push(`${WORDS[key]} ${value}`);
    else if (typeof value !== 'object') parts.push(`${key} ${value}`);
  }
  return parts.join(', ');
}
