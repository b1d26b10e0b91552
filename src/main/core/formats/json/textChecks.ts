import { visit, type JSONPath } from 'jsonc-parser';

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
