/**
 * Decoding file bytes as UTF-8 and finding characters a reader cannot see: the two ways a file can
 * say something other than what an editor shows. Format-neutral; every reader of a text file uses it.
 */

/**
 * The hidden-control set of the rule files' conventions: U+0000–U+0008, U+000B, U+000C,
 * U+000E–U+001F, U+007F, U+200B–U+200F, U+202A–U+202E, U+2060–U+206F, U+FEFF. TAB, LF and CR are
 * allowed.
 */
const HIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/;

/** Bidi controls, zero-width characters, BOM and Unicode tag characters (the review's invisible set). */
const INVISIBLE = '[\\u200B-\\u200D\\u2060\\u202A-\\u202E\\u2066-\\u2069\\uFEFF]|\\uDB40[\\uDC00-\\uDC7F]';

/** Result of {@link decodeText}. */
export type DecodedText =
  | { ok: true; text: string; hadBom: boolean; hadCrlf: boolean }
  | { ok: false; reason: 'binary' | 'encoding'; message: string };

/**
 * Decodes file bytes as UTF-8, strictly: a NUL byte means binary; invalid UTF-8 is rejected; one
 * leading BOM is stripped and CRLF becomes LF (both reported so the UI can say so). Never throws.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes.includes(0)) return { ok: false, reason: 'binary', message: 'The file contains NUL bytes: it is binary, not text.' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'encoding', message: 'The file is not valid UTF-8.' };
  }
  const hadBom = text.charCodeAt(0) === 0xfeff;
  if (hadBom) text = text.slice(1);
  const hadCrlf = text.includes('\r\n');
  if (hadCrlf) text = text.replace(/\r\n/g, '\n');
  return { ok: true, text, hadBom, hadCrlf };
}

/** A file's bytes decoded as UTF-8 the way Node's `readFile(path, 'utf8')` does, and where they stop being valid UTF-8. */
export interface Utf8Text {
  /** The text, every invalid sequence replaced by U+FFFD (WHATWG UTF-8 decode, what agents written in Node read). */
  text: string;
  /** 1-based line of the first invalid byte sequence, or null when the bytes are valid UTF-8. */
  invalidLine: number | null;
}

/**
 * Decodes `bytes` as UTF-8 leniently, as Node's `readFile(..., 'utf8')` does (a leading BOM is kept
 * as U+FEFF), and finds the first line holding an invalid sequence with a fatal `TextDecoder` line
 * by line (byte 0x0A never occurs inside a multi-byte sequence, so lines can be checked alone).
 * Never throws.
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Text {
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
  const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    fatal.decode(bytes);
    return { text, invalidLine: null };
  } catch {
    // find the line below
  }
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      fatal.decode(bytes.subarray(start, i));
    } catch {
      return { text, invalidLine: line };
    }
    line++;
    start = i + 1;
  }
  return { text, invalidLine: null };
}

/** Location (1-based line and column) of the first hidden control character, or null when the text is clean. */
export function findHiddenControl(text: string): { line: number; column: number; codePoint: string } | null {
  const match = HIDDEN_CONTROL.exec(text);
  if (!match) return null;
  const before = text.slice(0, match.index);
  const line = before.split('\n').length;
  const column = match.index - before.lastIndexOf('\n');
  return { line, column, codePoint: codePointName(match[0]) };
}

/** True when `text` contains a hidden control character (the {@link findHiddenControl} set). */
export function hasHiddenControl(text: string): boolean {
  return HIDDEN_CONTROL.test(text);
}

/** Replaces invisible characters (bidi controls, zero-width, tag characters, BOM) by a visible `⟨U+XXXX⟩`. */
export function visible(text: string): string {
  return text.replace(new RegExp(INVISIBLE, 'g'), (c) => `⟨${codePointName(c)}⟩`);
}

/**
 * The invisible characters of `text` (the {@link visible} set) from index `from` on: the first one's
 * index, 1-based line and `U+XXXX` name, and how many there are; null when there is none.
 */
export function findInvisible(text: string, from = 0): { index: number; line: number; codePoint: string; count: number } | null {
  const re = new RegExp(INVISIBLE, 'g');
  re.lastIndex = from;
  let first: RegExpExecArray | null = null;
  let count = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    first ??= m;
    count++;
  }
  if (!first) return null;
  return { index: first.index, line: text.slice(0, first.index).split('\n').length, codePoint: codePointName(first[0]), count };
}

/** `U+XXXX` (at least four upper-case hex digits) of the first code point of `c`. */
function codePointName(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
