import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning } from '../../../shared/contract/extensions';
import { sha256Hex } from '../formats/digest';
import { splitFrontmatter } from '../formats/frontmatter';
import { decodeText, findHiddenControl } from '../formats/unicode';
import { directFileAccess, type FileReader } from '../files/scan';

/** Largest Markdown resource read (bytes); larger files are listed as invalid. */
export const MAX_RESOURCE_BYTES = 256 * 1024;

/** A Markdown resource file read and split (formats.md §6: BOM stripped, CRLF → LF, tolerant YAML). */
export interface MarkdownFile {
  /** Normalised text (no BOM, LF). */
  text: string;
  /** Hex SHA-256 of the normalised text: CRLF and BOM twins of one file have the same digest. */
  sha256: string;
  bytes: number;
  data: Record<string, unknown>;
  /** True when the file had a `---` frontmatter block. */
  hasFrontmatter: boolean;
  body: string;
  /** 1-based file line of the body's first line. */
  bodyLine: number;
  lineOf(key: string): number | null;
  /** The author's text of a top-level value (`formats/frontmatter.ts` `sourceOf`), or null when absent. */
  sourceOf(key: string): string | null;
  hadBom: boolean;
  hadCrlf: boolean;
  warnings: ExtensionWarning[];
}

/** Why a file could not be read: the warning to show. */
export interface ReadFailure {
  error: ExtensionWarning;
}

/**
 * Reads and parses a Markdown resource. Never throws: an unreadable, binary, non-UTF-8 or too large
 * file yields a {@link ReadFailure}. YAML problems (an unquoted `: ` in a description, a `*glob`)
 * are repaired where possible and reported as warnings with line and fix (`formats/frontmatter.ts`).
 * `shown` is the path used in warnings; `files` reads the bytes (a build's scan).
 */
export async function readMarkdown(absolute: string, shown: string, maxBytes = MAX_RESOURCE_BYTES, files: FileReader = directFileAccess): Promise<MarkdownFile | ReadFailure> {
  let bytes: Buffer;
  try {
    const st = await fs.stat(absolute);
    if (!st.isFile()) return { error: warn(shown, null, 'not a regular file', null) };
    if (st.size > maxBytes) return { error: warn(shown, null, `too large (${st.size} bytes; at most ${maxBytes} are read)`, 'Split the file or move long reference material into a supporting file.') };
    bytes = await files.readBytes(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { error: warn(shown, null, code === 'ENOENT' ? 'a symbolic link whose target does not exist' : `could not be read (${code ?? 'error'})`, code === 'ENOENT' ? 'Remove the link or restore its target.' : 'Check the file permissions.') };
  }
  return parseMarkdown(bytes, shown);
}

/** Parses Markdown bytes (see {@link readMarkdown}). Never throws. */
export function parseMarkdown(bytes: Uint8Array, shown: string): MarkdownFile | ReadFailure {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { error: warn(shown, null, decoded.message, 'Save the file as UTF-8 text.') };
  const split = splitFrontmatter(decoded.text);
  const warnings: ExtensionWarning[] = split.warnings.map((w) => warn(shown, w.line, w.message, w.fix));
  if (decoded.hadBom) warnings.push(warn(shown, 1, 'starts with a UTF-8 byte order mark; Atrium ignores it, but Claude Code then misses the frontmatter (a subagent is silently dropped)', 'Save the file as UTF-8 without BOM.'));
  const hidden = findHiddenControl(decoded.text);
  if (hidden) warnings.push(warn(shown, hidden.line, `contains an invisible character ${hidden.codePoint} (column ${hidden.column}) that can hide text from a reviewer`, 'Remove the character.'));
  return {
    text: decoded.text,
    sha256: sha256Hex(decoded.text),
    bytes: bytes.byteLength,
    data: split.frontmatter ? { ...split.frontmatter.data } : {},
    hasFrontmatter: split.frontmatter !== null,
    body: split.body,
    bodyLine: split.bodyLine,
    lineOf: split.lineOf,
    sourceOf: split.sourceOf,
    hadBom: decoded.hadBom,
    hadCrlf: decoded.hadCrlf,
    warnings,
  };
}

/** The frontmatter of a parsed file with the line of each top-level key (see `Frontmatter` in types.ts). */
export function frontmatterOf(file: MarkdownFile | ReadFailure): { data: Record<string, unknown>; lines: Record<string, number | null> } {
  if (failed(file)) return { data: {}, lines: {} };
  return { data: file.data, lines: Object.fromEntries(Object.keys(file.data).map((k) => [k, file.lineOf(k)])) };
}

/** True for a {@link ReadFailure}. */
export function failed(r: MarkdownFile | ReadFailure): r is ReadFailure {
  return 'error' in r;
}

/** Builds a warning. */
export function warn(pathShown: string, line: number | null, message: string, fix: string | null): ExtensionWarning {
  return { path: pathShown, line, message, fix };
}

/** A tool list: a YAML list, or a comma/space separated string (formats.md §2.8 `allowed-tools`). */
export function toolList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean);
  if (typeof value !== 'string') return [];
  // split on commas, or on spaces outside parentheses (`Bash(git add *) Read`)
  if (value.includes(',')) return value.split(',').map((v) => v.trim()).filter(Boolean);
  return value.match(/[^\s(]+(?:\([^)]*\))?/g) ?? [];
}

/**
 * A boolean as Claude Code ≥ v2.1.218 reads it: true/false, yes/no, on/off, 1/0 in any case.
 * Returns `fallback` for anything else (and for absence).
 */
export function flag(value: unknown, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value !== 'string') return fallback;
  const v = value.trim().toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(v)) return true;
  if (['false', 'no', 'off', '0'].includes(v)) return false;
  return fallback;
}

