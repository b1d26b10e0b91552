import { parseDocument } from 'yaml';

/** Result of {@link parseFrontmatter}. */
export interface Frontmatter {
  /** True when the file starts with a `---` block (after an optional BOM). */
  present: boolean;
  /**
   * Frontmatter keys. When the YAML is invalid this holds what a lenient `key: value` line reader
   * recovered (the way Cursor and Gemini CLI read such files), so names and descriptions still show.
   */
  data: Record<string, unknown>;
  /** Text after the frontmatter (the whole text when there is none), BOM removed. */
  body: string;
  /** 1-based line of the file on which `body` starts. */
  bodyLine: number;
  /** The YAML problem, with the file line it is on, or null. */
  error: { line: number; message: string; fix: string } | null;
  /** True when the file starts with a UTF-8 byte order mark. */
  bom: boolean;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*\r?$/m;

/**
 * Splits a Markdown file into YAML frontmatter and body (the format of Claude Code rules, skills,
 * commands, subagents and output styles, Cursor `.mdc` rules and Copilot `.instructions.md`,
 * formats.md §2–3, §6). Never throws: invalid YAML yields `error` with the file line and a fix.
 */
export function parseFrontmatter(text: string): Frontmatter {
  const bom = text.charCodeAt(0) === 0xfeff;
  const src = bom ? text.slice(1) : text;
  const open = OPEN.exec(src);
  if (!open) return { present: false, data: {}, body: src, bodyLine: 1, error: null, bom };
  const rest = src.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) {
    return {
      present: true,
      data: lenient(rest),
      body: '',
      bodyLine: 1,
      error: { line: 1, message: 'the frontmatter opened with --- is never closed', fix: 'Add a line with only --- after the last frontmatter key.' },
      bom,
    };
  }
  const yamlText = rest.slice(0, close.index);
  const afterClose = rest.slice(close.index + close[0].length).replace(/^\r?\n/, '');
  const yamlLines = yamlText.split('\n').length - (yamlText.endsWith('\n') ? 1 : 0);
  const bodyLine = 2 + yamlLines + 1;
  const doc = parseDocument(yamlText, { prettyErrors: true, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    const yamlLine = err.linePos?.[0]?.line ?? 1;
    const fileLine = yamlLine + 1;
    const sourceLine = yamlText.split('\n')[yamlLine - 1] ?? '';
    return {
      present: true,
      data: lenient(yamlText),
      body: afterClose,
      bodyLine,
      error: { line: fileLine, message: `frontmatter is not valid YAML: ${firstLine(err.message)}`, fix: yamlFix(sourceLine) },
      bom,
    };
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
    return {
      present: true,
      data: lenient(yamlText),
      body: afterClose,
      bodyLine,
      error: { line: (index === -1 ? 0 : index) + 2, message: `frontmatter is not valid YAML: ${firstLine(message)}`, fix: yamlFix(lines[index] ?? '') },
      bom,
    };
  }
  if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value))) {
    return {
      present: true,
      data: {},
      body: afterClose,
      bodyLine,
      error: { line: 2, message: 'frontmatter is not a list of key: value pairs', fix: 'Write one "key: value" per line between the --- lines.' },
      bom,
    };
  }
  return { present: true, data: (value as Record<string, unknown> | null) ?? {}, body: afterClose, bodyLine, error: null, bom };
}

/** Reads `key: value` lines the forgiving way (value = raw text after the first colon). */
function lenient(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z0-9_-]+)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (m && !Object.hasOwn(out, m[1])) {
      Object.defineProperty(out, m[1], { value: unquote(m[2].trim()), enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}

function unquote(v: string): string {
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
