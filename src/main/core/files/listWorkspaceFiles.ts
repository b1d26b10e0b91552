import { promises as fs } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { runGit } from '../git/runGit';

/** Directory names never descended into, whatever `.gitignore` says. */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Default maximum directory depth below the root (the seed catalog's limit). */
export const DEFAULT_MAX_DEPTH = 32;

/** Options for {@link listWorkspaceFiles}. */
export interface ListWorkspaceFilesOptions {
  /** Maximum number of directory levels below `root` (default 32); deeper entries are left out. */
  maxDepth?: number;
  /**
   * Force the strategy: `git` uses `git ls-files`, `walk` reads directories and applies `.gitignore`
   * files with the `ignore` library. Default: `git` when `root` is inside a git work tree, else `walk`.
   */
  strategy?: 'git' | 'walk';
  /**
   * With the `git` strategy, leave out tracked files deleted from disk (default true). Callers that
   * read the files they care about anyway (the rule catalog) pass false to skip git's per-file
   * check, which doubles the cost of listing a 100,000-file tree.
   */
  verifyExistence?: boolean;
  /**
   * With the `git` strategy, called once with the tracked files (root-relative, before the depth
   * limit and `.git`/`node_modules` are applied, in git's order) as soon as git has listed them:
   * git reads its index in milliseconds, while finding the untracked files walks the whole tree.
   * Lets a caller start reading the files it wants while that walk runs. Not called for the walk.
   */
  onTracked?: (files: readonly string[]) => void;
}

/** Result of {@link listWorkspaceFiles}. */
export interface WorkspaceFileList {
  /** Root-relative POSIX paths of files and symlinks (not directories), sorted by code point. */
  files: string[];
  /** Which strategy produced the list. */
  strategy: 'git' | 'walk';
  /**
   * With the `git` strategy and `verifyExistence`: the tracked files left out because they are gone
   * from disk (same order and limits as `files`), so `files` plus these is exactly the list
   * `verifyExistence: false` gives (see `files/scan.ts`). Empty for the walk and without `verifyExistence`; a
   * lister standing in for this function (tests) may leave it out.
   */
  deleted?: string[];
  /**
   * What `maxDepth` left out (sorted): with the `git` strategy the files deeper than the limit
   * (root-relative, as in `files`); with the `walk` strategy the folders not descended into
   * (root-relative, ending in `/`). Never anything below `.git` or `node_modules`. Callers use it
   * to warn about the cut and to read the few deep files they must not miss. A lister standing in
   * for this function (tests) may leave it out.
   */
  beyondDepth?: string[];
}

/**
 * Lists the files of a workspace the way an agent sees its repository: everything tracked or
 * untracked-but-not-ignored, never anything below `.git` or `node_modules`, at most `maxDepth`
 * directories deep. In a git work tree this is `git ls-files --cached --others --exclude-standard`
 * (the same answer git gives, including nested `.gitignore`, `.git/info/exclude` and the global
 * excludes file); elsewhere a directory walk applies every `.gitignore` it meets.
 *
 * Tracked files deleted from disk are left out. Symlinks are listed, never followed.
 * Never throws for unreadable subdirectories (they are skipped); throws only when `root` itself
 * cannot be read.
 */
export async function listWorkspaceFiles(
  root: string,
  options: ListWorkspaceFilesOptions = {},
): Promise<WorkspaceFileList> {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const verifyExistence = options.verifyExistence ?? true;
  const early = options.strategy !== 'walk' && !verifyExistence ? takePrefetched(root) : null;
  const strategy = options.strategy ?? ((await (early?.inside ?? isInsideGitWorkTree(root))) ? 'git' : 'walk');
  const gone: string[] = [];
  const beyondDepth: string[] = [];
  const files = strategy === 'git' ? await listWithGit(root, verifyExistence, gone, options.onTracked, early) : await listWithWalk(root, maxDepth, beyondDepth);
  const kept: string[] = [];
  for (const rel of files) {
    const verdict = limitVerdict(rel, maxDepth);
    if (verdict === WITHIN) kept.push(rel);
    else if (verdict === TOO_DEEP) beyondDepth.push(rel);
  }
  // the default sort compares UTF-16 code units: the same order as compareCodePoints, much faster;
  // git's own listing is usually in that order already, which one pass confirms
  if (!isSorted(kept)) kept.sort();
  beyondDepth.sort();
  const deleted = gone.length === 0 ? gone : gone.filter((rel) => limitVerdict(rel, maxDepth) === WITHIN).sort();
  return { files: kept, strategy, deleted, beyondDepth };
}

/** Code-point order (not locale order), so results are identical on every machine. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const WITHIN = 0;
const SKIPPED = 1;
const TOO_DEEP = 2;

/** WITHIN, SKIPPED (below `.git`/`node_modules`, whatever the depth) or TOO_DEEP (more than `maxDepth` folders). */
function limitVerdict(rel: string, maxDepth: number): number {
  // called for every listed file: segments are compared in place, never sliced, and only when the
  // path holds a skipped name at all
  const check = SKIPPED_NAMES.some((name) => rel.includes(name));
  let depth = 0;
  let start = 0;
  let deep = false;
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
    if (check && SKIPPED_NAMES.some((name) => i - start === name.length && rel.startsWith(name, start))) return SKIPPED;
    if (++depth > maxDepth) deep = true;
    start = i + 1;
  }
  return deep ? TOO_DEEP : WITHIN;
}

