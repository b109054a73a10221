// @ts-check
/**
 * The matching games' scoring settings (RULES §1): remembered in localStorage, edited in the
 * Settings dialog, applied from the next Deal.
 * @module games/matching/settings
 */
import { el, setText, showDialog } from '../../dom.js';
import { announce } from '../../a11y.js';

/** @typedef {import('../../protocol.js').Scoring} Scoring */
/** @typedef {keyof Scoring} Setting */

const SETTINGS_KEY = 'cardtable.settings';
/** @type {Scoring} */
const DEFAULTS = { matchBonus: 4, mismatchPenalty: 2, costToChoose: 1 };
/** @type {Record<Setting, string>} */
const SETTING_LABELS = { matchBonus: 'Match bonus', mismatchPenalty: 'Mismatch penalty', costToChoose: 'Cost to choose' };
const SETTINGS = /** @type {Setting[]} */ (Object.keys(DEFAULTS));

/** @returns {Scoring} the remembered settings */
export function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}');
    const result = { ...DEFAULTS };
    for (const key of SETTINGS) {
      const n = Number(saved[key]);
      if (Number.isInteger(n) && n >= 0 && n <= 10) result[key] = n;
    }
    return result;
  } catch {
    return { ...DEFAULTS };
  }
}

/**
 * Whether the remembered settings differ from `now` (a running game's).
 * @param {Partial<Scoring>} now
 */
export function settingsChanged(now) {
  const wanted = loadSettings();
  return SETTINGS.some((key) => now[key] !== wanted[key]);
}

/** The Settings dialog: a slider per setting; Save remembers them for the next Deal. */
export function openSettings() {
  const current = loadSettings();
  const fields = SETTINGS.map((key) => {
    const input = /** @type {HTMLInputElement} */ (el('input', { type: 'range', min: 0, max: 10, step: 1, value: current[key], id: `setting-${key}`, name: key }));
    const output = el('output', { for: `setting-${key}`, text: String(current[key]) });
    input.addEventListener('input', () => setText(output, input.value));
    return el('div.setting', {}, el('label', { for: `setting-${key}`, text: SETTING_LABELS[key] }), input, output);
  });
  const body = el('div.settings-body', {}, ...fields, el('p.note', { text: 'New values apply from the next Deal.' }));
  showDialog({ title: 'Settings', body, buttons: [{ label: 'Cancel', value: 'cancel' }, { label: 'Save', value: 'save', primary: true }] })
    .then((value) => {
      if (value !== 'save') return;
      /** @type {Record<string, number>} */
      const saved = {};
      for (const input of body.querySelectorAll('input')) saved[input.name] = Number(input.value);
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(saved));
      announce('Settings saved. They apply from the next Deal.');
    });
}
