// @ts-check
/**
 * The players of a game played in turns at a table (Memory, Concentration): each player's
 * pairs, and whose turn it is.
 * @module games/turns
 */
import { el } from '../dom.js';
import { choiceNamed, optionsAt } from '../catalog.js';

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

/**
 * The "Play against" choice of a game of one's own (the catalog's `opponent`, placed on the
 * game's `screen`): Nobody, or Ray at a computer level. Choosing opens the address of a new
 * game against that opponent (`&opponent=good`); `show` keeps the choice to the game on screen.
 * @param {import('../protocol.js').GameInfo|null} info
 * @param {URLSearchParams} params  the address's
 * @param {(opponent: string) => string} address  a new game's against `opponent`
 * @param {(url: string) => void} navigate
 * @returns {{field: HTMLElement, value: string|null,
 *   show: (view: {players?: import('./views.js').BoardPlayer[], computerLevel?: string}) => void}|null}
 *   `value` (the address's) is null for Nobody
 */
export function opponentChoice(info, params, address, navigate) {
  const option = info ? optionsAt(info, 'screen').find((o) => o.name === 'opponent') : undefined;
  if (!info || !option) return null;
  const nobody = String(option.default);
  const chosen = String(choiceNamed(option, params.get('opponent'))?.value ?? nobody);
  const select = /** @type {HTMLSelectElement} */ (el('select.btn.opponent-select', {
    'aria-label': option.label,
    onchange: () => navigate(address(select.value)),
  }, ...option.choices.map((choice) => el('option', {
    value: String(choice.value), text: choice.label, title: choice.description ?? false, selected: String(choice.value) === chosen,
  }))));
  const field = el('label.opponent-choice', {}, el('span.long-label', { 'aria-hidden': 'true', text: `${option.label} ` }), select);
  return {
    field,
    value: chosen === nobody ? null : chosen,
    show(view) {
      // NB: a game alone against the computer is You and one computer player.
      const against = view.players?.length === 2 && view.players[1].computer ? view.computerLevel ?? nobody : nobody;
      if (select.value !== against) select.value = against;
    },
  };
}
