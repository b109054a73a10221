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
 * Shows a modal dialog and resolves with the value of the button pressed.
 * @param {{title: string, message?: string, body?: Node, buttons?: {label: string, value: string, primary?: boolean}[], className?: string}} options
 * @returns {Promise<string>}
 */
export function showDialog({ title, message, body, buttons = [{ label: 'OK', value: 'ok', primary: true }], className = '' }) {
  const titleId = `dlg-title-${Math.random().toString(36).slice(2, 8)}`;
  const dialog = el(`dialog.dialog${className ? '.' + className : ''}`, { 'aria-labelledby': titleId },
    el('h2.dialog-title', { id: titleId, text: title }),
    message ? el('p.dialog-message', { text: message }) : null,
    body ?? null,
    el('form.dialog-buttons', { method: 'dialog' },
      ...buttons.map((b) => el(`button.btn${b.primary ? '.primary' : ''}`, { value: b.value, text: b.label }))));
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue || 'cancel');
    }, { once: true });
    dialog.showModal();
    dialog.querySelector('.dialog-buttons .primary, .dialog-buttons button')?.focus();
  });
}
