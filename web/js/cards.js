// @ts-check
/**
 * Cards drawn as SVG, and their accessible names.
 *
 * ACCESSIBLE-NAME CONVENTION (every card on a table is a <button> with one of these names):
 *   - a face-up playing card: `<rank> of <suit>`, rank as printed on the card
 *     (`A`, `2` … `10`, `J`, `Q`, `K`), suit in words: `A of hearts`, `10 of clubs`, `K of spades`;
 *   - a Set card: `<number word> <colour> <shading> <symbol, plural when more than one>`:
 *     `one green open diamond`, `two red striped ovals`, `three purple solid squiggles`;
 *   - a face-down card: `face-down card N`, where N is 1-BASED: the card's position on the
 *     board in reading order, i.e. the protocol's 0-based board index + 1
 *     (board index 0 is `face-down card 1`; index 6 is `face-down card 7`).
 * State is not part of the name: chosen cards have aria-pressed="true", matched or otherwise
 * unplayable cards aria-disabled="true". Cards that are only shown (found matches, open piles)
 * are role="img" with the same names.
 * @module cards
 */
import { svg, el } from './dom.js';
import './palette.js';

/** @type {Record<string, Suit>} */
const SUITS = { '♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C' };
const SUIT_NAMES = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const NUMBER_WORDS = ['zero', 'one', 'two', 'three'];
/**
 * Set's standard inks. NB: drawn as presentation attributes, which css/features.css overrides
 * by class (`set-ink set-red set-solid`) with the chosen palette (js/palette.js), so that a
 * change of palette recolours every card at once (and no inline style is needed: the page's
 * Content-Security-Policy allows none).
 */
export const SET_COLOURS = { red: '#d7263d', green: '#1a8f4c', purple: '#6f35b0' };
const INK = { red: '#d7263d', black: '#1d1d1f' };
/** Width and height of every card's SVG viewBox (height / width ≈ 1.45 as the Memory original). */
const W = 200, H = 290;

/** @typedef {'S'|'H'|'D'|'C'} Suit */
/** @typedef {{kind: 'playing', rank: string, suit: Suit, red: boolean}} PlayingCard */
/**
 * @typedef {{kind: 'set', symbol: 'diamond'|'squiggle'|'oval', color: 'red'|'green'|'purple',
 *   shading: 'solid'|'striped'|'open', number: 1|2|3}} SetCard
 */

/**
 * Parses a card's text form (RULES §0): `A♥`, `10♣`, `oval:red:solid:2`.
 * @param {string} text
 * @returns {PlayingCard|SetCard|null}
 */
export function parseCard(text) {
  if (typeof text !== 'string') return null;
  const set = /^(diamond|squiggle|oval):(red|green|purple):(solid|striped|open):([123])$/.exec(text);
  if (set) return /** @type {SetCard} */ ({ kind: 'set', symbol: set[1], color: set[2], shading: set[3], number: Number(set[4]) });
  const play = /^(A|[2-9]|10|J|Q|K)([♠♥♦♣])$/.exec(text);
  if (play) {
    const suit = SUITS[play[2]];
    return { kind: 'playing', rank: play[1], suit, red: suit === 'H' || suit === 'D' };
  }
  return null;
}

/**
 * The accessible name of a face-up card (see the convention above).
 * @param {string} text
 * @returns {string}
 */
export function cardName(text) {
  const card = parseCard(text);
  if (!card) return String(text);
  if (card.kind === 'playing') return `${card.rank} of ${SUIT_NAMES[card.suit]}`;
  const plural = card.number > 1 ? 's' : '';
  return `${NUMBER_WORDS[card.number]} ${card.color} ${card.shading} ${card.symbol}${plural}`;
}

/**
 * The accessible name of a face-down card at 0-based board `index`.
 * @param {number} index
 */
export function faceDownName(index) {
  return `face-down card ${index + 1}`;
}

/** @param {number} x @param {number} y @param {number} size @param {string} suit @param {boolean} [flip] */
function pip(x, y, size, suit, flip = false) {
  /** @type {Record<string, string|number>} */
  const attrs = { href: `#suit-${suit}`, x: x - size / 2, y: y - size / 2, width: size, height: size };
  if (flip) attrs.transform = `rotate(180 ${x} ${y})`;
  return svg('use', attrs);
}

