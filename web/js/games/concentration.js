// @ts-check
/**
 * Concentration (RULES §4): all 52 cards on a tilted, overlapping table. The angles come from
 * the view's `tilt` (fixed by the seed); a match flashes the table green; Refresh deals anew.
 * @module games/concentration
 */
import { el, setText, showDialog, restartButton, confirmDiscard } from '../dom.js';
import { createCardButton, showCard } from '../cards.js';
import { tiltedLayout } from '../geometry.js';
import { announce, gridKeys } from '../a11y.js';
import { renderTurns } from './turns.js';
import { opponentChoice } from './opponent.js';
import { gameInfo } from '../catalog.js';
import { endSummary, GameClock, pairFacts } from './ending.js';
import { flash } from '../anim.js';
import { cardsLarge, CARDS_EVENT } from '../size.js';

/** @typedef {import('./views.js').ConcentrationView} ConcentrationView */
/** @typedef {import('./views.js').ConcentrationUpdate} ConcentrationUpdate */

/**
 * @param {import('../protocol.js').GameContext} ctx
 * @returns {import('../protocol.js').GameScreen<ConcentrationUpdate>}
 */
export function mount({ root, toolbar, conn, params, fresh, session, navigate, stepThrough }) {
  const seed = params.get('seed');
  const moves = el('span.counter', { text: 'Moves: 0' });
  const clock = el('span.counter.clock', { text: '0:00', role: 'timer', 'aria-label': 'Time' });
  const status = el('p.status-line', { role: 'status' });
  const turns = el('p.players.turns', { hidden: true, 'aria-label': 'Players' });
  const table = el('div.tilted-table', { role: 'group', 'aria-label': 'Concentration table' });
  root.append(el('section.concentration-screen', {}, el('div.table-bar', {}, moves, clock, turns, status), table));
  let seedToUse = seed;
  /** Today's deal was asked for (`?today`): only the first game, as a chosen seed. */
  let today = params.has('today');
  const restart = /** @type {HTMLButtonElement} */ (restartButton(conn));
  const refresh = /** @type {HTMLButtonElement} */ (el('button.btn', {
    type: 'button', title: 'Shuffle and deal a new game', 'aria-label': '↻ Refresh',
    onclick: async () => {
      if (!await confirmDiscard(!!view && !view.over && view.flips > 0, 'Refresh') || locked()) return;
      seedToUse = null;
      newGame();
    },
  }, el('span', { 'aria-hidden': 'true', text: '↻' }), el('span.phone-label', { 'aria-hidden': 'true', text: ' Refresh' })));
  const opponent = opponentChoice(gameInfo('concentration'), params,
    (against) => `/?game=concentration&opponent=${encodeURIComponent(against)}`, navigate);
  toolbar.append(restart, refresh, opponent?.field ?? '');

  /** @type {HTMLButtonElement[]} */
  let buttons = [];
  /** @type {ConcentrationView|null} the live game */
  let view = null;
  /** @type {ConcentrationView|null} an earlier view shown while stepping through */
  let past = null;
  let version = -1;
  let columns = 8;
  /** The game's time: it begins with the first card turned (RULES §7; the server's `began`). */
  const timer = new GameClock();
  /** @type {string|null} the day of today's deal, when this game is one (the update says so) */
  let todaysDeal = null;
  const locked = () => session.readOnly || past !== null;
  gridKeys(table, () => columns);

  function newGame() {
    /** @type {import('../protocol.js').NewGame} */
    const message = { cmd: 'new', game: 'concentration' };
    if (opponent?.value) message.options = { opponent: opponent.value };
    if (seedToUse !== null && seedToUse !== '') message.seed = seedToUse;
    else if (today) message.today = true;
    today = false;
    conn.send(message);
  }
  if (fresh) newGame();

  function layout() {
    const shown = past ?? view;
    if (!shown) return;
    const { width, height } = table.getBoundingClientRect();
    const cardWidth = fittingWidth(buttons.length, width, height, shown.tilt ?? [], cardsLarge());
    const cardSize = { width: cardWidth, height: cardWidth * 1.452 };
    const result = tiltedLayout(buttons.length, { width, height }, cardSize, shown.tilt ?? [], 6, { top: 6, left: 6, bottom: 6, right: 6 });
    columns = result.columns;
    result.cards.forEach((card, i) => {
      const b = buttons[i];
      Object.assign(b.style, {
        left: `${card.frame.x}px`, top: `${card.frame.y}px`, width: `${card.frame.width}px`, height: `${card.frame.height}px`,
        transform: `rotate(${card.angle}deg)`, zIndex: String(card.zIndex),
      });
    });
  }
  const resize = new ResizeObserver(layout);
  resize.observe(table);
  window.addEventListener(CARDS_EVENT, layout);

  /**
   * At a table: whether the turn is this page's player's (the server refuses `not-your-turn`).
   * @param {{turn?: string}} shown
   */
  const myTurn = (shown) => !shown.turn || shown.turn === session.me;

  /** @param {number} index */
  function flip(index) {
    if (!view || locked()) return;
    const spot = view.board[index];
    if (!spot || view.over || view.waiting || spot.faceUp || spot.matched || !myTurn(view)) return;
    conn.send({ cmd: 'act', action: { type: 'flip', card: index }, version });
  }

  /**
   * Draws a view and animates its events.
   * @param {ConcentrationView} view
   * @param {import('./views.js').MemoryEvent[]} events
   */
  function render(view, events) {
    if (buttons.length !== view.board.length) {
      buttons = view.board.map((_, i) => {
        const b = createCardButton(i);
        b.addEventListener('click', () => flip(i));
        return b;
      });
      table.replaceChildren(...buttons);
    }
    view.board.forEach((spot, i) => {
      const b = buttons[i];
      showCard(b, spot.faceUp || spot.matched ? spot.card : null, i);
      b.classList.toggle('matched', spot.matched);
      b.setAttribute('aria-disabled', String(locked() || view.over || view.waiting || spot.faceUp || spot.matched || !myTurn(view)));
    });
    restart.disabled = locked();
    refresh.disabled = locked();
    // NB: a table's game is neither dealt again nor replaced (the server refuses `not-alone`).
    restart.hidden = !!session.table;
    refresh.hidden = !!session.table;
    if (opponent) {
      opponent.field.hidden = !!session.table || session.readOnly;
      opponent.show(view);
    }
    renderTurns(turns, view, session.me);
    setText(moves, `Moves: ${view.moves ?? 0}`);
    // NB: the moves have their own counter; the status line does not repeat them.
    setText(status, view.over || !view.status.startsWith('Pairs found:') ? view.status : `Pairs found: ${view.pairsFound} of ${view.pairs}.`);
    for (const button of buttons) button.classList.remove('mismatched');
    for (const event of events) {
      if (event.type === 'matched') flash(table, 'flash-green');
      if (event.type === 'mismatched') for (const i of event.cards) buttons[i]?.classList.add('mismatched');
    }
    layout();
  }

  const ticker = window.setInterval(tick, 500);
  function tick() {
    if (view) setText(clock, timer.text);
  }

  return {
    update(message) {
      const fresh = view === null || message.version < version || message.version === 0;
      view = message.view;
      version = message.version;
      timer.update(view, typeof view.began === 'number');
      todaysDeal = message.today ?? null;
      if (fresh) table.classList.remove('cleared');
      if (past) return;
      render(message.view, message.events ?? []);
      tick();
      if (view.over && !table.classList.contains('cleared')) {
        table.classList.add('cleared');
        announce(`${view.title} ${view.status}`);
        /** @type {{label: string, value: string, primary?: boolean}[]} */
        const buttons = [{ label: 'Step through', value: 'step' }, { label: 'Close', value: 'close' }];
        if (!session.readOnly && !session.table) buttons.unshift({ label: 'Play again', value: 'new', primary: true });
        // NB: at a table the same seats deal again once everyone there accepts.
        if (!session.readOnly && session.table) buttons.unshift({ label: 'Rematch', value: 'rematch', primary: true });
        const players = view.players ?? [];
        /** @type {import('./ending.js').Fact[]} */
        const facts = players.length
          ? pairFacts(players, session.me)
          : [['Pairs', `${view.pairsFound} of ${view.pairs}`], ['Moves', String(view.moves ?? 0)]];
        const body = endSummary({
          conn, title: 'Concentration', facts, today: todaysDeal, seconds: timer.seconds,
          headline: `${view.moves ?? 0} moves`,
        });
        showDialog({ title: view.title ?? 'Cleared!', message: view.status, body, buttons, className: 'win' })
          .then((value) => {
            if (!table.isConnected) return;
            if (value === 'new') { seedToUse = null; newGame(); }
            if (value === 'step') stepThrough();
            if (value === 'rematch') session.rematch();
          });
      }
    },
    redraw() { if (view && !past) render(view, []); },
    showPast(shown) {
      past = /** @type {ConcentrationView|null} */ (shown);
      const drawn = past ?? view;
      if (drawn) render(drawn, []);
      if (past) setText(moves, `Moves: ${past.moves ?? 0}`);
    },
    destroy() { resize.disconnect(); window.removeEventListener(CARDS_EVENT, layout); window.clearInterval(ticker); },
  };
}

