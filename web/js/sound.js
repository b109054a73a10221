// @ts-check
/**
 * Sound: short effects made with the Web Audio API (oscillators and gain envelopes, no audio
 * files) for what the updates' events tell — a card turned, a match, a mismatch, a call and the
 * game's end, as each game's catalog names the effect of its events — and the Sound switch in
 * the top bar's More menu (topbar.js).
 *
 * The switch is remembered in localStorage (`cardtable.sound`: `on`/`off`). Without a choice
 * sound is off when the system asks for reduced motion, on otherwise. Browsers let a page
 * start audio only after a user gesture: the audio context is made on the first key press,
 * click or tap, and an effect due before that is not played.
 *
 * For tests, every effect whose oscillators were started is counted on `<body>`:
 * `data-sound-count` (effects started so far) and `data-sound-last` (the last one's name);
 * `data-sound-context` is the audio context's state (`running` once a gesture has woken it).
 * @module sound
 */
import { reducedMotion } from './a11y.js';
import { el, svg } from './dom.js';
import { gameInfo } from './catalog.js';

/** @typedef {'turn'|'match'|'mismatch'|'call'|'win'} Effect */

const KEY = 'cardtable.sound';

/**
 * One note of an effect: wave, start and end frequency (Hz), start after the effect begins and
 * length (s), and peak gain.
 * @typedef {{wave: OscillatorType, from: number, to: number, at: number, length: number, gain: number}} Note
 */

/** @type {Record<Effect, Note[]>} */
const EFFECTS = {
  // A soft tick, falling: a card turned over.
  turn: [{ wave: 'triangle', from: 900, to: 520, at: 0, length: 0.07, gain: 0.18 }],
  // Two notes up a third and a fifth: a match.
  match: [
    { wave: 'sine', from: 660, to: 660, at: 0, length: 0.12, gain: 0.22 },
    { wave: 'sine', from: 990, to: 990, at: 0.09, length: 0.2, gain: 0.2 },
  ],
  // Low and falling: a mismatch.
  mismatch: [
    { wave: 'sawtooth', from: 240, to: 150, at: 0, length: 0.22, gain: 0.08 },
    { wave: 'sine', from: 180, to: 120, at: 0, length: 0.25, gain: 0.14 },
  ],
  // A sharp chirp up: a call (Snap!).
  call: [
    { wave: 'square', from: 700, to: 1600, at: 0, length: 0.09, gain: 0.09 },
    { wave: 'triangle', from: 1600, to: 1200, at: 0.07, length: 0.08, gain: 0.12 },
  ],
  // A rising arpeggio: the game is won (or a round).
  win: [523, 659, 784, 1047].map((f, i) => ({ wave: /** @type {OscillatorType} */ ('triangle'), from: f, to: f, at: i * 0.1, length: i === 3 ? 0.4 : 0.14, gain: 0.18 })),
};

/** @type {Effect[]} the one effect an update plays: the first of these it has */
const PRIORITY = ['win', 'call', 'match', 'mismatch', 'turn'];

/** @type {AudioContext|null} */
let context = null;
let on = initial();
/** @type {Set<HTMLElement>} */
const switches = new Set();

/** @returns {boolean} the remembered choice, else on unless the system asks for reduced motion */
function initial() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* storage blocked: use the default */ }
  if (saved === 'on') return true;
  if (saved === 'off') return false;
  return !reducedMotion();
}

/** @returns {boolean} whether effects are played */
export function soundOn() {
  return on;
}

/**
 * Turns sound on or off, remembers it, and shows it on every switch.
 * @param {boolean} value
 */
export function setSound(value) {
  on = value;
  try { localStorage.setItem(KEY, value ? 'on' : 'off'); } catch { /* not remembered */ }
  for (const node of switches) node.setAttribute('aria-checked', String(on));
  if (on) unlock();
}

/**
 * Makes (or wakes) the audio context. Call from a user gesture only: browsers keep a context
 * made or resumed without one suspended.
 */
function unlock() {
  if (!on) return;
  const Context = window.AudioContext;
  if (!Context) return;
  try {
    if (!context) {
      const made = new Context();
      context = made;
      const shown = () => { document.body.dataset.soundContext = made.state; };
      made.addEventListener('statechange', shown);
      shown();
    }
    if (context.state === 'suspended') context.resume().catch(() => {});
  } catch { context = null; }
}

/**
 * Plays `effect` now, when sound is on and the audio context runs.
 * @param {Effect} effect
 * @returns {boolean} whether it was played
 */
export function play(effect) {
  const notes = EFFECTS[effect];
  if (!on || !notes || !context || context.state !== 'running') return false;
  const start = context.currentTime + 0.01;
  for (const note of notes) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    const t0 = start + note.at;
    const t1 = t0 + note.length;
    osc.type = note.wave;
    osc.frequency.setValueAtTime(note.from, t0);
    if (note.to !== note.from) osc.frequency.exponentialRampToValueAtTime(note.to, t1);
    // NB: an envelope from (near) silence and back avoids clicks; exponential ramps need > 0.
    gain.gain.setValueAtTime(0.0001, t0);
    gain.gain.exponentialRampToValueAtTime(note.gain, t0 + Math.min(0.015, note.length / 4));
    gain.gain.exponentialRampToValueAtTime(0.0001, t1);
    osc.connect(gain).connect(context.destination);
    osc.start(t0);
    osc.stop(t1 + 0.02);
  }
  const body = document.body.dataset;
  body.soundCount = String(Number(body.soundCount ?? 0) + 1);
  body.soundLast = effect;
  return true;
}

/**
 * The effect an update's events call for, if any: each event type's as the game's catalog says
 * (its `sounds`), the first of PRIORITY when several.
 * @param {{game: string, events?: {type: string}[]}} message  an update
 * @returns {Effect|null}
 */
export function effectOf(message) {
  const sounds = gameInfo(message.game)?.sounds ?? {};
  /** @type {Set<string>} */
  const found = new Set();
  for (const event of message.events ?? []) {
    const effect = Object.hasOwn(sounds, event.type) ? sounds[event.type] : undefined;
    if (effect) found.add(effect);
  }
  return PRIORITY.find((effect) => found.has(effect)) ?? null;
}

/**
 * Plays what an update calls for.
 * @param {{game: string, events?: {type: string}[]}} message  an update
 */
export function soundFor(message) {
  const effect = effectOf(message);
  if (effect) play(effect);
}

/**
 * The Sound switch (a button with role `switch`): on, effects play; off, silence.
 * @returns {HTMLElement}
 */
export function soundSwitch() {
  // NB: the name is "Sound"; on or off is the switch's state (aria-checked), drawn by the icon.
  const icon = svg('svg', { viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' },
    svg('path', { class: 'speaker', d: 'M3 9h4l5-4v14l-5-4H3z' }),
    svg('path', { class: 'waves', d: 'M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12' }),
    svg('path', { class: 'slash', d: 'M15 9l6 6M21 9l-6 6' }));
  const button = el('button.btn.ghost.sound-switch', { type: 'button', role: 'switch', 'aria-checked': String(on), title: 'Sound effects' },
    icon, el('span.sound-label', { text: 'Sound' }));
  button.addEventListener('click', () => setSound(!on));
  switches.add(button);
  return button;
}

// NB: capture, so that the context is running before the gesture's own handler sends a move.
for (const type of ['pointerdown', 'keydown', 'touchend']) {
  document.addEventListener(type, unlock, { capture: true, passive: true });
}
