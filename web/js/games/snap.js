// @ts-check
/**
 * Snap! (RULES §5), single player: you (Bottom) against Ray (Left), Lucy (Top), Steve (Right);
 * at a table, 2–4 players, each seeing the table from Bottom (the server turns the seats).
 * The server deals, runs the computer players and decides every Snap!; this screen draws the
 * view, animates the events (dealing, turning, recycling, paying, winning) and sends `turn`,
 * `snap` and `nextRound`. Keys: T or Enter on your stack turns, S calls Snap!.
 * On `*** Match! ***` the open piles the server named as matching (the correct `snap` event's
 * `matching`) light up — a ring and a "Match" badge, not colour alone — until their cards move.
 * @module games/snap
 */
import { el, confirmDiscard, setText, restartButton } from '../dom.js';
import { cardImage, cardName } from '../cards.js';
import { announce, reducedMotion } from '../a11y.js';
import { flyCard, splash } from '../anim.js';
import { dealCountdown } from './dealing.js';
import { endSummary, GameClock } from './ending.js';

/** @typedef {import('./views.js').SnapView} SnapView */
/** @typedef {import('./views.js').SnapUpdate} SnapUpdate */
/** @typedef {import('./views.js').Position} Position */

const OPTIONS = { players: ['You', 'Ray', 'Lucy', 'Steve'], computer: ['Ray', 'Lucy', 'Steve'] };
/** @type {Position[]} */
const POSITIONS = ['bottom', 'left', 'top', 'right'];
/** @type {Record<string, [string, 'good'|'bad'|'late']>} */
const SPLASH = { correct: ['Snap!', 'good'], wrong: ['Wrong!', 'bad'], tooLate: ['Too late!', 'late'] };

/**
 * @param {import('../protocol.js').GameContext} ctx
 * @returns {import('../protocol.js').GameScreen<SnapUpdate>}
 */
