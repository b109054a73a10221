// @ts-check
/**
 * The games' screens by wire name: the one place in the page that lists every game. The page
 * offers the games of the server's catalog (catalog.js) that have a screen here.
 * @module games
 */
import * as memory from './memory.js';
import * as concentration from './concentration.js';
import * as matchismo from './matchismo.js';
import * as set from './set.js';
import * as snap from './snap.js';

/** @type {Readonly<Record<string, import('../protocol.js').GameModule>>} */
export const SCREENS = Object.freeze({ memory, concentration, matchismo, set, snap });
