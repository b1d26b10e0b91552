import { printParseErrorCode, visit } from 'jsonc-parser';

/** jsonc-parser's error names (its `ParseErrorCode` is a `const enum`, which isolated modules cannot read). */
type ErrorName = ReturnType<typeof printParseErrorCode>;

/**
 * JSON / JSONC reading that reports where things are: the 1-based line and column of the first
 * syntax error (V8's `JSON.parse` messages carry neither reliably under Node 20), with a message
 * and a fix written for a person, and the line each object or array starts on, so review items
 * can point at their definition. Tokenising and recovery are jsonc-parser 3.3.1's `visit`; this
 * file only builds the value and words the first error from where the parser stood.
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
  /** 1-based line of the error. */
  line: number;
  /** 1-based column (UTF-16 code units, a leading BOM counted) of the error. */
  column: number;
  message: string;
  fix: string;
}

/** Options for {@link parseJsonText}. */
export interface JsonParseOptions {
  /**
   * Accept `//` and `/* *\/` comments and trailing commas (JSON with comments: VS Code `mcp.json`,
   * Gemini `settings.json` and `trustedFolders.json` allow them). Default false: plain JSON as
   * `JSON.parse` reads it.
   */
  jsonc?: boolean;
}

/** Containers nested deeper than this are an error (the parser recurses; this keeps it far from the stack limit). */
const MAX_DEPTH = 256;

/** Where the parser stood in a container: what it expected next. */
type Expect = 'key' | 'colon' | 'value' | 'afterValue';

interface Frame {
  kind: 'object' | 'array';
  value: Record<string, unknown> | unknown[];
  expect: Expect;
  /** Last property name read (objects). */
  key: string;
}

/** Thrown from a visitor callback to stop `visit` at the first error. */
class Stop {
  constructor(
    readonly index: number,
    readonly message: string,
    readonly fix: string,
  ) {}
}

/**
 * Parses `text` as JSON (or, with `jsonc`, JSON with comments). A leading UTF-8 BOM is skipped,
 * and positions still count it, as an editor shows them. Values are what `JSON.parse` returns: the
 * last of repeated keys wins, and a `"__proto__"` key is an own property, never the prototype.
 * Never throws; nesting deeper than 256 containers is an error.
 */
export function parseJsonText(text: string, options: JsonParseOptions = {}): JsonOk | JsonError {
  const jsonc = Boolean(options.jsonc);
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const shift = src.length === text.length ? 0 : 1;
  const lineStarts = computeLineStarts(text);
  const lines = new WeakMap<object, number>();
  const stack: Frame[] = [];
  let root: unknown;
  let rootDone = false;
  let lastEnded: Frame | null = null;

  const top = (): Frame | undefined => stack[stack.length - 1];
  const tooDeep = (offset: number): Stop => new Stop(offset, 'nesting is too deep', 'Flatten the structure.');
  const put = (value: unknown, offset: number): void => {
    if (stack.length > MAX_DEPTH) throw tooDeep(offset);
    const frame = top();
    if (!frame) {
      root = value;
      rootDone = true;
    } else if (frame.kind === 'object') {
      Object.defineProperty(frame.value, frame.key, { value, enumerable: true, writable: true, configurable: true });
      frame.expect = 'afterValue';
    } else {
      (frame.value as unknown[]).push(value);
      frame.expect = 'afterValue';
    }
  };
  const begin = (value: Record<string, unknown> | unknown[], kind: Frame['kind'], offset: number): void => {
    lines.set(value, positionOf(lineStarts, offset + shift).line);
    put(value, offset);
    stack.push({ kind, value, expect: kind === 'object' ? 'key' : 'value', key: '' });
  };

  try {
    visit(
      src,
      {
        onObjectBegin: (offset) => begin({}, 'object', offset),
        onArrayBegin: (offset) => begin([], 'array', offset),
        onObjectEnd: () => void (lastEnded = stack.pop() ?? null),
        onArrayEnd: () => void (lastEnded = stack.pop() ?? null),
        onObjectProperty: (key) => {
          const frame = top();
          if (!frame) return;
          frame.key = key;
          frame.expect = 'colon';
        },
        onSeparator: (sep) => {
          const frame = top();
          if (!frame) return;
          if (sep === ':') frame.expect = 'value';
          else frame.expect = frame.kind === 'object' ? 'key' : 'value';
        },
        onLiteralValue: (value, offset) => put(value, offset),
        onError: (code, offset, length) => {
          const name = printParseErrorCode(code);
          const closing = name === 'CloseBraceExpected' || name === 'CloseBracketExpected';
          const frame = closing ? lastEnded : (top() ?? null);
          // the hand-off point of a value one level too deep, whatever stands there
          if (frame?.expect === 'value' && stack.length + (closing ? 1 : 0) > MAX_DEPTH) throw tooDeep(offset);
          throw describeError(src, name, offset, length, frame, rootDone, jsonc);
        },
      },
      { disallowComments: !jsonc, allowTrailingComma: jsonc, allowEmptyContent: false },
    );
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const pos = positionOf(lineStarts, Math.min(error.index, src.length) + shift);
    return { ok: false, line: pos.line, column: pos.column, message: error.message, fix: error.fix };
  }
  return {
    ok: true,
    value: root,
    lineOf: (node) => (typeof node === 'object' && node !== null ? (lines.get(node) ?? null) : null),
  };
}

