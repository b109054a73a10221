// @ts-check
/**
 * Memory (RULES §3) on the original's grid geometry. The server runs the 1 s / 2 s timers and
 * pushes `removed` / `turnedDown` updates; this screen only animates what arrives.
 * @module games/memory
 */
import { el, setText, showDialog, restartButton } from '../dom.js';
import { createCardButton, showCard } from '../cards.js';
import { memoryTable, MEMORY_SPACING } from '../geometry.js';
import { cardsLarge, CARDS_EVENT } from '../size.js';
import { announce, gridKeys } from '../a11y.js';
import { renderTurns } from './turns.js';
import { opponentChoice } from './opponent.js';
import { gameInfo } from '../catalog.js';
import { endSummary, GameClock, pairFacts } from './ending.js';

/** @typedef {import('./views.js').MemoryView} MemoryView */
/** @typedef {import('./views.js').MemoryUpdate} MemoryUpdate */

/** The name of Memory's menu (the original's three flat buttons, one per table size). */
export const menuLabel = 'Choose a difficulty';

/**
 * @param {import('../protocol.js').GameContext} ctx
 * @returns {import('../protocol.js').GameScreen<MemoryUpdate>}
 */
export function mount({ root, toolbar, conn, params, fresh, session, navigate, setTitle, stepThrough }) {
  let seed = params.get('seed');
  /** @type {string|null} the day of today's deal, when this game is one (the update says so) */
  let today = null;
  const clock = new GameClock();
  /** @type {string|null} known from the address, or from the board once it arrives */
  let difficulty = params.get('difficulty');
  const showTitle = () => { if (difficulty) setTitle(`Memory · ${difficulty[0].toUpperCase()}${difficulty.slice(1)}`); };
  showTitle();

  const status = el('p.status-line', { role: 'status' });
  const turns = el('p.players.turns', { hidden: true, 'aria-label': 'Players' });
  const table = el('div.memory-table', { role: 'group', 'aria-label': 'Memory table' });
  const screen = el('section.memory-screen', {}, el('div.table-bar', {}, turns, status), table);
  root.append(screen);
  const restart = /** @type {HTMLButtonElement} */ (restartButton(conn));
  const opponent = opponentChoice(gameInfo('memory'), params,
    (against) => `/?game=memory&difficulty=${encodeURIComponent(difficulty ?? 'easy')}&opponent=${encodeURIComponent(against)}`, navigate);
  toolbar.append(restart, el('a.btn.ghost', { href: '/?game=memory', dataset: { nav: '' }, text: 'Menu' }), opponent?.field ?? '');

  /** @type {HTMLButtonElement[]} */
  let buttons = [];
  /** @type {MemoryView|null} the live game */
  let view = null;
  /** @type {MemoryView|null} an earlier view shown while stepping through */
  let past = null;
  let version = -1;
  let dialogShown = false;
  const locked = () => session.readOnly || past !== null;

  /** Whether the table is shown transposed (see `layout`). */
  let transposed = false;
  // NB: on a transposed table a card's right-hand neighbour is the board's next row.
  gridKeys(table, () => {
    const columns = (past ?? view)?.columns ?? 4;
    return transposed ? { across: columns, down: 1 } : columns;
  });

  const newGame = () => {
    /** @type {Record<string, unknown>} */
    const options = { difficulty: difficulty ?? 'easy' };
    if (opponent?.value) options.opponent = opponent.value;
    /** @type {import('../protocol.js').NewGame} */
    const message = { cmd: 'new', game: 'memory', options };
    if (seed !== null && seed !== '') message.seed = seed;
    else if (params.has('today') && !asked) message.today = true;
    asked = true;
    conn.send(message);
  };
  /** Whether a game was asked for already: today's deal (`?today`) is only the first. */
  let asked = false;
  if (fresh) newGame();

  /**
   * Places the cards with the original's formula for the table's current size — transposed
   * when the screen's shape gives larger cards that way (a phone held upright).
   */
  function layout() {
    const shown = past ?? view;
    if (!shown) return;
    const { width, height } = table.getBoundingClientRect();
    const g = memoryTable(width, height, shown.columns, shown.rows, cardsLarge() ? 2 : MEMORY_SPACING);
    transposed = g.transposed;
    table.dataset.columns = String(g.columns);
    table.dataset.transposed = String(g.transposed);
    buttons.forEach((button, i) => {
      const f = g.frames[i];
      Object.assign(button.style, { left: `${f.x}px`, top: `${f.y}px`, width: `${f.width}px`, height: `${f.height}px` });
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
    if (!spot || view.over || view.waiting || spot.faceUp || spot.removed || !myTurn(view)) return;
    conn.send({ cmd: 'act', action: { type: 'flip', card: index }, version });
  }

  /**
   * Builds the buttons when the board's size changes (a new game).
   * @param {number} count
   */
  function build(count) {
    buttons = Array.from({ length: count }, (_, i) => {
      const button = createCardButton(i);
      button.addEventListener('click', () => flip(i));
      return button;
    });
    table.replaceChildren(...buttons);
  }

  /**
   * Draws a view and animates its events.
   * @param {MemoryView} view
   * @param {import('./views.js').MemoryEvent[]} events
   */
  function render(view, events) {
    if (buttons.length !== view.board.length) build(view.board.length);
    const focused = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    view.board.forEach((spot, i) => {
      const button = buttons[i];
      showCard(button, spot.faceUp || spot.removed ? spot.card ?? button.dataset.face ?? null : null, i);
      button.classList.toggle('gone', spot.removed);
      button.tabIndex = spot.removed ? -1 : 0;
      const playable = !locked() && !view.over && !view.waiting && !spot.faceUp && !spot.removed && myTurn(view);
      button.setAttribute('aria-disabled', String(!playable));
    });
    // A mismatched pair carries its ✗ mark until the next update (it turns down).
    for (const button of buttons) button.classList.remove('mismatched');
    for (const event of events) {
      if (event.type === 'matched') for (const i of event.cards) pulse(buttons[i], 'matched-pulse');
      if (event.type === 'mismatched') for (const i of event.cards) { pulse(buttons[i], 'shake'); buttons[i]?.classList.add('mismatched'); }
    }
    // Keep the keyboard focus on the table when a focused card leaves it.
    if (focused >= 0 && view.board[focused].removed) {
      const next = view.board.findIndex((s, i) => !s.removed && i > focused);
      const prev = view.board.map((s) => !s.removed).lastIndexOf(true);
      const target = buttons[next >= 0 ? next : prev];
      (target ?? table).focus();
    }
    setText(status, statusText(view));
    renderTurns(turns, view, session.me);
    restart.disabled = locked();
    restart.hidden = !!session.table;
    if (opponent) {
      opponent.field.hidden = !!session.table || session.readOnly;
      opponent.show(view);
    }
    layout();
  }

  async function finish() {
    if (dialogShown) return;
    dialogShown = true;
    // Let the last pair finish leaving the table before the dialog covers it.
    await Promise.all(table.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => {})));
    if (!table.isConnected || !view?.over) return;
    announce(`${view.title ?? 'Great!'} ${view.status}`);
    const inTurns = !!view.players?.length;
    /** @type {import('./ending.js').Fact[]} */
    const facts = inTurns
      ? pairFacts(view.players ?? [], session.me)
      : [['Pairs', `${view.pairsFound} of ${view.pairs}`], ['Mistakes', String(view.score)]];
    clock.update(view);
    const body = endSummary({
      conn, title: 'Memory', facts, today, seconds: clock.seconds,
      headline: `${difficulty ?? 'easy'}, ${view.score} ${view.score === 1 ? 'mistake' : 'mistakes'}`,
    });
    /** @type {{label: string, value: string, primary?: boolean}[]} */
    const buttons = [{ label: 'Step through', value: 'step' }, { label: 'Back to the menu', value: 'ok', primary: true }];
    // NB: the same table size, a new deal; a table's game is not dealt again from here.
    if (!session.readOnly && !session.table) buttons.unshift({ label: 'Play again', value: 'again' });
    // NB: at a table the same seats deal again once everyone there accepts.
    if (!session.readOnly && session.table) buttons.unshift({ label: 'Rematch', value: 'rematch' });
    const choice = await showDialog({ title: view.title ?? 'Great!', message: view.status, body, className: 'win', buttons });
    if (!table.isConnected) return;
    if (choice === 'step') stepThrough();
    else if (choice === 'again') { seed = null; today = null; newGame(); }
    else if (choice === 'rematch') session.rematch();
    else if (choice === 'ok') navigate('/?game=memory');
  }

  return {
    update(message) {
      const first = view === null || message.version < version;
      view = message.view;
      version = message.version;
      today = message.today ?? null;
      if (first) dialogShown = false;
      if (!difficulty) {
        difficulty = { 12: 'easy', 24: 'medium', 32: 'hard' }[view.board.length] ?? null;
        showTitle();
      }
      if (past) return;
      render(message.view, message.events ?? []);
      if (view.over) finish();
    },
    redraw() { if (view && !past) render(view, []); },
    showPast(shown) {
      past = /** @type {MemoryView|null} */ (shown);
      const drawn = past ?? view;
      if (drawn) render(drawn, []);
    },
    destroy() { resize.disconnect(); window.removeEventListener(CARDS_EVENT, layout); },
  };
}

/**
 * The status line. NB: Memory's score counts mistakes (lower is better), so while playing the
 * line names it so: `Pairs found: 2 of 6. Mistakes: 1`, from the view's numbers.
 * @param {MemoryView} view
 */
function statusText(view) {
  if (view.over || !view.status.startsWith('Pairs found:')) return view.status;
  return `Pairs found: ${view.pairsFound} of ${view.pairs}. Mistakes: ${view.score}`;
}

/**
 * @param {HTMLElement|undefined} node
 * @param {string} className
 */
function pulse(node, className) {
  if (!node) return;
  node.classList.remove(className);
  void node.offsetWidth;
  node.classList.add(className);
  node.addEventListener('animationend', () => node.classList.remove(className), { once: true });
}
