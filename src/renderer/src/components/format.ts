/** Shortens a path under the home directory to `~/…` for display (never for identity). */
export function displayPath(p: string, home: string | undefined): string {
  if (home && (p === home || p.startsWith(`${home}/`))) return `~${p.slice(home.length)}`;
  return p;
}

/** True on macOS, where shortcuts use ⌘ instead of Ctrl. */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Shortcut label, e.g. "Ctrl+O" or "⌘O". */
export function shortcut(key: string): string {
  return isMac ? `⌘${key}` : `Ctrl+${key}`;
}
