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

/** @param {PlayingCard} card */
function playingFace(card) {
  const ink = card.red ? INK.red : INK.black;
  const corner = (/** @type {string|null} */ transform) => svg('g', transform ? { transform } : {},
    svg('text', { x: 22, y: 42, 'text-anchor': 'middle', class: 'rank', 'font-size': card.rank === '10' ? 30 : 34, text: card.rank }),
    pip(22, 62, 24, card.suit));
  const body = svg('g', {});
  if (card.rank === 'A') body.append(pip(C, 145, 92, card.suit));
  else if (PIPS[card.rank]) for (const [x, y] of PIPS[card.rank]) body.append(pip(x, y, 36, card.suit, y > 145));
  else {
    body.append(
      svg('rect', { x: 44, y: 40, width: 112, height: 210, rx: 8, fill: card.red ? '#fdecee' : '#eef0f4', stroke: ink, 'stroke-width': 2 }),
      svg('text', { x: C, y: 178, 'text-anchor': 'middle', class: 'court', 'font-size': 96, text: card.rank }),
      pip(66, 64, 26, card.suit), pip(134, 226, 26, card.suit, true));
  }
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
