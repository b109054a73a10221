// @ts-check
/**
 * The screen that Matchismo (RULES §1) and Set (§2) share: score, flips, status line, table,
 * found matches with reasons, Deal, +3, Hint and the two-player option; the settings and the
 * history have their own modules.
 * @module games/matching/screen
 */
import { el, setText, restartButton, confirmDiscard } from '../../dom.js';
import { createCardButton, showCard, cardImage, cardName } from '../../cards.js';
import { announce, gridKeys } from '../../a11y.js';
import { flash, measure, glide } from '../../anim.js';
import { cardsLarge, CARDS_EVENT } from '../../size.js';
import { gameSettings, openSettings, saveSetSwitch, settingsChanged } from './settings.js';
import { entryNodes, openHistory } from './history.js';
import { endSummary, GameClock } from '../ending.js';
import { opponentChoice } from '../opponent.js';
import { gameInfo } from '../../catalog.js';

/** @typedef {import('../views.js').MatchingView} MatchingView */
/** @typedef {import('../views.js').MatchingUpdate} MatchingUpdate */

/**
 * @typedef {object} MatchingConfig
 * @property {'matchismo'|'set'} game
 * @property {boolean} [modeSelector]  Matchismo's 2-card / 3-card selector
 * @property {boolean} [plusThree]     Set's +3 button
 * @property {boolean} [twoPlayer]     Set's two-player toggle
 * @property {boolean} [refill]        Set's *Refill to 12* switch
 */

/**
 * Mounts a matching game.
 * @param {import('../../protocol.js').GameContext} ctx
 * @param {MatchingConfig} config
 * @returns {import('../../protocol.js').GameScreen<MatchingUpdate>}
 */