/** First paragraph of Markdown text (headings' `#` removed), one line; '' when none. */
export function firstParagraph(body: string): string {
  const lines: string[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (!line) {
      if (lines.length) break;
      continue;
    }
    lines.push(line.replace(/^#+\s*/, ''));
  }
  return lines.join(' ');
}

/**
 * A text file that only holds a relative path: a symbolic link checked out as text (git
 * `core.symlinks=false`; the corpus stores links this way). Returns the warning, or null.
 */
export function symlinkAsText(content: string, shown: string): ExtensionWarning | null {
  const body = content.trim();
  if (!body || body.includes('\n') || body.length > 300 || !/^\.{0,2}\/?[\w@.+-]+(\/[\w@.+-]+)*\/?$/.test(body) || !body.includes('/')) return null;
  return warn(
    shown,
    1,
    `only contains the path "${body}": probably a symbolic link checked out as a text file, so agents read the path instead of the resource`,
    `Recreate the link: ln -sf ${body} ${path.posix.basename(shown)}`,
  );
}

/**
 * How Claude Code 2.1.318 turns a frontmatter value documented as text into the text it uses
 * (its skill and command loader, `oPe`; it parses frontmatter with Bun's YAML parser):
 * - `string`: `String(value)`, whatever YAML made of it (`argument-hint`, `when_to_use`, `name`);
 *   a mapping anywhere in it shows as `[object Object]`;
 * - `description`: text trimmed, a number or boolean as `String(value)`, a list or mapping dropped
 *   ("Description invalid … omitting"), so the first paragraph is used;
 * - `text-only`: only a string counts; anything else is ignored (`model`).
 */
export type TextFieldRule = 'string' | 'description' | 'text-only';

/**
 * Frontmatter value `key`, documented as text, as Atrium lists it: a string trimmed; a number,
 * boolean, list or mapping as the text the author wrote (`1.50`, `[topic: foo | bar]`), never
 * `[object Object]`, `1.5` or `true` of JavaScript's making. Where the agent would read the value
 * differently ({@link TextFieldRule}: shows other text, drops or ignores it), the result follows
 * the agent and a warning naming the file, line and the quoting fix is added to `warnings`. A YAML
 * null written as `~` or `null` is no value, with a warning. Returns null when there is no text.
 */
export function textField(file: MarkdownFile, key: string, shown: string, warnings: ExtensionWarning[], rule: TextFieldRule): string | null {
  const value = file.data[key];
  if (value === undefined) return null;
  if (typeof value === 'string') return value.trim() || null;
  const written = file.sourceOf(key) ?? '';
  const line = file.lineOf(key);
  const quoted = `Quote the value: ${key}: ${JSON.stringify(written)}`;
  if (value === null) {
    if (written) warnings.push(warn(shown, line, `"${key}: ${written}" is YAML's null, so agents read no ${key}`, `Write the ${key} as text, or remove the line (${quoted} to keep "${written}").`));
    return null;
  }
  const scalar = typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint';
  const what = scalar ? `the ${typeof value === 'boolean' ? 'boolean' : 'number'} ${String(value)}` : Array.isArray(value) ? 'a list' : value instanceof Date ? 'a date' : 'a mapping';
  if (rule === 'text-only') {
    warnings.push(warn(shown, line, `YAML reads "${key}: ${written}" as ${what}, not text; Claude Code ignores a ${key} that is not text`, quoted));
    return null;
  }
  if (scalar) {
    if (String(value) !== written) warnings.push(warn(shown, line, `YAML reads "${key}: ${written}" as ${what}, so agents show "${String(value)}"; Atrium shows what you wrote`, quoted));
    return written || null;
  }
  if (rule === 'description') {
    warnings.push(warn(shown, line, `YAML reads "${key}: ${written}" as ${what}, not text; Claude Code drops a description that is not text ("Description invalid")`, quoted));
    return null;
  }
  // a list of plain values (`argument-hint: [issue-number]`, the documented form) is shown as written
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return written || null;
  const agentShows = String(value);
  warnings.push(
    warn(
      shown,
      line,
      `YAML reads "${key}: ${written}" as ${what}${Array.isArray(value) ? ' holding a mapping (a "key: value" inside [ ] or { })' : ''}, so Claude Code shows "${agentShows}"; Atrium shows what you wrote`,
      quoted,
    ),
  );
  return written || null;
}

/**
 * A tool list frontmatter value (`allowed-tools`, `tools`): {@link toolList}, with a warning when
 * YAML made something else of it (a mapping, or list entries that are not names), which agents
 * ignore.
 */
export function toolListField(file: MarkdownFile, key: string, shown: string, warnings: ExtensionWarning[]): string[] {
  const value = file.data[key];
  const written = file.sourceOf(key) ?? '';
  const fix = `Write ${key}: Read, Grep, Bash(git status:*) or a YAML list of tool names.`;
  if (value !== undefined && value !== null && typeof value !== 'string' && !Array.isArray(value)) {
    warnings.push(warn(shown, file.lineOf(key), `YAML reads "${key}: ${written}" as ${typeof value === 'object' ? 'a mapping' : `the ${typeof value} ${String(value)}`}, not a list of tools, so it is ignored`, fix));
  } else if (Array.isArray(value) && value.some((v) => typeof v !== 'string')) {
    const odd = value.filter((v) => typeof v !== 'string').map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)));
    warnings.push(warn(shown, file.lineOf(key), `${key} has entries YAML does not read as tool names (${odd.join(', ')}); they are ignored`, `Quote each entry, e.g. - "Bash(git add:*)". ${fix}`));
  }
  return toolList(value);
}
