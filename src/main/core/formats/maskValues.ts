import { parseTree, type Node } from 'jsonc-parser';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';

/** What a masked value is shown as (the same six dots the Hooks tab shows). */
export const MASKED_VALUE = '••••••';

/**
 * Decides, from the keys leading to a value (object keys only; array positions are left out), whether
 * the value is hidden. `['mcpServers', 'db', 'env', 'API_TOKEN']` → true hides that value.
 */
export type MaskPredicate = (keys: readonly string[]) => boolean;

/** A replacement of `text.slice(start, end)`. */
interface Edit {
  start: number;
  end: number;
}

/**
 * Replaces a value's text by `"••••••"`, keeping the newlines it spanned so every later line keeps
 * its number (review items point at lines of the file).
 */
function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue;
    const newlines = text.slice(e.start, e.end).replace(/[^\n]/g, '');
    out += text.slice(at, e.start) + `"${MASKED_VALUE}"` + newlines;
    at = e.end;
  }
  return out + text.slice(at);
}

/**
 * JSON / JSONC text with every scalar value (string, number, boolean, null) whose key path
 * `mask` accepts replaced by `"••••••"`; keys, structure, comments and line numbers stay as they
 * were. Parsed with jsonc-parser 3.3 (`parseTree`, error-tolerant like VS Code: a document with
 * syntax errors is masked as far as its structure can be recovered). Keys are compared decoded
 * (`"\u0065nv"` is `env`). Never throws.
 */
export function maskJsonValues(text: string, mask: MaskPredicate): string {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) return text;
  const edits: Edit[] = [];
  const walk = (node: Node, keys: string[]) => {
    if (node.type === 'object') {
      for (const prop of node.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (key && value) walk(value, [...keys, String(key.value)]);
      }
    } else if (node.type === 'array') {
      for (const child of node.children ?? []) walk(child, keys);
    } else if (mask(keys)) {
      edits.push({ start: node.offset, end: node.offset + node.length });
    }
  };
  walk(root, []);
  return edits.length ? applyEdits(text, edits) : text;
}

/**
 * TOML text with every scalar value whose key path `mask` accepts replaced by `"••••••"` (table
 * headers `[a.b]` / `[[a.b]]`, dotted keys and inline tables all extend the path; array positions
 * do not), keys, comments and line numbers kept. A small scanner of TOML 1.0 syntax (basic, literal
 * and multi-line strings, inline tables and arrays across lines as TOML 1.1 allows): smol-toml, the
 * parser the rest of Atrium uses, reports no positions. A line it cannot read is left as it is and
 * scanning resumes on the next line. Never throws.
 */
