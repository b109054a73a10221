// @ts-check
/**
 * Light and dark themes: the system's `prefers-color-scheme` unless the player chose one with
 * the Dark theme switch in the top bar's More menu (remembered in localStorage). The choice is
 * `data-theme` on <html>; css/app.css keeps both palettes.
 * @module theme
 */

const KEY = 'cardtable.theme';
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');

/** @returns {'light'|'dark'|null} the player's own choice, if any */
function chosen() {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

/** @returns {'light'|'dark'} the theme on screen */
export function currentTheme() {
  return chosen() ?? (systemDark.matches ? 'dark' : 'light');
}

/**
 * Shows `theme` on the page and on the switch.
 * @param {'light'|'dark'} theme
 * @param {HTMLButtonElement|null} button
 */
function show(theme, button) {
  document.documentElement.dataset.theme = theme;
  if (!button) return;
  button.setAttribute('aria-pressed', String(theme === 'dark'));
  button.title = theme === 'dark' ? 'Dark theme on: press for the light one' : 'Light theme on: press for the dark one';
}

/**
 * Sets the theme up and wires the switch (a toggle button: pressed means dark).
 * @param {HTMLButtonElement|null} button
 */
export function setUpTheme(button) {
  let theme = currentTheme();
  show(theme, button);
  systemDark.addEventListener('change', () => { if (!chosen()) show(theme = currentTheme(), button); });
  button?.addEventListener('click', () => {
    theme = theme === 'dark' ? 'light' : 'dark';
    // NB: without storage (private mode) the choice holds for this page only.
    try { localStorage.setItem(KEY, theme); } catch { /* not remembered */ }
    show(theme, button);
  });
}
