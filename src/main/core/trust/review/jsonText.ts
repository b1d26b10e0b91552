/**
 * A small JSON / JSONC parser that reports where things are: the 1-based line and column of a
 * syntax error (V8's `JSON.parse` messages carry neither reliably under Node 20) and the line each
 * object or array starts on, so review items can point at their definition. JSONC mode accepts
 * `//` and `/* *\/` comments and trailing commas (VS Code `mcp.json`, Gemini `settings.json` and
 * `trustedFolders.json` allow them). Never throws; depth is capped at 256.
 */

/** A parsed document. */
export interface JsonOk {
  ok: true;
  value: unknown;
  /** 1-based line on which an object or array of this document starts, or null for other values. */
  lineOf(node: unknown): number | null;
}

/** A syntax error with its position and a fix written for a person. */
export interface JsonError {
  ok: false;
  line: number;
  column: number;
  message: string;
  fix: string;
}

/** Options for {@link parseJsonText}. */
export interface JsonParseOptions {
  /** Accept comments and trailing commas (JSON with comments). Default false. */
  jsonc?: boolean;
}

const MAX_DEPTH = 256;

class JsonSyntaxError extends Error {
  constructor(
    readonly index: number,
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

/** Parses `text` (a leading UTF-8 BOM is skipped). */
export function parseJsonText(text: string, options: JsonParseOptions = {}): JsonOk | JsonError {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const offset = src.length === text.length ? 0 : 1;
  const lines = new WeakMap<object, number>();
  const lineStarts = computeLineStarts(text);
  const lineAt = (index: number) => positionOf(lineStarts, index + offset).line;
  const parser = new Parser(src, Boolean(options.jsonc), (node, index) => lines.set(node, lineAt(index)));
  try {
    const value = parser.parseDocument();
    return {
      ok: true,
      value,
      lineOf: (node) => (typeof node === 'object' && node !== null ? (lines.get(node) ?? null) : null),
    };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const pos = positionOf(lineStarts, Math.min(error.index, src.length) + offset);
    return { ok: false, line: pos.line, column: pos.column, message: error.message, fix: error.fix };
  }
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function positionOf(lineStarts: number[], index: number): { line: number; column: number } {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: index - lineStarts[lo] + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Parser {
  private i = 0;

  constructor(
    private readonly s: string,
    private readonly jsonc: boolean,
    private readonly mark: (node: object, index: number) => void,
  ) {}

  parseDocument(): unknown {
    this.ws();
    if (this.i >= this.s.length) throw new JsonSyntaxError(this.i, 'the file is empty', 'Write a JSON value, e.g. {}.');
    const value = this.value(0);
    this.ws();
    if (this.i < this.s.length) {
      throw new JsonSyntaxError(this.i, `unexpected ${this.describe()} after the end of the JSON value`, 'Remove the extra text, or wrap several values in an array or object.');
    }
    return value;
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(this.i, 'nesting is too deep', 'Flatten the structure.');
    const c = this.s[this.i];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, val] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return val;
      }
    }
    if (c === "'") throw new JsonSyntaxError(this.i, 'single-quoted string', 'Use double quotes (") around strings and keys.');
    if (c === undefined) throw new JsonSyntaxError(this.i, 'the file ends where a value was expected', 'Complete the value or remove the dangling comma or colon.');
    throw new JsonSyntaxError(this.i, `unexpected ${this.describe()} where a value was expected`, 'Write a value here: a "string", a number, true, false, null, an object or an array.');
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.mark(out, this.i);
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') {
        if (this.s[this.i] === '}' && this.jsonc) {
          this.i++;
          return out;
        }
        if (this.s[this.i] === '}') throw new JsonSyntaxError(this.i, 'trailing comma before }', 'Remove the comma after the last property.');
        throw new JsonSyntaxError(this.i, `expected a "quoted" property name, found ${this.describe()}`, 'Put property names in double quotes, e.g. "name": value.');
      }
      const key = this.string();
      this.ws();
      if (this.s[this.i] !== ':') throw new JsonSyntaxError(this.i, `expected ':' after property name "${key}", found ${this.describe()}`, `Write "${key}": value.`);
      this.i++;
      this.ws();
      const value = this.value(depth + 1);
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === '}') {
        this.i++;
        return out;
      }
      throw new JsonSyntaxError(this.i, `expected ',' or '}' after the value of "${key}", found ${this.describe()}`, 'Add a comma between properties, or close the object with }.');
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.mark(out, this.i);
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.s[this.i] === ']') {
        if (this.jsonc) {
          this.i++;
          return out;
        }
        throw new JsonSyntaxError(this.i, 'trailing comma before ]', 'Remove the comma after the last element.');
      }
      out.push(this.value(depth + 1));
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === ']') {
        this.i++;
        return out;
      }
      throw new JsonSyntaxError(this.i, `expected ',' or ']' in the array, found ${this.describe()}`, 'Add a comma between elements, or close the array with ].');
    }
  }

  private string(): string {
    const start = this.i;
    this.i++;
    let out = '';
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) throw new JsonSyntaxError(start, 'unterminated string', 'Close the string with a double quote (").');
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c === '\\') {
        const e = this.s[this.i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          this.i += 2;
          continue;
        }
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.s.slice(this.i + 2, this.i + 6))) {
          out += String.fromCharCode(parseInt(this.s.slice(this.i + 2, this.i + 6), 16));
          this.i += 6;
          continue;
        }
        throw new JsonSyntaxError(this.i, 'invalid escape sequence in a string', 'Write a backslash as \\\\; valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX.');
      }
      if (c.charCodeAt(0) < 0x20) {
        throw new JsonSyntaxError(this.i, c === '\n' ? 'line break inside a string' : 'control character inside a string', 'Close the string on the same line, or write the line break as \\n.');
      }
      out += c;
      this.i++;
    }
  }

  private number(): number {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    if (!m || m[0] === '-') throw new JsonSyntaxError(this.i, 'invalid number', 'Write numbers like 10, -2.5 or 1e3 (no leading zeros, no trailing dot).');
    this.i += m[0].length;
    return Number(m[0]);
  }

  private ws(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        this.i++;
        continue;
      }
      if (c === '/' && (this.s[this.i + 1] === '/' || this.s[this.i + 1] === '*')) {
        if (!this.jsonc) throw new JsonSyntaxError(this.i, 'comments are not allowed in JSON', 'Remove the comment (this file must be plain JSON).');
        if (this.s[this.i + 1] === '/') {
          const end = this.s.indexOf('\n', this.i);
          this.i = end === -1 ? this.s.length : end + 1;
        } else {
          const end = this.s.indexOf('*/', this.i + 2);
          if (end === -1) throw new JsonSyntaxError(this.i, 'unterminated /* comment', 'Close the comment with */.');
          this.i = end + 2;
        }
        continue;
      }
      return;
    }
  }

  private describe(): string {
    const c = this.s[this.i];
    if (c === undefined) return 'the end of the file';
    if (c === '\n' || c === '\r') return 'a line break';
    return `'${c}'`;
  }
}
