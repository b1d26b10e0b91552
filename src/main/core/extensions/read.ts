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

/** A string value, trimmed, or null. */
export function text(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
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
 * An `argument-hint` as written: `argument-hint: [issue-number]` is a YAML list to a YAML parser,
 * but agents show the text, so a list is shown back as `[a, b]`.
 */
export function hintText(value: unknown): string | null {
  if (Array.isArray(value)) return `[${value.map((v) => String(v)).join(', ')}]`;
  return text(value);
}
