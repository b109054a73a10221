// @ts-check
/**
 * Tiny DOM helpers shared by every screen.
 * @module dom
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Creates an HTML element.
 * @param {string} tag  tag name, optionally with classes: `button.card.big`
 * @param {Record<string, any>} [attrs]  attributes; `text` sets textContent, `on*` functions
 *   become listeners, `dataset` is merged, `false`/`null` values are skipped
 * @param {...(Node|string|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split('.');
  const node = document.createElement(name);
  if (classes.length) node.className = classes.join(' ');
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/**
 * Creates an SVG element.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|null|undefined|false)} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

/**
 * @param {HTMLElement|SVGElement} node
 * @param {Record<string, any>} attrs
 */
function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else node.setAttribute(key, value === true ? '' : String(value));
  }
}

/**
 * @param {Element} node
 * @param {(Node|string|null|undefined|false)[]} children
 */
function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
}

/**
 * Sets `textContent` only when it changed (keeps live regions quiet).
 * @param {Element} node
 * @param {string} text
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Shows a modal dialog and resolves with the value of the button pressed (`cancel` on Escape).
 * The dialog is modal (`showModal`: the page behind is inert, so Tab stays inside it), the
 * primary button takes the focus, and on close the focus returns to the element that had it
 * before (when that element is still on the page).
 * @param {{title: string, message?: string, body?: Node, buttons?: {label: string, value: string, primary?: boolean}[], className?: string}} options
 * @returns {Promise<string>}
 */
export function showDialog({ title, message, body, buttons = [{ label: 'OK', value: 'ok', primary: true }], className = '' }) {
  const titleId = `dlg-title-${Math.random().toString(36).slice(2, 8)}`;
  const dialog = /** @type {HTMLDialogElement} */ (el(`dialog.dialog${className ? '.' + className : ''}`, { 'aria-labelledby': titleId },
    el('h2.dialog-title', { id: titleId, text: title }),
    message ? el('p.dialog-message', { text: message }) : null,
    body ?? null,
    el('form.dialog-buttons', { method: 'dialog' },
      ...buttons.map((b) => el(`button.btn${b.primary ? '.primary' : ''}`, { value: b.value, text: b.label })))));
  const opener = /** @type {HTMLElement|null} */ (document.activeElement);
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (opener && opener !== document.body && opener.isConnected) opener.focus();
      resolve(dialog.returnValue || 'cancel');
    }, { once: true });
    // Tab and Shift+Tab wrap around inside the dialog (a modal dialog alone lets the focus
    // leave the page for the browser's own controls).
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab') return;
      const candidates = /** @type {NodeListOf<HTMLElement & {disabled?: boolean}>} */ (
        dialog.querySelectorAll('button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])'));
      const focusable = [...candidates]
        .filter((node) => !node.disabled && !node.hidden && node.getClientRects().length);
      if (!focusable.length) return;
      const first = focusable[0], last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
      else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
    });
    dialog.showModal();
    /** @type {HTMLElement|null} */ (dialog.querySelector('.dialog-buttons .primary') ?? dialog.querySelector('.dialog-buttons button'))?.focus();
  });
}

/**
 * The Restart button every game shows (RULES §6: restart the same deal): the server deals the
 * current game again from its seed.
 * @param {{send: (message: import('./protocol.js').Request) => void}} conn
 * @param {string} [title]
 * @returns {HTMLElement}
 */
export function restartButton(conn, title = 'Deal the same cards again, from the start') {
  // NB: on a phone " this deal" is read out but not shown, to keep the top bar short.
  return el('button.btn.ghost', { type: 'button', title, onclick: () => conn.send({ cmd: 'restart' }) },
    'Restart', el('span.long-label', { text: ' this deal' }));
}

/**
 * Asks before an action that gives up an unfinished game (Deal, Refresh, New game); resolves
 * true at once when nothing would be lost (`inProgress` false: the game is over or unplayed).
 * The safe answer is the primary button, so Enter and Escape keep the game.
 * @param {boolean} inProgress
 * @param {string} verb  what the action does, as its button says it: `Deal`, `Refresh`
 * @returns {Promise<boolean>}
 */
export async function confirmDiscard(inProgress, verb) {
  if (!inProgress) return true;
  const answer = await showDialog({
    title: 'Give up this game?', className: 'confirm',
    message: `This game is not finished. ${verb} starts a new one in its place.`,
    buttons: [{ label: `${verb} anyway`, value: 'discard' }, { label: 'Keep playing', value: 'keep', primary: true }],
  });
  return answer === 'discard';
}