export function maskTomlValues(text: string, mask: MaskPredicate): string {
  const edits: Edit[] = [];
  const n = text.length;
  let i = 0;
  let table: string[] = [];

  const skipSpace = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  /** Spaces, newlines and comments (inside arrays and inline tables). */
  const skipBlank = () => {
    for (;;) {
      skipSpace();
      if (text[i] === '\n' || text[i] === '\r') i++;
      else if (text[i] === '#') while (i < n && text[i] !== '\n') i++;
      else return;
    }
  };
  const toLineEnd = () => {
    while (i < n && text[i] !== '\n') i++;
  };
  /** A string starting at `i` (any of the four kinds); returns its decoded value (escapes of basic strings decoded), or null when it does not close. */
  const readString = (): string | null => {
    const q = text[i];
    const triple = text.startsWith(q.repeat(3), i);
    const close = triple ? q.repeat(3) : q;
    let j = i + close.length;
    let value = '';
    while (j < n) {
      if (text.startsWith(close, j)) {
        // `""""` ends a multi-line string with one quote inside it
        let end = j + close.length;
        if (triple) while (text[end] === q && end - j < 5) end++;
        value += text.slice(j, end - close.length);
        i = end;
        return value;
      }
      if (!triple && text[j] === '\n') return null;
      if (q === '"' && text[j] === '\\') {
        const c = text[j + 1];
        const hex = c === 'u' ? 4 : c === 'U' ? 8 : 0;
        if (hex) {
          const code = parseInt(text.slice(j + 2, j + 2 + hex), 16);
          value += Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
          j += 2 + hex;
        } else {
          value += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', e: '\x1b' } as Record<string, string>)[c] ?? c ?? '';
          j += 2;
        }
        continue;
      }
      value += text[j];
      j++;
    }
    return null;
  };
  /** A dotted key (`a."b c".'d'`); null when there is none at `i`. */
  const readKey = (): string[] | null => {
    const keys: string[] = [];
    for (;;) {
      skipSpace();
      if (text[i] === '"' || text[i] === "'") {
        const k = readString();
        if (k === null) return null;
        keys.push(k);
      } else {
        const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i, i + 256));
        if (!m) return null;
        keys.push(m[0]);
        i += m[0].length;
      }
      skipSpace();
      if (text[i] !== '.') return keys;
      i++;
    }
  };
  /** A value at `i` for key path `path`; false when it cannot be read. */
  const readValue = (path: string[], depth: number): boolean => {
    skipSpace();
    if (depth > 128) return false;
    const start = i;
    const c = text[i];
    if (c === '"' || c === "'") {
      if (readString() === null) {
        // an unclosed string still hides what follows it on the line
        i = start;
        toLineEnd();
        if (mask(path)) edits.push({ start, end: i });
        return false;
      }
      if (mask(path)) edits.push({ start, end: i });
      return true;
    }
    if (c === '[') {
      i++;
      for (;;) {
        skipBlank();
        if (text[i] === ']') return (i++, true);
        if (i >= n || !readValue(path, depth + 1)) return false;
        skipBlank();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') return false;
      }
    }
    if (c === '{') {
      i++;
      for (;;) {
        skipBlank();
        if (text[i] === '}') return (i++, true);
        const keys = readKey();
        if (!keys || text[i] !== '=') return false;
        i++;
        if (!readValue([...path, ...keys], depth + 1)) return false;
        skipBlank();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') return false;
      }
    }
    // number, boolean, date-time (which may hold one space): up to a delimiter
    while (i < n && !/[,\]}\n\r#]/.test(text[i])) i++;
    let end = i;
    while (end > start && /[ \t]/.test(text[end - 1])) end--;
    if (end === start) return false;
    if (mask(path)) edits.push({ start, end });
    return true;
  };

  while (i < n) {
    skipBlank();
    if (i >= n) break;
    const lineStart = i;
    if (text[i] === '[') {
      const array = text[i + 1] === '[';
      i += array ? 2 : 1;
      const keys = readKey();
      if (keys && text.startsWith(array ? ']]' : ']', i)) table = keys;
      toLineEnd();
      continue;
    }
    const keys = readKey();
    if (keys && text[i] === '=') {
      i++;
      if (readValue([...table, ...keys], 0)) {
        skipSpace();
        if (text[i] === '#' || text[i] === '\n' || text[i] === '\r' || i >= n) continue;
      }
    }
    if (i === lineStart) i++;
    toLineEnd();
  }
  return edits.length ? applyEdits(text, edits) : text;
}

/**
 * Markdown text whose leading YAML frontmatter (`---` … `---`, as skills, subagents and commands
 * carry it) has every scalar value whose key path `mask` accepts replaced by `"••••••"`; the body
 * and line numbers stay. Parsed with the `yaml` package (2.x, source ranges); aliases and merge
 * keys are not followed. Frontmatter that does not parse as YAML is masked from the first line
 * whose key `mask` accepts (`env:`, `headers:`) to its end, since its structure is unknown.
 * Never throws.
 */
export function maskFrontmatterValues(text: string, mask: MaskPredicate): string {
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(text);
  if (!open) return text;
  const start = open[0].length;
  const close = /^---[ \t]*\r?$/m.exec(text.slice(start));
  const end = close ? start + close.index : text.length;
  const yamlText = text.slice(start, end);
  const edits: Edit[] = [];
  try {
    const doc = parseDocument(yamlText, { keepSourceTokens: false, uniqueKeys: false });
    if (doc.errors.length) throw doc.errors[0];
    const walk = (node: unknown, keys: string[]) => {
      if (isMap(node)) {
        for (const pair of node.items) walk(pair.value, [...keys, String(isScalar(pair.key) ? pair.key.value : pair.key)]);
      } else if (isSeq(node)) {
        for (const item of node.items) walk(item, keys);
      } else if (isScalar(node) && node.range && mask(keys)) {
        edits.push({ start: start + node.range[0], end: start + node.range[1] });
      }
    };
    walk(doc.contents, []);
  } catch {
    const lines = yamlText.split('\n');
    let at = start;
    for (const line of lines) {
      const key = /^\s*["']?([^"':#\s]+)["']?\s*:/.exec(line);
      if (key && mask([key[1]])) {
        edits.push({ start: at + key[0].length, end });
        break;
      }
      at += line.length + 1;
    }
  }
  return edits.length ? applyEdits(text, edits) : text;
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
