import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseJsonText } from '../../formats/json';
import { scopeContains } from '../paths';
import { ignoredRow, loadedRow, ViewContext, type AgentView, type AgentViewFile, type Probe } from './common';
import { expandGeminiImports, GEMINI_MAX_IMPORT_DEPTH, geminiGitRoot } from './geminiImports';

/** The version of Gemini CLI whose loading this view reproduces (the pinned preset). */
export const GEMINI_VIEW_VERSION = '0.61.0';

/** Gemini's default context file name (`DEFAULT_CONTEXT_FILENAME`). */
const DEFAULT_NAME = 'GEMINI.md';

/** Gemini's frame around context delivered with a tool result (packages/core/src/tools/jit-context.ts). */
export const GEMINI_JIT_PREFIX = '--- Newly Discovered Project Context ---\n';
export const GEMINI_JIT_SUFFIX = '\n--- End Project Context ---';

/** One `--- Context from: <abs> ---` block as Gemini CLI 0.61.0's `concatenateInstructions` writes it. */
export function geminiContextBlock(absolute: string, content: string): string {
  return `--- Context from: ${absolute} ---\n${content.trim()}\n--- End of Context from: ${absolute} ---`;
}

/** What the settings files say about context file names. */
export interface GeminiContextNames {
  /** File names Gemini looks for in each folder, in its order. */
  names: string[];
  /** Where the names came from (display paths of settings files), empty for the default. */
  from: string[];
  /** Settings files Gemini cannot parse (it refuses to start with them), with the reason. */
  broken: Array<{ path: string; message: string }>;
}

/**
 * The context file names Gemini CLI 0.61.0 uses (packages/cli/src/config/settings.ts `loadSettings`
 * + packages/core/src/tools/memoryTool.ts `setGeminiMdFilename`): `context.fileName` (a string or an
 * array) from the merged settings, where the workspace's `<start>/.gemini/settings.json` (read only
 * when the folder is trusted and is not the home folder) replaces the user's
 * `~/.gemini/settings.json`. Names are trimmed and `path.normalize`d, empty ones dropped, and
 * `GEMINI.md` is always appended (0.61 adds the configured names to the default instead of
 * replacing it). Files are JSON with comments. `startDisplay` (root-relative start folder) only names the
 * workspace file in `from`/`broken`. System settings (`/etc/gemini-cli/settings.json`,
 * which override both) are not read.
 */
export async function geminiContextNames(homeDir: string, startAbs: string, workspaceTrusted: boolean, startDisplay = '.'): Promise<GeminiContextNames> {
  const broken: GeminiContextNames['broken'] = [];
  const read = async (file: string, display: string): Promise<unknown> => {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      return undefined;
    }
    const parsed = parseJsonText(text, { jsonc: true });
    if (!parsed.ok) {
      broken.push({ path: display, message: `${parsed.message} (line ${parsed.line}, column ${parsed.column})` });
      return undefined;
    }
    const v = parsed.value;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const ctx = (v as Record<string, unknown>).context;
    return ctx && typeof ctx === 'object' ? (ctx as Record<string, unknown>).fileName : undefined;
  };
  let value = await read(path.join(homeDir, '.gemini', 'settings.json'), '~/.gemini/settings.json');
  let from = value !== undefined ? ['~/.gemini/settings.json'] : [];
  const isHome = path.resolve(startAbs) === path.resolve(homeDir);
  if (workspaceTrusted && !isHome) {
    const shown = startDisplay && startDisplay !== '.' ? `${startDisplay}/.gemini/settings.json` : '.gemini/settings.json';
    const ws = await read(path.join(startAbs, '.gemini', 'settings.json'), shown);
    if (ws !== undefined) {
      value = ws;
      from = [shown];
    }
  }
  const given = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  if (!value) return { names: [DEFAULT_NAME], from: [], broken };
  const names = new Set<string>();
  for (const n of given) if (n.trim()) names.add(path.normalize(n.trim()));
  names.add(DEFAULT_NAME);
  return { names: [...names], from, broken };
}

/** Gemini's `findUpwardGeminiFiles`: from `startDir` up to `stopDir` (inclusive), each folder's names in order, top folder first; stops at `~/.gemini`. */
async function upward(startDir: string, stopDir: string, names: string[], homeDir: string): Promise<string[]> {
  const found: string[] = [];
  let current = path.resolve(startDir);
  const stop = path.resolve(stopDir);
  const globalDir = path.join(homeDir, '.gemini');
  for (;;) {
    if (current === globalDir) break;
    const here: string[] = [];
    for (const name of names) {
      const p = path.resolve(current, name);
      try {
        await fs.access(p, fs.constants.R_OK);
        here.push(p);
      } catch {
        // absent
      }
    }
    found.unshift(...here);
    const parent = path.dirname(current);
    if (current === stop || current === parent) break;
    current = parent;
  }
  return found;
}

