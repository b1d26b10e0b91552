import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { sha256Hex } from '../../formats/digest';
import { hasHiddenControl } from '../../formats/unicode';
import { isInside } from '../paths';
import { failed, parseMarkdown, textField, warn } from '../read';
import type { ScanRoot } from '../roots';
import type { StyleRecord } from '../types';
import { STYLE_LIMITS, STYLE_SEGMENT } from './limits';
import { directFileAccess, type FileReader } from '../../files/scan';

/** Thrown inside a root scan: the root is disabled (only that root, with a warning). */
class RootProblem extends Error {}

/**
 * Output styles of one root (seed §3): `.md` files at most 4 levels deep (root = 1), id
 * `<prefix>:<seg1>[:seg2…]` from the path (`user`, `project` or `plugin:<name>` prefix). Root-level
 * problems — the root is a symbolic link, a link inside it, a folder too deep, a file resolving
 * outside it, more than 32 files — disable **that root only** and return one warning (the anchor
 * failed the whole bundle, seed §16.4). Per-file problems list the style as `invalid` with a warning.
 */
export async function scanStyles(root: ScanRoot, shown: (abs: string) => string, reader: FileReader = directFileAccess): Promise<{ styles: StyleRecord[]; warnings: ExtensionWarning[] }> {
  try {
    const st = await fs.lstat(root.dir).catch(() => null);
    if (!st) return { styles: [], warnings: [] };
    if (st.isSymbolicLink()) throw new RootProblem('the output style folder is a symbolic link');
    if (!st.isDirectory()) return { styles: [], warnings: [] };
    const realRoot = await fs.realpath(root.dir);
    const files: Array<{ abs: string; segments: string[] }> = [];
    await walk(root.dir, [], 1, realRoot, files);
    if (files.length > STYLE_LIMITS.maxStyles) throw new RootProblem(`it holds ${files.length} style files (at most ${STYLE_LIMITS.maxStyles})`);
    const styles: StyleRecord[] = [];
    for (const f of files) styles.push(await readStyle(f.abs, f.segments, root, shown(f.abs), reader));
    return { styles, warnings: [] };
  } catch (error) {
    if (!(error instanceof RootProblem)) throw error;
    return { styles: [], warnings: [warn(shown(root.dir), null, `${error.message}; no style from this folder is loaded (other folders still are)`, 'Make it a plain folder of at most 32 Markdown files, 4 levels deep, without links.')] };
  }
}

async function walk(dir: string, segments: string[], depth: number, realRoot: string, out: Array<{ abs: string; segments: string[] }>): Promise<void> {
  if (depth > STYLE_LIMITS.maxDepth) throw new RootProblem(`folder ${[...segments].join('/')} is deeper than ${STYLE_LIMITS.maxDepth} levels`);
  const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.isSymbolicLink()) throw new RootProblem(`${[...segments, e.name].join('/')} is a symbolic link`);
    if (e.isDirectory()) await walk(abs, [...segments, e.name], depth + 1, realRoot, out);
    else if (e.isFile() && /\.md$/i.test(e.name)) {
      if (!isInside(realRoot, await fs.realpath(abs))) throw new RootProblem(`${e.name} resolves outside the folder`);
      out.push({ abs, segments: [...segments, e.name.replace(/\.md$/i, '')] });
      if (out.length > STYLE_LIMITS.maxStyles) throw new RootProblem(`it holds more than ${STYLE_LIMITS.maxStyles} style files`);
    }
  }
}

