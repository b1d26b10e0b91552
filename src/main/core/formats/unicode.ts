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

/**
 * How an invisible character is judged by {@link scanInvisible}:
 * - `emoji`: a zero-width joiner inside an emoji ZWJ sequence (👨‍👩‍👧) or a well-formed emoji tag
 *   sequence (the 🏴 subdivision flags): what the character is for, worth a note only;
 * - `harmless`: characters that change no meaning a reader would miss (ZWSP, ZWNJ, ZWJ, WJ, LRM,
 *   RLM, ALM, the invisible math operators, CGJ, a mid-file BOM, VT, FF): kept, worth a warning;
 * - `smuggling`: characters that hide text or reorder what a reader sees: Unicode TAG characters
 *   (U+E0000–E007F, "ASCII smuggling": each mirrors an ASCII character a model reads and a human
 *   does not see), variation-selector payloads (see {@link scanInvisible}), bidi embeddings,
 *   overrides and isolates (U+202A–U+202E, U+2066–U+2069, "Trojan Source", CVE-2021-42574), the
 *   deprecated format characters U+206A–U+206F and unassigned U+2065, interlinear annotation
 *   controls U+FFF9–U+FFFB, and C0/C1 control characters other than TAB, LF, CR, VT and FF
 *   (terminals act on them: an ESC sequence can hide or rewrite text in `cat` or `git diff`).
 */
export type InvisibleClass = 'emoji' | 'harmless' | 'smuggling';

/** One invisible character (or a run of variation selectors / TAG characters) found by {@link scanInvisible}. */
export interface InvisibleFinding {
  /** UTF-16 index in the text of the first character. */
  index: number;
  /** UTF-16 length of the finding (a run of selectors or tags is one finding). */
  length: number;
  /** 1-based line and column (column in code points from the line start). */
  line: number;
  column: number;
  /** `U+XXXX` of the first code point. */
  codePoint: string;
  /** Every code point of the finding, as `U+XXXX`. */
  codePoints: string[];
  class: InvisibleClass;
  /** A short human name: "TAG characters", "a bidi override"… */
  what: string;
  /** For TAG runs: the ASCII text the tags spell (U+E0020–E007E → U+0020–007E), else null. */
  hiddenText: string | null;
}

/** Every code unit {@link scanInvisible} may report (a lone selector after a base is not reported): a fast pre-check. */
const MAYBE_INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]|\u034F|[\uFE00-\uFE0F]|\uDB40/;
const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f;
const isVariationSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** A code point a variation selector may follow: anything visible (not space, control, format character or another selector). */
const SELECTOR_BASE = /[^\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Class and name of one code point outside the selector/tag rules, or null when it is not invisible. */
function classify(cp: number): { class: InvisibleClass; what: string } | null {
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) return null;
  if (cp === 0x0b || cp === 0x0c) return { class: 'harmless', what: cp === 0x0b ? 'a vertical tab' : 'a form feed' };
  if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp <= 0x9f)) return { class: 'smuggling', what: 'a control character' };
  if (cp >= 0x202a && cp <= 0x202e) return { class: 'smuggling', what: cp === 0x202d || cp === 0x202e ? 'a bidi override' : cp === 0x202c ? 'a bidi pop (end of an embedding or override)' : 'a bidi embedding' };
  if (cp >= 0x2066 && cp <= 0x2069) return { class: 'smuggling', what: 'a bidi isolate' };
  if (cp === 0x2065 || (cp >= 0x206a && cp <= 0x206f)) return { class: 'smuggling', what: 'a deprecated or unassigned format character' };
  if (cp >= 0xfff9 && cp <= 0xfffb) return { class: 'smuggling', what: 'an interlinear annotation control' };
  if (cp === 0x200b) return { class: 'harmless', what: 'a zero-width space' };
  if (cp === 0x200c) return { class: 'harmless', what: 'a zero-width non-joiner' };
  if (cp === 0x200d) return { class: 'harmless', what: 'a zero-width joiner' };
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) return { class: 'harmless', what: 'a bidi mark' };
  if (cp === 0x2060) return { class: 'harmless', what: 'a word joiner' };
  if (cp >= 0x2061 && cp <= 0x2064) return { class: 'harmless', what: 'an invisible math operator' };
  if (cp === 0x034f) return { class: 'harmless', what: 'a combining grapheme joiner' };
  if (cp === 0x180e) return { class: 'harmless', what: 'a Mongolian vowel separator' };
  if (cp === 0xfeff) return { class: 'harmless', what: 'a byte order mark inside the text' };
  return null;
}

