// @ts-check
/**
 * Who this browser is: the player token (kept in localStorage and presented with `hello` on
 * every connection) and the player's settings, which the server keeps (docs/PROTOCOL.md).
 * Settings that older pages kept in localStorage move to the server once.
 * @module player
 */

/** @typedef {import('./protocol.js').PlayerSettings} PlayerSettings */
/** @typedef {import('./protocol.js').Hello} Hello */

const TOKEN_KEY = 'cardtable.token';
/** What the matching games' Settings dialog kept before the server did: {matchBonus, mismatchPenalty, costToChoose}. */
export const OLD_SETTINGS_KEY = 'cardtable.settings';
/** Set's two-player toggle, before the server kept it. */
export const OLD_TWO_PLAYER_KEY = 'cardtable.set.twoPlayer';
const SCORING = ['matchBonus', 'mismatchPenalty', 'costToChoose'];

/** @type {PlayerSettings} */
let settings = {};
/** @type {(() => void)|null} */
let markReady = null;
/** Resolves once the first `hello` has been answered (and old settings moved over). */
export const ready = new Promise((resolve) => { markReady = () => resolve(undefined); });

/** @returns {string|null} the token this browser plays as, if it has one */
export function token() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** @returns {import('./protocol.js').Request} the `hello` to send first on every connection */
export function hello() {
  const t = token();
  return t ? { cmd: 'hello', token: t } : { cmd: 'hello' };
}

/** @returns {PlayerSettings} the player's settings as the server last said */
export function currentSettings() {
  return settings;
}

/**
 * Takes the server's answer to `hello`: keeps the token it gives, and its settings.
 * The first time, moves settings kept in localStorage by older pages to the server.
 * @param {Hello} message
 * @param {import('./connection.js').Connection} conn
 */
export async function helloAnswered(message, conn) {
  if (message.token) {
    try { localStorage.setItem(TOKEN_KEY, message.token); } catch { /* private mode: a new player each time */ }
  }
  settings = message.settings ?? {};
  if (!markReady) return;
  try {
    await migrate(conn);
  } finally {
    markReady?.();
    markReady = null;
  }
}

/**
 * Saves settings on the server (each member given replaces the one kept).
 * @param {PlayerSettings} changes
 * @param {import('./connection.js').Connection} conn
 * @returns {Promise<string|null>} null when saved, else the server's reason
 */
export async function saveSettings(changes, conn) {
  const reply = await conn.request({ cmd: 'settings', settings: changes });
  if (reply?.type === 'answer' && reply.settings) {
    settings = reply.settings;
    return null;
  }
  if (reply?.type === 'error') return reply.error.message;
  return 'The connection was lost before the settings were saved.';
}

/**
 * The one-time move: when the server keeps no settings for Matchismo or Set and localStorage
 * holds the old ones, they are saved on the server; then the old keys go.
 * @param {import('./connection.js').Connection} conn
 */
async function migrate(conn) {
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
    const two = localStorage.getItem(OLD_TWO_PLAYER_KEY);
    if (two !== null) twoPlayer = two === 'true';
  } catch {
    scoring = null;
  }
  if (scoring === null && twoPlayer === null) return;
  /** @type {PlayerSettings} */
  const changes = {};
  if (!settings.matchismo && scoring && Object.keys(scoring).length) changes.matchismo = { ...scoring };
  if (!settings.set && (scoring && Object.keys(scoring).length || twoPlayer !== null)) {
    changes.set = { ...(scoring ?? {}), ...(twoPlayer !== null ? { twoPlayer } : {}) };
  }
  if (Object.keys(changes).length) {
    const reply = await conn.request({ cmd: 'settings', settings: changes });
    // NB: kept for the next visit only when the answer was lost; settings the server refuses
    // could never move.
    if (reply === null) return;
    if (reply.type === 'answer' && reply.settings) settings = reply.settings;
    else if (reply.type === 'error') console.info('CardTable: old settings refused by the server:', reply.error.message);
  }
  try {
    localStorage.removeItem(OLD_SETTINGS_KEY);
    localStorage.removeItem(OLD_TWO_PLAYER_KEY);
  } catch { /* nothing to tidy */ }
}
