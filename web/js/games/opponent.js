// @ts-check
/**
 * A game of one's own against the computer: the "Play against" choice (Memory, Concentration
 * and Set alone), from the catalog's `opponent` option placed on the game's `screen`.
 * @module games/opponent
 */
import { el } from '../dom.js';
import { choiceNamed, optionsAt } from '../catalog.js';

/**
 * The "Play against" choice of a game of one's own (the catalog's `opponent`, placed on the
 * game's `screen`): Nobody, or Ray at a computer level. Choosing opens the address of a new
 * game against that opponent (`&opponent=good`); `show` keeps the choice to the game on screen.
 * @param {import('../protocol.js').GameInfo|null} info
 * @param {URLSearchParams} params  the address's
 * @param {(opponent: string) => string} address  a new game's against `opponent`
 * @param {(url: string) => void} navigate
 * @returns {{field: HTMLElement, value: string|null,
 *   show: (view: {players?: {player: string, computer?: boolean}[], computerLevel?: string}) => void}|null}
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
