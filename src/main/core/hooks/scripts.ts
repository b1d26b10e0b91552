import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { HookScript, HookUncovered } from '../../../shared/contract';
import { isAncestorOrSelf } from '../workspaces/paths';
import { analyzeCommand, type Coverage } from './coverage/analyze';
import type { HandlerFields } from './parse';

/** The folders a command's paths are resolved against. */
export interface ScriptContext {
  /** The execution directory and `$CLAUDE_PROJECT_DIR` (the workspace folder). */
  projectDir: string;
  homeDir: string;
  /** `${CLAUDE_PLUGIN_ROOT}` of a plugin hook, else null. */
  pluginRoot: string | null;
  /** The working directory when it is not the project folder (an MCP server's `cwd`). */
  cwd?: string;
}

/** Most bytes of one file that are hashed (the rest is reported `size-cap`): 16 MiB. */
export const MAX_HASHED_BYTES_PER_FILE = 16 * 1024 * 1024;
/** Most bytes hashed for one hook or server over all its files: 64 MiB. */
export const MAX_HASHED_BYTES_PER_HOOK = 64 * 1024 * 1024;
/** Most files of a script's own folder that are hashed with it. */
export const MAX_FOLDER_FILES = 32;
/** Most bytes of a script's own folder that are hashed with it: 4 MiB. */
export const MAX_FOLDER_BYTES = 4 * 1024 * 1024;

/** A hashed file with its absolute path (and, during a run, its verified copy). */
export type HashedScript = HookScript & { abs: string; copy?: string; capped?: boolean };

/** What a handler's command runs, hashed: the files, what is not covered, and the spans to rewrite for running copies. */
export interface CoveredScripts {
  scripts: HashedScript[];
  uncovered: HookUncovered[];
  /** Every file the coverage looked at (for watching). */
  candidates: string[];
  rewrites: Coverage['rewrites'];
}

/**
 * Follows a handler's command (see `analyzeCommand`) and hashes every file it covers, bounded:
 * at most {@link MAX_HASHED_BYTES_PER_FILE} bytes of one file and {@link MAX_HASHED_BYTES_PER_HOOK}
 * over all (what is cut is an `uncovered` `size-cap` entry, and a capped file's digest entry says
 * so). With `copyDir`, each file is copied into that private folder while it is hashed, from one
 * open descriptor, so the copy has exactly the hashed bytes (see {@link copyPathOf}). Never throws.
 */