const L = 62, C = 100, R = 138;
/**
 * Pip centres for ranks 2…10 (the classic layouts).
 * @type {Record<string, [number, number][]>}
 */
const PIPS = {
  2: [[C, 62], [C, 228]],
  3: [[C, 62], [C, 145], [C, 228]],
  4: [[L, 62], [R, 62], [L, 228], [R, 228]],
  5: [[L, 62], [R, 62], [C, 145], [L, 228], [R, 228]],
  6: [[L, 62], [R, 62], [L, 145], [R, 145], [L, 228], [R, 228]],
  7: [[L, 62], [R, 62], [C, 103], [L, 145], [R, 145], [L, 228], [R, 228]],
  8: [[L, 62], [R, 62], [C, 103], [L, 145], [R, 145], [C, 187], [L, 228], [R, 228]],
  9: [[L, 62], [R, 62], [L, 117], [R, 117], [C, 145], [L, 173], [R, 173], [L, 228], [R, 228]],
  10: [[L, 62], [R, 62], [C, 90], [L, 117], [R, 117], [L, 173], [R, 173], [C, 200], [L, 228], [R, 228]],
};

/** The court figures' own colours; their robes are the suit's ink. */
const COURT = { gold: '#e2ad2f', goldLine: '#7a5712', skin: '#f6dcc0', skinLine: '#8a6242', hair: '#4b3323', eye: '#2b1d12', lips: '#b4473a', ermine: '#fffdf8' };
/** @type {Record<string, 'jack'|'queen'|'king'>} */
const COURTS = { J: 'jack', Q: 'queen', K: 'king' };

/**
 * One half of a court card's figure, drawn in the top half of its frame (the card shows it twice,
 * the second turned about the centre, as printed court cards are): a bust in a robe of the
 * suit's ink with the suit beside the head — the king crowned and bearded, with an ermine collar
 * and a sceptre; the queen in a tiara, long-haired, with a necklace and a flower; the jack in a
 * feathered cap with a halberd.
 * @param {'jack'|'queen'|'king'} court
 * @param {PlayingCard} card
 * @param {string} ink
 */
function courtHalf(court, card, ink) {
  const gold = { fill: COURT.gold, stroke: COURT.goldLine, 'stroke-width': 1.5, 'stroke-linejoin': 'round' };
  const line = (/** @type {string} */ d, /** @type {number} */ width, colour = COURT.gold) =>
    svg('path', { d, fill: 'none', stroke: colour, 'stroke-width': width, 'stroke-linecap': 'round' });
  const parts = [];
  if (court === 'queen') parts.push(svg('path', { d: 'M84 80C81 58 119 58 116 80L121 110C114 112 109 107 108 100H92C91 107 86 112 79 110Z', fill: COURT.hair }));
  parts.push(svg('rect', { x: 94, y: 92, width: 12, height: 16, fill: COURT.skin }),
    svg('path', { d: 'M52 145V134C52 118 66 109 86 106H114C134 109 148 118 148 134V145Z', fill: ink }),
    line('M100 127V145', 4));
  if (court === 'king') {
    parts.push(svg('path', { d: 'M80 108C92 118 108 118 120 108L127 118C111 130 89 130 73 118Z', fill: COURT.ermine, stroke: ink, 'stroke-width': 1 }),
      ...[[84, 119], [100, 124], [116, 119]].map(([x, y]) => svg('rect', { x: x - 1.5, y: y - 2.5, width: 3, height: 5, fill: ink })));
  } else if (court === 'queen') {
    parts.push(line('M88 108Q100 121 112 108', 3), svg('circle', { cx: 100, cy: 118, r: 3, ...gold }));
  } else {
    parts.push(svg('path', { d: 'M87 106L100 124L113 106Z', ...gold }));
  }
  parts.push(svg('ellipse', { cx: 100, cy: 80, rx: 15, ry: 17, fill: COURT.skin, stroke: COURT.skinLine, 'stroke-width': 1.2 }),
    svg('circle', { cx: 94.5, cy: 79, r: 1.8, fill: COURT.eye }), svg('circle', { cx: 105.5, cy: 79, r: 1.8, fill: COURT.eye }));
  if (court === 'king') {
    parts.push(svg('path', { d: 'M85 83C85 100 93 106 100 106C107 106 115 100 115 83C111 90 105 89 100 87C95 89 89 90 85 83Z', fill: COURT.hair }),
      svg('path', { d: 'M84 65V50L92 57L100 46L108 57L116 50V65Z', ...gold }),
      svg('circle', { cx: 100, cy: 60, r: 2.2, fill: ink }),
      line('M134 140V118', 3.5), svg('circle', { cx: 134, cy: 113, r: 5, ...gold }));
  } else if (court === 'queen') {
    parts.push(line('M95 89Q100 92.5 105 89', 1.5, COURT.lips),
      svg('path', { d: 'M86 67Q100 53 114 67Q100 62 86 67Z', ...gold }),
      svg('circle', { cx: 100, cy: 56, r: 2.8, ...gold }),
      line('M134 140V120', 2.5), svg('circle', { cx: 134, cy: 115, r: 5.5, fill: COURT.ermine, stroke: COURT.gold, 'stroke-width': 3 }));
  } else {
    parts.push(line('M95 89Q100 92.5 105 89', 1.5, COURT.lips),
      svg('path', { d: 'M85 76C84 69 86 67 88 66L87 79ZM115 76C116 69 114 67 112 66L113 79Z', fill: COURT.hair }),
      svg('path', { d: 'M113 62C119 52 127 47 136 46C132 54 125 60 117 65Z', ...gold }),
      svg('path', { d: 'M83 72C82 56 114 50 121 66C110 63 94 65 83 72Z', fill: ink }),
      line('M134 140V106', 3), svg('path', { d: 'M134 104L142 110L134 116Z', ...gold }));
  }
  parts.push(pip(64, 60, 20, card.suit));
  return parts;
}