/**
 * Every invisible character of `text`, classified (see {@link InvisibleClass}), in text order.
 * Consecutive TAG characters form one finding (with the ASCII they spell in `hiddenText`); a
 * well-formed emoji tag sequence (U+1F3F4, 1–6 tags spelling `[0-9a-z]`, CANCEL TAG U+E007F) is
 * `emoji`, any other TAG run `smuggling`. Variation selectors (U+FE00–FE0F, U+E0100–E01EF): one
 * selector right after a visible character (❤️, 1️⃣, an ideographic variation sequence) is what
 * they are for and not reported; a run of two or more, or one after a space, a line start, a
 * control or format character, is a payload ("emoji smuggling" hides one byte per selector) and
 * `smuggling`. Which base characters take which selector (Unicode's StandardizedVariants) is not
 * checked. A zero-width joiner between two pictographic characters is `emoji`. TAB, LF and CR are
 * never reported; a leading BOM is the caller's to strip. Pure; never throws.
 */
export function scanInvisible(text: string): InvisibleFinding[] {
  const out: InvisibleFinding[] = [];
  if (!MAYBE_INVISIBLE.test(text)) return out;
  const cps = Array.from(text);
  let index = 0;
  let line = 1;
  let column = 1;
  const push = (start: number, count: number, cls: InvisibleClass, what: string, hiddenText: string | null, at: { index: number; line: number; column: number }) => {
    const slice = cps.slice(start, start + count);
    out.push({ ...at, length: slice.join('').length, codePoint: codePointName(slice[0]), codePoints: slice.map(codePointName), class: cls, what, hiddenText });
  };
  for (let i = 0; i < cps.length; ) {
    const c = cps[i];
    const cp = c.codePointAt(0)!;
    const at = { index, line, column };
    let count = 1;
    if (isTag(cp)) {
      while (i + count < cps.length && isTag(cps[i + count].codePointAt(0)!)) count++;
      const run = cps.slice(i, i + count).map((t) => t.codePointAt(0)!);
      const spelled = run.map((t) => (t >= 0xe0020 && t <= 0xe007e ? String.fromCharCode(t - 0xe0000) : '')).join('');
      const flag = i > 0 && cps[i - 1].codePointAt(0) === 0x1f3f4 && run.length >= 2 && run.length <= 7 && run[run.length - 1] === 0xe007f && /^[0-9a-z]+$/.test(spelled);
      push(i, count, flag ? 'emoji' : 'smuggling', flag ? 'an emoji tag sequence' : 'TAG characters', spelled, at);
    } else if (isVariationSelector(cp)) {
      while (i + count < cps.length && isVariationSelector(cps[i + count].codePointAt(0)!)) count++;
      const base = i > 0 ? cps[i - 1] : '';
      if (count > 1) push(i, count, 'smuggling', 'a run of variation selectors', null, at);
      else if (!SELECTOR_BASE.test(base)) push(i, count, 'smuggling', 'a variation selector with no character before it', null, at);
    } else {
      const kind = classify(cp);
      if (kind) {
        const emojiJoin = cp === 0x200d && i > 0 && i + 1 < cps.length && (PICTOGRAPHIC.test(cps[i - 1]) || isVariationSelector(cps[i - 1].codePointAt(0)!) || /[\u{1F3FB}-\u{1F3FF}]/u.test(cps[i - 1])) && PICTOGRAPHIC.test(cps[i + 1]);
        push(i, 1, emojiJoin ? 'emoji' : kind.class, emojiJoin ? 'a zero-width joiner in an emoji' : kind.what, null, at);
      }
    }
    for (let k = 0; k < count; k++) {
      const ch = cps[i + k];
      index += ch.length;
      if (ch === '\n') {
        line++;
        column = 1;
      } else column++;
    }
    i += count;
  }
  return out;
}

/**
 * `text` with every `smuggling` character of {@link scanInvisible} replaced by a visible
 * `⟨U+XXXX⟩` (one per code point), so what Atrium sends or shows can never carry hidden TAG text,
 * a selector payload or a bidi reordering; `emoji` and `harmless` characters are kept as they are.
 * Idempotent (the replacement is plain ASCII and brackets). Pure.
 */
export function revealSmuggling(text: string): string {
  const found = scanInvisible(text).filter((f) => f.class === 'smuggling');
  if (found.length === 0) return text;
  let out = '';
  let last = 0;
  for (const f of found) {
    out += text.slice(last, f.index) + f.codePoints.map((c) => `⟨${c}⟩`).join('');
    last = f.index + f.length;
  }
  return out + text.slice(last);
}