async function readStyle(abs: string, segments: string[], root: ScanRoot, where: string, reader: FileReader): Promise<StyleRecord> {
  let bytes: Buffer;
  try {
    const st = await fs.stat(abs);
    if (st.size > STYLE_LIMITS.maxFileBytes) return styleFromBytes(null, abs, segments, root, where, `file is ${st.size} bytes (at most ${STYLE_LIMITS.maxFileBytes})`);
    bytes = await reader.readBytes(abs);
  } catch (error) {
    return styleFromBytes(null, abs, segments, root, where, `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return styleFromBytes(bytes, abs, segments, root, where);
}

/**
 * One output style from its bytes (seed §3 rules; `segments` = the path below the root without
 * `.md`). With `bytes` null, the style is listed `invalid` for `unreadable`. Also used by the trust
 * review for style files the bundle does not read. Never throws.
 */
export function styleFromBytes(bytes: Uint8Array | null, abs: string, segments: string[], root: ScanRoot, where: string, unreadable = 'could not be read'): StyleRecord {
  const prefix = root.plugin ? `plugin:${root.plugin}` : root.source === 'user' ? 'user' : 'project';
  const key = segments.join(':');
  const base = { id: `${prefix}:${key}`, source: root.source, tool: root.tool, plugin: root.plugin, path: where, absolutePath: abs, layer: root.layer, local: false, overriddenBy: null };
  const invalid = (message: string, fix: string | null, line: number | null = null): StyleRecord => ({ ...base, name: key, description: '', promptBytes: 0, prompt: '', sha256: null, status: 'invalid', warnings: [warn(where, line, message, fix)] });
  const badSegment = segments.find((s) => !STYLE_SEGMENT.test(s));
  if (badSegment !== undefined) return invalid(`"${badSegment}" is not a valid style id segment (lowercase letters, digits, ".", "_", "-"; at most 64)`, 'Rename the file or folder in lowercase.');
  if (bytes === null) return invalid(unreadable, unreadable.startsWith('file is') ? 'Shorten the style.' : null);
  if (bytes.byteLength > STYLE_LIMITS.maxFileBytes) return invalid(`file is ${bytes.byteLength} bytes (at most ${STYLE_LIMITS.maxFileBytes})`, 'Shorten the style.');
  // seed §3: a leading BOM is a hidden control and makes the file invalid
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return invalid('starts with a byte order mark (a hidden control character)', 'Save the file as UTF-8 without BOM.', 1);
  const file = parseMarkdown(bytes, where);
  if (failed(file)) return invalid(file.error.message, file.error.fix);
  const prompt = file.body.trim();
  const fieldWarnings: ExtensionWarning[] = [];
  const name = textField(file, 'name', where, fieldWarnings, 'string') ?? key;
  const description = textField(file, 'description', where, fieldWarnings, 'description') ?? (prompt.split('\n').map((l) => l.trim()).find(Boolean)?.replace(/^#+\s*/, '') || `Custom ${key} communication style`);
  if (!prompt) return invalid('the prompt (body) is empty', 'Write the style instructions below the frontmatter.');
  if (Buffer.byteLength(prompt, 'utf8') > STYLE_LIMITS.maxPromptBytes) return invalid(`the prompt is larger than ${STYLE_LIMITS.maxPromptBytes} bytes`, 'Shorten the style.');
  if (hasHiddenControl(prompt) || hasHiddenControl(name) || hasHiddenControl(description)) return invalid('contains a hidden control character', 'Remove invisible characters (zero-width spaces, bidi controls).');
  if (name.length > STYLE_LIMITS.maxName) return invalid(`name is longer than ${STYLE_LIMITS.maxName} characters`, 'Shorten the name.', file.lineOf('name'));
  if (description.length > STYLE_LIMITS.maxDescription) return invalid(`description is longer than ${STYLE_LIMITS.maxDescription} characters`, 'Shorten the description.', file.lineOf('description'));
  return { ...base, name, description, promptBytes: Buffer.byteLength(prompt, 'utf8'), prompt, sha256: sha256Hex(prompt), status: 'active', warnings: [...file.warnings, ...fieldWarnings] };
}

/**
 * Catalog-level limits (seed §3.3) applied after precedence: more than 32 active styles, or more
 * than 128 KiB of prompts, and the later ones (in precedence order, lowest layer first kept) become
 * `invalid` with a warning instead of failing the bundle.
 */
export function applyStyleLimits(styles: StyleRecord[]): StyleRecord[] {
  let count = 0;
  let total = 0;
  return styles.map((s) => {
    if (s.status !== 'active') return s;
    count++;
    total += s.promptBytes;
    if (count > STYLE_LIMITS.maxStyles || total > STYLE_LIMITS.maxTotalPromptBytes) {
      const what = count > STYLE_LIMITS.maxStyles ? `more than ${STYLE_LIMITS.maxStyles} styles are active` : `the prompts add up to more than ${STYLE_LIMITS.maxTotalPromptBytes / 1024} KiB`;
      return { ...s, status: 'invalid' as const, warnings: [...s.warnings, warn(s.path, null, `not loaded: ${what}`, 'Remove styles you do not use.')] };
    }
    return s;
  });
}
