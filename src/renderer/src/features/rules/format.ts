/** "812 B", "4.2 KiB", "1.3 MiB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and TAG characters
 * written as `⟨U+XXXX⟩`, so a rule's text shown in the DOM can never be reordered or carry hidden
 * text. The engine already does this for every text it hands out (`revealSmuggling`); this is the
 * renderer's own guard for the two views that show a file's text.
 */
export function showControls(text: string): string {
  return text.replace(/[\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/gu, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
