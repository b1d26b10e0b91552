import { visit, type JSONPath } from 'jsonc-parser';

/** A file's bytes decoded as UTF-8 the way Node's `readFile(path, 'utf8')` does, and where they stop being valid UTF-8. */
export interface DecodedText {
  /** The text, every invalid sequence replaced by U+FFFD (WHATWG UTF-8 decode, what agents written in Node read). */
  text: string;
  /** 1-based line of the first invalid byte sequence, or null when the bytes are valid UTF-8. */
  invalidLine: number | null;
}

/**
 * Decodes `bytes` as UTF-8 (a leading BOM is kept as U+FEFF, as `readFile(..., 'utf8')` keeps it)
 * and finds the first line holding an invalid sequence with a fatal `TextDecoder` line by line
 * (byte 0x0A never occurs inside a multi-byte sequence, so lines can be checked alone). Never throws.
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
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

/** A property name that occurs twice in one JSON object. */
export interface DuplicateKey {
  key: string;
  /** 1-based line of the occurrence that wins (the later one: `JSON.parse` keeps the last value). */
  line: number;
  /** 1-based line of the first occurrence. */
  firstLine: number;
  /** Where the object is, as `hooks.PreToolUse[0]` (empty for the top-level object). */
  path: string;
}

/**
 * Every repeated property name in every object of a JSON (or, with `jsonc`, JSON-with-comments)
 * document, found with jsonc-parser 3.3.1's `visit` (offsets and lines of each property). A name
 * repeated n times is reported n-1 times, each against the first. Syntax errors are skipped over
 * (the caller reports them). Never throws; returns at most `limit` findings.
 */
export function duplicateKeys(text: string, options: { jsonc?: boolean; limit?: number } = {}): DuplicateKey[] {
  const limit = options.limit ?? 100;
  const out: DuplicateKey[] = [];
  const stack: Array<Map<string, number>> = [];
  try {
    visit(
      text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text,
      {
        onObjectBegin: () => void stack.push(new Map()),
        onObjectEnd: () => void stack.pop(),
        onObjectProperty: (key, _offset, _length, startLine, _startCharacter, pathSupplier) => {
          const seen = stack[stack.length - 1];
          if (!seen) return;
          const first = seen.get(key);
          if (first === undefined) seen.set(key, startLine + 1);
          else if (out.length < limit) out.push({ key, line: startLine + 1, firstLine: first, path: pathText(pathSupplier()) });
        },
      },
      { allowTrailingComma: Boolean(options.jsonc), disallowComments: !options.jsonc },
    );
  } catch {
    // visit does not throw on bad input; a bug in it must not break loading
  }
  return out;
}

function pathText(path: JSONPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