const STRING_ERRORS = new Set<ErrorName>(['UnexpectedEndOfString', 'InvalidCharacter', 'InvalidEscapeCharacter', 'InvalidUnicode']);
const NUMBER_ERRORS = new Set<ErrorName>(['InvalidNumberFormat', 'UnexpectedEndOfNumber']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Words jsonc-parser's first error `code` at `offset` (a token `length` long) from what the parser
 * expected there. The scanner reports a bad token while looking ahead, before the parser asks
 * whether a token may stand there at all; the error a reader needs is the parser's (a string where
 * a comma belongs is a missing comma, whatever is inside the string), so token errors count only
 * where a value (or, for strings, a property name) may start. A word the scanner reads as one
 * unknown token (`truex`) is a complete `true` followed by something unexpected.
 */
function describeError(s: string, code: ErrorName, offset: number, length: number, frame: Frame | null, rootDone: boolean, jsonc: boolean): Stop {
  if (code === 'InvalidCommentToken') return new Stop(offset, 'comments are not allowed in JSON', 'Remove the comment (this file must be plain JSON).');
  if (code === 'UnexpectedEndOfComment') {
    return jsonc ? new Stop(offset, 'unterminated /* comment', 'Close the comment with */.') : new Stop(offset, 'comments are not allowed in JSON', 'Remove the comment (this file must be plain JSON).');
  }
  const tokenError = STRING_ERRORS.has(code) || NUMBER_ERRORS.has(code) || code === 'InvalidSymbol';
  if (!tokenError) return unexpected(s, offset, frame, rootDone);
  const expect: Expect | 'done' = frame ? frame.expect : rootDone ? 'done' : 'value';
  if (expect === 'key' && STRING_ERRORS.has(code) && s[offset] === '"') return stringProblem(s, offset);
  if (expect !== 'value') return unexpected(s, offset, frame, rootDone);
  if (STRING_ERRORS.has(code)) return stringProblem(s, offset);
  let complete = 0;
  if (NUMBER_ERRORS.has(code)) {
    NUMBER.lastIndex = offset;
    complete = NUMBER.exec(s)?.[0].length ?? 0;
    if (complete === 0) return invalidNumber(offset);
  } else {
    complete = /^(?:true|false|null)/.exec(s.slice(offset, offset + length))?.[0].length ?? 0;
    if (complete === 0) return valueExpected(s, offset);
  }
  return unexpected(s, offset + complete, frame ? { ...frame, expect: 'afterValue' } : null, true);
}

/** The error for the token at `offset` when the parser expected what `frame` (or the document) says. */
function unexpected(s: string, offset: number, frame: Frame | null, rootDone: boolean): Stop {
  const found = describe(s, offset);
  const c = s[offset];
  if (!frame) {
    if (rootDone) return new Stop(offset, `unexpected ${found} after the end of the JSON value`, 'Remove the extra text, or wrap several values in an array or object.');
    if (c === undefined) return new Stop(offset, 'the file is empty', 'Write a JSON value, e.g. {}.');
    return valueExpected(s, offset);
  }
  if (frame.kind === 'object') {
    switch (frame.expect) {
      case 'key':
        if (c === '}') return new Stop(offset, 'trailing comma before }', 'Remove the comma after the last property.');
        return new Stop(offset, `expected a "quoted" property name, found ${found}`, 'Put property names in double quotes, e.g. "name": value.');
      case 'colon':
        return new Stop(offset, `expected ':' after property name "${frame.key}", found ${found}`, `Write "${frame.key}": value.`);
      case 'value':
        return valueExpected(s, offset);
      case 'afterValue':
        return new Stop(offset, `expected ',' or '}' after the value of "${frame.key}", found ${found}`, 'Add a comma between properties, or close the object with }.');
    }
  }
  if (frame.expect === 'afterValue') return new Stop(offset, `expected ',' or ']' in the array, found ${found}`, 'Add a comma between elements, or close the array with ].');
  if (c === ']') return new Stop(offset, 'trailing comma before ]', 'Remove the comma after the last element.');
  return valueExpected(s, offset);
}

function valueExpected(s: string, offset: number): Stop {
  const c = s[offset];
  if (c === "'") return new Stop(offset, 'single-quoted string', 'Use double quotes (") around strings and keys.');
  if (c === undefined) return new Stop(offset, 'the file ends where a value was expected', 'Complete the value or remove the dangling comma or colon.');
  if (c === '-') return invalidNumber(offset);
  return new Stop(offset, `unexpected ${describe(s, offset)} where a value was expected`, 'Write a value here: a "string", a number, true, false, null, an object or an array.');
}

function invalidNumber(offset: number): Stop {
  return new Stop(offset, 'invalid number', 'Write numbers like 10, -2.5 or 1e3 (no leading zeros, no trailing dot).');
}

/** The first problem in the string token whose opening quote is at `start`, as `JSON.parse` meets it. */
function stringProblem(s: string, start: number): Stop {
  for (let i = start + 1; i < s.length; i++) {
    const c = s[i];
    if (c === '"') break;
    if (c === '\\') {
      const e = s[i + 1];
      if (e !== undefined && '"\\/bfnrt'.includes(e)) {
        i++;
        continue;
      }
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
        i += 5;
        continue;
      }
      return new Stop(i, 'invalid escape sequence in a string', 'Write a backslash as \\\\; valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX.');
    }
    if (c.charCodeAt(0) < 0x20) {
      return new Stop(i, c === '\n' ? 'line break inside a string' : 'control character inside a string', 'Close the string on the same line, or write the line break as \\n.');
    }
  }
  return new Stop(start, 'unterminated string', 'Close the string with a double quote (").');
}

function describe(s: string, offset: number): string {
  const c = s[offset];
  if (c === undefined) return 'the end of the file';
  if (c === '\n' || c === '\r') return 'a line break';
  return `'${c}'`;
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of `index` in the text whose line starts are `lineStarts`. */
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
