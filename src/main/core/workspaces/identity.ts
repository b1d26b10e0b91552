import fs from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../shared/errors';
import type { GitInfo } from '../../../shared/contract';
import { runGitSync } from '../git/runGit';

/**
 * The canonical on-disk path of a folder: absolute realpath without a trailing separator, bytes as
 * on disk (so it can always be opened). Its identity for deduplication is `pathIdentity(result)`.
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
 * Identity key of a canonical path: the key a folder is deduplicated, trusted and approved under.
 * Two spellings get one key only where the file system itself treats them as one folder:
 *
 * - The bytes as given (no trailing separator) when the file system distinguishes Unicode
 *   normalisation forms. Linux (ext4, btrfs, xfs, tmpfs) and NTFS store names as given, so
 *   `café` in NFC and in NFD are two different folders there, and must be two trust decisions.
 * - The NFC spelling when that spelling resolves to the very same directory entry (same device and
 *   inode), i.e. on a normalisation-insensitive file system such as APFS or HFS+. The answer is
 *   probed per path, not assumed from the platform, so a case of both on one machine (a Linux
 *   mount of an HFS+ disk) is still judged by what the disk does.
 * - For a path that does not exist (a decision recorded ahead of the folder), nothing can be
 *   probed: NFC on macOS, whose native file systems are normalisation-insensitive, else the bytes.
 *
 * The key can always be opened where the path exists (it is either the path itself or a spelling
 * proven to reach the same entry). Never throws.
 */
export function pathIdentity(canonicalPath: string): string {
  const bytes = stripTrailingSeparators(canonicalPath);
  const nfc = bytes.normalize('NFC');
  if (nfc === bytes) return bytes;
  const own = statOrNull(bytes);
  if (own === null) return process.platform === 'darwin' ? nfc : bytes;
  const other = statOrNull(nfc);
  return other !== null && other.dev === own.dev && other.ino === own.ino ? nfc : bytes;
}

function statOrNull(p: string): fs.BigIntStats | null {
  try {
    return fs.statSync(p, { bigint: true });
  } catch {
    return null;
  }
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
 * file) and, for a linked worktree, its main checkout. A `.git` file (`gitdir: <path>`) makes the
 * folder a linked worktree only when {@link verifiedMainCheckout} proves git itself made and lists
 * it; any other `.git` file (a submodule, a bare repository's worktree, or a forged link) leaves the
 * folder a `repo` of its own, so it never shares another repository's trust. `hasCommits` tells
 * whether HEAD names a commit yet. Filesystem reads, plus at most one hardened `git worktree list`
 * (see `git/runGit.ts`) for a link that passed every filesystem check. Never throws.
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
      const main = verifiedMainCheckout(current);
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
    const text = readTextOrNull(dotGitFile);
    const match = text === null ? null : /^gitdir:\s*(.+)$/m.exec(text);
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
    const head = readTextOrNull(path.join(gitDir, 'HEAD'))?.trim();
    if (head === undefined) return null;
    const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (!ref) return /^[0-9a-f]{40,64}$/.test(head);
    const commondir = readTextOrNull(path.join(gitDir, 'commondir'));
    const commonDir = commondir !== null ? path.resolve(gitDir, commondir.trim()) : gitDir;
    if (fs.existsSync(path.join(commonDir, 'reftable'))) return null;
    if (fs.existsSync(path.join(gitDir, ref)) || fs.existsSync(path.join(commonDir, ref))) return true;
    const packed = path.join(commonDir, 'packed-refs');
    const packedText = readTextOrNull(packed, PACKED_REFS_MAX);
    return packedText !== null && packedText.split('\n').some((line) => line.endsWith(` ${ref}`));
  } catch {
    return null;
  }
}

/**
 * The main checkout of the linked worktree whose top is `workTree`, or null unless git itself
 * would accept the link. A `.git` file is only a claim, written by whoever wrote the folder; it is
 * accepted when all of these hold (the layout `git worktree add` writes, gitrepository-layout(5),
 * reproduced for git 2.39+):
 *
 * 1. `.git` says `gitdir: <admin>`, and `<admin>/commondir` names the common dir, whose base name
 *    is `.git` (a bare repository has no main checkout);
 * 2. realpath(`<admin>`) is exactly `realpath(<common>)/worktrees/<name>`, so the admin dir lives in
 *    the main repository's own `.git`, not in the folder that claims it;
 * 3. `<admin>/gitdir` (absolute, or relative to the admin dir as `--relative-paths` writes it)
 *    points back at this folder's `.git` file (realpath compare), so the claim is not borrowed
 *    from another, genuine worktree;
 * 4. `git worktree list --porcelain -z`, run through the hardened runner in the main checkout,
 *    lists `workTree` (realpath compare).
 *
 * Check 4's answer is reused while every input it depends on is unchanged (see
 * {@link WORKTREE_LIST_CACHE}); checks 1–3 are read afresh on every call. Never throws.
 */
