import { visible } from './unicode';

/**
 * Small helpers for showing text read from files to a person (one-line summaries, clipped
 * descriptions, command lines) and for reading loosely typed parsed values (`str`, `isRecord`,
 * `strings`). Format-neutral.
 */

/** Longest summary line, in characters. */
export const SUMMARY_MAX = 200;

/** Longest description kept in an item's detail, in characters. */
export const DESCRIPTION_MAX = 500;

/** Collapses whitespace and line breaks to one line and cuts it to `max` characters (adding `…`); invisible characters made {@link visible}. */
export function oneLine(text: string, max = SUMMARY_MAX): string {
  const flat = visible(text).replace(/\s*[\r\n]+\s*/g, ' ⏎ ').replace(/[ \t]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Cuts `text` to `max` characters (adding `…`), keeping line breaks; invisible characters made {@link visible}. */
export function clip(text: string, max = DESCRIPTION_MAX): string {
  const shown = visible(text);
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

/** First non-empty line of Markdown text that is not a horizontal rule or an HTML comment, trimmed; '' when none. */
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

/** Joins a command and its arguments for display, quoting (as JSON strings) arguments that are empty or hold spaces, quotes, `$`, backticks or backslashes. */
export function commandLine(command: string, args: readonly string[] = []): string {
  const quote = (a: string) => (/[\s"'$`\\]/.test(a) || a === '' ? JSON.stringify(a) : a);
  return [command, ...args.map(quote)].join(' ');
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

/** UTF-8 byte length of a string. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Escapes `& " < >` for an XML-ish attribute value. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
