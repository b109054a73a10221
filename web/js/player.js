// @ts-check
/**
 * Who this browser is: the player token (kept in localStorage and presented with `hello` on
 * every connection) and the player's settings, which the server keeps (docs/PROTOCOL.md).
 * Settings that older pages kept in localStorage move to the server once (each game's module
 * says which: `movedSettings`).
 * @module player
 */

/** @typedef {import('./protocol.js').PlayerSettings} PlayerSettings */
/** @typedef {import('./protocol.js').Hello} Hello */
/** @typedef {(kept: PlayerSettings) => import('./protocol.js').SettingsMove|null} SettingsMover */

const TOKEN_KEY = 'cardtable.token';

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

/**
 * Plays as the player `given` names from now on (a transfer code's): the token replaces this
 * browser's own; the page is to be loaded again so that every connection says hello with it.
 * @param {string} given
 * @returns {boolean} whether this browser could keep it
 */
export function adoptToken(given) {
  try {
    localStorage.setItem(TOKEN_KEY, given);
    return localStorage.getItem(TOKEN_KEY) === given;
  } catch {
    return false;
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
 * Takes a name the server kept for the player by itself (a lobby's `rename` keeps it).
 * @param {string} name
 */
export function nameKept(name) {
  settings = { ...settings, name };
}

/**
 * Takes the server's answer to `hello`: keeps the token it gives, and its settings.
 * The first time, moves settings kept in localStorage by older pages to the server.
 * @param {Hello} message
 * @param {import('./connection.js').Connection} conn
 * @param {SettingsMover[]} [movers]  what finds the settings older pages kept
 */
export async function helloAnswered(message, conn, movers = []) {
  if (message.token) {
    try { localStorage.setItem(TOKEN_KEY, message.token); } catch { /* private mode: a new player each time */ }
  }
  settings = message.settings ?? {};
  if (!markReady) return;
  try {
    await migrate(conn, movers);
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
 * The one-time move: the settings older pages kept in localStorage (as `movers` find them,
 * for games the server keeps no settings of) are saved on the server; then the old keys go.
 * @param {import('./connection.js').Connection} conn
 * @param {SettingsMover[]} movers
 */
async function migrate(conn, movers) {
  /** @type {import('./protocol.js').SettingsMove[]} */
  const moves = [];
  for (const mover of movers) {
    const move = mover(settings);
    if (move) moves.push(move);
  }
  if (!moves.length) return;
  /** @type {PlayerSettings} */
  const changes = Object.assign({}, ...moves.map((move) => move.changes));
  if (Object.keys(changes).length) {
    const reply = await conn.request({ cmd: 'settings', settings: changes });
    // NB: kept for the next visit only when the answer was lost; settings the server refuses
    // could never move.
    if (reply === null) return;
    if (reply.type === 'answer' && reply.settings) settings = reply.settings;
    else if (reply.type === 'error') console.info('CardTable: old settings refused by the server:', reply.error.message);
  }
  try {
    for (const key of new Set(moves.flatMap((move) => move.keys))) localStorage.removeItem(key);
  } catch { /* nothing to tidy */ }
}