const SKIPPED_NAMES: readonly string[] = [...ALWAYS_SKIPPED_DIRS];

/** Through the hardened runner: a folder that is itself a bare repository answers "no" (then the walk lists it). */
async function isInsideGitWorkTree(dir: string): Promise<boolean> {
  const r = await runGit(['rev-parse', '--is-inside-work-tree'], { cwd: dir });
  return r.code === 0 && r.stdout.trim() === 'true';
}

/**
 * `gone` receives the tracked files left out because they no longer exist on disk. Tracked and
 * untracked files are listed by two concurrent `git ls-files` (`--cached`, and `--others
 * --exclude-standard`, whose directory walk is most of the cost), so `onTracked` gets the tracked
 * ones early. `early` is a {@link prefetchGitListing} answer to use instead of running those two.
 * Returns every file once (git lists an unmerged path once per stage), both lists merged in
 * code-unit order when git gave them in that order (as it does), else tracked then untracked.
 */
async function listWithGit(root: string, verifyExistence: boolean, gone: string[], onTracked?: (files: readonly string[]) => void, early?: PrefetchedListing | null): Promise<string[]> {
  const tracked = (early?.cached ?? gitLs(root, ['--cached'])).then((files) => {
    const unique = withoutAdjacentRepeats(files);
    onTracked?.(unique);
    return unique;
  });
  const [cached, others, deleted] = await Promise.all([tracked, early?.others ?? gitLs(root, ['--others', '--exclude-standard']), verifyExistence ? gitLs(root, ['--deleted']) : Promise.resolve([])]);
  // a path is never both tracked and untracked, but repeats must not slip through: both lists are
  // normally in code-unit order, so one merge drops them without hashing 100,000 paths
  const listed = others.length === 0 ? cached : isSorted(cached) && isSorted(others) ? mergeUnique(cached, others) : [...new Set([...cached, ...others])];
  if (deleted.length === 0) return listed;
  // --cached lists tracked files even when they were deleted from disk; git's own --deleted check
  // (one lstat per index entry in C) is far cheaper than doing it from JavaScript.
  const deletedSet = new Set(deleted);
  const kept: string[] = [];
  for (const rel of listed) {
    if (!deletedSet.has(rel)) {
      kept.push(rel);
      continue;
    }
    try {
      await fs.lstat(path.join(root, rel)); // e.g. a tracked file replaced by a folder or symlink
      kept.push(rel);
    } catch {
      gone.push(rel); // deleted from disk
    }
  }
  return kept;
}

/** One `git ls-files -z ARGS -- .` in `root` through the hardened runner, as a list (an unmerged path once per stage). */
async function gitLs(root: string, args: string[]): Promise<string[]> {
  const r = await runGit(['ls-files', '-z', ...args, '--', '.'], { cwd: root, maxBuffer: 512 * 1024 * 1024 });
  if (r.code !== 0) throw new Error(`git ls-files failed in ${root}: ${r.error ?? r.stderr.trim()}`);
  return r.stdout === '' ? [] : r.stdout.slice(0, r.stdout.endsWith('\0') ? -1 : undefined).split('\0');
}

