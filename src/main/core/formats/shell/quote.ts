/**
 * Quotes one word so a shell reads it back as exactly that word (the inverse of `lexShell` in `lex.ts`):
 * POSIX single quotes with `'` written as `'\''`, or `cmd`-style double quotes on Windows.
 */
export function shellQuote(word: string): string {
  if (process.platform === 'win32') return `"${word.replace(/"/g, '""')}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The POSIX shell text that runs exactly `words` as one argument vector: each word that holds
 * anything beyond `[A-Za-z0-9_@%+=:,./-]` (or is empty) goes in single quotes, `'` as `'\''`. Used
 * where an argv that runs without a shell is shown to something that reads shell text (a hook's
 * `tool_input.command`, Claude Code's Bash tool input shape), so `sh -c 'git push'` never reads
 * back as `sh -c git push`. Always POSIX, whatever the platform: the readers are bash grammars.
 */
export function posixShellJoin(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
