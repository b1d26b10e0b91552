import YAML from 'yaml';

/**
 * Markdown frontmatter: the YAML block between `---` fences at the top of Claude Code rules,
 * skills, commands, subagents and output styles, Cursor `.mdc` rules and Copilot
 * `.instructions.md`. One splitter for every reader; what differs between them is only how YAML
 * that the `yaml` package rejects is read ({@link FrontmatterOptions.invalidYaml}).
 */

/** A problem found while reading the frontmatter, with the file line (1-based) and a fix for a person. */
export interface FrontmatterWarning {
  /** Stable kind: `frontmatter-unclosed`, `-invalid`, `-not-mapping`, `-unquoted-glob`, `-unquoted-colon`, `-unquoted-value`. */
  code: string;
  line: number | null;
  message: string;
  fix: string | null;
}

/** The frontmatter block of a file. */
export interface FrontmatterBlock {
  /** The YAML text between the fences. */
  readonly raw: string;
  /** Parsed mapping (after the lenient reading the warnings describe); `{}` when unusable. */
  readonly data: Readonly<Record<string, unknown>>;
  /** How it was read: strict YAML, YAML after quoting bad values, or line by line. */
  readonly mode: 'yaml' | 'repaired' | 'lines';
}

/** Result of {@link splitFrontmatter}. */
export interface FrontmatterSplit {
  /** The block, or null when the file has none (or, with `invalidYaml: 'repair'`, an unclosed one). */
  frontmatter: FrontmatterBlock | null;
  /** Text after the closing fence (untrimmed), or the whole text when there is no frontmatter; BOM removed. */
  body: string;
  /** 1-based line of the first body line. */
  bodyLine: number;
  /** 1-based line of a top-level key in the file, or null. */
  lineOf(key: string): number | null;
  /**
   * The text the author wrote for a top-level key's value, as in the file (see {@link valueSource}):
   * `[topic: foo | bar]` for a value YAML reads as a list holding a mapping, `1.50` for one it reads
   * as the number 1.5, `~` for null; '' for a key with no value; null when the key is absent.
   */
  sourceOf(key: string): string | null;
  warnings: FrontmatterWarning[];
  /** True when the text started with a UTF-8 byte order mark (which is skipped). */
  bom: boolean;
}

/** Options for {@link splitFrontmatter}. */
export interface FrontmatterOptions {
  /**
   * How YAML the `yaml` package rejects is read.
   * - `'repair'` (default; the rule catalog and the extensions bundle): plain values YAML rejects
   *   (a value starting with `*` such as PlatformPlatform's unquoted `paths: **\/*.tsx,**\/*.ts`, or
   *   containing `: ` such as `description: Use when: x`) are quoted and the YAML parsed again; if
   *   that still fails, top-level `key: value` lines (and `- item` lists under an empty key) are read
   *   one by one; repeated keys are an error. Every leniency is a warning. A `---` first line
   *   without a closing fence makes the whole file body, with a warning.
   * - `'report'` (the trust review of instruction files): YAML as the `yaml` package reads it
   *   (repeated keys allowed); on an error, one `frontmatter-invalid` warning naming the YAML
   *   problem and the data of a forgiving `key: value` line reader (first occurrence wins, values
   *   are the raw text), the way Cursor and Gemini CLI read such files. An unclosed block is still
   *   frontmatter (read by that line reader), with an empty body; the opening fence must be followed
   *   by a line.
   */
  invalidYaml?: 'repair' | 'report';
}

/** A fence line (`---`, trailing blanks and a CR allowed). */
const FENCE = /^---[ \t]*\r?$/;
const TOP_LEVEL_KEY = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/;
const LIST_ITEM = /^([ \t]*)-[ \t]+(.*?)[ \t]*$/;

/**
 * Separates YAML frontmatter from the body and parses it with the `yaml` package, reading invalid
 * YAML as `options.invalidYaml` says. A leading BOM is skipped; LF or CRLF line ends. Never throws.
 */
