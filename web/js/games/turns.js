// @ts-check
/**
 * The players of a game played in turns at a table (Memory, Concentration): each player's
 * pairs, and whose turn it is.
 * @module games/turns
 */
import { el } from '../dom.js';

/**
 * Memory's and Concentration's players in turns: each player's pairs, whose turn it is.
 * @param {HTMLElement} container  emptied when the game is not played in turns
 * @param {{players?: import('./views.js').BoardPlayer[], turn?: string, over: boolean}} view
 * @param {string|null} me  this page's player at the table
 */
export function renderTurns(container, view, me) {
  if (!view.players || !view.players.length) {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  const turn = view.over || !view.turn ? '' : view.turn === me ? 'Your turn' : `${view.turn}'s turn`;
  container.replaceChildren(
    ...view.players.map((p) => el(`span.player-chip${p.player === view.turn && !view.over ? '.current' : ''}${p.left ? '.gone' : ''}`,
      { 'aria-current': p.player === view.turn && !view.over ? 'true' : false },
      `${p.player === me ? 'You' : p.player}${p.computer ? ' (computer)' : ''}: ${p.pairs} ${p.pairs === 1 ? 'pair' : 'pairs'}${p.left ? ' (left)' : ''}`)),
    turn ? el('strong.turn', { text: turn }) : '');
}
