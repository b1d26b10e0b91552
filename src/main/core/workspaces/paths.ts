import fs from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../shared/errors';
import { canonicalDirectory, inspectGit, pathIdentity, stripTrailingSeparators, trustRootOf } from './identity';

/**
 * Canonical on-disk form of a folder a decision may be recorded for, even when it does not exist
 * (yet): an existing directory is canonicalised with {@link canonicalDirectory} (realpath), so every
 * spelling of it (symlink, trailing slash) names one folder; a missing one is resolved lexically
 * below its deepest existing ancestor (whose realpath is used), so `/tmp/link/new` and
 * `/real/new` still agree. Decisions are keyed by {@link trustKey} of this path.
 *
 * @throws AtriumError PATH_NOT_ABSOLUTE for a relative path; NOT_A_DIRECTORY / PATH_UNREADABLE
 *   for an existing file or unreadable folder (from `canonicalDirectory`).
 */
export function canonicalFolder(input: string): string {
  const raw = input.trim();
  if (!path.isAbsolute(raw)) {
    throw new AtriumError('PATH_NOT_ABSOLUTE', `"${input}" is a relative path. Give the folder's full path, e.g. /home/you/src/project.`);
  }
  try {
    return canonicalDirectory(raw);
  } catch (error) {
    if (!(error instanceof AtriumError) || error.code !== 'PATH_NOT_FOUND') throw error;
  }
  const resolved = path.resolve(raw);
  const missing: string[] = [];
  let current = resolved;
  for (;;) {
    const parent = path.dirname(current);
    missing.unshift(path.basename(current));
    if (parent === current) return stripTrailingSeparators(resolved);
    current = parent;
    let real: string | null = null;
    try {
      real = fs.realpathSync.native(current);
    } catch {
      real = null;
    }
    if (real !== null) return stripTrailingSeparators(path.join(real, ...missing));
  }
}

/**
 * The key a decision is stored under: the identity of a canonical path ({@link pathIdentity}): its
 * bytes where the file system tells NFC and NFD spellings apart (Linux: two folders, two decisions),
 * NFC where both spellings reach one folder (APFS, HFS+: one folder, one decision).
 */
export function trustKey(canonicalPath: string): string {
  return pathIdentity(canonicalPath);
}

/**
 * `{path, trustRoot}` of a folder: canonical path and the directory whose decision governs it;
 * `worktreeOf` is the main checkout when the folder lies in a linked worktree (undefined: not known,
 * derived from the disk when needed).
 */
export interface ResolvedFolder {
  path: string;
  trustRoot: string;
  worktreeOf?: string | null;
}

/**
 * Canonicalises `input` ({@link canonicalFolder}) and derives its trust root now (a linked worktree
 * git lists → its main checkout; see `trustRootOf`). Every surface resolves trust through this or
 * {@link resolveCanonical}, so none can disagree with another.
 */
export function resolveFolder(input: string): ResolvedFolder {
  return resolveCanonical(canonicalFolder(input));
}

/** `{path, trustRoot}` of an already canonical path (a listed workspace's), trust root derived now. */
export function resolveCanonical(canonical: string): ResolvedFolder {
  const git = inspectGit(canonical);
  return { path: canonical, trustRoot: trustRootOf(canonical, git), worktreeOf: git.kind === 'worktree' ? git.mainCheckout : null };
}

/** Every ancestor-or-self of an absolute canonical path, deepest first (`/a/b` → `/a/b`, `/a`, `/`). */
export function ancestorsOrSelf(dir: string): string[] {
  const out: string[] = [];
  let current = dir;
  for (;;) {
    out.push(current);
    const parent = path.dirname(current);
    if (parent === current) return out;
    current = parent;
  }
}

/** True when `ancestor` equals `dir` or contains it (both canonical, absolute). */
export function isAncestorOrSelf(ancestor: string, dir: string): boolean {
  if (ancestor === dir) return true;
  const rel = path.relative(ancestor, dir);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Identity key of the home directory (realpath when it exists, else lexical). Never throws. */
export function canonicalHome(homeDir: string): string {
  try {
    return trustKey(canonicalFolder(path.resolve(homeDir)));
  } catch {
    return pathIdentity(path.resolve(homeDir));
  }
}

/** Displays `p` with the home directory shortened to `~` (for human CLI output only). */
export function tildify(p: string, home: string): string {
  if (p === home) return '~';
  return isAncestorOrSelf(home, p) ? `~${p.slice(home.length)}` : p;
}
