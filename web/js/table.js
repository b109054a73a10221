// @ts-check
/**
 * Playing together at a table (docs/PROTOCOL.md, "Tables: playing together"): the host form,
 * the join form, the open tables on the home screen, and, in a table's room, the lobby (code,
 * link, seats, Start) and the bar above the game (who sits where, who is away and for how
 * long, the receipts of calls and claims, Leave). What differs between games comes from the
 * catalog: the title, whether computer players may sit, the call's name, the short help, and
 * the options of the host form.
 *
 * The page decides nothing here: it shows the `table`, `seat` and `receipt` messages as they
 * come and sends `host`, `join`, `seat`, `unseat`, `start` and `leave`; the server refuses
 * what its rules refuse.
 * @module table
 */
import { el, setText, showDialog } from './dom.js';
import { announce } from './a11y.js';
import * as player from './player.js';
import { choiceNamed, optionsAt, titleOf } from './catalog.js';
import { ratingNodes } from './scores.js';

/** @typedef {import('./protocol.js').TableMessage} TableMessage */
/** @typedef {import('./protocol.js').TableSeat} TableSeat */
/** @typedef {import('./protocol.js').SeatMessage} SeatMessage */
/** @typedef {import('./protocol.js').Receipt} Receipt */
/** @typedef {import('./protocol.js').GameInfo} GameInfo */
/** @typedef {import('./connection.js').Connection} Connection */

/** @type {Record<string, string>} */
const RESULTS = { correct: 'correct', tooLate: 'too late', wrong: 'wrong' };

/**
 * The short rules of playing a game together, as a disclosure.
 * @param {GameInfo} info
 * @returns {HTMLElement}
 */
export function helpNode(info) {
  return el('details.table-help', {},
    el('summary', { text: 'How playing together works' }),
    ...info.tableHelp.map((text) => el('p', { text })));
}

/** @param {string} code */
function spelled(code) {
  return code.replace(/-/g, '').split('').join(' ');
}

/**
 * The name row both forms start with: the player's name, kept by the server.
 * @param {string} id
 * @returns {{row: HTMLElement, input: HTMLInputElement}}
 */
function nameRow(id) {
  const input = /** @type {HTMLInputElement} */ (el('input.name-input', { id, name: 'name', type: 'text', maxlength: 24, autocomplete: 'nickname', required: true }));
  input.value = player.currentSettings().name ?? '';
  player.ready.then(() => { if (!input.value && document.activeElement !== input) input.value = player.currentSettings().name ?? ''; });
  return { row: el('div.form-row', {}, el('label', { for: id, text: 'Your name' }), input), input };
}

/**
 * Saves the name typed when it differs from the one kept.
 * @param {HTMLInputElement} input
 * @param {Connection} conn
 * @returns {Promise<string|null>} null when saved (or unchanged), else why not
 */
async function keepName(input, conn) {
  const name = input.value.trim();
  if (!name) return 'A name needs at least one letter or digit.';
  if (name === player.currentSettings().name) return null;
  return player.saveSettings({ name }, conn);
}

/**
 * The host form: the name, the game's options placed on it (a choice each, e.g. the computer
 * players' speed or the table size), listing publicly, Host.
 * @param {{root: HTMLElement, conn: Connection, info: GameInfo, params: URLSearchParams,
 *   host: (message: import('./protocol.js').HostTable) => Promise<string|null>}} ctx
 *   `params` may name an option's value (`difficulty=hard`), a `seed` and a `deck` (cards
 *   separated by commas: a practice table, as browser tests deal); `host` sends the
 *   `host` and resolves with null once in the table, else the refusal's text
 */