export function mount({ root, toolbar, conn, params, fresh, session, stepThrough }) {
  const seed = params.get('seed');
  /** Today's deal was asked for (`?today`): only the first game, as a chosen seed. */
  let today = params.has('today');
  const seats = Object.fromEntries(POSITIONS.map((position) => [position, makeSeat(position)]));
  const status = el('p.snap-status', { role: 'status' });
  const deck = el('div.snap-deck.idle', { 'aria-hidden': 'true' }, cardImage(null, 'pile-card'));
  const snapButton = el('button.snap-button', { type: 'button', text: 'Snap!', 'aria-keyshortcuts': 'S', onclick: snap });
  const nextRound = el('button.btn.primary.next-round', { type: 'button', text: 'Next Round', hidden: true, onclick: () => act('nextRound') });
  const stepButton = el('button.btn.step-round', { type: 'button', text: 'Step through', onclick: () => stepThrough() });
  const bannerText = el('p.banner-text');
  const bannerNote = el('p.banner-note', { hidden: true, text: 'Waiting for game to start...' });
  const banner = el('div.winner-banner', { hidden: true }, bannerText, bannerNote, el('div.banner-buttons', {}, nextRound, stepButton));
  const countdown = dealCountdown();
  const center = el('div.snap-center', {}, deck, status, countdown.root, banner, snapButton,
    el('p.key-help', { text: 'Keys: T turns your card · S calls Snap!' }));
  const table = el('div.snap-table', {}, ...POSITIONS.map((p) => seats[p].root), center);
  root.append(el('section.snap-screen', {}, table));
  const restart = /** @type {HTMLButtonElement} */ (restartButton(conn, 'Deal the same first round again'));
  const newButton = /** @type {HTMLButtonElement} */ (el('button.btn.ghost', { type: 'button', text: 'New game', onclick: async () => {
    if (locked()) return;
    const started = !!live && !live.over && (live.round > 1 || live.players.some((p) => p.openCount > 0));
    if (await confirmDiscard(started, 'New game') && !locked()) newGame(null);
  } }));
  toolbar.append(restart, newButton);

  /** @type {SnapView|null} the view drawn: the live game's, or an earlier one while stepping through */
  let view = null;
  /** @type {SnapView|null} the live game */
  let live = null;
  /** The time of the round on screen (from its deal: the server's `began` for a later round). */
  const timer = new GameClock();
  /** @type {string|null} the day of today's deal, when this game is one (the update says so) */
  let todaysDeal = null;
  /** @type {SnapView|null} */
  let past = null;
  let version = -1;
  const locked = () => session.readOnly || past !== null;
  /**
   * While the deal is being animated: cards shown per position so far.
   * @type {Record<string, number>|null}
   */
  let dealtSoFar = null;
  /**
   * The players whose open piles match, as the server's correct Snap! named them; shown while
   * that call's verdict stands (`pause`: correct, the cards not yet moved).
   * @type {Set<string>}
   */
  let matching = new Set();

  /** @param {string|null} withSeed */
  function newGame(withSeed) {
    /** @type {import('../protocol.js').NewGame} */
    const message = { cmd: 'new', game: 'snap', options: OPTIONS };
    if (withSeed !== null && withSeed !== '') message.seed = withSeed;
    else if (today) message.today = true;
    today = false;
    conn.send(message);
  }
  if (fresh) newGame(seed);

  /** @param {'turn'|'snap'|'nextRound'} type */
  function act(type) {
    if (locked()) return;
    conn.send({ cmd: 'act', action: { type, player: live?.viewer ?? 'You' }, version });
  }
  function turn() {
    if (live?.canTurn) act('turn');
  }
  function snap() {
    if (live?.canSnap) act('snap');
  }
  seats.bottom.closed.addEventListener('click', turn);
  const onKey = (/** @type {KeyboardEvent} */ event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || /** @type {HTMLElement} */ (event.target)?.matches?.('input, select, textarea')) return;
    // NB: not while a dialog (How to play) is open over the table.
    if (document.querySelector('dialog[open]')) return;
    if (event.key === 's' || event.key === 'S') { event.preventDefault(); snap(); }
    if (event.key === 't' || event.key === 'T') { event.preventDefault(); turn(); }
  };
  document.addEventListener('keydown', onKey);

  /** @returns {Record<string, import('./views.js').SnapPlayer>} players by on-screen position */
  function byPosition() {
    return Object.fromEntries((view?.players ?? []).map((p) => [p.position, p]));
  }
  /** @param {string} name */
  function seatOf(name) {
    const player = view?.players.find((p) => p.name === name);
    return player ? seats[player.position] : null;
  }

  function render() {
    if (!view) return;
    const players = byPosition();
    for (const position of POSITIONS) {
      const seat = seats[position];
      const player = players[position];
      seat.root.hidden = !player;
      if (!player) continue;
      const closedCount = dealtSoFar ? Math.min(dealtSoFar[position] ?? 0, player.closedCount) : player.closedCount;
      const total = closedCount + player.openCount;
      setText(seat.name, player.name === view.viewer ? 'You' : player.name);
      // At a table: a player who left, or whose connection dropped (with the seconds before they leave).
      const away = session.table && !player.left && !player.computer ? session.away(player.name) : null;
      seat.away.hidden = !player.left && away === null;
      setText(seat.away, player.left ? 'Left the game' : `Away — leaves in ${away} s`);
      seat.root.classList.toggle('away', away !== null);
      setText(seat.won, player.won);
      setText(seat.count, `${total} ${total === 1 ? 'card' : 'cards'}`);
      seat.root.classList.toggle('active', view.active === player.name && view.phase === 'playing');
      seat.root.classList.toggle('out', total === 0 && !dealtSoFar);
      seat.closed.classList.toggle('empty', closedCount === 0);
      setText(seat.closedBadge, String(closedCount));
      const top = player.openTop;
      if (seat.openFace !== top) {
        seat.openFace = top;
        seat.open.replaceChildren(top ? cardImage(top, 'pile-card') : el('span.pile-empty', { 'aria-hidden': 'true' }), seat.matchBadge);
      }
      const matches = !past && matching.has(player.name);
      seat.root.classList.toggle('matching', matches);
      seat.matchBadge.hidden = !matches;
      seat.open.setAttribute('aria-label', `${top ? `${player.name === view.viewer ? 'Your' : `${player.name}'s`} open pile: ${cardName(top)}` : 'empty open pile'}${matches ? ', matching' : ''}`);
    }
    const you = seats.bottom.closed;
    const yours = players.bottom;
    you.setAttribute('aria-label', `Your stack: ${yours ? yours.closedCount : 0} cards`);
    const readOnly = locked();
    you.setAttribute('aria-disabled', String(readOnly || !view.canTurn));
    you.classList.toggle('can-turn', !readOnly && !!view.canTurn);
    snapButton.setAttribute('aria-disabled', String(readOnly || !view.canSnap));
    restart.disabled = readOnly;
    newButton.disabled = readOnly;
    // NB: a table's game is neither dealt again nor replaced (the server refuses `not-alone`).
    restart.hidden = !!session.table;
    newButton.hidden = !!session.table;
    stepButton.hidden = past !== null;
    setText(status, view.status);
    const finished = view.phase === 'roundOver' || view.phase === 'gameOver';
    banner.hidden = !finished;
    setText(bannerText, view.status);
    showSummary(finished && past === null && view.phase === 'roundOver' ? view : null);
    deck.classList.toggle('idle', !dealtSoFar);
    const wasHidden = nextRound.hidden;
    const hadFocus = document.activeElement === nextRound;
    nextRound.hidden = readOnly || !view.canStartNextRound;
    // At a table only the host starts the next round; the others wait for it.
    bannerNote.hidden = !(session.table && view.phase === 'roundOver' && !view.canStartNextRound);
    status.hidden = finished;
    // Keyboard players land on Next Round when it appears, and back on their stack after it.
    const focus = document.activeElement;
    const free = !focus || focus === document.body || root.contains(focus);
    if (wasHidden && !nextRound.hidden && free) nextRound.focus();
    if (hadFocus && nextRound.hidden) seats.bottom.closed.focus();
  }

  /** The round's summary in the banner, made once per round that ended (null: none). */
  let summary = /** @type {{round: number, node: HTMLElement}|null} */ (null);

  /**
   * Shows the summary of the round `ended` (its number, its time, a new best), or takes it
   * away (null).
   * @param {SnapView|null} ended
   */
  function showSummary(ended) {
    if (!ended) {
      summary?.node.remove();
      summary = null;
      return;
    }
    if (summary?.round === ended.round) return;
    summary?.node.remove();
    const me = ended.viewer;
    timer.update(ended);
    // NB: one short line in the middle of the table: each seat shows its rounds won already.
    const node = endSummary({
      conn, title: 'Snap!', facts: [['Round', String(ended.round)]], today: todaysDeal,
      seconds: timer.seconds, headline: ended.winner === me ? `won round ${ended.round}` : `round ${ended.round}`,
    });
    bannerNote.before(node);
    summary = { round: ended.round, node };
  }

  /**
   * Deals the 52 cards clockwise from the starting player, one every 0.1 s (as the server).
   * @param {string} starting
   */
  async function animateDeal(starting) {
    if (!view || reducedMotion()) return;
    const order = [...view.players].sort((a, b) => POSITIONS.indexOf(a.seat) - POSITIONS.indexOf(b.seat));
    const start = Math.max(0, order.findIndex((p) => p.name === starting));
    dealtSoFar = Object.fromEntries(POSITIONS.map((p) => [p, 0]));
    render();
    const total = view.players.reduce((sum, p) => sum + p.closedCount, 0);
    const flights = [];
    for (let i = 0; i < total; i++) {
      const player = order[(start + i) % order.length];
      const position = player.position;
      flights.push(flyCard(deck, seats[position].closed, { delay: i * 90, duration: 260 }).then(() => {
        if (!dealtSoFar) return;
        dealtSoFar[position] += 1;
        render();
      }));
    }
    await Promise.all(flights);
    dealtSoFar = null;
    if (view) render();
  }

  /**
   * Animates one update's events.
   * @param {import('./views.js').SnapEvent[]} events
   */
  function animate(events) {
    for (const event of events) {
      const seat = 'player' in event ? seatOf(event.player) : null;
      switch (event.type) {
        case 'dealt':
          animateDeal(event.starting);
          announce(`Round ${event.round}. Dealing…`);
          break;
        case 'turned':
          if (seat) {
            seat.open.classList.add('arriving');
            flyCard(seat.closed, seat.open, { face: event.card, duration: 240 }).then(() => seat.open.classList.remove('arriving'));
          }
          break;
        case 'recycled':
          if (seat) for (let i = 0; i < Math.min(event.count, 8); i++) flyCard(seat.open, seat.closed, { delay: i * 25, duration: 200 });
          break;
        case 'pileWon': {
          const from = seatOf(event.from);
          if (seat && from) for (let i = 0; i < Math.min(event.count, 8); i++) flyCard(from.open, seat.closed, { delay: i * 40, duration: 380 });
          break;
        }
        case 'paid': {
          const to = seatOf(event.to);
          if (seat && to) flyCard(seat.closed, to.closed, { duration: 380 });
          break;
        }
        case 'snap': {
          const [text, kind] = SPLASH[event.result] ?? ['Snap!', 'good'];
          // NB: over the caller's piles, never their name and score (on a phone the seat is
          // little more than its label and its piles).
          splash(seat?.piles ?? center, text, kind);
          const who = event.player === view?.viewer ? 'You' : event.player;
          announce(`${who}: ${text}`);
          break;
        }
        case 'roundWon':
          announce(`Winner: ${event.player}`);
          break;
        default:
          break;
      }
    }
  }

  return {
    update(message) {
      const fresh = live === null || message.version < version;
      live = message.view;
      version = message.version;
      todaysDeal = message.today ?? null;
      const events = message.events ?? [];
      if (fresh) matching = new Set();
      for (const event of events) {
        if (event.type === 'snap' && event.result === 'correct') matching = new Set(event.matching ?? []);
      }
      // NB: the highlight goes with the verdict: once the cards move (or another call is
      // being decided, or play goes on) no pile is matching any more.
      const pause = live.pause;
      if (!pause || pause.result !== 'correct' || pause.moved) matching = new Set();
      if (past) return;
      view = live;
      if (fresh) dealtSoFar = null;
      render();
      countdown.update(view, events);
      animate(events);
      // NB: the first deal of a game arrives without a `dealt` event (the engine deals in `new`):
      // animate it from the host's seat, unless the deal is long over (a room opened again).
      if (fresh && view.phase === 'dealing' && !events.some((e) => e.type === 'dealt')) animateDeal(view.starting);
    },
    error(message) {
      const code = message?.error?.code;
      if (code && code !== 'too-fast') console.info('Snap! refused:', code);
    },
    redraw() { if (!past) render(); },
    tableChanged() { if (!past) render(); },
    showPast(shown) {
      past = /** @type {SnapView|null} */ (shown);
      view = past ?? live;
      dealtSoFar = null;
      if (past) countdown.stop();
      render();
    },
    destroy() { document.removeEventListener('keydown', onKey); countdown.stop(); },
  };
}