export function mountMatching({ root, toolbar, conn, params, fresh, session, navigate, stepThrough }, config) {
  const { game } = config;
  let seed = params.get('seed');
  /** Today's deal was asked for (`?today`): only the first game, as a chosen seed. */
  let today = params.has('today');

  // ----- the screen -----
  const score = el('span.counter', { text: 'Score: 0' });
  const flips = el('span.counter', { text: 'Flips: 0' });
  /** Set's clock, as the other games have one: the time of the game on screen. */
  const clock = el('span.counter.clock', { text: '0:00', role: 'timer', 'aria-label': 'Time', hidden: game !== 'set' });
  const timer = new GameClock();
  /** @type {string|null} the day of today's deal, when this game is one (the update says so) */
  let todaysDeal = null;
  /** Whether the player closed the end's banner (until the next game). */
  let overClosed = false;
  /** Why the score last changed (a penalty, the cost to choose): shown and read out politely. */
  const scoreNote = el('span.score-note', { role: 'status' });
  const players = el('span.players', { hidden: true });
  /** In a race: who has agreed to +3 (it deals once every racer has). */
  const threeNote = el('span.three-note', { hidden: true, role: 'status' });
  const controls = el('div.controls');
  /** The score note's line, which Matchismo's "Mode locked until Deal" shares. */
  const noteLine = el('div.note-line', {}, scoreNote);
  const status = el('p.status-line', { role: 'status' });
  // NB: over the table, not above it: the end does not move the cards.
  const over = el('div.game-over', { hidden: true, role: 'alert' });
  /** @type {HTMLButtonElement[]} the buttons that act on the game (off for watchers and while stepping) */
  const acting = [];
  const grid = el('div.card-grid', { role: 'group', 'aria-label': game === 'set' ? 'Set table' : 'Matchismo table' });
  const foundList = el('ul.found-list');
  const found = el('section.found', { hidden: true, 'aria-labelledby': `${game}-found-title` },
    el('h2.found-title', { id: `${game}-found-title`, text: 'matched cards:' }), foundList);
  // NB: the status line and the score note have rooms of their own, and the found matches a
  // strip of its own below the table, so that the cards stay put when they change (docs/WEB.md).
  const gridArea = el('div.grid-area', {}, grid, over);
  const screen = el(`section.matching-screen.${game}-screen`, {},
    el('div.score-bar', {}, score, flips, clock, players, controls), el('div.status-area', {}, status, noteLine), gridArea, found);
  root.append(screen);

  const historyButton = el('button.btn', { type: 'button', text: 'History', onclick: () => openHistory({ entries: view?.history ?? [], game, conn }) });
  const settingsButton = /** @type {HTMLButtonElement} */ (el('button.btn.ghost', { type: 'button', 'aria-label': 'Settings', 'aria-haspopup': 'dialog', onclick: () => openSettings(game, conn) },
    el('span.bar-icon', { 'aria-hidden': 'true', text: '⚙' }), el('span.phone-label', { text: 'Settings' })));
  const restart = /** @type {HTMLButtonElement} */ (restartButton(conn));
  acting.push(restart, settingsButton);
  // NB: Set alone may be a race against the computer ("Play against", the catalog's `opponent`).
  const opponent = opponentChoice(gameInfo(game), params, (against) => `/?game=${game}&opponent=${encodeURIComponent(against)}`, navigate);
  toolbar.append(restart, settingsButton, historyButton, opponent?.field ?? '');

  /** @type {HTMLSelectElement|null} */
  let modeSelect = null;
  /** @type {HTMLElement|null} */
  let modeNote = null;
  if (config.modeSelector) {
    const select = /** @type {HTMLSelectElement} */ (el('select.btn', { 'aria-label': 'Cards to match', onchange: () => {
      if (!locked()) conn.send({ cmd: 'act', action: { type: 'setMode', mode: Number(select.value) }, version });
    } }, el('option', { value: '2', text: '2-card match' }), el('option', { value: '3', text: '3-card match' })));
    modeSelect = select;
    modeNote = el('span.mode-note', { id: 'mode-note', hidden: true, text: 'Mode locked until Deal' });
    modeSelect.setAttribute('aria-describedby', 'mode-note');
    controls.append(modeSelect);
    noteLine.append(modeNote);
  }
  /** @type {HTMLButtonElement|null} */
  let plusThree = null;
  if (config.plusThree) {
    plusThree = /** @type {HTMLButtonElement} */ (el('button.btn', { type: 'button', text: '+3', 'aria-label': 'Deal three more cards', onclick: () => {
      if (!locked()) conn.send({ cmd: 'act', action: { type: 'dealThree' }, version });
    } }));
    controls.append(plusThree, threeNote);
  }
  const hint = /** @type {HTMLButtonElement} */ (el('button.btn', { type: 'button', text: 'Hint', onclick: () => { if (!locked()) conn.send({ cmd: 'hint' }); } }));
  acting.push(hint);
  controls.append(hint);
  /** @type {HTMLInputElement|null} */
  let twoPlayer = null;
  /**
   * The request id of the new game the toggle asked for, until its reply arrives (0: none):
   * meanwhile the toggle shows what was asked, not the running game's setting.
   */
  let toggleRequest = 0;
  if (config.twoPlayer) {
    const toggle = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', id: 'two-player' }));
    twoPlayer = toggle;
    toggle.checked = gameSettings('set').twoPlayer === true;
    toggle.addEventListener('change', () => {
      if (locked()) return;
      // NB: saved before the new game is asked for; the server answers in order.
      saveSetSwitch({ twoPlayer: toggle.checked }, conn);
      seed = null;
      today = false;
      toggleRequest = newGame();
    });
    controls.append(el('label.toggle', { for: 'two-player' }, twoPlayer, el('span', { text: 'Two players' })));
  }
  /** @type {HTMLInputElement|null} */
  let refill = null;
  if (config.refill) {
    const toggle = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', role: 'switch', id: 'refill-switch' }));
    refill = toggle;
    toggle.checked = gameSettings('set').refill === true;
    toggle.addEventListener('change', async () => {
      if (locked()) return;
      // NB: the switch deals a new game with it, once the player agrees to leave this one.
      const played = !!view && !view.over && (view.flips > 0 || view.history.length > 0);
      if (!await confirmDiscard(played, 'Deal') || locked()) {
        toggle.checked = view?.settings?.refill === true;
        return;
      }
      saveSetSwitch({ refill: toggle.checked }, conn);
      seed = null;
      today = false;
      toggleRequest = newGame({ refill: toggle.checked });
    });
    controls.append(el('label.toggle', { for: 'refill-switch', title: 'After a set, deal fresh cards into its places while the deck lasts' },
      toggle, el('span', { text: 'Refill to 12' })));
  }
  const dealButton = /** @type {HTMLButtonElement} */ (el('button.btn.primary', { type: 'button', text: 'Deal', onclick: deal }));
  acting.push(dealButton);
  controls.append(dealButton);
  const stepButton = el('button.btn', { type: 'button', text: 'Step through', onclick: () => stepThrough() });
  // NB: at a table, the same seats deal again once everyone there accepts (a rematch).
  const playAgain = el('button.btn.primary', { type: 'button', text: 'Play again', onclick: () => { if (session.table) session.rematch(); else deal(); } });
  const closeOver = el('button.btn.ghost', { type: 'button', text: 'Close', onclick: () => {
    overClosed = true;
    over.hidden = true;
    grid.focus();
  } });
  const ticker = window.setInterval(() => { if (view && !past) setText(clock, timer.text); }, 500);

  /** @type {HTMLButtonElement[]} */
  let buttons = [];
  /** @type {MatchingView|null} the live game */
  let view = null;
  /** @type {MatchingView|null} an earlier view shown while stepping through */
  let past = null;
  const locked = () => session.readOnly || past !== null;
  let version = -1;
  let foundCount = -1;
  /** @type {MatchingView|null} the live view before the latest update */
  let previous = null;

  /**
   * Says why the score changed when the change is not plain from the table: a mismatch's
   * penalty, +3's charge with a set showing, the cost to choose.
   * @param {MatchingView|null} before
   * @param {MatchingView} after
   * @param {import('../views.js').MatchingEvent[]} events
   * @param {number} newVersion
   */
  function explainScore(before, after, events, newVersion) {
    // NB: at a table other racers' moves arrive too; each racer's score is on their chip.
    if (session.table) return;
    const fresh = !before || newVersion <= version0 || events.some((e) => e.type === 'dealt');
    version0 = newVersion;
    if (fresh) { setText(scoreNote, ''); return; }
    /** @type {{who: string, delta: number}[]} */
    const changes = after.players && after.current
      ? after.players.map((p) => ({ who: p.player, delta: p.score - (before.players?.find((q) => q.player === p.player)?.score ?? 0) }))
        .filter((c) => c.delta !== 0)
      : after.score !== before.score ? [{ who: '', delta: after.score - before.score }] : [];
    if (changes.length !== 1) return;
    const [{ who, delta }] = changes;
    const signed = (/** @type {number} */ n) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n)}`;
    /** @type {string[]} */
    const parts = [];
    let explained = 0;
    for (const event of events) {
      if (event.type === 'matched') { parts.push(`match ${signed(event.points)}`); explained += event.points; }
      if (event.type === 'mismatched' && event.penalty) { parts.push(`no match ${signed(-event.penalty)}`); explained -= event.penalty; }
      if (event.type === 'dealtThree' && event.charge) { parts.push(`+3 with a set showing: ${signed(-event.charge)}`); explained -= event.charge; }
    }
    if (delta !== explained) parts.push(`cost to choose ${signed(delta - explained)}`);
    const text = parts.join(', ');
    setText(scoreNote, `${who ? `${who}: ` : ''}${text[0].toUpperCase()}${text.slice(1)}`);
  }
  let version0 = -1;
  gridKeys(grid, () => getComputedStyle(grid).gridTemplateColumns.split(' ').length);
  const refit = () => fit();
  const resize = new ResizeObserver(refit);
  resize.observe(root);
  window.addEventListener('resize', refit);
  window.addEventListener(CARDS_EVENT, refit);

  /** The options of a new game: remembered settings, the mode, two players. */
  function options() {
    /** @type {import('./settings.js').MatchingSettings & {mode?: number}} */
    const result = { ...gameSettings(game) };
    if (config.modeSelector) result.mode = Number(modeSelect?.value ?? 2);
    if (config.twoPlayer) result.twoPlayer = !!twoPlayer?.checked;
    // NB: a race against the computer is not two players at one screen.
    if (opponent?.value) Object.assign(result, { opponent: opponent.value, twoPlayer: false });
    return result;
  }

  /**
   * @param {Record<string, unknown>} [changed]  options the player just changed on screen (the
   *   settings they are saved to may not have come back yet)
   * @returns {number} the request's id
   */
  function newGame(changed = {}) {
    /** @type {import('../../protocol.js').NewGame} */
    const message = { cmd: 'new', game, options: { ...options(), ...changed } };
    if (seed !== null && seed !== '') message.seed = seed;
    else if (today) message.today = true;
    return conn.send(message);
  }
  if (fresh) newGame();

  /** Deal: a fresh deck; when the settings changed since this game began, a new game with them. */
  async function deal() {
    if (locked()) return;
    const played = !!view && (view.flips > 0 || view.score !== 0 || view.history.length > 0);
    if (!await confirmDiscard(played && !view?.over, 'Deal') || locked()) return;
    seed = null;
    today = false;
    // NB: a race deals again only once it is over; before, a new game of the same race.
    if (!view || settingsChanged(game, view.settings ?? {}) || (view.viewer && !view.over)) newGame();
    else conn.send({ cmd: 'act', action: { type: 'deal' }, version });
  }

  /** @param {number} index */
  function choose(index) {
    if (!view || locked()) return;
    const slot = view.table[index];
    if (!slot || slot.matched || view.over) return;
    // NB: in a race the card is named as seen, so that a card another player's set has just
    // taken is refused (card-matched) rather than the one that took its place being chosen.
    const race = 'viewer' in view && view.viewer && slot.card;
    conn.send({ cmd: 'act', action: race ? { type: 'choose', card: index, face: slot.card } : { type: 'choose', card: index }, version });
  }

  /** The column count of the last layout (kept when the card count changes, if it still fits well). */
  let lastColumns = 0;

  /**
   * Sizes the cards so the table fits the screen without scrolling (large cards: a little
   * scrolling down, when the window is short for them): the table's area takes the
   * height between the status line and the found-matches strip; the column count is the one
   * that gives the largest cards — or the one already on screen when the count changed and it
   * gives cards nearly as large, so that fewer cards move (Set after a set or +3).
   * @param {boolean} [countChanged]
   */
  function fit(countChanged = false) {
    const n = buttons.length;
    if (!n) return;
    const large = cardsLarge();
    const foundHeight = found.getBoundingClientRect().height;
    const areaTop = gridArea.getBoundingClientRect().top + window.scrollY;
    const gapBelow = parseFloat(getComputedStyle(found).marginTop) || 0;
    const screenStyle = getComputedStyle(screen);
    const bottom = (parseFloat(screenStyle.paddingBottom) || 0) + (parseFloat(screenStyle.rowGap) || 0);
    const areaHeight = Math.max(120, Math.floor(window.innerHeight - areaTop - foundHeight - gapBelow - bottom));
    gridArea.style.height = `${areaHeight}px`;
    const padding = getComputedStyle(grid);
    const width = gridArea.clientWidth - parseFloat(padding.paddingLeft) - parseFloat(padding.paddingRight);
    // NB: large cards may take a third more height than the window has: the page then scrolls
    // down (never sideways) rather than keep the cards small.
    const height = (areaHeight - parseFloat(padding.paddingTop) - parseFloat(padding.paddingBottom)) * (large ? 4 / 3 : 1);
    const gap = width < 500 ? 6 : large ? 8 : 10;
    const most = large ? 260 : 150;
    /** @param {number} columns */
    const cardWidth = (columns) => {
      const rows = Math.ceil(n / columns);
      return Math.min((width - (columns - 1) * gap) / columns, (height - (rows - 1) * gap) / rows / 1.452, most);
    };
    let best = { columns: 1, cardWidth: 0 };
    for (let columns = 1; columns <= n; columns++) {
      const w = cardWidth(columns);
      if (w > best.cardWidth + 0.5) best = { columns, cardWidth: w };
    }
    if (countChanged && lastColumns > 0 && lastColumns <= n && cardWidth(lastColumns) >= best.cardWidth * 0.85) {
      best = { columns: lastColumns, cardWidth: cardWidth(lastColumns) };
    }
    lastColumns = best.columns;
    grid.style.setProperty('--columns', String(best.columns));
    grid.style.setProperty('--card-w', `${Math.max(24, Math.floor(best.cardWidth - 0.5))}px`);
    grid.style.setProperty('--gap', `${gap}px`);
    if (large) gridArea.style.height = `${Math.max(areaHeight, grid.offsetHeight)}px`;
  }

  /** @param {MatchingView} view */
  function renderTable(view) {
    while (buttons.length < view.table.length) {
      const i = buttons.length;
      const b = createCardButton(i);
      b.addEventListener('click', () => choose(Number(b.dataset.index)));
      buttons.push(b);
      grid.append(b);
    }
    while (buttons.length > view.table.length) buttons.pop()?.remove();
    view.table.forEach((slot, i) => {
      const b = buttons[i];
      showCard(b, slot.card, i);
      b.setAttribute('aria-pressed', String(slot.chosen && !slot.matched));
      b.classList.toggle('chosen', slot.chosen && !slot.matched);
      b.classList.toggle('matched', slot.matched);
      b.classList.toggle('hinted', slot.hinted);
      b.setAttribute('aria-disabled', String(locked() || slot.matched || view.over));
    });
  }

  /** @param {MatchingView} view */
  function renderFound(view) {
    const matches = view.foundMatches ?? [];
    if (matches.length === foundCount) return;
    foundCount = matches.length;
    found.hidden = matches.length === 0;
    foundList.replaceChildren(...matches.map((match, n) => {
      const tipId = `${game}-reason-${n}`;
      return el('li.found-match', { tabindex: '0', 'aria-describedby': tipId, onmouseenter: placeTip, onfocus: placeTip },
        el('span.found-cards', {}, ...match.cards.map((text) => cardImage(text))),
        el('span.reason', { id: tipId, role: 'tooltip', text: `${match.reason?.text ?? ''} · ${match.points > 0 ? '+' : ''}${match.points} points` }));
    }));
    // The strip scrolls sideways on its own (never the page): the newest match in view.
    foundList.scrollLeft = foundList.scrollWidth;
  }

  /**
   * Puts a found match's reason beside it (right, else left), or above it when neither side has
   * room — always inside the window (the tip is `position: fixed`, so it never widens the page).
   * @param {Event} event
   */
  function placeTip(event) {
    const item = /** @type {HTMLElement} */ (event.currentTarget);
    const tip = /** @type {HTMLElement} */ (item.querySelector('.reason'));
    const box = item.getBoundingClientRect();
    const viewWidth = document.documentElement.clientWidth;
    const tipWidth = tip.offsetWidth || 240, tipHeight = tip.offsetHeight || 40;
    const side = box.right + tipWidth + 12 <= viewWidth ? 'right' : box.left - tipWidth - 12 >= 0 ? 'left' : 'above';
    item.dataset.tip = side;
    let left = side === 'right' ? box.right + 8 : side === 'left' ? box.left - tipWidth - 8 : box.left;
    let top = side === 'above' ? box.top - tipHeight - 6 : box.top + box.height / 2 - tipHeight / 2;
    left = Math.max(4, Math.min(left, viewWidth - tipWidth - 4));
    top = Math.max(4, Math.min(top, window.innerHeight - tipHeight - 4));
    Object.assign(tip.style, { left: `${left}px`, top: `${top}px` });
  }

  /** @param {MatchingView} view */
  function renderBars(view) {
    setText(score, `Score: ${view.score}`);
    setText(flips, `Flips: ${view.flips}`);
    if (status.dataset.text !== view.status) {
      // Set cards in the status line are drawn as coloured symbols, as in the history.
      status.dataset.text = view.status;
      status.replaceChildren(...entryNodes(view.status, game));
    }
    const readOnly = locked();
    // NB: at a table (Set as a race) there is one shared game: no score of all, no dealing
    // again, no settings, no two-player toggle and no hints (the server refuses them).
    const atTable = !!session.table;
    // NB: alone against the computer is a race too: no hints, no two players at one screen.
    const racing = atTable || !!view.viewer;
    // Two-player Set: each player's score, and no score of both together.
    score.hidden = racing || !!view.current;
    flips.hidden = atTable;
    for (const button of [restart, settingsButton, dealButton]) button.hidden = atTable;
    hint.hidden = racing;
    if (twoPlayer) /** @type {HTMLElement} */ (twoPlayer.closest('label')).hidden = racing;
    if (opponent) {
      opponent.field.hidden = atTable || readOnly;
      opponent.show(view);
    }
    if (refill) /** @type {HTMLElement} */ (refill.closest('label')).hidden = atTable;
    if (modeSelect) {
      modeSelect.value = String(view.mode);
      modeSelect.disabled = readOnly || !!view.modeLocked;
      if (modeNote) modeNote.hidden = !view.modeLocked;
    }
    if (plusThree) plusThree.disabled = readOnly || view.deckCount === 0 || view.over;
    for (const button of acting) button.disabled = readOnly;
    if (twoPlayer) {
      twoPlayer.disabled = readOnly;
      if (!toggleRequest) twoPlayer.checked = view.settings?.twoPlayer === true;
    }
    if (refill) {
      refill.disabled = readOnly;
      if (!toggleRequest) refill.checked = view.settings?.refill === true;
    }
    if (view.players && view.current) {
      players.hidden = false;
      players.replaceChildren(...view.players.map((p) => el(`span.player-chip${p.player === view.current ? '.current' : ''}`,
        { 'aria-current': p.player === view.current ? 'true' : false }, `${p.player}: ${p.score}`)),
      el('span.turn', { text: `${view.current}'s turn` }));
      threeNote.hidden = true;
    } else if (view.players && racing) {
      // A race: every racer's own score; yours first named You.
      const me = view.viewer ?? session.me;
      const name = (/** @type {string} */ who) => (who === me ? 'You' : who);
      players.hidden = false;
      players.replaceChildren(...view.players.map((p) => el(`span.player-chip${p.player === me ? '.you' : ''}${p.left ? '.gone' : ''}`,
        { dataset: { player: p.player } }, `${name(p.player)}${p.computer ? ' (computer)' : ''}: ${p.score}${p.left ? ' (left)' : ''}`)));
      const agreed = view.players.filter((p) => p.askedForThree).map((p) => name(p.player));
      threeNote.hidden = agreed.length === 0;
      setText(threeNote, agreed.length ? `+3 asked by ${agreed.join(', ')}` : '');
    } else {
      players.hidden = true;
      threeNote.hidden = true;
    }
    if (!view.over) overClosed = false;
    over.hidden = !view.over || overClosed;
    if (view.over && !over.childElementCount) drawOver(view);
    if (!view.over) over.replaceChildren();
    stepButton.hidden = past !== null;
    playAgain.hidden = readOnly;
    setText(playAgain, atTable ? 'Rematch' : 'Play again');
    closeOver.hidden = past !== null;
  }

  /**
   * The end's banner: Game Over!, why the game ended, the summary (the live game only) and the
   * ways on.
   * @param {MatchingView} shown
   */
  function drawOver(shown) {
    const line = game === 'set' ? 'No sets left ...' : 'No matches left ...';
    const left = shown.table.filter((slot) => !slot.matched).length;
    const cards = left === 1 ? 'The card left has' : `The ${left} cards left hold`;
    const why = game === 'set'
      ? (left ? `The deck is empty, and ${cards.replace('The', 'the')} no set.` : 'Every card went into a set.')
      : (left ? `${cards} no ${shown.mode}-card match.` : 'Every card is matched.');
    const parts = [el('h2', { text: 'Game Over!' }), el('p', { text: line }), el('p.end-reason', { text: why })];
    if (!past) {
      const found = (shown.foundMatches ?? []).length;
      const me = shown.viewer ?? session.me;
      const racers = shown.players ?? [];
      /** @type {import('../ending.js').Fact[]} */
      const facts = racers.length
        ? racers.map((p) => [p.player === me ? 'You' : p.player, `${p.score} ${Math.abs(p.score) === 1 ? 'point' : 'points'}`])
        : [['Score', String(shown.score)], [game === 'set' ? 'Sets found' : 'Matches found', String(found)], ['Flips', String(shown.flips)]];
      if (racers.length) facts.push([game === 'set' ? 'Sets found' : 'Matches found', String(found)]);
      parts.push(endSummary({
        conn, title: game === 'set' ? 'Set' : 'Matchismo', facts, today: todaysDeal, seconds: timer.seconds,
        headline: game === 'set' ? `${found} ${found === 1 ? 'set' : 'sets'}` : `score ${shown.score}`,
      }));
      announce(`Game Over! ${line} ${why}`);
    }
    parts.push(el('div.over-buttons', {}, playAgain, stepButton, closeOver));
    over.append(...parts);
  }

  /**
   * Draws a whole view without animations (stepping through, or the session changed).
   * @param {MatchingView} shown
   */
  function draw(shown) {
    foundCount = -1;
    renderTable(shown);
    renderFound(shown);
    renderBars(shown);
    fit();
  }

  return {
    update(message) {
      if (toggleRequest && message.reply === toggleRequest) toggleRequest = 0;
      const wasOver = view?.over;
      view = message.view;
      version = message.version;
      timer.update(view);
      todaysDeal = message.today ?? null;
      setText(clock, timer.text);
      if (past) return;
      const focused = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      const before = previous;
      previous = view;
      // NB: Set's cards are followed by face (they move up when a set leaves); Matchismo's, face
      // down until chosen, by place.
      const key = game === 'set' ? faceOf : placeOf;
      const boxes = measure(buttons, key);
      const count = buttons.length;
      renderTable(view);
      renderFound(view);
      renderBars(view);
      fit(count !== buttons.length && before !== null);
      glide(boxes, buttons, key, { ghost: (face) => (face.startsWith('#') ? null : cardImage(face, 'leaving-face')) });
      explainScore(before, view, message.events ?? [], message.version);
      // Keep the keyboard focus on the table when the focused card left it (Set's found sets).
      if (focused >= 0 && document.activeElement !== buttons[focused] && buttons.length) {
        buttons[Math.min(focused, buttons.length - 1)].focus();
      }
      for (const button of buttons) button.classList.remove('mismatched');
      for (const event of message.events ?? []) {
        if (event.type === 'matched') flash(grid, 'flash-green');
        if (event.type === 'mismatched') for (const i of event.cards ?? []) { shake(buttons[i]); buttons[i]?.classList.add('mismatched'); }
        if (event.type === 'turnPassed' && event.to) announce(`${event.to}'s turn`);
      }
      if (wasOver && !view.over) over.replaceChildren();
    },
    redraw() { if (view && !past) draw(view); },
    error(message) {
      // NB: the new game the toggle asked for was refused: the toggle shows the game again.
      if (toggleRequest && message.reply === toggleRequest) {
        toggleRequest = 0;
        if (view && !past) draw(view);
      }
    },
    showPast(shown) {
      past = /** @type {MatchingView|null} */ (shown);
      // NB: a past view and the live one may differ in being over: the banner is drawn anew.
      over.replaceChildren();
      const drawn = past ?? view;
      if (drawn) draw(drawn);
    },
    answer(message) {
      if (message.cmd === 'hint' && Array.isArray(message.cards)) {
        if (message.cards.length === 0) announce(game === 'set' ? 'No set on the table.' : 'No match on the table.');
        else announce(`Hint: ${message.cards.map((i) => { const card = view?.table[i]?.card; return card ? cardName(card) : `card ${i + 1}`; }).join(', ')}`);
      }
    },
    destroy() { resize.disconnect(); window.removeEventListener('resize', refit); window.removeEventListener(CARDS_EVENT, refit); window.clearInterval(ticker); },
  };
}

/** @param {HTMLElement} card  the place of a card button, the key of its moves */
function placeOf(card) {
  return `#${card.dataset.index}`;
}

/** @param {HTMLElement} card  the card a button shows (its face), the key of its moves */
function faceOf(card) {
  return card.classList.contains('up') ? card.dataset.face : `#${card.dataset.index}`;
}

/** @param {HTMLElement|undefined} node */
function shake(node) {
  if (!node) return;
  node.classList.remove('shake');
  void node.offsetWidth;
  node.classList.add('shake');
  node.addEventListener('animationend', () => node.classList.remove('shake'), { once: true });
}
