// @ts-check
/**
 * Matchismo (RULES §1): playing cards, 2-card or 3-card matches.
 * @module games/matchismo
 */
import { mountMatching } from './matching/screen.js';
import { oldSettings } from './matching/settings.js';

/** @param {Parameters<typeof mountMatching>[0]} ctx */
export function mount(ctx) {
  return mountMatching(ctx, { game: 'matchismo', modeSelector: true });
}

/**
 * The settings an older page kept for Matchismo in localStorage.
 * @param {import('../protocol.js').PlayerSettings} kept
 */
export function movedSettings(kept) {
  return oldSettings('matchismo', kept);
}
