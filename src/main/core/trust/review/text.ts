import type { TrustWarning } from '../../../../shared/contract';

/** Bidi controls, zero-width characters, BOM and Unicode tag characters. */
const HIDDEN = /[\u200B-\u200D\u2060\u202A-\u202E\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

/** Longest summary line, in characters. */
export const SUMMARY_MAX = 200;

/** Collapses whitespace and line breaks to one line and cuts it to `max` characters (adding `…`). */
export function oneLine(text: string, max = SUMMARY_MAX): string {
  const flat = visible(text).replace(/\s*[\r\n]+\s*/g, ' ⏎ ').replace(/[ \t]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Longest description kept in an item's detail, in characters. */
export const DESCRIPTION_MAX = 500;

/** Cuts `text` to `max` characters (adding `…`), keeping line breaks; invisible characters made {@link visible}. */
export function clip(text: string, max = DESCRIPTION_MAX): string {
  const shown = visible(text);
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

/** Replaces invisible characters (bidi controls, zero-width, tag characters) by a visible `⟨U+XXXX⟩`. */
export function visible(text: string): string {
  return text.replace(HIDDEN, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** First non-empty line of Markdown text that is not a horizontal rule, trimmed; '' when none. */
export function firstMeaningfulLine(text: string): string {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line && !/^(-{3,}|\*{3,}|_{3,})$/.test(line) && !line.startsWith('<!--')) return line;
  }
  return '';
}

/** A string value, or undefined for anything else (never coerces). */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Strings of a string or string-array value (other elements dropped). */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * A URL reduced to origin + path: query strings, fragments and credentials (which can carry
 * tokens) are dropped. Strings that are not URLs (e.g. `${API_BASE}/mcp`) are returned with any
 * `?query` cut off.
 */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return raw.replace(/[?#].*$/, '');
  }
}

/** Joins a command and its arguments for display, quoting arguments with spaces or quotes. */
export function commandLine(command: string, args: readonly string[] = []): string {
  const quote = (a: string) => (/[\s"'$`\\]/.test(a) || a === '' ? JSON.stringify(a) : a);
  return [command, ...args.map(quote)].join(' ');
}

/**
 * Warns about invisible characters that can make text read differently to a model than on screen
 * (bidirectional overrides, zero-width characters, Unicode tag characters). A BOM at the very
 * start is reported separately by callers. Returns at most one warning per file.
 */
export function hiddenCharacterWarning(text: string, path: string): TrustWarning | null {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  HIDDEN.lastIndex = start;
  let first: RegExpExecArray | null = null;
  let count = 0;
  for (let m = HIDDEN.exec(text); m; m = HIDDEN.exec(text)) {
    if (m.index < start) continue;
    first ??= m;
    count++;
  }
  if (!first) return null;
  const line = text.slice(0, first.index).split('\n').length;
  const code = first[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return {
    path,
    line,
    message: `contains ${count} invisible character${count === 1 ? '' : 's'} (first: U+${code} on line ${line}); the text an agent reads may differ from what you see`,
    fix: 'Remove the invisible characters, or inspect the file in an editor that shows them.',
  };
}

/** 1-based line on which `needle` first occurs in `text` at or after line `fromLine`, or null. */
export function lineOfText(text: string, needle: string, fromLine = 1): number | null {
  if (!needle) return null;
  let offset = 0;
  for (let l = 1; l < fromLine; l++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return null;
    offset = next + 1;
  }
  const at = text.indexOf(needle, offset);
  return at === -1 ? null : text.slice(0, at).split('\n').length;
}
