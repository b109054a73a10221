// @ts-check
/**
 * The games CardTable offers, with what the home and scores screens say about them.
 * @module catalog
 */

/**
 * @typedef {object} GameInfo
 * @property {string} title
 * @property {string} blurb
 * @property {string} face  the card on its home-screen tile
 */

/**
 * In the home screen's order.
 * @type {Record<import('./protocol.js').GameName, GameInfo>}
 */
export const GAMES = {
  memory: { title: 'Memory', blurb: 'Find the pairs: three sizes of table.', face: 'K♥' },
  concentration: { title: 'Concentration', blurb: 'All 52 cards, tilted on the table. Match ranks.', face: 'Q♠' },
  matchismo: { title: 'Matchismo', blurb: 'Match suits and ranks for points, 2 or 3 at a time.', face: 'A♥' },
  set: { title: 'Set', blurb: 'Find three cards that are all same or all different.', face: 'squiggle:purple:striped:2' },
  snap: { title: 'Snap!', blurb: 'Turn cards with Ray, Lucy and Steve; shout Snap! first.', face: 'J♣' },
};

/** @type {Record<string, string>} */
const WORDS = { matchBonus: 'match bonus', mismatchPenalty: 'mismatch penalty', costToChoose: 'cost to choose' };

/**
 * A game's options as words, e.g. `difficulty easy`, `3-card mode, 12 cards`.
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
