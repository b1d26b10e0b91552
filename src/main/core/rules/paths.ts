import fs from 'node:fs';
import path from 'node:path';
import { inspectGit, pathIdentity } from '../workspaces/identity';

/** Converts a native relative path to POSIX separators. */
export function toPosix(rel: string): string {
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/**
 * Catalog root of a workspace folder: the git work tree containing it (nearest
 * ancestor-or-self with a `.git` directory or file), else the folder itself; realpath'd, keyed by
 * `pathIdentity` (the on-disk bytes where NFC and NFD are different folders).
 * `workspaceDir` must exist. Never throws for a missing `.git`.
 */
export function findCatalogRoot(workspaceDir: string): string {
  const real = realpathOrSelf(workspaceDir);
  const git = inspectGit(real);
  return pathIdentity(git.workTree ? realpathOrSelf(git.workTree) : real);
}

/** True when the catalog root is a git work tree (has `.git`), as Codex's root marker requires. */
export function isGitWorkTree(root: string): boolean {
  try {
    fs.lstatSync(path.join(root, '.git'));
    return true;
  } catch {
    return false;
  }
}

/** realpath of `p`, or `p` unchanged when it cannot be resolved. */
export function realpathOrSelf(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

/**
 * Canonicalises a possibly non-existent absolute path: realpath of its longest existing prefix
 * plus the remaining segments, keyed by `pathIdentity` (seed §4.5 contextual targets). Never throws.
 */
export function canonicalizeTarget(absolute: string): string {
  let existing = path.resolve(absolute);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = fs.realpathSync.native(existing);
      return pathIdentity(rest.length ? path.join(real, ...rest.reverse()) : real);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return pathIdentity(path.resolve(absolute));
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * Root-relative POSIX path of a canonical absolute path, or null when it lies outside `root`.
 * The root itself gives ''.
 */
export function relativeToRoot(root: string, canonical: string): string | null {
  const rel = path.relative(root, canonical);
  if (rel === '') return '';
  if (isOutside(rel)) return null;
  return toPosix(rel);
}

/** True when root-relative `scope` is an ancestor-or-self of root-relative `target` ('' contains all). */
export function scopeContains(scope: string, target: string): boolean {
  return scope === '' || target === scope || target.startsWith(`${scope}/`);
}

/** `target` made relative to `scope` (both root-relative, `scopeContains(scope, target)` must hold). */
export function relativeToScope(scope: string, target: string): string {
  return scope === '' ? target : target.slice(scope.length + 1);
}

/** Root-relative ancestors of a root-relative path, root ('') first, the path itself last. */
export function ancestorsOf(rel: string): string[] {
  if (rel === '') return [''];
  const parts = rel.split('/');
  const out = [''];
  for (let i = 1; i <= parts.length; i++) out.push(parts.slice(0, i).join('/'));
  return out;
}

/** Display path of a file in the home directory (`~/.claude/CLAUDE.md`), POSIX separators. */
export function homeDisplay(homeDir: string, absolute: string): string {
  return `~/${toPosix(path.relative(homeDir, absolute))}`;
}

/** True when canonical `child` is `parent` or inside it. */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || !isOutside(rel);
}

function isOutside(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}