export function splitFrontmatter(text: string, options: FrontmatterOptions = {}): FrontmatterSplit {
  const report = options.invalidYaml === 'report';
  const bom = text.charCodeAt(0) === 0xfeff;
  const src = bom ? text.slice(1) : text;
  const lines = src.split('\n');
  const noFrontmatter = (warnings: FrontmatterWarning[] = []): FrontmatterSplit => ({ frontmatter: null, body: src, bodyLine: 1, lineOf: () => null, sourceOf: () => null, warnings, bom });
  if (!FENCE.test(lines[0]) || (report && lines.length === 1)) return noFrontmatter();
  const close = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (close < 0) {
    if (!report) {
      return noFrontmatter([
        {
          code: 'frontmatter-unclosed',
          line: 1,
          message: 'The file starts with "---" but has no closing "---" line, so it is read as plain text.',
          fix: 'Add a "---" line after the frontmatter, or remove the first line.',
        },
      ]);
    }
    const rest = lines.slice(1).join('\n');
    return {
      frontmatter: Object.freeze({ raw: rest, data: Object.freeze(lenient(rest)), mode: 'lines' as const }),
      body: '',
      bodyLine: 1,
      lineOf: () => null,
      sourceOf: (key) => valueSource(rest, key),
      warnings: [{ code: 'frontmatter-unclosed', line: 1, message: 'the frontmatter opened with --- is never closed', fix: 'Add a line with only --- after the last frontmatter key.' }],
      bom,
    };
  }
  const yamlLines = lines.slice(1, close);
  const raw = yamlLines.join('\n');
  const lineOf = (key: string): number | null => {
    const index = yamlLines.findIndex((line) => TOP_LEVEL_KEY.exec(line)?.[1] === key);
    return index < 0 ? null : index + 2;
  };
  const { data, mode, warnings } = report ? parseYamlReporting(yamlLines.length ? `${raw}\n` : '') : parseYamlTolerantly(yamlLines);
  return {
    frontmatter: Object.freeze({ raw, data: Object.freeze(data), mode }),
    body: lines.slice(close + 1).join('\n'),
    bodyLine: close + 2,
    lineOf,
    sourceOf: (key) => valueSource(raw, key),
    warnings,
    bom,
  };
}

/**
 * The author's text of top-level `key`'s value in the YAML `text` of a frontmatter block, on one
 * line: the source range of the value node the `yaml` package parsed (comments excluded; a value
 * spanning lines has them trimmed and joined by one space). When the YAML does not parse, the text
 * after `key:` on its line. '' for a key without a value, null for an absent key. Readers use it to
 * show a value documented as text the way it was written when YAML reads it as something else.
 */
export function valueSource(text: string, key: string): string | null {
  const oneLine = (value: string) =>
    value
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' ');
  const doc = YAML.parseDocument(text, { uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length === 0 && YAML.isMap(doc.contents)) {
    // the last pair wins, as in the parsed data
    const pair = doc.contents.items.findLast((p) => YAML.isScalar(p.key) && p.key.value === key);
    if (!pair) return null;
    const node = pair.value as YAML.Node | null;
    return node?.range ? oneLine(text.slice(node.range[0], node.range[1])) : '';
  }
  for (const line of text.split('\n')) {
    const m = TOP_LEVEL_KEY.exec(line);
    if (m?.[1] === key) return (m[2] ?? '').trim();
  }
  return null;
}

interface ParsedYaml {
  data: Record<string, unknown>;
  mode: FrontmatterBlock['mode'];
  warnings: FrontmatterWarning[];
}

/** Parses warning-free YAML with the `yaml` package; on a problem, one warning and the forgiving line reader's data. */
function parseYamlReporting(yamlText: string): ParsedYaml {
  const invalid = (line: number, message: string, sourceLine: string): ParsedYaml => ({
    data: lenient(yamlText),
    mode: 'lines',
    warnings: [{ code: 'frontmatter-invalid', line, message: `frontmatter is not valid YAML: ${firstLine(message)}`, fix: yamlFix(sourceLine) }],
  });
  const doc = YAML.parseDocument(yamlText, { prettyErrors: true, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    const yamlLine = err.linePos?.[0]?.line ?? 1;
    return invalid(yamlLine + 1, err.message, yamlText.split('\n')[yamlLine - 1] ?? '');
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 50 });
  } catch (error) {
    // e.g. an unquoted `*glob` read as an alias to an anchor that does not exist
    const message = error instanceof Error ? error.message : String(error);
    const lines = yamlText.split('\n');
    const alias = /\):\s*(.+)$/.exec(message)?.[1]?.trim();
    const index = alias ? lines.findIndex((l) => l.includes(alias)) : -1;
    return invalid((index === -1 ? 0 : index) + 2, message, lines[index] ?? '');
  }
  if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value))) {
    return { data: {}, mode: 'yaml', warnings: [{ code: 'frontmatter-not-mapping', line: 2, message: 'frontmatter is not a list of key: value pairs', fix: 'Write one "key: value" per line between the --- lines.' }] };
  }
  return { data: (value as Record<string, unknown> | null) ?? {}, mode: 'yaml', warnings: [] };
}

function warning(code: string, message: string, line: number | null, fix: string): FrontmatterWarning {
  return { code, line, message, fix };
}