export function verifiedMainCheckout(workTree: string): string | null {
  try {
    const dotGit = path.join(workTree, '.git');
    const declared = gitDirOfFile(dotGit);
    if (!declared) return null;
    const admin = realpathOrNull(declared);
    if (!admin) return null;
    const commondir = readTextOrNull(path.join(admin, 'commondir'));
    if (commondir === null) return null; // a submodule's .git file: not a linked worktree
    const common = realpathOrNull(path.resolve(admin, commondir.trim()));
    if (!common || path.basename(common) !== '.git') return null; // bare repository: no main checkout
    if (path.dirname(admin) !== path.join(common, 'worktrees') || path.basename(admin) === '') return null;
    const back = readTextOrNull(path.join(admin, 'gitdir'));
    if (back === null || back.trim() === '') return null;
    const pointsAt = realpathOrNull(path.resolve(admin, back.trim()));
    const self = realpathOrNull(dotGit);
    if (!pointsAt || !self || pointsAt !== self) return null;
    const main = stripTrailingSeparators(path.dirname(common));
    const realWorkTree = realpathOrNull(workTree);
    if (!realWorkTree || !gitListsWorktree(main, common, admin, back, realWorkTree)) return null;
    return main;
  } catch {
    return null;
  }
}

/**
 * `git worktree list` answers, by main checkout + worktree, with the signature of what git read to
 * give them. An entry is reused only when the signature still matches (same `worktrees/` folder and
 * admin dir metadata, same `gitdir` contents), so a changed layout is always asked again; it is
 * bounded so a long-running engine does not grow it without limit.
 */
const WORKTREE_LIST_CACHE = new Map<string, { signature: string; listed: boolean }>();
const WORKTREE_LIST_CACHE_MAX = 256;

function gitListsWorktree(main: string, common: string, admin: string, gitdirText: string, realWorkTree: string): boolean {
  const key = `${main}\0${realWorkTree}`;
  const signature = [statSignature(common), statSignature(path.join(common, 'worktrees')), statSignature(admin), statSignature(path.join(admin, 'gitdir')), gitdirText].join('\0');
  const cached = WORKTREE_LIST_CACHE.get(key);
  if (cached && cached.signature === signature) return cached.listed;
  const result = runGitSync(['worktree', 'list', '--porcelain', '-z'], { cwd: main, timeoutMs: 10_000 });
  const listed =
    result.code === 0 &&
    result.stdout
      .split('\0')
      .filter((field) => field.startsWith('worktree '))
      .some((field) => realpathOrNull(field.slice('worktree '.length)) === realWorkTree);
  if (result.code === 0) {
    if (WORKTREE_LIST_CACHE.size >= WORKTREE_LIST_CACHE_MAX) WORKTREE_LIST_CACHE.delete(WORKTREE_LIST_CACHE.keys().next().value as string);
    WORKTREE_LIST_CACHE.set(key, { signature, listed });
  }
  return listed;
}

function statSignature(p: string): string {
  try {
    const s = fs.statSync(p, { bigint: true });
    return `${s.dev}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}:${s.size}`;
  } catch {
    return '-';
  }
}

function realpathOrNull(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

/** Most bytes read of a `.git` file or an admin dir's `commondir`/`gitdir` (git writes one short line). */
const LINK_FILE_MAX = 16 * 1024;
/** Most bytes of `packed-refs` searched for HEAD's branch (a huge monorepo's file is a few MiB). */
const PACKED_REFS_MAX = 64 * 1024 * 1024;

/**
 * The first `max` bytes of a regular file as UTF-8, or null (missing, a folder, unreadable). Opened
 * non-blocking and checked to be a regular file first, so a FIFO planted where git keeps a small
 * file cannot stall the engine.
 */
function readTextOrNull(file: string, max = LINK_FILE_MAX): string | null {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return null;
    const buffer = Buffer.alloc(Math.min(max, stat.size));
    const n = buffer.length === 0 ? 0 : fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/**
 * The directory whose trust decision governs `canonicalPath`: for a folder inside a linked
 * worktree git itself lists (see {@link verifiedMainCheckout}), the matching directory in the main
 * checkout (so all worktrees of a repository share one decision); otherwise the folder itself.
 * Derived from the disk at every call and never stored: a `.git` file written or removed after a
 * folder was listed changes the answer at once, for every surface alike.
 */
export function trustRootOf(canonicalPath: string, git: GitInfo = inspectGit(canonicalPath)): string {
  if (git.kind !== 'worktree' || !git.workTree || !git.mainCheckout) return canonicalPath;
  const rel = path.relative(git.workTree, canonicalPath);
  return stripTrailingSeparators(rel ? path.join(git.mainCheckout, rel) : git.mainCheckout);
}