/** The git half of a listing started by {@link prefetchGitListing}, not yet used. */
interface PrefetchedListing {
  inside: Promise<boolean>;
  cached: Promise<string[]>;
  others: Promise<string[]>;
}

/** Started listings by root, each used at most once (then the next listing of that root runs git again). */
const prefetched = new Map<string, PrefetchedListing>();

/**
 * Starts the git part of a later `listWorkspaceFiles(root, { verifyExistence: false })` now: the
 * same three hardened git commands (`rev-parse --is-inside-work-tree`, `ls-files --cached`,
 * `ls-files --others --exclude-standard`), run at once. The next such listing of exactly `root`
 * (same string) takes their answers instead of starting its own; any other listing, and every
 * listing after that one, runs git itself. For a one-shot command (`atrium rules list DIR`) that
 * knows its folder before it has loaded the code that lists it: git's walk of a large tree (most
 * of the listing's time) then runs while that code loads. Resolves when git has answered; never
 * rejects: a failure reaches the listing that takes it, as its own would. A prefetch nobody takes
 * is simply dropped.
 */
export function prefetchGitListing(root: string): Promise<void> {
  const known = prefetched.get(root);
  if (known) return settledAll(known);
  const inside = isInsideGitWorkTree(root);
  const entry: PrefetchedListing = { inside, cached: gitLs(root, ['--cached']), others: gitLs(root, ['--others', '--exclude-standard']) };
  prefetched.set(root, entry);
  return settledAll(entry);
}

/** Resolves once every part of a prefetch has settled; never rejects (a failure is reported to the taker, if any). */
function settledAll(entry: PrefetchedListing): Promise<void> {
  return Promise.allSettled([entry.inside, entry.cached, entry.others]).then(() => undefined);
}

function takePrefetched(root: string): PrefetchedListing | null {
  const entry = prefetched.get(root);
  if (!entry) return null;
  prefetched.delete(root);
  return entry;
}

/** `files` without an entry equal to the one before it (git lists an unmerged path once per stage, next to each other); the same array when there is none. */
function withoutAdjacentRepeats(files: string[]): string[] {
  let i = 1;
  while (i < files.length && files[i] !== files[i - 1]) i++;
  if (i >= files.length) return files;
  return files.filter((rel, j) => j === 0 || rel !== files[j - 1]);
}

/** Two lists in code-unit order as one, each path once. */
function mergeUnique(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
    if (out.length === 0 || out[out.length - 1] !== next) out.push(next);
  }
  return out;
}

/** True when `list` is in UTF-16 code unit order (what `Array.prototype.sort` gives). */
function isSorted(list: readonly string[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i - 1] > list[i]) return false;
  return true;
}

async function listWithWalk(root: string, maxDepth: number, beyondDepth: string[]): Promise<string[]> {
  const out: string[] = [];
  await fs.access(root);
  const walk = async (relDir: string, depth: number, rules: Array<{ base: string; ig: Ignore }>) => {
    const absDir = path.join(root, relDir);
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(absDir, { withFileTypes: true });
    } catch {
      return; // unreadable subdirectory: skipped, never fatal
    }
    let scoped = rules;
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      try {
        const text = await fs.readFile(path.join(absDir, '.gitignore'), 'utf8');
        scoped = [...rules, { base: relDir, ig: ignore().add(text) }];
      } catch {
        // unreadable .gitignore: keep the parent rules
      }
    }
    for (const entry of entries) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      const isDir = entry.isDirectory();
      if (isDir && ALWAYS_SKIPPED_DIRS.has(entry.name)) continue;
      if (isIgnored(scoped, rel, isDir)) continue;
      if (isDir) {
        if (depth < maxDepth) await walk(rel, depth + 1, scoped);
        else beyondDepth.push(`${rel}/`);
      } else {
        out.push(rel);
      }
    }
  };
  await walk('', 0, []);
  return out;
}

function isIgnored(rules: Array<{ base: string; ig: Ignore }>, rel: string, isDir: boolean): boolean {
  for (const { base, ig } of rules) {
    const local = base ? rel.slice(base.length + 1) : rel;
    if (ig.ignores(isDir ? `${local}/` : local)) return true;
  }
  return false;
}
