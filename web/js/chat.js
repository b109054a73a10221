// @ts-check
/**
 * A table's chat (docs/PROTOCOL.md, "Table chat"): the panel below a table's game (or its
 * lobby) with the lines said at the table, a text field and Send, the quick reactions, the
 * people at the table to mute or unmute, and for the host a switch that lets watchers chat or
 * not.
 *
 * The page decides nothing here either: it shows the `chat` lines as they come (each line's
 * text always as text, never as markup), the table's `muted` and `watcherChat`, and sends
 * `say`, `mute`, `unmute` and `chat-settings`; what the server refuses is said in the panel's
 * status line.
 * @module chat
 */
import { el, setText } from './dom.js';

/** @typedef {import('./protocol.js').TableMessage} TableMessage */
/** @typedef {import('./protocol.js').ChatMessage} ChatMessage */
/** @typedef {import('./protocol.js').ChatLine} ChatLine */
/** @typedef {import('./protocol.js').ChatReaction} ChatReaction */
/** @typedef {import('./protocol.js').ErrorMessage} ErrorMessage */
/** @typedef {import('./protocol.js').Request} Request */
/** @typedef {import('./connection.js').Connection} Connection */

/** The longest line the server takes (after trimming). */
export const MAX_LENGTH = 200;
/** The most lines kept on the page (the oldest go first). */
export const KEPT_LINES = 200;
/** What a watcher reads while the host has turned watchers' chat off. */
export const CHAT_OFF = 'The host has turned watchers\' chat off.';

/**
 * The quick reactions, in the order of their buttons: the emoji shown and the words it stands
 * for (the button's name, and what a screen reader reads of a line).
 * NB: `snap` is "So fast!", not "Snap!": at a Snap! table a second button named Snap! (or a
 * line saying it) would be taken for the call.
 * @type {{name: ChatReaction, emoji: string, label: string}[]}
 */
export const REACTIONS = [
  { name: 'clap', emoji: '👏', label: 'Well played' },
  { name: 'wow', emoji: '😮', label: 'Wow' },
  { name: 'laugh', emoji: '😂', label: 'Ha!' },
  { name: 'oops', emoji: '🙈', label: 'Oops' },
  { name: 'snap', emoji: '⚡', label: 'So fast!' },
  { name: 'gg', emoji: '🤝', label: 'Good game' },
];

/** @type {Record<string, string>} the refusals of `say`, as the status line says them */
const SAY_ERRORS = {
  'too-many-messages': 'Slow down: at most 5 messages in 10 seconds.',
  'message-too-long': `A message can be at most ${MAX_LENGTH} characters long.`,
  'chat-off': CHAT_OFF,
  'bad-request': 'Type a message first.',
  'not-a-table': 'This room has no chat: it is not a table.',
};

/**
 * The chat panel of a table's room. `table` takes each `table` message, `chat` each `chat`
 * message of the room; `asked(id)` tells whether a refusal answers one of the panel's own
 * requests (the panel shows it: the game's screen need not).
 * @param {{conn: Connection}} ctx
 */
