// @ts-check
/**
 * Your player on another device (docs/PROTOCOL.md "Moving a player"): a one-time code shown
 * here and typed on the other device moves the player there — games, settings, statistics.
 * No password and no e-mail: the code works once, for ten minutes.
 * @module transfer
 */
import { el, setText } from './dom.js';
import { announce } from './a11y.js';
import * as player from './player.js';

/**
 * The home screen's "Your player on another device": Show a code, and Use a code.
 * @param {{conn: import('./connection.js').Connection}} ctx
 * @returns {HTMLElement}
 */
export function transferSection({ conn }) {
  const shown = el('p.transfer-code', { hidden: true, 'aria-live': 'polite' });
  const showNote = el('p.note.transfer-note', { role: 'status' });
  const show = /** @type {HTMLButtonElement} */ (el('button.btn.show-transfer-code', { type: 'button', text: 'Show a code for another device' }));
  show.addEventListener('click', async () => {
    show.disabled = true;
    const reply = await conn.request({ cmd: 'transfer' });
    show.disabled = false;
    if (reply?.type !== 'answer' || typeof reply.code !== 'string') {
      setText(showNote, reply?.type === 'error' ? reply.error.message : 'No code: try again.');
      return;
    }
    shown.hidden = false;
    setText(shown, reply.code);
    shown.setAttribute('aria-label', `Code ${reply.code.replace('-', '').split('').join(' ')}`);
    const minutes = Math.round((Number(reply.expiresIn) || 600) / 60);
    setText(showNote, `Type it on the other device under “Use a code” within ${minutes} minutes. It works once; a new code replaces it.`);
    setText(show, 'Show a new code');
  });

  const input = /** @type {HTMLInputElement} */ (el('input.name-input.transfer-input', {
    id: 'transfer-code', name: 'code', type: 'text', maxlength: 12, autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', placeholder: 'ABCD-EFGH', required: true, 'aria-describedby': 'transfer-use-note',
  }));
  const useNote = el('p.note.transfer-note', { id: 'transfer-use-note', role: 'status', text: 'This browser then plays as that player; what it played until now stays with its old player.' });
  const form = el('form.transfer-form', {},
    el('div.form-row', {}, el('label', { for: 'transfer-code', text: 'Use a code' }), input,
      el('button.btn.primary', { type: 'submit', text: 'Move here' })),
    useNote);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const code = input.value.trim();
    if (!code) return;
    const reply = await conn.request({ cmd: 'claim', code });
    if (reply?.type === 'error') {
      setText(useNote, reply.error.message);
      input.focus();
      input.select();
      return;
    }
    if (reply?.type !== 'answer' || typeof reply.token !== 'string' || !player.adoptToken(reply.token)) {
      setText(useNote, 'This browser cannot keep a player (private browsing?).');
      return;
    }
    setText(useNote, 'Moved: loading your games…');
    announce('Your player moved here.');
    location.reload();
  });

  return el('section.transfer', { 'aria-labelledby': 'transfer-title' },
    el('h2', { id: 'transfer-title', text: 'Your player on another device' }),
    el('p.note', { text: 'Carry your games, settings and statistics to another browser or phone: show a code here, type it there.' }),
    show, shown, showNote, form);
}
