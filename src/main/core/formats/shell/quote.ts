/**
 * Quotes one word so a shell reads it back as exactly that word (the inverse of `lexShell` in `lex.ts`):
 * POSIX single quotes with `'` written as `'\''`, or `cmd`-style double quotes on Windows.
 */
export function shellQuote(word: string): string {
  if (process.platform === 'win32') return `"${word.replace(/"/g, '""')}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