export function createChat({ conn }) {
  /** @type {TableMessage|null} */
  let info = null;
  /** The highest line index shown (a line at or below it is one already shown). */
  let lastIndex = -1;
  /** @type {Set<number>} the ids of the panel's requests not answered yet */
  const pending = new Set();
  /** @type {Map<string, boolean>} watchers' names seen in lines, not this page's → true */
  const watchers = new Map();
  /** @type {Set<string>} names whose mute or unmute is on its way */
  const muting = new Set();
  let peopleKey = '';

  const log = el('div.chat-log', { role: 'log', 'aria-live': 'polite', 'aria-label': 'Chat messages', tabindex: '0' });
  const input = /** @type {HTMLInputElement} */ (el('input.name-input.chat-input', {
    id: 'chat-input', name: 'message', type: 'text', maxlength: MAX_LENGTH, autocomplete: 'off', enterkeyhint: 'send',
    placeholder: 'Say something to the table', 'aria-describedby': 'chat-status',
  }));
  const send = /** @type {HTMLButtonElement} */ (el('button.btn.primary.chat-send', { type: 'submit', text: 'Send' }));
  const form = el('form.chat-form', { onsubmit: (/** @type {Event} */ event) => { event.preventDefault(); sayText(); } },
    el('label.visually-hidden', { for: 'chat-input', text: 'Message to the table' }), input, send);
  const offNote = el('p.chat-off-note', { hidden: true, text: CHAT_OFF });
  const reactionButtons = REACTIONS.map((reaction) => /** @type {HTMLButtonElement} */ (el('button.btn.ghost.chat-reaction', {
    type: 'button', 'aria-label': reaction.label, title: reaction.label, dataset: { reaction: reaction.name },
    onclick: () => say({ cmd: 'say', reaction: reaction.name }),
  }, el('span', { 'aria-hidden': 'true', text: reaction.emoji }))));
  const reactions = el('div.chat-reactions', { role: 'group', 'aria-label': 'Quick reactions' }, ...reactionButtons);
  const status = el('p.chat-status', { id: 'chat-status', role: 'status' });
  const watchersBox = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', id: 'chat-watchers', onchange: changeWatchers }));
  const hostRow = el('div.chat-host', { hidden: true },
    el('label.toggle', { for: 'chat-watchers' }, watchersBox, el('span', { text: 'Watchers may chat' })));
  const people = el('ul.chat-people', { 'aria-labelledby': 'chat-people-title' });
  const peopleRow = el('div.chat-people-row', { hidden: true },
    el('p.chat-people-title', { id: 'chat-people-title', text: 'Hide what someone says:' }), people);
  const root = el('div.chat-panel', { id: 'chat-panel', role: 'region', 'aria-labelledby': 'chat-title', hidden: true },
    el('h2.chat-title', { id: 'chat-title', text: 'Table chat' }),
    log, form, offNote, reactions, status, hostRow, peopleRow);

  // NB: the page grows by the panel's height while a game is on (app.css, chat.css): the
  // game's screen keeps the whole window, the chat is below it.
  const resize = new ResizeObserver(() => {
    document.body.style.setProperty('--chat-h', `${root.offsetHeight}px`);
  });
  resize.observe(root);

  /** @returns {boolean} whether this page only watches the table (no seat of its own, or gone) */
  function watching() {
    const mine = info?.seats.find((seat) => seat.you);
    return !mine || !!mine.left;
  }

  /** @returns {boolean} whether this page's seat is the host's */
  function hosting() {
    const mine = info?.seats.find((seat) => seat.you);
    return !!info && !!mine && !mine.left && mine.seat === info.host;
  }

  /**
   * Sends one of the panel's requests; resolves with the reply (null: the connection dropped).
   * @param {Request} message
   */
  async function request(message) {
    const replied = conn.request(message);
    const id = conn.lastId;
    pending.add(id);
    try {
      return await replied;
    } finally {
      pending.delete(id);
    }
  }

  /**
   * Says a line or a reaction; a refusal is told in the status line.
   * @param {import('./protocol.js').Say} message
   * @returns {Promise<boolean>} whether the server took it
   */
  async function say(message) {
    const reply = await request(message);
    if (reply === null) {
      setText(status, 'The connection was lost before the message was sent.');
      return false;
    }
    if (reply.type === 'error') {
      setText(status, SAY_ERRORS[reply.error.code] ?? reply.error.message);
      return false;
    }
    setText(status, '');
    return true;
  }

  async function sayText() {
    const text = input.value.trim();
    if (!text) {
      setText(status, SAY_ERRORS['bad-request']);
      input.focus();
      return;
    }
    if (await say({ cmd: 'say', text }) && input.value.trim() === text) input.value = '';
    if (root.isConnected && !input.disabled) input.focus();
  }

  async function changeWatchers() {
    const wanted = watchersBox.checked;
    watchersBox.disabled = true;
    const reply = await request({ cmd: 'chat-settings', watchers: wanted });
    watchersBox.disabled = false;
    if (reply?.type === 'error') setText(status, reply.error.code === 'not-the-host' ? 'Only the host can let watchers chat or not.' : reply.error.message);
    else if (reply === null) setText(status, 'The connection was lost before the change was saved.');
    else setText(status, '');
    render();
  }

  /**
   * Mutes or unmutes a name; the server answers with this page's `table` message.
   * @param {string} name
   * @param {boolean} mute
   */
  async function toggleMute(name, mute) {
    muting.add(name);
    peopleKey = '';
    renderPeople();
    const reply = await request({ cmd: mute ? 'mute' : 'unmute', name });
    muting.delete(name);
    if (reply?.type === 'error') {
      setText(status, reply.error.code === 'no-such-player' ? `There is nobody called ${name} at this table.` : reply.error.message);
    } else if (reply === null) setText(status, 'The connection was lost before that was saved.');
    else setText(status, mute ? `You no longer see what ${name} says.` : `You see what ${name} says again.`);
    peopleKey = '';
    renderPeople();
    /** @type {HTMLElement|null} */ (people.querySelector(`[data-name="${CSS.escape(name)}"] button`))?.focus();
  }

  /**
   * One line as the panel shows it: `Ann: hi`, `Cy (watcher): 👏 Well played`, `You: …`.
   * @param {ChatLine} line
   * @returns {HTMLElement}
   */
  function lineNode(line) {
    const reaction = line.reaction ? REACTIONS.find((r) => r.name === line.reaction) : undefined;
    const classes = `${line.you ? '.you' : ''}${line.watcher ? '.watcher' : ''}${line.reaction ? '.reaction' : ''}`;
    const at = new Date(line.at);
    const known = Number.isFinite(at.getTime());
    return el(`div.chat-line${classes}`, { dataset: { index: String(line.index) } },
      el('span.chat-who', {},
        el('span.chat-name', { text: line.you ? 'You' : line.name }),
        line.watcher ? el('span.chat-mark', { text: ' (watcher)' }) : null),
      ': ',
      reaction ? el('span.chat-emoji', { 'aria-hidden': 'true', text: `${reaction.emoji} ` }) : null,
      el('span.chat-text', { text: reaction ? reaction.label : line.reaction ?? line.text ?? '' }),
      known ? ' ' : null,
      known ? el('time.chat-time', { datetime: at.toISOString(), text: at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) }) : null);
  }

  /**
   * Shows lines below the ones shown (or, for the history, in their place), the newest in view.
   * @param {ChatLine[]} lines
   * @param {boolean} history
   */
  function show(lines, history) {
    if (history) {
      log.replaceChildren();
      lastIndex = -1;
    }
    for (const line of lines) {
      if (typeof line.index === 'number' && line.index <= lastIndex) continue;
      if (typeof line.index === 'number') lastIndex = line.index;
      if (line.watcher && !line.you) watchers.set(line.name, true);
      log.append(lineNode(line));
    }
    while (log.childElementCount > KEPT_LINES) log.firstElementChild?.remove();
    log.scrollTop = log.scrollHeight;
    renderPeople();
  }

  /** The names at the table that can be muted: the seats, the watchers who spoke, those muted. */
  function renderPeople() {
    if (!info) return;
    const muted = new Set(info.muted ?? []);
    /** @type {Map<string, boolean>} name → whether known only as a watcher */
    const names = new Map();
    for (const seat of info.seats) if (!seat.you && !seat.computer) names.set(seat.name, false);
    for (const name of watchers.keys()) if (!names.has(name)) names.set(name, true);
    for (const name of muted) if (!names.has(name)) names.set(name, watchers.has(name));
    const mine = info.seats.find((seat) => seat.you)?.name;
    if (mine) names.delete(mine);
    const key = JSON.stringify([...names].map(([name, watcher]) => [name, watcher, muted.has(name), muting.has(name)]));
    if (key === peopleKey) return;
    peopleKey = key;
    people.replaceChildren(...[...names].map(([name, watcher]) => {
      const isMuted = muted.has(name);
      return el(`li.chat-person${isMuted ? '.muted' : ''}`, { dataset: { name } },
        el('span.chat-person-name', { text: `${name}${watcher ? ' (watcher)' : ''}${isMuted ? ' — muted' : ''}` }),
        el('button.btn.ghost.chat-mute', {
          type: 'button', text: isMuted ? 'Unmute' : 'Mute', 'aria-label': `${isMuted ? 'Unmute' : 'Mute'} ${name}`,
          disabled: muting.has(name), onclick: () => { toggleMute(name, !isMuted); },
        }));
    }));
    peopleRow.hidden = names.size === 0;
  }

  function render() {
    if (!info) return;
    root.hidden = false;
    document.body.dataset.chat = '';
    const off = info.watcherChat === false;
    const silenced = off && watching();
    input.disabled = silenced;
    send.disabled = silenced;
    for (const button of reactionButtons) button.disabled = silenced;
    offNote.hidden = !silenced;
    if (silenced && status.textContent === CHAT_OFF) setText(status, '');
    hostRow.hidden = !hosting();
    if (!watchersBox.disabled) watchersBox.checked = !off;
    renderPeople();
  }

  return {
    root,
    /** @param {TableMessage} message */
    table(message) {
      info = message;
      render();
    },
    /** @param {ChatMessage} message */
    chat(message) {
      show(message.lines ?? [], message.history === true);
    },
    /**
     * @param {import('./protocol.js').RequestId|undefined} id
     * @returns {boolean} whether the reply `id` answers one of the panel's requests
     */
    asked(id) {
      return typeof id === 'number' && pending.has(id);
    },
    destroy() {
      resize.disconnect();
      root.remove();
      delete document.body.dataset.chat;
      document.body.style.removeProperty('--chat-h');
    },
  };
}

/** @typedef {ReturnType<typeof createChat>} ChatView */
