import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileIo } from '../files/fileIo';
import { directFileAccess, type WorkspaceLister } from '../files/scan';
import { classifyProjectPath, classifyUserPath } from './classify';
import { RULE_LIMITS } from './limits';
import type { RuleCandidate } from './loadRule';
import { ancestorsOf, homeDisplay, relativeToRoot, toPosix } from './paths';
import type { RuleFinding } from './types';
import { warning } from './warnings';

/** Result of {@link discoverProject}. */
export interface ProjectDiscovery {
  /** Every workspace file (root-relative POSIX, code-point sorted), for pattern counts and completion. */
  files: string[];
  strategy: 'git' | 'walk' | 'none';
  candidates: RuleCandidate[];
  warnings: RuleFinding[];
  /** Nested git repositories, submodules and worktrees whose files were listed (outermost first). */
  nestedRoots: NestedRoot[];
}

/** A git repository inside the catalog root that the root's own listing does not descend into. */
export interface NestedRoot {
  /** Root-relative folder (the one holding its `.git`). */
  readonly path: string;
  /**
   * `submodule`: a gitlink of the parent with a `.git` file (`gitdir: …/modules/…`);
   * `worktree`: a `.git` file pointing to `<main>/.git/worktrees/<name>`; `repository`: a `.git`
   * folder (an untracked clone or `git init` below the root).
   */
  readonly kind: 'submodule' | 'worktree' | 'repository';
}

/**
 * Finds project rule files under the catalog root: the workspace file list
 * (`listWorkspaceFiles`: `.gitignore` respected, `.git`/`node_modules` skipped, depth ≤ 32)
 * filtered by {@link classifyProjectPath}. Deeper rule files are left out with a `depth-limit`
 * catalog warning, except those of the folders from the root to the workspace folder, which are
 * always read. `CLAUDE.local.md` is meant to be untracked and is
 * usually gitignored, so it is also looked for directly in the root, the folders between the root
 * and the workspace folder, and the scope folder of every other rule file. Never throws: a listing
 * failure becomes a catalog warning and an empty list. `files` lists (a build's `WorkspaceScan`, so
 * the extension discovery reuses the same listing; default: a listing of its own).
 */
export async function discoverProject(root: string, workspaceDir: string, files: WorkspaceLister = directFileAccess): Promise<ProjectDiscovery> {
  let listedFiles: string[] = [];
  let strategy: ProjectDiscovery['strategy'] = 'none';
  let beyondDepth: string[] = [];
  const warnings: RuleFinding[] = [];
  try {
    const listed = await files.list(root, { maxDepth: RULE_LIMITS.maxDepth, verifyExistence: false });
    listedFiles = listed.files;
    strategy = listed.strategy;
    beyondDepth = listed.beyondDepth ?? [];
  } catch (error) {
    warnings.push({
      ...warning('listing-failed', 'error', `The workspace files could not be listed: ${error instanceof Error ? error.message : String(error)}`, null, 'Check that the folder is readable.'),
      path: null,
    });
  }
  let nestedRoots: NestedRoot[] = [];
  if (strategy === 'git') {
    const nested = await listNestedRepositories(root, listedFiles, files, warnings);
    listedFiles = nested.files;
    nestedRoots = nested.roots;
    if (nested.beyondDepth.length > 0) beyondDepth = mergeSortedUnique(beyondDepth, nested.beyondDepth);
  }
  const candidates: RuleCandidate[] = [];
  for (const rel of listedFiles) {
    const classification = classifyProjectPath(rel);
    if (classification) candidates.push({ relativePath: rel, absolutePath: path.join(root, rel), classification });
  }
  const workspaceRel = relativeToRoot(root, workspaceDir) ?? '';
  const deep = deepStartChain(workspaceRel, strategy, beyondDepth);
  if (deep.files.length > 0) {
    listedFiles = mergeSortedUnique(listedFiles, deep.files);
    for (const rel of deep.files) candidates.push({ relativePath: rel, absolutePath: path.join(root, rel), classification: classifyProjectPath(rel)! });
  }
  const cut = depthCutWarning(strategy, beyondDepth, new Set(deep.files), new Set(ancestorsOf(workspaceRel)));
  if (cut) warnings.push(cut);
  candidates.push(...(await probeLocalFiles(root, workspaceDir, candidates)));
  return { files: listedFiles, strategy, candidates, warnings, nestedRoots };
}

/**
 * Lists the files of the git repositories nested below the root, which `git ls-files` of the
 * root does not descend into: submodules (gitlinks named in `.gitmodules`), nested worktrees and
 * untracked repositories (git lists those as `folder/`). Each is listed with its own
 * `git ls-files` (its own `.gitignore`), through the hardened git runner (no hooks, no fsmonitor,
 * nothing of the nested repository's configuration runs), depth counted from the catalog root;
 * nested ones inside them too. Repositories the root's `.gitignore` ignores are not listed
 * (git does not report them, and their files are not part of the workspace an agent sees).
 * An uninitialised submodule (no `.git`) has no files. Returns the merged, sorted list without
 * the `folder/` entries, the roots found (outermost first) and the files cut by the depth limit.
 */