/** The `'repair'` reading (see {@link FrontmatterOptions.invalidYaml}). */
function parseYamlTolerantly(yamlLines: string[]): ParsedYaml {
  const simple = parseSimpleMapping(yamlLines);
  if (simple) return simple;
  const strict = parseMapping(yamlLines.join('\n'));
  if (strict.ok) return { data: strict.data, mode: 'yaml', warnings: strict.warnings };

  const warnings: FrontmatterWarning[] = [];
  const repaired = yamlLines.map((line, i) => {
    const fixed = repairLine(line);
    if (!fixed) return line;
    warnings.push(repairWarning(fixed, i + 2));
    return fixed.line;
  });
  if (warnings.length > 0) {
    const second = parseMapping(repaired.join('\n'));
    if (second.ok) return { data: second.data, mode: 'repaired', warnings: [...warnings, ...second.warnings] };
  }
  const data = parseLines(yamlLines);
  return {
    data,
    mode: 'lines',
    warnings: [
      warning(
        'frontmatter-invalid',
        `The frontmatter is not valid YAML (${strict.message}); Atrium read its "key: value" lines one by one. Agents with a strict parser may ignore the whole frontmatter.`,
        strict.line === null ? null : strict.line + 1,
        'Fix the YAML syntax: quote values that contain ": " or start with "*", "&", "!", "@" or a backtick.',
      ),
    ],
  };
}

type MappingResult = { ok: true; data: Record<string, unknown>; warnings: FrontmatterWarning[] } | { ok: false; message: string; line: number | null };

function parseMapping(source: string): MappingResult {
  if (source.trim() === '') return { ok: true, data: {}, warnings: [] };
  try {
    const doc = YAML.parseDocument(source, { prettyErrors: false, strict: true, uniqueKeys: true });
    if (doc.errors.length > 0) {
      const first = doc.errors[0];
      return { ok: false, message: first.message.split('\n')[0], line: first.linePos?.[0]?.line ?? null };
    }
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value === null || value === undefined) return { ok: true, data: {}, warnings: [] };
    if (typeof value !== 'object' || Array.isArray(value)) {
      return {
        ok: true,
        data: {},
        warnings: [warning('frontmatter-not-mapping', 'The frontmatter is not a "key: value" mapping, so it is ignored.', 2, 'Write the frontmatter as "key: value" lines.')],
      };
    }
    return { ok: true, data: value as Record<string, unknown>, warnings: [] };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message.split('\n')[0] : String(error), line: null };
  }
}

interface RepairedLine {
  line: string;
  key: string | null;
  value: string;
  why: 'alias' | 'colon' | 'indicator';
}

