import { promises as fs } from 'node:fs';
import path from 'node:path';
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
}

/**
 * Finds project rule files under the catalog root (issue 4 §2): the workspace file list
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
  return { files: listedFiles, strategy, candidates, warnings };
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
      await fs.lstat(absolutePath);
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
 * Finds user-level rule files in `homeDir` (issue 4 §2 "User level"): `~/.claude/CLAUDE.md`,
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
      await fs.lstat(absolutePath);
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