/**
 * The card width that fits all `count` cards on a `width` × `height` table without scrolling
 * (the largest over the column counts that tiltedLayout could use): a row may overlap the one
 * above, but each card keeps its top part of its own (62 %; 50 % with large cards, which are
 * also allowed to grow larger).
 * @param {number} count
 * @param {number} width
 * @param {number} height
 * @param {number[]} angles  degrees
 * @param {boolean} large
 */
export function fittingWidth(count, width, height, angles, large) {
  const spacing = 6, inset = 6, aspect = 1.452;
  const own = large ? 0.5 : 0.62, most = large ? 150 : 110;
  // The largest overhang of a turned card, per unit of card width (as tiltedLayout insets it).
  let overW = 0, overH = 0;
  for (const angle of angles) {
    const rad = (angle * Math.PI) / 180, sin = Math.abs(Math.sin(rad)), cos = Math.abs(Math.cos(rad));
    overW = Math.max(overW, (cos + aspect * sin - 1) / 2);
    overH = Math.max(overH, (sin + aspect * cos - aspect) / 2);
  }
  let best = 20;
  for (let columns = 3; columns <= Math.max(3, count); columns++) {
    const rows = Math.ceil(count / columns);
    const across = (width - 2 * inset + spacing) / (columns * 1 + 2 * overW + 0.0001) - spacing * columns / (columns + 2 * overW);
    const down = (height - 2 * inset) / (aspect * (1 + own * (rows - 1)) + 2 * overH);
    best = Math.max(best, Math.min(across * 0.995, down * 0.995, most));
  }
  return best;
}
