// @ts-check
/**
 * What an address of the page asks for (app.js lists them): a pure function of the address
 * and the catalog, with no DOM and no state.
 *
 *   /play/ROOM                           {kind: 'room', room}
 *   /scores                              {kind: 'scores'}
 *   /players/ID                          {kind: 'player', player}  (a player's page)
 *   /?join[=CODE]                        {kind: 'join', code}
 *   /?game=NAME&table=host               {kind: 'host', game}  (a game with tables)
 *   /?game=NAME                          {kind: 'menu', game, option, seed}  (a game with an
 *                                        option placed `menu`, when the address names none of
 *                                        its choices), else {kind: 'new', game}
 *   anything else                        {kind: 'home'}
 *
 * `params` is the address's query, for the screen (a seed, options, `today`).
 * @module route
 */

/** @typedef {import('./protocol.js').GameInfo} GameInfo */
/** @typedef {import('./protocol.js').GameOption} GameOption */

/**
 * @typedef {{kind: 'home'}
 *   | {kind: 'scores'}
 *   | {kind: 'player', player: string}
 *   | {kind: 'room', room: string}
 *   | {kind: 'join', code: string}
 *   | {kind: 'host', game: GameInfo, params: URLSearchParams}
 *   | {kind: 'menu', game: GameInfo, option: GameOption, seed: string|null}
 *   | {kind: 'new', game: GameInfo, params: URLSearchParams}} Route
 */

/**
 * @param {{pathname: string, search: string}} url  e.g. `location`, or a `URL`
 * @param {readonly GameInfo[]} games  the catalog
 * @returns {Route}
 */
export function parseRoute(url, games) {
  const path = url.pathname;
  const params = new URLSearchParams(url.search);
  if (path.startsWith('/play/')) return { kind: 'room', room: decodeURIComponent(path.slice('/play/'.length)) };
  if (path === '/scores') return { kind: 'scores' };
  if (path.startsWith('/players/')) return { kind: 'player', player: decodeURIComponent(path.slice('/players/'.length)) };
  if (params.has('join')) return { kind: 'join', code: params.get('join') ?? '' };
  const game = games.find((info) => info.name === params.get('game'));
  if (!game) return { kind: 'home' };
  if (params.get('table') === 'host' && game.together !== null) return { kind: 'host', game, params };
  const option = game.options.find((o) => o.places.includes('menu') && o.choices.length > 0);
  if (option && !option.choices.some((choice) => String(choice.value) === params.get(option.name))) {
    return { kind: 'menu', game, option, seed: params.get('seed') };
  }
  return { kind: 'new', game, params };
}