export function renderHostForm({ root, conn, info, params, host }) {
  const { row, input } = nameRow('host-name');
  const isPublic = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', id: 'table-public' }));
  const note = el('p.note.form-note', { role: 'status' });
  const submit = /** @type {HTMLButtonElement} */ (el('button.btn.primary', { type: 'submit', text: 'Host table' }));
  const choices = optionsAt(info, 'host').filter((option) => option.choices.length).map((option) => {
    const id = `host-option-${option.name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
    const chosen = choiceNamed(option, params.get(option.name))?.value ?? option.default;
    const select = /** @type {HTMLSelectElement} */ (el('select.btn', { id },
      ...option.choices.map((choice) => el('option', { value: String(choice.value), text: choice.label, selected: choice.value === chosen }))));
    const field = el('div.form-row', {}, el('label', { for: id, text: option.label }), select,
      option.hint ? el('span.note.form-hint', { text: option.hint }) : null);
    return { option, select, field };
  });
  const form = el('form.table-form.host-form', { 'aria-labelledby': 'host-title' },
    el('h2', { id: 'host-title', text: `Play ${info.title} with friends` }),
    row, ...choices.map(({ field }) => field),
    el('div.form-row', {}, el('label.toggle', { for: 'table-public' }, isPublic, el('span', { text: 'List this table publicly' }))),
    el('p.note.form-hint', { text: 'A public table shows on everyone’s home screen until it starts; a private one only takes those you give the code or the link.' }),
    el('div.form-row', {}, submit),
    note, helpNode(info));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    const failed = await keepName(input, conn);
    if (failed) {
      setText(note, failed);
      submit.disabled = false;
      input.focus();
      return;
    }
    /** @type {Record<string, unknown>} */
    const options = {};
    for (const { option, select } of choices) {
      const choice = option.choices[select.selectedIndex];
      if (choice) options[option.name] = choice.value;
    }
    /** @type {import('./protocol.js').HostTable} */
    const message = { cmd: 'host', game: info.name, options, public: isPublic.checked };
    const seed = params.get('seed');
    if (seed) message.seed = seed;
    // NB: a practice deal laid out card by card, as `new` takes it (`deck=A♥,K♠,…`).
    const deck = params.get('deck');
    if (deck) message.deck = deck.split(',');
    setText(note, 'Setting the table…');
    const refused = await host(message);
    if (refused && form.isConnected) {
      setText(note, refused);
      submit.disabled = false;
    }
  });
  root.replaceChildren(el('section.table-screen', {}, form));
  input.focus();
}

/** @type {Record<string, string>} */
const JOIN_ERRORS = {
  'no-such-table': 'There is no table with that code. Check it with the host and try again.',
  'too-many-codes': 'Too many codes that name no table: wait a minute, then try again.',
};

/**
 * The join form: the name and the code; below it the open tables.
 * @param {{root: HTMLElement, conn: Connection, code: string,
 *   join: (code: string) => Promise<import('./protocol.js').ErrorMessage|null>}} ctx
 *   `join` sends the `join` and resolves with null once at the table, else the refusal
 */
export function renderJoinForm({ root, conn, code, join }) {
  const { row, input } = nameRow('join-name');
  const codeInput = /** @type {HTMLInputElement} */ (el('input.name-input.code-input', {
    id: 'table-code', name: 'code', type: 'text', maxlength: 16, autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', placeholder: 'KXQ-4TP', required: true, 'aria-describedby': 'join-note',
  }));
  codeInput.value = code;
  const note = el('p.note.form-note', { id: 'join-note', role: 'status' });
  const submit = /** @type {HTMLButtonElement} */ (el('button.btn.primary', { type: 'submit', text: 'Join' }));
  const form = el('form.table-form.join-form', { 'aria-labelledby': 'join-title' },
    el('h2', { id: 'join-title', text: 'Join a table' }),
    row,
    el('div.form-row', {}, el('label', { for: 'table-code', text: 'Table code' }), codeInput, submit),
    note);
  const tables = el('section.open-tables', { 'aria-labelledby': 'open-tables-title' });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const typed = codeInput.value.trim();
    if (!typed) {
      setText(note, 'Type the code the host reads out, e.g. KXQ-4TP.');
      codeInput.focus();
      return;
    }
    submit.disabled = true;
    const failed = await keepName(input, conn);
    if (failed) {
      setText(note, failed);
      submit.disabled = false;
      input.focus();
      return;
    }
    setText(note, 'Looking for the table…');
    const refused = await join(typed);
    if (refused && form.isConnected) {
      setText(note, JOIN_ERRORS[refused.error.code] ?? `Not joined: ${refused.error.message}`);
      submit.disabled = false;
      codeInput.focus();
      codeInput.select();
    }
  });
  root.replaceChildren(el('section.table-screen', {}, form, tables));
  (input.value ? codeInput : input).focus();
  return renderOpenTables({ root: tables, conn });
}

/**
 * The public tables still in their lobby, each with a Join button; an empty list says so.
 * @param {{root: HTMLElement, conn: Connection}} ctx
 * @returns {() => Promise<void>} loads the list again
 */
export function renderOpenTables({ root, conn }) {
  const list = el('ul.room-list.table-list');
  const empty = el('p.empty', { text: 'No open tables right now. Host one from a game’s screen, or join with a code.', hidden: true });
  root.replaceChildren(
    el('h2', { id: 'open-tables-title', text: 'Open tables' }), list, empty,
    el('button.btn.ghost.refresh-tables', { type: 'button', text: 'Refresh', onclick: () => { load(); } }));
  async function load() {
    const reply = await conn.request({ cmd: 'tables' });
    if (!root.isConnected || reply?.type !== 'answer') return;
    const tables = reply.tables ?? [];
    list.replaceChildren(...tables.map((t) => {
      const title = titleOf(t.game);
      return el('li.room-item.table-item', { dataset: { room: t.room } },
        el('span.room-game', {}, el('strong', { text: title }), el('span.room-options', { text: `hosted by ${t.host}` })),
        el('span.room-moves', { text: `${t.seats} of ${t.players} seats taken` }),
        el('span.room-actions', {}, el('a.btn.primary', {
          href: `/play/${encodeURIComponent(t.room)}`, dataset: { nav: '' }, text: 'Join', 'aria-label': `Join ${t.host}’s ${title} table`,
        })));
    }));
    empty.hidden = tables.length > 0;
    root.dataset.loaded = 'true';
  }
  load();
  return load;
}

/**
 * A table's room: the lobby until the host starts, then the bar above the game.
 * @param {{conn: Connection, info: GameInfo, toolbar: HTMLElement, gameOver: () => boolean,
 *   changed: () => void, navigate: (url: string) => void}} ctx
 *   `info` is the game's; `changed` is called when the seats or a countdown changed (the
 *   game's screen draws them too)
 */
export function createTable({ conn, info: game, toolbar, gameOver, changed, navigate }) {
  /** @type {TableMessage|null} */
  let info = null;
  /** @type {Map<string, number>} player name → when they leave (performance.now() ms) */
  const away = new Map();
  let ticker = 0;
  let announcedPhase = '';

  const root = el('div.table-area', { hidden: true });
  // ----- the lobby -----
  const code = el('p.table-code');
  const link = /** @type {HTMLAnchorElement} */ (el('a.table-link', {}));
  const copyNote = el('span.note.copy-note', { role: 'status' });
  const copy = el('button.btn', { type: 'button', text: 'Copy link', onclick: copyLink });
  const waiting = el('p.lobby-status', { role: 'status' });
  const seatList = el('ol.seat-list', { 'aria-label': 'Seats' });
  const addComputer = /** @type {HTMLButtonElement} */ (el('button.btn', { type: 'button', text: 'Add computer player', onclick: () => request({ cmd: 'seat', computer: true }) }));
  const start = /** @type {HTMLButtonElement} */ (el('button.btn.primary.start-table', { type: 'button', text: 'Start', onclick: () => request({ cmd: 'start' }) }));
  const lobbyNote = el('p.note.form-note', { role: 'status' });
  // ----- your name at the table, until it starts -----
  const nameInput = /** @type {HTMLInputElement} */ (el('input.name-input', { id: 'lobby-name', name: 'name', type: 'text', maxlength: 24, autocomplete: 'nickname', required: true }));
  const namePrompt = el('p.form-hint.name-prompt', { id: 'lobby-name-hint' });
  nameInput.setAttribute('aria-describedby', 'lobby-name-hint');
  const nameNote = el('p.note.form-note.name-note', { role: 'status' });
  const nameForm = el('form.lobby-name', { onsubmit: (/** @type {Event} */ event) => { event.preventDefault(); rename(); } },
    el('div.form-row', {}, el('label', { for: 'lobby-name', text: 'Your name' }), nameInput,
      el('button.btn', { type: 'submit', text: 'Save name' })),
    namePrompt, nameNote);
  /** Whether the name field has been filled for this table (once, so typing is never undone). */
  let nameFilled = false;
  const publicNote = el('p.note.form-hint');
  const hostControls = el('div.form-row.host-controls', {}, addComputer, start);
  const lobby = el('section.table-lobby', { 'aria-labelledby': 'lobby-title' },
    el('h2', { id: 'lobby-title', text: `${game.title} table` }),
    el('p.code-label', { text: 'The table’s code, to read aloud:' }), code,
    el('p.link-row', {}, link, copy, copyNote),
    waiting, nameForm,
    el('h3', { text: 'Seats' }), seatList,
    hostControls, lobbyNote, publicNote, helpNode(game));
  // ----- the bar above the game -----
  const seatsBar = el('ul.table-seats', { 'aria-label': 'Players at this table' });
  // NB: every call of the round, newest first, in a box of fixed size that scrolls (and takes
  // the focus, so that the keyboard scrolls it too): a call never pushes the seats down.
  const receipts = el('ol.receipts', { 'aria-label': 'Calls', tabindex: '0', hidden: true });
  // ----- the games won, and the rematch once a game is over -----
  const winsLine = el('p.table-wins', { hidden: true });
  const rematchButton = /** @type {HTMLButtonElement} */ (el('button.btn.primary.rematch', { type: 'button', text: 'Rematch', onclick: () => request({ cmd: 'rematch' }) }));
  const rematchNote = el('span.note.rematch-note', { role: 'status' });
  const rematchRow = el('div.rematch-row', { hidden: true }, rematchButton, rematchNote);
  const bar = el('div.table-bar', { hidden: true }, seatsBar, winsLine, rematchRow, receipts);
  root.append(lobby, bar);

  const leaveButton = /** @type {HTMLButtonElement} */ (el('button.btn.ghost.leave-table', { type: 'button', hidden: true, onclick: () => { confirmLeave().then((ok) => { if (ok) leave(); }); } }));
  const helpButton = el('button.btn.ghost.table-help-button', { type: 'button', text: 'Help', hidden: true, onclick: () => {
    showDialog({ title: 'Playing together', body: el('div.help-body', {}, ...game.tableHelp.map((text) => el('p', { text }))) });
  } });
  toolbar.prepend(helpButton, leaveButton);

  /**
   * A new deal (Snap!'s next round) starts the list of calls afresh.
   * @param {Event} event  the connection's `message`
   */
  function newDeal(event) {
    const message = /** @type {CustomEvent<import('./protocol.js').ServerMessage>} */ (event).detail;
    if (message?.type === 'update' && message.events?.some((e) => e.type === 'dealt')) receipts.replaceChildren();
  }
  conn.addEventListener('message', newDeal);

  /** @param {import('./protocol.js').Request} message */
  async function request(message) {
    setText(lobbyNote, '');
    const reply = await conn.request(message);
    if (reply?.type === 'error') setText(lobbyNote, reply.error.message);
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(link.href);
      setText(copyNote, 'Link copied.');
    } catch {
      // NB: no clipboard (an insecure origin, or permission refused): select the link to copy by hand.
      const range = document.createRange();
      range.selectNodeContents(link);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      setText(copyNote, 'Select the link and copy it.');
    }
  }

  /** Takes the name typed as this seat's (`rename`); the server keeps it for the next table. */
  async function rename() {
    const name = nameInput.value.trim();
    setText(nameNote, '');
    if (!name) { setText(nameNote, 'A name needs at least one letter or digit.'); return; }
    if (name === mine()?.name) { setText(nameNote, `You sit as ${name}.`); return; }
    const reply = await conn.request({ cmd: 'rename', name });
    if (reply?.type === 'error') { setText(nameNote, reply.error.message); return; }
    if (reply === null) { setText(nameNote, 'The connection was lost before the name was saved.'); return; }
    player.nameKept(mine()?.name ?? name);
    nameInput.value = mine()?.name ?? name;
    setText(nameNote, `You sit as ${nameInput.value}.`);
  }

  /**
   * The name field at the lobby's top while this page holds a seat: filled with the name kept
   * (empty, and asked for, for a first-time guest sitting as `Player N`).
   */
  function renderName() {
    const seat = mine();
    nameForm.hidden = !info || info.phase !== 'lobby' || !seat || !!seat.left;
    if (nameForm.hidden || !seat) return;
    const known = !!player.currentSettings().name;
    setText(namePrompt, known
      ? 'The others see this name at your seat; you can change it until the game starts.'
      : 'What should the others call you? Type your name: it is shown at your seat.');
    if (!nameFilled) {
      nameFilled = true;
      nameInput.value = known ? seat.name : '';
      if (!known && !document.querySelector('dialog[open]')) nameInput.focus();
    }
  }

  /** @returns {TableSeat|null} */
  function mine() {
    return info?.seats.find((s) => s.you) ?? null;
  }
  const isHost = () => !!info && mine()?.seat === info.host;

  /** @param {string} name */
  function awayFor(name) {
    const at = away.get(name);
    return at === undefined ? null : Math.max(0, Math.ceil((at - performance.now()) / 1000));
  }

  /**
   * One seat as words: `Ann (host, you)`, `Ray (computer)`, `Bob — away, leaves in 12 s`;
   * once the game is dealt a person's rating follows, `?` marking a provisional one:
   * `Ann (host, you) · 1520?`, `Bob · 1480? — left`.
   * @param {TableSeat} seat
   * @returns {(Node|string)[]}
   */
  function seatNodes(seat) {
    const tags = [];
    if (info && seat.seat === info.host) tags.push('host');
    if (seat.computer) tags.push('computer');
    if (seat.you) tags.push('you');
    const name = `${seat.name}${tags.length ? ` (${tags.join(', ')})` : ''}`;
    const rating = typeof seat.rating === 'number' && !seat.computer
      ? el('span.seat-rating', {}, ' · ', ...ratingNodes(seat.rating, seat.provisional))
      : '';
    let text = '';
    const left = awayFor(seat.name);
    if (seat.left) text += ' — left';
    else if (left !== null) text += ` — away, leaves in ${left} s`;
    else if (!seat.computer && !seat.connected) text += ' — not connected';
    return [name, rating, text];
  }

  function render() {
    if (!info) return;
    const lobbyPhase = info.phase === 'lobby';
    document.body.dataset.table = lobbyPhase ? 'lobby' : 'playing';
    root.hidden = false;
    lobby.hidden = !lobbyPhase;
    bar.hidden = lobbyPhase;
    receipts.hidden = !game.call;
    const host = isHost();
    setText(code, info.code);
    code.setAttribute('aria-label', `Code ${spelled(info.code)}`);
    const href = `${location.origin}/play/${encodeURIComponent(info.room)}`;
    if (link.href !== href) { link.href = href; setText(link, href); }
    setText(waiting, host ? 'Waiting for players to connect...' : 'Waiting for game to start...');
    seatList.replaceChildren(...info.seats.map((seat) => el(`li.seat-item${seat.you ? '.you' : ''}`, { dataset: { seat: String(seat.seat) } },
      el('span.seat-text', {}, ...seatNodes(seat)),
      host && !seat.you && lobbyPhase
        ? el('button.btn.ghost.unseat', { type: 'button', text: 'Remove', 'aria-label': `Remove ${seat.name}`, onclick: () => request({ cmd: 'unseat', seat: seat.seat }) })
        : null)));
    renderName();
    hostControls.hidden = !host;
    const taken = info.seats.length;
    start.disabled = taken < info.minSeats || taken > info.maxSeats;
    addComputer.hidden = !game.computers;
    addComputer.disabled = taken >= info.maxSeats;
    setText(publicNote, info.public ? 'This table is listed publicly until it starts.' : 'This table is private: only those with the code or the link can join.');
    seatsBar.replaceChildren(...info.seats.map((seat) => el(`li.table-seat${seat.you ? '.you' : ''}${seat.left ? '.gone' : ''}${awayFor(seat.name) !== null ? '.away' : ''}`,
      { dataset: { seat: String(seat.seat) } }, ...seatNodes(seat))));
    const seated = !!mine() && !mine()?.left;
    renderRematch(seated);
    leaveButton.hidden = !seated;
    setText(leaveButton, host ? (info.phase === 'lobby' ? 'Close table' : 'End game') : (info.phase === 'lobby' ? 'Leave table' : 'Leave game'));
    helpButton.hidden = false;
    if (announcedPhase !== info.phase) {
      if (announcedPhase === 'lobby' && info.phase === 'playing') announce('The game has started.');
      announcedPhase = info.phase;
    }
  }

  /**
   * The games won so far ("Ann 3 – Bob 2") and, once the game is over, the rematch: who has
   * accepted, whom it waits for, and the button for a seated player who has not.
   * @param {boolean} seated
   */
  function renderRematch(seated) {
    if (!info) return;
    const wins = info.wins ?? null;
    winsLine.hidden = !wins;
    if (wins) {
      const me = mine()?.name;
      setText(winsLine, `Games won: ${Object.entries(wins).map(([name, won]) => `${name === me ? 'You' : name} ${won}`).join(' – ')}`);
    }
    const over = info.phase === 'over';
    rematchRow.hidden = !over;
    if (!over) return;
    const accepted = new Set(info.rematch ?? []);
    const mineAccepted = accepted.has(mine()?.seat ?? -1);
    rematchButton.hidden = !seated;
    rematchButton.disabled = mineAccepted;
    setText(rematchButton, mineAccepted ? 'Rematch asked' : 'Rematch');
    const people = info.seats.filter((seat) => !seat.left && !seat.computer && seat.connected);
    const name = (/** @type {import('./protocol.js').TableSeat} */ seat) => (seat.you ? 'you' : seat.name);
    const yes = people.filter((seat) => accepted.has(seat.seat)).map(name);
    const waiting = people.filter((seat) => !accepted.has(seat.seat)).map(name);
    setText(rematchNote, yes.length
      ? `Rematch accepted by ${yes.join(', ')}${waiting.length ? `; waiting for ${waiting.join(', ')}` : ''}.`
      : 'A new deal for the same seats, once everyone here accepts.');
  }

  /** Accepts the rematch (the game's end dialog offers it too). */
  function acceptRematch() {
    request({ cmd: 'rematch' });
  }

  function tick() {
    for (const [name, at] of away) if (at < performance.now() - 1000) away.delete(name);
    render();
    changed();
    if (!away.size) {
      window.clearInterval(ticker);
      ticker = 0;
    }
  }

  /** @returns {Promise<boolean>} whether the player confirmed leaving the table */
  async function confirmLeave() {
    if (!info || !mine() || mine()?.left || gameOver() || info.phase === 'over') return true;
    const host = isHost();
    const started = info.phase !== 'lobby';
    const choice = await showDialog({
      title: started ? (host ? 'End Game?' : 'Leave Game?') : 'Leave Table?',
      message: host
        ? (started ? 'You are the host: leaving ends the game for everyone.' : 'You are the host: leaving closes the table for everyone who joined.')
        : (started ? 'You give up your seat; the others play on without you.' : 'You give up your seat at this table.'),
      buttons: [{ label: 'Stay', value: 'stay' }, { label: host ? (started ? 'End game' : 'Close table') : 'Leave', value: 'leave', primary: true }],
    });
    return choice === 'leave';
  }

  async function leave() {
    leaveButton.disabled = true;
    await conn.request({ cmd: 'leave' });
    navigate('/');
  }

  return {
    root,
    lobby,
    /** @returns {TableMessage|null} */
    get info() { return info; },
    /** @returns {string|null} the name of this page's seat */
    get me() { return mine()?.name ?? null; },
    awayFor,
    confirmLeave,
    acceptRematch,
    /** @returns {boolean} whether this page's player holds a seat (not left) */
    get sitting() { return !!mine() && !mine()?.left; },
    /** @returns {boolean} whether leaving this page gives up a seat at a table in play */
    get seated() { return !!mine() && !mine()?.left && !!info && info.phase !== 'over' && !gameOver(); },
    /** @param {TableMessage} message */
    table(message) {
      info = message;
      for (const seat of message.seats) if (seat.connected || seat.left) away.delete(seat.name);
      render();
      changed();
    },
    /** @param {SeatMessage} message */
    seat(message) {
      if (message.connected) away.delete(message.name);
      else {
        away.set(message.name, performance.now() + (message.leavesIn ?? 0) * 1000);
        announce(`${message.name} lost the connection: they leave in ${message.leavesIn ?? 0} seconds unless they come back.`);
        if (!ticker) ticker = window.setInterval(tick, 250);
      }
      render();
      changed();
    },
    /** @param {Receipt} message */
    receipt(message) {
      const who = message.player === mine()?.name ? 'You' : message.player;
      const call = game.call ?? 'Call';
      const verdict = RESULTS[message.result] ?? message.result;
      // NB: `after` is null before the first card of a round is turned.
      const after = typeof message.after === 'number' ? ` after ${Math.round(message.after * 1000)} ms` : '';
      const text = `${who}: ${call}${after} — ${verdict}`;
      const item = el(`li.receipt.${message.result}.fresh`, {}, el('strong', { text }), message.reason ? el('span.receipt-reason', { text: ` (${message.reason})` }) : null);
      receipts.prepend(item);
      receipts.scrollTop = 0;
      window.setTimeout(() => item.classList.remove('fresh'), 3000);
      announce(text);
    },
    destroy() {
      window.clearInterval(ticker);
      conn.removeEventListener('message', newDeal);
      delete document.body.dataset.table;
    },
  };
}

/** @typedef {ReturnType<typeof createTable>} TableView */