export async function coverScripts(fields: HandlerFields, ctx: ScriptContext, copyDir?: string): Promise<CoveredScripts> {
  if (fields.type !== 'command' || !fields.command) return { scripts: [], uncovered: [], candidates: [], rewrites: [] };
  const env = Object.fromEntries(Object.entries(fields.env ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const cov = await analyzeCommand(fields.command, fields.args, { ...ctx, env });
  return hashCoverage(cov, ctx, copyDir);
}

/** Hashes (and optionally copies) what a {@link Coverage} names, with the bounds of {@link coverScripts}. */
export async function hashCoverage(cov: Coverage, ctx: ScriptContext, copyDir?: string): Promise<CoveredScripts> {
  const uncovered = [...cov.uncovered];
  const files = [...cov.files];
  for (const dir of cov.folders) {
    const listed = await folderFiles(dir);
    for (const f of listed.files) if (!files.includes(f)) files.push(f);
    if (listed.cut) uncovered.push({ code: 'size-cap', text: shownPath(dir, ctx), message: `the folder ${shownPath(dir, ctx)} of a script that finds files by its own location has more than ${MAX_FOLDER_FILES} files or ${MAX_FOLDER_BYTES / 1048576} MiB; only the first ones are hashed.` });
  }
  const scripts = await hashScripts(files, ctx, { copyDir, uncovered });
  return { scripts, uncovered, candidates: files, rewrites: cov.rewrites };
}

async function folderFiles(dir: string): Promise<{ files: string[]; cut: boolean }> {
  try {
    const names = (await fs.readdir(dir, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name).sort();
    const out: string[] = [];
    let bytes = 0;
    for (const n of names) {
      const abs = path.join(dir, n);
      const st = await fs.stat(abs);
      if (out.length >= MAX_FOLDER_FILES || bytes + st.size > MAX_FOLDER_BYTES) return { files: out, cut: true };
      bytes += st.size;
      out.push(abs);
    }
    return { files: out, cut: false };
  } catch {
    return { files: [], cut: false };
  }
}

/**
 * Hashes the candidates that are existing regular files (links followed): hex SHA-256 of their
 * bytes (at most {@link MAX_HASHED_BYTES_PER_FILE}; `capped` when cut), their size, their shown
 * path (workspace-relative POSIX inside the project folder, `~/…` under the home directory, else
 * absolute) and whether their real location is outside the project folder. Missing files and
 * folders are left out. With `copyDir`, writes each file's hashed bytes to its copy. Never throws.
 */
export async function hashScripts(candidates: readonly string[], ctx: ScriptContext, opts: { copyDir?: string; uncovered?: HookUncovered[] } = {}): Promise<HashedScript[]> {
  const out: HashedScript[] = [];
  let realProject = ctx.projectDir;
  try {
    realProject = await fs.realpath(ctx.projectDir);
  } catch {
    // keep the given path
  }
  let total = 0;
  for (const abs of candidates) {
    try {
      const st = await fs.stat(abs);
      if (!st.isFile()) continue;
      const shown = shownPath(abs, ctx);
      if (total >= MAX_HASHED_BYTES_PER_HOOK) {
        opts.uncovered?.push({ code: 'size-cap', text: shown, message: `${shown} is not hashed: the files of this command exceed ${MAX_HASHED_BYTES_PER_HOOK / 1048576} MiB.` });
        continue;
      }
      const real = await fs.realpath(abs);
      const limit = Math.min(MAX_HASHED_BYTES_PER_FILE, MAX_HASHED_BYTES_PER_HOOK - total);
      const copy = opts.copyDir ? copyPathOf(opts.copyDir, abs, ctx) : undefined;
      const h = await hashAndCopy(real, limit, copy);
      total += h.hashed;
      const capped = h.size > h.hashed;
      if (capped) opts.uncovered?.push({ code: 'size-cap', text: shown, message: `only the first ${Math.round(h.hashed / 1048576)} MiB of ${shown} (${h.size} bytes) are hashed; a change after that is not seen.` });
      out.push({ abs, path: shown, sha256: h.sha256, size: h.size, outsideWorkspace: !isAncestorOrSelf(realProject, real), ...(capped ? { capped: true } : {}), ...(copy ? { copy } : {}) });
    } catch {
      // missing or unreadable: not a script we can hash (an unreadable script cannot run either)
    }
  }
  return out;
}

/**
 * Where the verified copy of `abs` lies in `copyDir`: `ws/<workspace-relative path>` for files in
 * the project folder, `root/<absolute path>` for others, so relative layouts (a script and the
 * sibling it sources) are kept.
 */
export function copyPathOf(copyDir: string, abs: string, ctx: ScriptContext): string {
  if (isAncestorOrSelf(ctx.projectDir, abs)) return path.join(copyDir, 'ws', path.relative(ctx.projectDir, abs));
  return path.join(copyDir, 'root', abs.replace(/^[A-Za-z]:/, '').replace(/^[/\\]+/, ''));
}

/** Reads at most `limit` bytes of one open descriptor, hashing them and (when `copy` is set) writing exactly those bytes to the copy. */
async function hashAndCopy(real: string, limit: number, copy: string | undefined): Promise<{ sha256: string; size: number; hashed: number }> {
  let fh: FileHandle | null = null;
  let out: FileHandle | null = null;
  try {
    fh = await fs.open(real, 'r');
    const st = await fh.stat();
    if (!st.isFile()) throw new Error('not a file');
    if (copy) {
      await fs.mkdir(path.dirname(copy), { recursive: true, mode: 0o700 });
      out = await fs.open(copy, 'wx', st.mode & 0o100 ? 0o700 : 0o600);
    }
    const hash = createHash('sha256');
    const buf = Buffer.alloc(1024 * 1024);
    let hashed = 0;
    while (hashed < limit) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, limit - hashed), hashed);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      hash.update(chunk);
      if (out) await out.write(chunk);
      hashed += bytesRead;
    }
    return { sha256: hash.digest('hex'), size: Math.max(st.size, hashed), hashed };
  } finally {
    await fh?.close().catch(() => undefined);
    await out?.close().catch(() => undefined);
  }
}

/** How a script path is shown and digested: relative inside the project, `~/…` under home, else absolute. */
export function shownPath(abs: string, ctx: ScriptContext): string {
  if (isAncestorOrSelf(ctx.projectDir, abs)) return path.relative(ctx.projectDir, abs).split(path.sep).join('/');
  if (isAncestorOrSelf(ctx.homeDir, abs)) return `~/${path.relative(ctx.homeDir, abs).split(path.sep).join('/')}`;
  return abs;
}

/** The entries of the digest for hashed scripts: path and sha256, plus the size of a capped file. */
export function digestScripts(scripts: readonly HashedScript[]): Array<{ path: string; sha256: string; size?: number }> {
  return scripts.map((s) => (s.capped ? { path: s.path, sha256: s.sha256, size: s.size } : { path: s.path, sha256: s.sha256 }));
}

/** Hex SHA-256 of a file's bytes (streamed). */
export function hashFile(abs: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const stream = createReadStream(abs);
    stream.on('data', (chunk) => hash.update(chunk));
    stream.on('error', reject);
    stream.on('end', () => resolve(hash.digest('hex')));
  });
}
