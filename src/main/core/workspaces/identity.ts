import fs from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../shared/errors';
import type { GitInfo } from '../../../shared/contract';

/**
 * The canonical on-disk path of a folder: absolute realpath without a trailing separator, bytes as
 * on disk (so it can always be opened). Its identity for deduplication is `normalizeCanonical(result)`.
 *
 * @throws AtriumError PATH_NOT_ABSOLUTE | PATH_NOT_FOUND | NOT_A_DIRECTORY | PATH_UNREADABLE, each
 *   with a message that says what to do.
 */
export function canonicalDirectory(input: string): string {
  const raw = input.trim();
  if (!path.isAbsolute(raw)) {
    throw new AtriumError('PATH_NOT_ABSOLUTE', `"${input}" is a relative path. Give the folder's full path, e.g. /home/you/src/project.`);
  }
  let real: string;
  try {
    real = fs.realpathSync.native(raw);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES') throw new AtriumError('PATH_UNREADABLE', `Atrium may not read "${raw}". Check the folder's permissions.`);
    throw new AtriumError('PATH_NOT_FOUND', `"${raw}" does not exist. Check the spelling, or create the folder first.`);
  }
  const stat = fs.statSync(real);
  if (!stat.isDirectory()) {
    throw new AtriumError('NOT_A_DIRECTORY', `"${raw}" is a file, not a folder. Choose the folder that contains it.`);
  }
  try {
    fs.accessSync(real, fs.constants.R_OK | fs.constants.X_OK);
    fs.readdirSync(real);
  } catch {
    throw new AtriumError('PATH_UNREADABLE', `Atrium may not read "${raw}". Check the folder's permissions.`);
  }
  return stripTrailingSeparators(real);
}

/** Strips trailing separators (except for the filesystem root). */
export function stripTrailingSeparators(p: string): string {
  const trimmed = p.replace(/[\\/]+$/, '');
  return trimmed === '' ? path.parse(p).root : trimmed;
}

/**
 * Identity key of a canonical path: Unicode NFC, no trailing separator. Two spellings of one
 * folder (symlink, trailing slash, NFD names as macOS writes them) get one identity. Use it as a
 * lookup key, never to open files (on Linux an NFD name on disk differs from its NFC key).
 */
export function normalizeCanonical(canonicalPath: string): string {
  return stripTrailingSeparators(canonicalPath.normalize('NFC'));
}

/** True when `dir` exists and is a directory (used to flag `missing` workspaces; never throws). */
export function isExistingDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Finds the git work tree containing `dir` (nearest ancestor-or-self with a `.git` directory or
 * file) and, for a linked worktree, its main checkout. A linked worktree's `.git` is a file
 * `gitdir: <path>`; that admin dir holds `commondir` (relative path to the shared `.git`), whose
 * parent is the main checkout. `hasCommits` tells whether HEAD names a commit yet. Pure filesystem
 * reads, no `git` process. Never throws.
 */
export function inspectGit(dir: string): GitInfo {
  let current = dir;
  for (;;) {
    const dotGit = path.join(current, '.git');
    let stat: fs.Stats | null = null;
    try {
      stat = fs.lstatSync(dotGit);
    } catch {
      stat = null;
    }
    if (stat?.isDirectory()) return withCommits({ kind: 'repo', workTree: current, mainCheckout: null }, dotGit);
    if (stat?.isFile()) {
      const main = mainCheckoutOfLinkedWorktree(dotGit);
      const gitDir = gitDirOfFile(dotGit);
      return main
        ? withCommits({ kind: 'worktree', workTree: current, mainCheckout: main }, gitDir)
        : withCommits({ kind: 'repo', workTree: current, mainCheckout: null }, gitDir);
    }
    const parent = path.dirname(current);
    if (parent === current) return { kind: 'none', workTree: null, mainCheckout: null };
    current = parent;
  }
}

/** Adds `hasCommits` when it could be read from `gitDir` (left out when unknown). */
function withCommits(info: GitInfo, gitDir: string | null): GitInfo {
  const has = gitDir ? headHasCommit(gitDir) : null;
  return has === null ? info : { ...info, hasCommits: has };
}

/** The git dir a `.git` file points at (`gitdir: <path>`, relative to the file), or null. */
function gitDirOfFile(dotGitFile: string): string | null {
  try {
    const match = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGitFile, 'utf8'));
    return match ? path.resolve(path.dirname(dotGitFile), match[1].trim()) : null;
  } catch {
    return null;
  }
}

/**
 * Whether HEAD in `gitDir` names a commit, read the way git lays it out (gitrepository-layout):
 * a detached HEAD holds an object id; `ref: refs/heads/<branch>` counts when the branch exists as a
 * loose ref file or a `packed-refs` line in the common dir (`commondir` for a linked worktree).
 * False right after `git init` (the branch is "unborn"); null when unreadable or the repository
 * uses the reftable format, which these reads do not parse.
 */
function headHasCommit(gitDir: string): boolean | null {
  try {
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (!ref) return /^[0-9a-f]{40,64}$/.test(head);
    const commondirFile = path.join(gitDir, 'commondir');
    const commonDir = fs.existsSync(commondirFile) ? path.resolve(gitDir, fs.readFileSync(commondirFile, 'utf8').trim()) : gitDir;
    if (fs.existsSync(path.join(commonDir, 'reftable'))) return null;
    if (fs.existsSync(path.join(gitDir, ref)) || fs.existsSync(path.join(commonDir, ref))) return true;
    const packed = path.join(commonDir, 'packed-refs');
    return fs.existsSync(packed) && fs.readFileSync(packed, 'utf8').split('\n').some((line) => line.endsWith(` ${ref}`));
  } catch {
    return null;
  }
}

function mainCheckoutOfLinkedWorktree(dotGitFile: string): string | null {
  try {
    const text = fs.readFileSync(dotGitFile, 'utf8');
    const match = /^gitdir:\s*(.+)$/m.exec(text);
    if (!match) return null;
    const adminDir = path.resolve(path.dirname(dotGitFile), match[1].trim());
    const commondirFile = path.join(adminDir, 'commondir');
    if (!fs.existsSync(commondirFile)) return null; // a submodule's .git file: not a linked worktree
    const commonDir = fs.realpathSync.native(path.resolve(adminDir, fs.readFileSync(commondirFile, 'utf8').trim()));
    if (path.basename(commonDir) !== '.git') return null; // bare repository: no main checkout
    return stripTrailingSeparators(path.dirname(commonDir));
  } catch {
    return null;
  }
}

/**
 * The directory whose trust decision governs `canonicalPath`: for a folder inside a linked
 * worktree, the matching directory in the main checkout (so all worktrees of a repository share
 * one decision); otherwise the folder itself.
 */
export function trustRootOf(canonicalPath: string, git: GitInfo = inspectGit(canonicalPath)): string {
  if (git.kind !== 'worktree' || !git.workTree || !git.mainCheckout) return canonicalPath;
  const rel = path.relative(git.workTree, canonicalPath);
  return stripTrailingSeparators(rel ? path.join(git.mainCheckout, rel) : git.mainCheckout);
}
