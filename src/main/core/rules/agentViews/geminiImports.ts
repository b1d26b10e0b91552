import { promises as fs, realpathSync, lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * Gemini CLI's own `@import` grammar and expansion, as Gemini CLI 0.61.0 runs them on every context
 * file it loads (packages/core/src/utils/memoryImportProcessor.ts, "tree" import format, the
 * default). Atrium's catalog is more lenient (`../imports.ts`); the Gemini view and its lint use
 * this file so they say what Gemini really sends.
 */

/** One `@path` Gemini's scanner finds: `start`/`end` are UTF-16 offsets of `@` and of the end of the path. */
export interface GeminiImportToken {
  start: number;
  end: number;
  /** The path as written, trailing punctuation included (Gemini strips nothing). */
  path: string;
}

/** What Gemini did with one import. */
export type GeminiImportOutcome =
  /** Inside a backtick region: left as written. */
  | 'code'
  /** Resolves outside the project root (or is a URL): replaced with `<!-- Import failed: … - Path traversal attempt -->`. */
  | 'outside'
  /** Already imported on this branch of the import tree: replaced with `<!-- File already processed: … -->`. */
  | 'repeated'
  /** Read and inlined between `<!-- Imported from: … -->` and `<!-- End of import from: … -->`. */
  | 'imported'
  /** Could not be read: replaced with `<!-- Import failed: … - <Node error message> -->`. */
  | 'failed';

/** One import Gemini met while expanding a file (nested imports included, in text order). */
export interface GeminiImport {
  /** The path as written. */
  path: string;
  /** Absolute path Gemini resolved it to (relative to the importing file's folder). */
  absolute: string;
  /** Absolute path of the file that contains the `@path`. */
  from: string;
  /** 1 for an import written in the context file, 2 for one inside that import, … */
  depth: number;
  outcome: GeminiImportOutcome;
  /** The Node error message for `failed`, else null. */
  error: string | null;
}

/** Result of {@link expandGeminiImports}. */
export interface GeminiExpansion {
  /** The text Gemini keeps for the file (before the trim of its `--- Context from:` block). */
  content: string;
  imports: GeminiImport[];
}

/** Gemini stops expanding below this many nested imports (`maxDepth: 5`): deeper files keep their `@path` text. */
export const GEMINI_MAX_IMPORT_DEPTH = 5;

const isWhitespace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isLetter = (c: string) => /^[A-Za-z]$/.test(c);

/**
 * The `@path` tokens of `content` as Gemini CLI 0.61.0's `findImports` reads them: an `@` at the
 * start of the text or right after a space, tab or line break, followed by everything up to the
 * next whitespace (so `@notes.md:` is the path `notes.md:`), kept only when the path starts with
 * `.`, `/` or an ASCII letter (`@~/x.md` and `@_x` are no imports). Code regions are not removed
 * here (see {@link geminiCodeRegions}).
 */
export function findGeminiImports(content: string): GeminiImportToken[] {
  const out: GeminiImportToken[] = [];
  let i = 0;
  while (i < content.length) {
    i = content.indexOf('@', i);
    if (i === -1) break;
    if (i > 0 && !isWhitespace(content[i - 1])) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < content.length && !isWhitespace(content[j])) j++;
    const p = content.slice(i + 1, j);
    if (p.length > 0 && (p[0] === '.' || p[0] === '/' || isLetter(p[0]))) out.push({ start: i, end: j, path: p });
    i = j + 1;
  }
  return out;
}

/**
 * Gemini CLI 0.61.0's code regions (`findCodeRegions`): each match of ``/(`+)([\s\S]*?)\1/g``, i.e. a
 * run of backticks up to the next run of the same length, across lines. Only backticks count:
 * `~~~` fences, indented code and HTML blocks are plain text to Gemini, so imports in them expand.
 * @returns [start, end) UTF-16 offset pairs
 */
