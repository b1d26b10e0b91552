import YAML from 'yaml';
import type { RuleFrontmatter, RuleWarning } from './types';
import { warning } from './warnings';

/** Result of {@link splitFrontmatter}. */
export interface FrontmatterSplit {
  frontmatter: RuleFrontmatter | null;
  /** Text after the closing fence (untrimmed), or the whole text when there is no frontmatter. */
  body: string;
  /** 1-based line of the first body line. */
  bodyLine: number;
  /** 1-based line of a top-level key in the file, or null. */
  lineOf(key: string): number | null;
  warnings: RuleWarning[];
}

const FENCE = /^---[ \t]*$/;
const TOP_LEVEL_KEY = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/;
const LIST_ITEM = /^([ \t]*)-[ \t]+(.*?)[ \t]*$/;

/**
 * Separates YAML frontmatter from the body (text already normalised: no BOM, LF) and parses it
 * with the `yaml` package. Tolerant, per formats.md §6.4: when strict YAML fails, plain values
 * that YAML rejects (a value starting with `*` such as PlatformPlatform's unquoted
 * `paths: **\/*.tsx,**\/*.ts`, or containing `: ` such as `description: Use when: x`) are quoted
 * and the YAML is parsed again; if that still fails, top-level `key: value` lines (and `- item`
 * lists under an empty key) are read one by one. Every leniency becomes a warning with the line
 * and the fix. A `---` line without a closing fence is treated as body with a warning. Never throws.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const lines = text.split('\n');
  const noFrontmatter = (warnings: RuleWarning[] = []): FrontmatterSplit => ({ frontmatter: null, body: text, bodyLine: 1, lineOf: () => null, warnings });
  if (lines.length === 0 || !FENCE.test(lines[0])) return noFrontmatter();
  const close = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (close < 0) {
    return noFrontmatter([
      warning('frontmatter-unclosed', 'warning', 'The file starts with "---" but has no closing "---" line, so it is read as plain text.', 1, 'Add a "---" line after the frontmatter, or remove the first line.'),
    ]);
  }
  const yamlLines = lines.slice(1, close);
  const raw = yamlLines.join('\n');
  const lineOf = (key: string): number | null => {
    const index = yamlLines.findIndex((line) => TOP_LEVEL_KEY.exec(line)?.[1] === key);
    return index < 0 ? null : index + 2;
  };
  const { data, mode, warnings } = parseYamlTolerantly(yamlLines);
  return {
    frontmatter: Object.freeze({ raw, data: Object.freeze(data), mode }),
    body: lines.slice(close + 1).join('\n'),
    bodyLine: close + 2,
    lineOf,
    warnings,
  };
}

function parseYamlTolerantly(yamlLines: string[]): { data: Record<string, unknown>; mode: RuleFrontmatter['mode']; warnings: RuleWarning[] } {
  const simple = parseSimpleMapping(yamlLines);
  if (simple) return simple;
  const strict = parseMapping(yamlLines.join('\n'));
  if (strict.ok) return { data: strict.data, mode: 'yaml', warnings: strict.warnings };

  const warnings: RuleWarning[] = [];
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
        'warning',
        `The frontmatter is not valid YAML (${strict.message}); Atrium read its "key: value" lines one by one. Agents with a strict parser may ignore the whole frontmatter.`,
        strict.line === null ? null : strict.line + 1,
        'Fix the YAML syntax: quote values that contain ": " or start with "*", "&", "!", "@" or a backtick.',
      ),
    ],
  };
}

type MappingResult = { ok: true; data: Record<string, unknown>; warnings: RuleWarning[] } | { ok: false; message: string; line: number | null };

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
        warnings: [warning('frontmatter-not-mapping', 'warning', 'The frontmatter is not a "key: value" mapping, so it is ignored.', 2, 'Write the frontmatter as "key: value" lines.')],
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

function repairWarning(fixed: RepairedLine, line: number): RuleWarning {
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
    'warning',
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
function parseSimpleMapping(yamlLines: string[]): { data: Record<string, unknown>; mode: RuleFrontmatter['mode']; warnings: RuleWarning[] } | null {
  const data: Record<string, unknown> = {};
  const warnings: RuleWarning[] = [];
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
function simpleScalar(raw: string, line: string, lineNo: number, warnings: RuleWarning[]): unknown {
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
