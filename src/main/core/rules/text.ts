/**
 * Text normalisation shared by rule files and imports (issue 4 §2 Content; seed §0 conventions).
 */

/**
 * The hidden-control set of seed §0: U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+007F,
 * U+200B–U+200F, U+202A–U+202E, U+2060–U+206F, U+FEFF. TAB, LF and CR are allowed.
 */
const HIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/;

/** Result of {@link decodeRuleText}. */
export type DecodedText =
  | { ok: true; text: string; hadBom: boolean; hadCrlf: boolean }
  | { ok: false; reason: 'binary' | 'encoding'; message: string };

/**
 * Decodes file bytes as UTF-8: a NUL byte means binary; invalid UTF-8 is rejected; one leading
 * BOM is stripped and CRLF becomes LF (both reported so the UI can say so). Never throws.
 */
export function decodeRuleText(bytes: Uint8Array): DecodedText {
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

/** Location of the first hidden control character, or null when the text is clean. */
export function findHiddenControl(text: string): { line: number; column: number; codePoint: string } | null {
  const match = HIDDEN_CONTROL.exec(text);
  if (!match) return null;
  const before = text.slice(0, match.index);
  const line = before.split('\n').length;
  const column = match.index - before.lastIndexOf('\n');
  const codePoint = `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return { line, column, codePoint };
}

/** True when `text` contains a hidden control character (seed §0 set). */
export function hasHiddenControl(text: string): boolean {
  return HIDDEN_CONTROL.test(text);
}

/** UTF-8 byte length of a string. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Escapes `& " < >` for an XML-ish attribute value (seed §4.5 rendering). */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
