// @ts-check
/**
 * The table geometry of Sources/CardLayout, ported to JavaScript (same formulas, same names).
 * @module geometry
 */

/** @typedef {{x: number, y: number, width: number, height: number}} Rect */

/** The Memory original's gap unit and card height / width (RULES §3). */
export const MEMORY_SPACING = 5;
export const MEMORY_ASPECT = 1.452;

/**
 * Memory's table as the original laid it out (MemoryGeometry.swift):
 *   h = H / R − 2s, w = h / r; table = C·(w + 2s) × R·(h + s), centred in the view;
 *   card(row, col).origin = table.origin + (s + col·(w + 2s), s + row·(h + s)).
 * When the table would be wider than the view, the cards shrink: w = W / C − 2s, h = r·w.
 * @param {number} viewWidth
 * @param {number} viewHeight
 * @param {number} columns
 * @param {number} rows
 * @param {number} [spacing]  the gap unit `s` (smaller with large cards)
 * @returns {{cardWidth: number, cardHeight: number, table: Rect, frames: Rect[], widthLimited: boolean}}
 */
export function memoryGeometry(viewWidth, viewHeight, columns, rows, spacing = MEMORY_SPACING) {
  const s = spacing;
  let height = Math.max(0, viewHeight / rows - 2 * s);
  let width = height / MEMORY_ASPECT;
  const widthLimited = columns * (width + 2 * s) > viewWidth;
  if (widthLimited) {
    width = Math.max(0, viewWidth / columns - 2 * s);
    height = width * MEMORY_ASPECT;
  }
  const tableWidth = columns * (width + 2 * s);
  const tableHeight = rows * (height + s);
  const table = { x: (viewWidth - tableWidth) / 2, y: (viewHeight - tableHeight) / 2, width: tableWidth, height: tableHeight };
  const frames = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      frames.push({ x: table.x + s + column * (width + 2 * s), y: table.y + s + row * (height + s), width, height });
    }
  }
  return { cardWidth: width, cardHeight: height, table, frames, widthLimited };
}

/**
 * Concentration's scattered table (TiltedLayout.swift): a centred grid of as many columns as
 * fit, inset by the largest overhang of a turned card; rows close up and overlap evenly when
 * they do not fit the height. Card `i` turns by `angles[i]` degrees about its centre, z-index i.
 * @param {number} count
 * @param {{width: number, height: number}} container
 * @param {{width: number, height: number}} cardSize
 * @param {number[]} angles  degrees, one per card
 * @param {number} [spacing]
 * @param {{top: number, left: number, bottom: number, right: number}} [insets]
 * @returns {{columns: number, rows: number, cards: {frame: Rect, angle: number, zIndex: number}[]}}
 */
export function tiltedLayout(count, container, cardSize, angles, spacing = 5, insets = { top: 0, left: 0, bottom: 0, right: 0 }) {
  let overW = 0, overH = 0;
  for (const angle of angles) {
    const rad = (angle * Math.PI) / 180;
    const sin = Math.abs(Math.sin(rad)), cos = Math.abs(Math.cos(rad));
    const turnedWidth = cardSize.width * cos + cardSize.height * sin;
    const turnedHeight = cardSize.width * sin + cardSize.height * cos;
    overW = Math.max(overW, (turnedWidth - cardSize.width) / 2);
    overH = Math.max(overH, (turnedHeight - cardSize.height) / 2);
  }
  const area = {
    x: insets.left + overW, y: insets.top + overH,
    width: container.width - insets.left - insets.right - 2 * overW,
    height: container.height - insets.top - insets.bottom - 2 * overH,
  };
  const pitchX = cardSize.width + spacing;
  let columns = 1;
  if (pitchX > 0) {
    const fitting = Math.floor(((area.width + spacing) / pitchX) * (1 + 1e-12));
    columns = Math.max(1, Math.min(fitting, Math.max(1, count)));
  }
  const rows = count > 0 ? Math.ceil(count / columns) : 0;
  let pitchY = cardSize.height + spacing;
  const neededHeight = rows * cardSize.height + Math.max(0, rows - 1) * spacing;
  if (rows > 1 && neededHeight > area.height) pitchY = Math.max(0, (area.height - cardSize.height) / (rows - 1));
  const gridWidth = Math.min(columns, count) * pitchX - spacing;
  const gridHeight = Math.max(0, rows - 1) * pitchY + cardSize.height;
  const left = area.x + (area.width - gridWidth) / 2;
  const top = area.y + Math.max(0, (area.height - gridHeight) / 2);
  const cards = [];
  for (let i = 0; i < count; i++) {
    cards.push({
      frame: { x: left + (i % columns) * pitchX, y: top + Math.floor(i / columns) * pitchY, width: cardSize.width, height: cardSize.height },
      angle: angles[i] ?? 0, zIndex: i,
    });
  }
  return { columns: count > 0 ? columns : 0, rows, cards };
}

/**
 * Memory's table on a screen of any shape: the original's grid, or the same grid transposed
 * (columns become rows: Hard's 8×4 shown as 4×8 on a phone held upright) when that gives
 * larger cards. `frames[i]` is card i's place either way: card (row r, column c) of the
 * board stands at (row c, column r) of a transposed table.
 * @param {number} viewWidth
 * @param {number} viewHeight
 * @param {number} columns  the board's
 * @param {number} rows  the board's
 * @param {number} [spacing]
 * @returns {{cardWidth: number, cardHeight: number, frames: Rect[], transposed: boolean, columns: number, rows: number}}
 */
export function memoryTable(viewWidth, viewHeight, columns, rows, spacing = MEMORY_SPACING) {
  const plain = memoryGeometry(viewWidth, viewHeight, columns, rows, spacing);
  const turned = memoryGeometry(viewWidth, viewHeight, rows, columns, spacing);
  // NB: 2 % better at least, so that a square-ish screen does not switch back and forth.
  if (columns === rows || turned.cardWidth <= plain.cardWidth * 1.02) {
    return { cardWidth: plain.cardWidth, cardHeight: plain.cardHeight, frames: plain.frames, transposed: false, columns, rows };
  }
  const frames = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) frames.push(turned.frames[column * rows + row]);
  }
  return { cardWidth: turned.cardWidth, cardHeight: turned.cardHeight, frames, transposed: true, columns: rows, rows: columns };
}