async function listNestedRepositories(root: string, listed: string[], files: WorkspaceLister, warnings: RuleFinding[]): Promise<{ files: string[]; roots: NestedRoot[]; beyondDepth: string[] }> {
  const roots: NestedRoot[] = [];
  const beyondDepth: string[] = [];
  let all = listed;
  const queue = await nestedCandidates(root, '', listed);
  if (queue.length === 0) return { files: listed, roots, beyondDepth };
  const found: string[][] = [];
  const seen = new Set<string>();
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (seen.has(next)) continue;
    seen.add(next);
    const kind = await nestedKind(path.join(root, next));
    if (!kind) continue;
    const depth = next.split('/').length;
    if (depth >= RULE_LIMITS.maxDepth) continue; // its files are beyond the limit anyway
    roots.push({ path: next, kind });
    try {
      const inner = await files.list(path.join(root, next), { maxDepth: RULE_LIMITS.maxDepth - depth, verifyExistence: false });
      if (inner.strategy !== 'git') continue; // a broken .git link: its files would not be a repository's
      found.push(inner.files.map((rel) => `${next}/${rel}`));
      for (const rel of inner.beyondDepth ?? []) beyondDepth.push(`${next}/${rel}`);
      queue.push(...(await nestedCandidates(root, next, inner.files)));
    } catch (error) {
      warnings.push({
        ...warning('nested-listing-failed', 'warning', `The files of the nested repository ${next}/ could not be listed, so its rule files are not in the catalog: ${error instanceof Error ? error.message : String(error)}`, null, 'Check that the folder and its .git are readable.'),
        path: null,
      });
    }
  }
  all = mergeSortedUnique(
    all.filter((rel) => !rel.endsWith('/')),
    found.flat().filter((rel) => !rel.endsWith('/')),
  );
  roots.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files: all, roots, beyondDepth: beyondDepth.sort() };
}

/** Root-relative folders of a listing (of `base`) that may be nested repositories: `folder/` entries and `.gitmodules` paths. */
async function nestedCandidates(root: string, base: string, listing: readonly string[]): Promise<string[]> {
  const prefix = base ? `${base}/` : '';
  const out = listing.filter((rel) => rel.endsWith('/')).map((rel) => `${prefix}${rel.slice(0, -1)}`);
  if (listing.includes('.gitmodules')) {
    let text = '';
    try {
      text = await fs.readFile(path.join(root, prefix, '.gitmodules'), 'utf8');
    } catch {
      // unreadable: no submodules known
    }
    const listed = new Set(listing);
    for (const m of text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)) {
      const rel = m[1].replace(/^"(.*)"$/, '$1');
      if (listed.has(rel) && !rel.split('/').includes('..')) out.push(`${prefix}${rel}`);
    }
  }
  return out;
}

/** What kind of repository `dir` is by its `.git` (read, never executed), or null when it has none. */
async function nestedKind(dir: string): Promise<NestedRoot['kind'] | null> {
  let stat: import('node:fs').Stats;
  try {
    stat = await fs.lstat(path.join(dir, '.git'));
  } catch {
    return null;
  }
  if (stat.isDirectory()) return 'repository';
  if (!stat.isFile()) return null;
  let text = '';
  try {
    text = await fs.readFile(path.join(dir, '.git'), 'utf8');
  } catch {
    return null;
  }
  const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
  if (!gitdir) return null;
  return /[\\/]worktrees[\\/][^\\/]+[\\/]?$/.test(gitdir) ? 'worktree' : 'submodule';
}

/**
 * Rule files of the folders from the root down to the workspace folder that lie deeper than
 * {@link RULE_LIMITS.maxDepth}: always read, so a workspace folder 40 levels down still gets its
 * own AGENTS.md/CLAUDE.md (every agent reads the start folder's file whatever its depth). They
 * come from the cut part of git's own listing, so `.gitignore` still applies. Only the git listing
 * can have such a chain: without git the catalog root is the workspace folder itself.
 */
function deepStartChain(workspaceRel: string, strategy: ProjectDiscovery['strategy'], beyondDepth: readonly string[]): { files: string[] } {
  if (beyondDepth.length === 0 || strategy !== 'git') return { files: [] };
  const chain = new Set(ancestorsOf(workspaceRel));
  return {
    files: beyondDepth.filter((rel) => {
      const c = classifyProjectPath(rel);
      return c !== null && c.source !== 'local' && chain.has(c.scope); // CLAUDE.local.md: probeLocalFiles
    }),
  };
}