/**
 * A court card's picture: its frame and figure, twice, head to head.
 * @param {PlayingCard} card
 * @param {string} ink
 */
function courtFigure(card, ink) {
  const court = COURTS[card.rank];
  const tint = card.red ? '#fdecee' : '#eef0f4';
  return svg('g', { class: 'court-figure', dataset: { court } },
    svg('rect', { x: 44, y: 40, width: 112, height: 210, rx: 8, fill: tint, stroke: ink, 'stroke-width': 2 }),
    svg('g', {}, ...courtHalf(court, card, ink)),
    svg('g', { transform: `rotate(180 ${C} 145)` }, ...courtHalf(court, card, ink)),
    // NB: a line of the frame's tint between the two halves, where the robes meet.
    svg('path', { d: 'M45 145H155', stroke: tint, 'stroke-width': 2.5 }));
}

/** @param {PlayingCard} card */
function playingFace(card) {
  const ink = card.red ? INK.red : INK.black;
  const corner = (/** @type {string|null} */ transform) => svg('g', transform ? { transform } : {},
    svg('text', { x: 22, y: 42, 'text-anchor': 'middle', class: 'rank', 'font-size': card.rank === '10' ? 30 : 34, text: card.rank }),
    pip(22, 62, 24, card.suit));
  const body = COURTS[card.rank] ? courtFigure(card, ink) : svg('g', { class: 'pips' });
  if (card.rank === 'A') body.append(pip(C, 145, 92, card.suit));
  else if (PIPS[card.rank]) for (const [x, y] of PIPS[card.rank]) body.append(pip(x, y, 36, card.suit, y > 145));
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'card-svg', 'aria-hidden': 'true', focusable: 'false', fill: ink },
    svg('rect', { x: 1, y: 1, width: W - 2, height: H - 2, rx: 14, class: 'card-paper' }),
    corner(null), corner(`rotate(180 ${W / 2} ${H / 2})`), body);
}

/**
 * The paint of one Set symbol: fill and stroke for its colour and shading.
 * @param {SetCard} card
 * @param {number} [width]  the stroke's width
 */
function setPaint(card, width = 4) {
  const colour = SET_COLOURS[card.color];
  const fill = card.shading === 'solid' ? colour : card.shading === 'striped' ? `url(#stripes-${card.color})` : 'none';
  return { fill, stroke: colour, 'stroke-width': width, class: `set-ink set-${card.color} set-${card.shading}` };
}