/**
 * @typedef {object} Seat
 * @property {HTMLElement} root
 * @property {HTMLElement} name
 * @property {HTMLElement} won
 * @property {HTMLElement} count
 * @property {HTMLElement} away  at a table: away (with a countdown) or left
 * @property {HTMLElement} piles  the closed stack and the open pile, where a call's splash shows
 * @property {HTMLElement} closed  your stack is a button, the others' are pictures
 * @property {HTMLElement} closedBadge
 * @property {HTMLElement} open
 * @property {HTMLElement} matchBadge  shown while this open pile is one of a match
 * @property {string|null|undefined} openFace  the open pile's top card as drawn (undefined: not yet)
 */

/**
 * One seat: name, games won, card count, the closed stack and the open pile.
 * @param {Position} position  on screen
 * @returns {Seat}
 */
function makeSeat(position) {
  const name = el('strong.seat-name');
  const won = el('span.seat-won');
  const count = el('span.seat-count');
  const away = el('span.seat-away', { hidden: true });
  const closedBadge = el('span.pile-badge', { 'aria-hidden': 'true' });
  const closedInner = [cardImage(null, 'pile-card'), closedBadge];
  const closed = position === 'bottom'
    ? el('button.pile.closed.stack-button', { type: 'button', 'aria-keyshortcuts': 'T' }, ...closedInner)
    : el('div.pile.closed', { 'aria-hidden': 'true' }, ...closedInner);
  // NB: the pile's name says "matching" too; the badge is for the eye. It sits on the pile.
  const matchBadge = el('span.match-badge', { hidden: true, 'aria-hidden': 'true' }, el('span.match-mark', { text: '=' }), ' Match');
  const open = el('div.pile.open', { role: 'img', 'aria-label': 'empty open pile' }, matchBadge);
  const piles = el('div.piles', {}, closed, open);
  const root = el(`div.seat.seat-${position}`, { role: 'group', 'aria-label': `${position} seat` },
    el('div.seat-label', {}, name, won, count), away, piles);
  return { root, name, won, count, away, piles, closed, closedBadge, open, matchBadge, openFace: undefined };
}
