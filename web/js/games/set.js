// @ts-check
/**
 * Set (RULES §2): the 81-card deck, +3, Hint, the two-player option and *Refill to 12*.
 * @module games/set
 */
import { mountMatching } from './matching/screen.js';
import { oldSettings } from './matching/settings.js';

/** @param {Parameters<typeof mountMatching>[0]} ctx */
export function mount(ctx) {
  return mountMatching(ctx, { game: 'set', plusThree: true, twoPlayer: true, refill: true });
}

/**
 * The settings an older page kept for Set in localStorage.
 * @param {import('../protocol.js').PlayerSettings} kept
 */
export function movedSettings(kept) {
  return oldSettings('set', kept);
}