/** Quotes a plain scalar YAML rejects; returns null when the line is fine or not a simple value. */
function repairLine(line: string): RepairedLine | null {
  const keyMatch = TOP_LEVEL_KEY.exec(line);
  const listMatch = keyMatch ? null : LIST_ITEM.exec(line);
  const value = keyMatch ? keyMatch[2] : listMatch?.[2];
  if (!value) return null;
  if (/^["'[{|>#]/.test(value)) return null;
  let why: RepairedLine['why'] | null = null;
  if (value.startsWith('*') || value.startsWith('&')) why = 'alias';
  else if (/^[!%@`]/.test(value)) why = 'indicator';
  else if (/:(\s|$)/.test(value)) why = 'colon';
  if (!why) return null;
  const quoted = JSON.stringify(value);
  return keyMatch
    ? { line: `${keyMatch[1]}: ${quoted}`, key: keyMatch[1], value, why }
    : { line: `${listMatch![1]}- ${quoted}`, key: null, value, why };
}

function repairWarning(fixed: RepairedLine, line: number): FrontmatterWarning {
  const what = fixed.key ? `The value of "${fixed.key}"` : 'This list item';
  const reason =
    fixed.why === 'alias'
      ? `starts with "${fixed.value[0]}", which YAML reads as an ${fixed.value[0] === '*' ? 'alias' : 'anchor'}`
      : fixed.why === 'colon'
        ? 'contains ": ", which YAML reads as a nested mapping'
        : `starts with "${fixed.value[0]}", a reserved YAML indicator`;
  const code = fixed.why === 'alias' ? 'frontmatter-unquoted-glob' : fixed.why === 'colon' ? 'frontmatter-unquoted-colon' : 'frontmatter-unquoted-value';
  return warning(
    code,
    `${what} ${reason}, so strict YAML parsers reject the frontmatter. Atrium read it as the string ${JSON.stringify(fixed.value)}.`,
    line,
    `Quote it: ${fixed.line.trim()}`,
  );
}

/** Last-resort reader: top-level `key: value` lines; `- item` lines under an empty key form a list. */
function parseLines(yamlLines: string[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  let listKey: string | null = null;
  for (const line of yamlLines) {
    const keyMatch = TOP_LEVEL_KEY.exec(line);
    if (keyMatch) {
      const value = keyMatch[2] ?? '';
      listKey = value === '' ? keyMatch[1] : null;
      data[keyMatch[1]] = value === '' ? null : unquote(value);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item && listKey) {
      const current = data[listKey];
      data[listKey] = [...(Array.isArray(current) ? current : []), unquote(item[2])];
    }
  }
  return data;
}

function unquote(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) return value.slice(1, -1);
  return value;
}

const QUOTED_DOUBLE = /^"([^"\\]*)"$/;
const QUOTED_SINGLE = /^'([^']*)'$/;
const PLAIN_SAFE = /^[^\s\-?:,[\]{}#&*!|>'"%@`](?:[^:#]|:(?=\S)|#(?<=\S#))*$/;

/**
 * Fast path for the frontmatter nearly every rule file has: top-level `key: scalar` lines and
 * `key:` followed by `- scalar` items, scalars plain or simply quoted. Produces exactly what the
 * `yaml` package (YAML 1.2 core schema) and the repair step would, ten times faster; returns null
 * for anything else (nesting, flow collections, block scalars, escapes, duplicate keys…), which
 * then goes through the real parser.
 */
function parseSimpleMapping(yamlLines: string[]): { data: Record<string, unknown>; mode: FrontmatterBlock['mode']; warnings: FrontmatterWarning[] } | null {
  const data: Record<string, unknown> = {};
  const warnings: FrontmatterWarning[] = [];
  let listKey: string | null = null;
  for (let i = 0; i < yamlLines.length; i++) {
    const line = yamlLines[i];
    if (line.trim() === '' || /^#/.test(line)) continue;
    const keyMatch = TOP_LEVEL_KEY.exec(line);
    if (keyMatch) {
      const key = keyMatch[1];
      if (Object.hasOwn(data, key) || key === '__proto__') return null;
      const raw = keyMatch[2];
      if (raw === undefined || raw === '') {
        data[key] = null;
        listKey = key;
        continue;
      }
      listKey = null;
      const value = simpleScalar(raw, line, i + 2, warnings);
      if (value === undefined) return null;
      data[key] = value;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (!item || !listKey || item[1] === '') return null;
    const value = simpleScalar(item[2], line, i + 2, warnings);
    if (value === undefined) return null;
    const current = data[listKey];
    data[listKey] = Array.isArray(current) ? [...current, value] : [value];
  }
  return { data, mode: warnings.length ? 'repaired' : 'yaml', warnings };
}

/** A scalar as YAML 1.2 core schema reads it, or undefined when the fast path must not guess. */
function simpleScalar(raw: string, line: string, lineNo: number, warnings: FrontmatterWarning[]): unknown {
  const dq = QUOTED_DOUBLE.exec(raw);
  if (dq) return dq[1];
  const sq = QUOTED_SINGLE.exec(raw);
  if (sq) return sq[1];
  if (/^[*&]/.test(raw) && !/:(\s|$)|\s#/.test(raw)) {
    const fixed = repairLine(line);
    if (!fixed) return undefined;
    warnings.push(repairWarning(fixed, lineNo));
    return raw;
  }
  if (!PLAIN_SAFE.test(raw) || raw.endsWith(':')) return undefined;
  if (/^(?:null|Null|NULL|~)$/.test(raw)) return null;
  if (/^(?:true|True|TRUE)$/.test(raw)) return true;
  if (/^(?:false|False|FALSE)$/.test(raw)) return false;
  if (/^[-+]?[0-9]+$/.test(raw)) return Number(raw);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(raw)) return Number(raw);
  if (/^(?:0o|0x|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))/.test(raw)) return undefined;
  return raw;
}

/** The `'report'` mode's forgiving reader: `key: value` lines, value = raw text after the first colon (quotes removed), first occurrence wins. */
function lenient(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z0-9_-]+)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (m && !Object.hasOwn(out, m[1])) {
      Object.defineProperty(out, m[1], { value: unquoteLenient(m[2].trim()), enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}

function unquoteLenient(v: string): string {
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/\s+at line \d+, column \d+:?$/, '').trim();
}

function yamlFix(line: string): string {
  const m = /^\s*([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
  if (m) {
    const [, key, value] = m;
    if (/^[*&!%@`|>[{]/.test(value)) return `Quote the value: ${key}: '${value.replace(/'/g, "''")}' (YAML reads a leading ${value[0]} as syntax).`;
    if (/:\s/.test(value)) return `Quote the value because it contains ": ": ${key}: '${value.replace(/'/g, "''")}'`;
  }
  return 'Fix the YAML on that line; quote values that contain ": " or start with *, &, !, %, @, `, [ or {.';
}