/**
 * The catalog warning for rule files cut by the depth limit (with git: the rule files found in
 * the cut part of the listing, minus the start chain read anyway; with the walk: the folders not
 * read, since their contents are unknown). Null when nothing relevant was cut.
 */
function depthCutWarning(strategy: ProjectDiscovery['strategy'], beyondDepth: readonly string[], readAnyway: ReadonlySet<string>, chain: ReadonlySet<string>): RuleFinding | null {
  const limit = RULE_LIMITS.maxDepth;
  const fix = `Open a folder closer to those files as the workspace (the folders from the repository root to the workspace folder are always read), or move the rules higher up.`;
  const folderOf = (rel: string) => rel.split('/').slice(0, limit + 1).join('/');
  if (strategy === 'git') {
    const lost = beyondDepth.filter((rel) => {
      if (readAnyway.has(rel)) return false;
      const c = classifyProjectPath(rel);
      return c !== null && !(c.source === 'local' && chain.has(c.scope)); // CLAUDE.local.md of the chain: probed below
    });
    if (lost.length === 0) return null;
    const message = `${lost.length} rule file${lost.length === 1 ? '' : 's'} lie${lost.length === 1 ? 's' : ''} more than ${limit} folders below the repository root and ${lost.length === 1 ? 'is' : 'are'} not in the catalog; the first cut folder is ${folderOf(lost[0])}/ (${lost[0]}).`;
    return { ...warning('depth-limit', 'warning', message, null, fix), path: null };
  }
  if (strategy === 'walk' && beyondDepth.length > 0) {
    const message = `Folders more than ${limit} levels below the workspace root are not read, so any rule files in them are not in the catalog; the first cut folder is ${beyondDepth[0]}.`;
    return { ...warning('depth-limit', 'info', message, null, fix), path: null };
  }
  return null;
}

/** Two sorted lists as one sorted list without repeats. */
function mergeSortedUnique(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

async function probeLocalFiles(root: string, workspaceDir: string, known: RuleCandidate[]): Promise<RuleCandidate[]> {
  const knownPaths = new Set(known.map((c) => c.relativePath));
  const dirs = new Set<string>(ancestorsOf(relativeToRoot(root, workspaceDir) ?? ''));
  for (const c of known) dirs.add(c.classification.scope);
  const found: RuleCandidate[] = [];
  for (const dir of dirs) {
    const rel = dir ? `${dir}/CLAUDE.local.md` : 'CLAUDE.local.md';
    if (knownPaths.has(rel)) continue;
    const absolutePath = path.join(root, rel);
    try {
      await fileIo().lstat(absolutePath);
    } catch {
      continue;
    }
    const classification = classifyProjectPath(rel)!;
    found.push({
      relativePath: rel,
      absolutePath,
      classification,
      notes: [warning('untracked-local', 'info', 'Ignored by git, as a personal CLAUDE.local.md should be; Atrium loads it anyway, like Claude Code.', null, null)],
    });
  }
  return found;
}

/**
 * Finds user-level rule files in `homeDir`: `~/.claude/CLAUDE.md`,
 * `~/.claude/rules/**\/*.md`, `~/.codex/AGENTS.override.md` and `~/.codex/AGENTS.md`,
 * `~/.gemini/GEMINI.md`. Relative paths are shown as `~/…`. Never throws.
 */
export async function discoverUser(homeDir: string): Promise<RuleCandidate[]> {
  const out: RuleCandidate[] = [];
  const add = (absolutePath: string) => {
    const homeRel = toPosix(path.relative(homeDir, absolutePath));
    const classification = classifyUserPath(homeRel);
    if (classification) out.push({ relativePath: homeDisplay(homeDir, absolutePath), absolutePath, classification });
  };
  for (const rel of ['.claude/CLAUDE.md', '.codex/AGENTS.override.md', '.codex/AGENTS.md', '.gemini/GEMINI.md']) {
    const absolutePath = path.join(homeDir, rel);
    try {
      await fileIo().lstat(absolutePath);
      add(absolutePath);
    } catch {
      // absent: nothing to load
    }
  }
  for (const file of await walkMarkdown(path.join(homeDir, '.claude', 'rules'))) add(file);
  return out;
}

/** `.md` files below `dir` (symlinked folders followed once, depth ≤ 32), sorted. */
async function walkMarkdown(dir: string): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = async (current: string, depth: number): Promise<void> => {
    let real: string;
    try {
      real = await fs.realpath(current);
    } catch {
      return;
    }
    if (seen.has(real) || depth > RULE_LIMITS.maxDepth) return;
    seen.add(real);
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        try {
          isDir = (await fs.stat(full)).isDirectory();
        } catch {
          isDir = false;
        }
      }
      if (isDir) await walk(full, depth + 1);
      else if (entry.name.endsWith('.md')) out.push(full);
    }
  };
  await walk(dir, 0);
  return out.sort();
}
