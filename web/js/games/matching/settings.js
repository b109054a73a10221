// @ts-check
/**
 * The matching games' settings (RULES §1): the scoring constants, Matchismo's card count and
 * Set's *Refill to 12* (the engine's `refill` option). The server keeps them per player
 * (docs/PROTOCOL.md, `settings`); they are edited in the Settings dialog and apply from the
 * next Deal. Set's dialog also holds the colour-blind-safe palette, a look of this browser's
 * own (js/palette.js) that applies at once.
 * @module games/matching/settings
 */
import { el, setText, showDialog } from '../../dom.js';
import { announce } from '../../a11y.js';
import * as player from '../../player.js';
import { chooseSetPalette, setPalette } from '../../palette.js';

/** @typedef {import('../views.js').Scoring} Scoring */
/** @typedef {keyof Scoring | 'cards'} Setting */
/** @typedef {Scoring & {cards?: number, refill?: boolean, twoPlayer?: boolean}} MatchingSettings */

/** @type {Scoring} */
const DEFAULTS = { matchBonus: 4, mismatchPenalty: 2, costToChoose: 1 };
/** @type {Record<Setting, string>} */
const SETTING_LABELS = { matchBonus: 'Match bonus', mismatchPenalty: 'Mismatch penalty', costToChoose: 'Cost to choose', cards: 'Cards on the table' };
/** @type {Record<Setting, [number, number]>} */
const RANGES = { matchBonus: [0, 10], mismatchPenalty: [0, 10], costToChoose: [0, 10], cards: [2, 52] };
const SCORING = /** @type {(keyof Scoring)[]} */ (Object.keys(DEFAULTS));
const MATCHISMO_CARDS = 24;

/**
 * The settings a new game of `game` takes: the player's, else the defaults.
 * @param {'matchismo'|'set'} game
 * @returns {MatchingSettings}
 */
export function gameSettings(game) {
  const saved = /** @type {Record<string, unknown>} */ (player.currentSettings()[game] ?? {});
  /** @type {MatchingSettings} */
  const result = { ...DEFAULTS };
  for (const key of SCORING) {
    const n = Number(saved[key]);
    if (Number.isInteger(n) && n >= 0 && n <= 10) result[key] = n;
  }
  if (game === 'matchismo') {
    const cards = Number(saved.cards);
    result.cards = Number.isInteger(cards) && cards >= 2 && cards <= 52 ? cards : MATCHISMO_CARDS;
  }
  if (game === 'set') {
    result.refill = saved.refill === true;
    result.twoPlayer = saved.twoPlayer === true;
  }
  return result;
}

/** What the matching games' Settings dialog kept before the server did: {matchBonus, mismatchPenalty, costToChoose}. */
const OLD_SETTINGS_KEY = 'cardtable.settings';
/** Set's two-player toggle, before the server kept it. */
const OLD_TWO_PLAYER_KEY = 'cardtable.set.twoPlayer';

/**
 * The settings of `game` an older page kept in localStorage, to move to the server once
 * (player.js): the scoring, and Set's two players; none when the server keeps the game's
 * settings already.
 * @param {'matchismo'|'set'} game
 * @param {import('../../protocol.js').PlayerSettings} kept  the settings the server keeps
 * @returns {import('../../protocol.js').SettingsMove|null} null when nothing is kept there
 */
export function oldSettings(game, kept) {
  /** @type {Record<string, number>|null} */
  let scoring = null;
  /** @type {boolean|null} */
  let twoPlayer = null;
  try {
    const saved = localStorage.getItem(OLD_SETTINGS_KEY);
    if (saved !== null) {
      const parsed = JSON.parse(saved);
      scoring = {};
      for (const key of SCORING) {
        const n = Number(parsed?.[key]);
        if (Number.isInteger(n) && n >= 0 && n <= 10) scoring[key] = n;
      }
    }
    const two = game === 'set' ? localStorage.getItem(OLD_TWO_PLAYER_KEY) : null;
    if (two !== null) twoPlayer = two === 'true';
  } catch {
    scoring = null;
  }
  if (scoring === null && twoPlayer === null) return null;
  const hasScoring = !!scoring && Object.keys(scoring).length > 0;
  /** @type {import('../../protocol.js').PlayerSettings} */
  const changes = {};
  if (game === 'matchismo' && !kept.matchismo && hasScoring) changes.matchismo = { ...scoring };
  if (game === 'set' && !kept.set && (hasScoring || twoPlayer !== null)) {
    changes.set = { ...(scoring ?? {}), ...(twoPlayer !== null ? { twoPlayer } : {}) };
  }
  return { changes, keys: [OLD_SETTINGS_KEY, OLD_TWO_PLAYER_KEY] };
}

