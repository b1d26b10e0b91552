/**
 * Quote removal on word text, as bash does it (backslashes outside quotes, the few escapes inside
 * double quotes, a leading `~`), joining literal parts, and a word's plain literal text.
 */
import type { Word, WordPart } from './types';

/** Quote removal of an unquoted word: backslash escapes become quoted characters; a leading `~` becomes a tilde part. */
export function unquotedWord(text: string, atStart: boolean, out: WordPart[], quoted: boolean): void {
  if (quoted) {
    out.push({ kind: 'literal', text, quoted: true });
    return;
  }
  let i = 0;
  if (atStart && text.startsWith('~')) {
    const m = /^~([A-Za-z0-9._-]*)(?=\/|$)/.exec(text);
    if (m) {
      out.push({ kind: 'tilde', user: m[1] });
      i = m[0].length;
    }
  }
  let buf = '';
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      if (buf) out.push({ kind: 'literal', text: buf, quoted: false });
      buf = '';
      if (text[i + 1] === '\n') {
        i++;
        continue;
      }
      if (i + 1 < text.length) out.push({ kind: 'literal', text: text[i + 1], quoted: true });
      i++;
      continue;
    }
    buf += c;
  }
  if (buf) out.push({ kind: 'literal', text: buf, quoted: false });
}

/** Backslash removal inside double quotes (bash: only before `$`, backtick, `"`, `\` and newline). */
export function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** Joins adjacent literal parts quoted alike (a word reads as few parts as possible). */
export function mergeLiterals(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (p.kind === 'literal' && last?.kind === 'literal' && last.quoted === p.quoted) out[out.length - 1] = { ...last, text: last.text + p.text };
    else out.push(p);
  }
  return out;
}

/** The word's text when it is one plain literal (no expansion, glob or brace), else null. */
export function literalText(word: Word): string | null {
  let s = '';
  for (const p of word.parts) {
    if (p.kind !== 'literal') return null;
    if (!p.quoted && /[*?[{]/.test(p.text)) return null;
    s += p.text;
  }
  return s;
}