/** @param {SetCard} card */
function setFace(card) {
  const sw = 140, sh = 70, gap = 14;
  const total = card.number * sh + (card.number - 1) * gap;
  const top = (H - total) / 2;
  const shapes = [];
  for (let i = 0; i < card.number; i++) {
    shapes.push(svg('use', { href: `#set-${card.symbol}`, x: (W - sw) / 2, y: top + i * (sh + gap), width: sw, height: sh, ...setPaint(card) }));
  }
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'card-svg', 'aria-hidden': 'true', focusable: 'false' },
    svg('rect', { x: 1, y: 1, width: W - 2, height: H - 2, rx: 14, class: 'card-paper' }), ...shapes);
}

/**
 * The face of a card as an SVG element (decorative: the button carries the name).
 * @param {string} text  the card's text form
 * @returns {SVGElement}
 */
export function cardFaceSVG(text) {
  const card = parseCard(text);
  if (!card) return backSVG();
  return card.kind === 'set' ? setFace(card) : playingFace(card);
}

/** @returns {SVGElement} a card back */
export function backSVG() {
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'card-svg', 'aria-hidden': 'true', focusable: 'false' },
    svg('rect', { x: 1, y: 1, width: W - 2, height: H - 2, rx: 14, class: 'card-paper' }),
    svg('rect', { x: 14, y: 14, width: W - 28, height: H - 28, rx: 8, fill: 'url(#back-lattice)' }),
    svg('rect', { x: 14, y: 14, width: W - 28, height: H - 28, rx: 8, fill: 'none', stroke: '#16355e', 'stroke-width': 3 }));
}

/**
 * Creates a card button: a flip container holding a front and a back face.
 * Update it with {@link showCard}.
 * @param {number} index  0-based board index (kept in data-index)
 * @returns {HTMLButtonElement}
 */
export function createCardButton(index) {
  const button = /** @type {HTMLButtonElement} */ (el('button.card', { type: 'button', dataset: { index: String(index) } },
    el('span.card-flip', {},
      el('span.face.front', {}),
      el('span.face.back', {}, backSVG()))));
  button.setAttribute('aria-label', faceDownName(index));
  return button;
}

/**
 * Shows `face` (or the back, when null) on a card button, naming it accordingly.
 * The front is kept while a card turns down, so the flip shows it going away.
 * @param {HTMLButtonElement} button
 * @param {string|null} face
 * @param {number} index  0-based board index
 */
export function showCard(button, face, index) {
  const front = /** @type {HTMLElement} */ (button.querySelector('.face.front'));
  if (face) {
    if (button.dataset.face !== face) {
      front.replaceChildren(cardFaceSVG(face));
      button.dataset.face = face;
    }
    button.classList.add('up');
  } else {
    button.classList.remove('up');
  }
  const name = face ? cardName(face) : faceDownName(index);
  if (button.getAttribute('aria-label') !== name) button.setAttribute('aria-label', name);
}

/**
 * A small non-interactive card picture (found matches, history, open piles).
 * @param {string|null} face  null for a back
 * @param {string} [className]
 */
export function cardImage(face, className = 'mini-card') {
  return el(`span.${className}`, { role: 'img', 'aria-label': face ? cardName(face) : 'face-down card' },
    face ? cardFaceSVG(face) : backSVG());
}

/**
 * A Set card written inline as coloured symbols (for history lines).
 * @param {string} text  `symbol:color:shading:number`
 */
export function setSymbolsInline(text) {
  const card = /** @type {SetCard} */ (parseCard(text));
  const w = 34, h = 17, gap = 3;
  const width = card.number * w + (card.number - 1) * gap;
  const uses = [];
  for (let i = 0; i < card.number; i++) {
    uses.push(svg('use', { href: `#set-${card.symbol}`, x: i * (w + gap), y: 0, width: w, height: h, ...setPaint(card, 8) }));
  }
  return el('span.set-inline', { role: 'img', 'aria-label': cardName(text) },
    svg('svg', { viewBox: `-2 -2 ${width + 4} ${h + 4}`, width: width * 0.9, height: h * 0.9 + 4, 'aria-hidden': 'true', focusable: 'false' }, ...uses));
}