export function geminiCodeRegions(content: string): Array<[number, number]> {
  const regions: Array<[number, number]> = [];
  for (const m of content.matchAll(/(`+)([\s\S]*?)\1/g)) regions.push([m.index, m.index + m[0].length]);
  return regions;
}

/** The first folder from `dir` up that holds `.git` (file or directory), as Gemini CLI 0.61.0's `findProjectRoot` finds it, or null. */
export async function geminiGitRoot(dir: string): Promise<string | null> {
  let current = path.resolve(dir);
  for (;;) {
    try {
      await fs.access(path.join(current, '.git'));
      return current;
    } catch {
      // keep climbing
    }
    const parent = path.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/** Gemini's project root for imports (`findProjectRoot` with the `.git` marker): {@link geminiGitRoot}, else `dir` itself. */
export async function geminiImportRoot(dir: string): Promise<string> {
  return (await geminiGitRoot(dir)) ?? path.resolve(dir);
}

/** Gemini's `robustRealpath`: the real path, or for a missing file the real path of its nearest existing ancestor joined with the rest. */
function robustRealpath(p: string, seen = new Set<string>()): string {
  if (seen.has(p)) throw new Error(`Infinite recursion detected in robustRealpath: ${p}`);
  seen.add(p);
  try {
    return realpathSync(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EISDIR' && code !== 'ENAMETOOLONG' && code !== 'ENOTDIR') throw error;
    try {
      if (lstatSync(p).isSymbolicLink()) return robustRealpath(path.resolve(path.dirname(p), readlinkSync(p)), seen);
    } catch (lstatError) {
      const c = (lstatError as NodeJS.ErrnoException).code;
      if (c !== 'ENOENT' && c !== 'EISDIR' && c !== 'ENAMETOOLONG' && c !== 'ENOTDIR') throw lstatError;
    }
    const parent = path.dirname(p);
    if (parent === p) return p;
    return path.join(robustRealpath(parent, seen), path.basename(p));
  }
}

function isSubpath(parent: string, child: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

/** Gemini's `validateImportPath`: no `file://`/`http(s)://` URL, and the real target inside the real project root. */
function insideRoot(importPath: string, basePath: string, projectRoot: string): boolean {
  if (/^(file|https?):\/\//.test(importPath)) return false;
  try {
    return isSubpath(robustRealpath(projectRoot.trim()), robustRealpath(path.resolve(basePath, importPath)));
  } catch {
    return false;
  }
}

interface State {
  processed: Set<string>;
  depth: number;
}

/**
 * Expands the `@imports` of one context file exactly as Gemini CLI 0.61.0's `processImports` does
 * (tree format): each import outside a backtick region is resolved against `basePath` (the file's
 * folder), must stay inside `projectRoot` (default {@link geminiImportRoot} of `basePath`), and is
 * replaced in the text by `<!-- Imported from: p -->\n<text>\n<!-- End of import from: p -->`
 * (the imported text untrimmed, its own imports expanded up to depth 5), or by
 * `<!-- Import failed: p - Path traversal attempt -->`, `<!-- File already processed: p -->`
 * (same file earlier on this branch; the root file itself is not counted) or
 * `<!-- Import failed: p - <Node error message> -->` (e.g. ENOENT). Reads the disk; never throws.
 */
export async function expandGeminiImports(content: string, basePath: string, projectRoot?: string): Promise<GeminiExpansion> {
  const root = projectRoot ?? (await geminiImportRoot(basePath));
  const imports: GeminiImport[] = [];
  const text = await expand(content, basePath, root, { processed: new Set(), depth: 0 }, imports, path.resolve(basePath));
  return { content: text, imports };
}

async function expand(content: string, basePath: string, root: string, state: State, imports: GeminiImport[], from: string): Promise<string> {
  if (state.depth >= GEMINI_MAX_IMPORT_DEPTH) return content;
  const regions = geminiCodeRegions(content);
  let out = '';
  let last = 0;
  for (const { start, end, path: p } of findGeminiImports(content)) {
    out += content.slice(last, start);
    last = end;
    const absolute = path.resolve(basePath, p);
    const record = (outcome: GeminiImportOutcome, error: string | null = null) => imports.push({ path: p, absolute, from, depth: state.depth + 1, outcome, error });
    if (regions.some(([s, e]) => start >= s && start < e)) {
      out += `@${p}`;
      record('code');
      continue;
    }
    if (!insideRoot(p, basePath, root)) {
      out += `<!-- Import failed: ${p} - Path traversal attempt -->`;
      record('outside');
      continue;
    }
    if (state.processed.has(absolute)) {
      out += `<!-- File already processed: ${p} -->`;
      record('repeated');
      continue;
    }
    try {
      await fs.access(absolute);
      const text = await fs.readFile(absolute, 'utf8');
      record('imported');
      const next: State = { processed: new Set([...state.processed, absolute]), depth: state.depth + 1 };
      const inner = await expand(text, path.dirname(absolute), root, next, imports, absolute);
      out += `<!-- Imported from: ${p} -->\n${inner}\n<!-- End of import from: ${p} -->`;
    } catch (error) {
      const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'Unknown error';
      out += `<!-- Import failed: ${p} - ${message} -->`;
      record('failed', message);
    }
  }
  return out + content.slice(last);
}