async function identity(p: string): Promise<string | null> {
  try {
    const st = await fs.stat(p);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/**
 * What Gemini CLI 0.61.0 loads from `fromRel`, as its MemoryContextManager does
 * (packages/core/src/utils/memoryDiscovery.ts, context/memoryContextManager.ts):
 * - at start, into the system instruction: `~/.gemini/<name>` for each context file name;
 * - at start, into the first user message (`<project_context>`), only in a trusted folder: `<name>`
 *   in the start folder and each parent up to the git root (the first folder holding `.git`; with no
 *   `.git` anywhere, the start folder alone), never folders below the start folder; the paths are
 *   deduplicated by inode and sorted as strings (so `a/GEMINI.md` precedes `GEMINI.md`);
 * - just in time (`when: 'on-read'`): when read_file, read_many_files, list_directory, write_file or
 *   replace touch `targetRel` inside the start folder, the names from the target's folder up to the
 *   git root not loaded yet, appended to that tool's result after `--- Newly Discovered Project Context ---`.
 * Names come from `context.fileName` ({@link geminiContextNames}). Each file's `@imports` are expanded
 * with Gemini's own grammar (`./geminiImports.ts`). `content` is the text Gemini sends: the
 * `--- Context from: <absolute path> ---` blocks (global, then project, then the on-read frame).
 * Not modelled: extensions' context files, `~/.gemini/tmp/<project>/memory`, `--include-directories`,
 * system settings, and Gemini's own `trustedFolders.json` (Atrium's trust stands in for it, as in the
 * sessions Atrium starts, which pass Atrium's verdict as `GEMINI_CLI_TRUST_WORKSPACE`).
 */
export async function geminiView(ctx: ViewContext, fromRel: string, targetRel: string | null = null): Promise<AgentView> {
  const { catalog } = ctx;
  const files: AgentViewFile[] = [];
  const trusted = catalog.trust === 'trusted';
  const startAbs = path.join(catalog.root, fromRel);
  const settings = await geminiContextNames(catalog.homeDir, startAbs, trusted, fromRel);
  const names = settings.names;
  const notes = [
    `As Gemini CLI ${GEMINI_VIEW_VERSION} loads it: ~/.gemini context files, then the start folder and its parents up to the git root; files in subfolders load only when a tool touches a path below them.`,
    `Context file names: ${names.join(', ')}${settings.from.length ? ` (context.fileName in ${settings.from.join(', ')}; Gemini always adds GEMINI.md)` : ''}.`,
    `Gemini expands @imports that follow a space or a line start, except inside backticks (~~~ fences are not code to it); failed imports are replaced by an HTML comment; max depth ${GEMINI_MAX_IMPORT_DEPTH}.`,
    'Gemini has no size budget: everything is sent.',
    "Project files and .gemini/settings.json count only in a folder Gemini trusts: in sessions Atrium starts that is Atrium's trust (GEMINI_CLI_TRUST_WORKSPACE); run by hand, Gemini 0.61 asks ~/.gemini/trustedFolders.json (folder trust is on by default).",
  ];
  if (!trusted) notes.push('Atrium does not trust this folder: it shows names and sizes only, and ignores .gemini/settings.json as Gemini does in a folder it does not trust.');
  for (const b of settings.broken) notes.push(`Gemini CLI refuses to start: ${b.path} is not valid JSON (${b.message}).`);

  const display = (abs: string): string => {
    const rel = path.relative(catalog.root, abs);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
    const home = path.relative(catalog.homeDir, abs);
    if (!home.startsWith('..') && !path.isAbsolute(home)) return `~/${home.split(path.sep).join('/')}`;
    return abs;
  };
  const inWorkspace = (abs: string) => {
    const rel = path.relative(catalog.root, abs);
    return !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  const seen = new Set<string>();
  const loadedAbs = new Set<string>();
  /** Loads one file the way readGeminiMdFiles does; returns its block, or null when it adds nothing. */
  const take = async (abs: string, when: 'start' | 'on-read', reason: string): Promise<string | null> => {
    const id = await identity(abs);
    if (id && seen.has(id)) return null;
    if (id) seen.add(id);
    loadedAbs.add(abs);
    const shown = display(abs);
    const isUser = shown.startsWith('~/');
    if (!isUser && !inWorkspace(abs)) {
      let size = 0;
      try {
        size = (await fs.stat(abs)).size;
      } catch {
        // gone
      }
      files.push({ path: abs, bytes: size, loadedBytes: 0, status: 'restricted', when: null, reason: `Gemini reads this file too (${reason}), but it is outside the workspace: Atrium shows its size only.`, truncatedAt: null });
      return null;
    }
    const p: Probe | null = await ctx.probeAbsolute(abs, shown);
    if (!p) return null;
    const problem = ctx.problem(p);
    if (problem) {
      files.push(problem);
      return null;
    }
    let raw: string;
    try {
      raw = await fs.readFile(abs, 'utf8');
    } catch {
      return null;
    }
    const expanded = await expandGeminiImports(raw, path.dirname(abs));
    const text = expanded.content.trim();
    const failed = expanded.imports.filter((i) => i.outcome === 'failed' || i.outcome === 'outside');
    const why = failed.length ? `${reason} Gemini replaces ${failed.map((i) => `@${i.path}`).join(', ')} with an "Import failed" comment.` : reason;
    if (!text) {
      files.push({ path: p.display, bytes: p.size, loadedBytes: 0, status: 'skipped', when: null, reason: 'Empty (or only whitespace): Gemini sends no block for it.', truncatedAt: null });
      return null;
    }
    files.push({ ...loadedRow(p.display, p.size, when, why), loadedBytes: Buffer.byteLength(text) });
    return geminiContextBlock(abs, text);
  };

  const globalBlocks: string[] = [];
  for (const name of names) {
    const abs = path.resolve(catalog.homeDir, '.gemini', name);
    try {
      await fs.access(abs, fs.constants.R_OK);
    } catch {
      continue;
    }
    const block = await take(abs, 'start', 'Global context file (system instruction).');
    if (block) globalBlocks.push(block);
  }

  const gitRoot = await geminiGitRoot(startAbs);
  const ceiling = gitRoot ?? startAbs;
  const projectBlocks: string[] = [];
  const startPaths = (await upward(startAbs, ceiling, names, catalog.homeDir)).sort();
  for (const abs of startPaths) {
    const block = await take(abs, 'start', gitRoot ? 'Between the git root and the start folder (first user message).' : 'In the start folder (no git root: Gemini looks no higher).');
    if (block) projectBlocks.push(block);
  }

  const jitBlocks: string[] = [];
  if (targetRel !== null) {
    const targetAbs = path.join(catalog.root, targetRel);
    if (!scopeContains(fromRel, targetRel)) {
      notes.push(`${targetRel} is outside the start folder: Gemini loads no context file for it.`);
    } else {
      let dir = targetAbs;
      try {
        if ((await fs.stat(targetAbs)).isFile()) dir = path.dirname(targetAbs);
      } catch {
        dir = path.dirname(targetAbs);
      }
      for (const abs of await upward(dir, ceiling, names, catalog.homeDir)) {
        const block = await take(abs, 'on-read', `Loaded just in time when a tool touches ${targetRel}: appended to the tool result.`);
        if (block) jitBlocks.push(block);
      }
    }
  }

  // Files Gemini would load just in time for other paths, and instruction files it does not read.
  const nameSet = new Set(names.map((n) => n.toLowerCase()));
  const chainDirs = new Set(ctx.chain(fromRel));
  for (const f of catalog.files) {
    if (f.source === 'user' || loadedAbs.has(f.absolutePath)) continue;
    const dir = f.relativePath.includes('/') ? f.relativePath.slice(0, f.relativePath.lastIndexOf('/')) : '';
    const base = path.posix.basename(f.relativePath);
    if (names.includes(base)) {
      if (scopeContains(fromRel, dir) && dir !== fromRel) files.push({ path: f.relativePath, bytes: f.bytes, loadedBytes: 0, status: 'conditional', when: null, reason: `Loaded just in time when a tool touches a path in ${dir}/.`, truncatedAt: null });
    } else if (chainDirs.has(f.scope) && !nameSet.has(base.toLowerCase()) && ['agents', 'agents-override', 'claude', 'claude-local', 'blade'].includes(f.format)) {
      files.push(ignoredRow(f.relativePath, f.bytes, 'Gemini reads only GEMINI.md unless context.fileName in settings.json lists this name.'));
    }
  }

  const parts: string[] = [];
  if (globalBlocks.length) parts.push(globalBlocks.join('\n\n'));
  if (projectBlocks.length) parts.push(projectBlocks.join('\n\n'));
  if (jitBlocks.length) parts.push(`${GEMINI_JIT_PREFIX}${jitBlocks.join('\n\n')}${GEMINI_JIT_SUFFIX}`);
  const loaded = files.filter((f) => f.status === 'loaded');
  return { agent: 'gemini', fromDir: fromRel, targetPath: targetRel, budgetBytes: null, usedBytes: loaded.reduce((s, f) => s + f.loadedBytes, 0), files, notes, content: parts.join('\n\n') };
}