/**
 * Whether the player's settings differ from `now` (a running game's) in what needs a new game.
 * @param {'matchismo'|'set'} game
 * @param {Partial<MatchingSettings>} now
 */
export function settingsChanged(game, now) {
  const wanted = gameSettings(game);
  if (game === 'matchismo' && (now.cards ?? MATCHISMO_CARDS) !== wanted.cards) return true;
  if (game === 'set' && (now.refill === true) !== wanted.refill) return true;
  return SCORING.some((key) => now[key] !== wanted[key]);
}

/**
 * A switch (a checkbox with the switch role) with its words: what it does, said beside it and
 * read as its description.
 * @param {string} id
 * @param {string} label
 * @param {string} explanation
 * @param {boolean} checked
 * @returns {{field: HTMLElement, input: HTMLInputElement}}
 */
function settingSwitch(id, label, explanation, checked) {
  const input = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', role: 'switch', id, 'aria-describedby': `${id}-note` }));
  input.checked = checked;
  const field = el('div.setting-switch', {},
    el('label.toggle', { for: id }, input, el('span', { text: label })),
    el('p.note', { id: `${id}-note`, text: explanation }));
  return { field, input };
}

/**
 * The Settings dialog: a slider per setting (and Set's switches); Save keeps them on the
 * server for the next Deal, and Set's palette in this browser at once.
 * @param {'matchismo'|'set'} game
 * @param {import('../../connection.js').Connection} conn
 */
export function openSettings(game, conn) {
  const current = gameSettings(game);
  /** @type {Setting[]} */
  const shown = game === 'matchismo' ? [...SCORING, 'cards'] : [...SCORING];
  const fields = shown.map((key) => {
    const [min, max] = RANGES[key];
    const value = current[key] ?? min;
    const input = /** @type {HTMLInputElement} */ (el('input', { type: 'range', min, max, step: 1, value, id: `setting-${key}`, name: key }));
    const output = el('output', { for: `setting-${key}`, text: String(value) });
    input.addEventListener('input', () => setText(output, input.value));
    return el('div.setting', {}, el('label', { for: `setting-${key}`, text: SETTING_LABELS[key] }), input, output);
  });
  const refill = game === 'set' ? settingSwitch('setting-refill', 'Refill to 12',
    'After a set is found, three new cards take its places, so the table holds 12 again. Off: the set leaves the table and the other cards close up, until you ask for +3.',
    current.refill === true) : null;
  const palette = game === 'set' ? settingSwitch('setting-palette', 'Colour-blind-safe colours',
    'Draws the red, green and purple cards in vermillion, bluish green and deep purple, which also differ in lightness (in greyscale). The names stay red, green and purple. Applies at once, in this browser.',
    setPalette() === 'safe') : null;
  const body = el('div.settings-body', {}, ...fields, refill?.field, el('p.note', { text: 'New values apply from the next Deal.' }), palette?.field);
  showDialog({ title: 'Settings', body, buttons: [{ label: 'Cancel', value: 'cancel' }, { label: 'Save', value: 'save', primary: true }] })
    .then(async (value) => {
      if (value !== 'save') return;
      /** @type {Record<string, unknown>} */
      const saved = { ...(player.currentSettings()[game] ?? {}) };
      const sliders = /** @type {NodeListOf<HTMLInputElement>} */ (body.querySelectorAll('input[type=range]'));
      for (const input of sliders) saved[input.name] = Number(input.value);
      if (game === 'set') saved.twoPlayer = current.twoPlayer === true;
      if (refill) saved.refill = refill.input.checked;
      if (palette) chooseSetPalette(palette.input.checked ? 'safe' : 'standard');
      const failed = await player.saveSettings({ [game]: saved }, conn);
      announce(failed ? `Settings not saved: ${failed}` : 'Settings saved. They apply from the next Deal.');
    });
}

/**
 * Keeps a switch of Set's screen (two players, Refill to 12) with the player's settings.
 * @param {{twoPlayer?: boolean, refill?: boolean}} changed
 * @param {import('../../connection.js').Connection} conn
 */
export function saveSetSwitch(changed, conn) {
  const saved = { ...gameSettings('set'), ...(player.currentSettings().set ?? {}), ...changed };
  return player.saveSettings({ set: saved }, conn);
}
