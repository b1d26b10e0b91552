import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ALWAYS_SKIPPED_DIRS } from '../files/listWorkspaceFiles';
import { directFileAccess, WorkspaceScan, type FileAccess, type FileReader } from '../files/scan';
import { pathIdentity } from '../workspaces/identity';
import { assembleCatalog } from './assemble';
import { RuleCatalog } from './catalog';
import { classifyProjectPath, classifyUserPath } from './classify';
import { discoverProject, discoverUser, type NestedRoot } from './discover';
import { IgnoreMatcher, isIgnoredByGit } from './ignoreMatcher';
import type { ImportContext } from './imports';
import { RULE_LIMITS } from './limits';
import { lowerBound } from './sortedList';
import { loadRule, type RuleCandidate, type RuleRecord } from './loadRule';
import { findCatalogRoot, homeDisplay, isInside, realpathOrSelf, relativeToRoot, toPosix } from './paths';
import { decideTrust, isTrustedPath, trustDiffers, type RuleTrust, type RulesTrust } from './trustMode';
import type { RuleFinding } from './types';
import { warning } from './warnings';

/** Options for {@link RuleCatalogBuilder}. */
export interface RuleCatalogBuilderOptions {
  /** Canonical (realpath, keyed by `pathIdentity`) existing workspace folder. */
  workspaceDir: string;
  /** Home directory for user-level files (passed in so tests can isolate it; never `os.homedir()` here). */
  homeDir: string;
  /** Decides whether project files may be activated (the trust gate above, passed in). */
  gate: RulesTrust;
}

/** What a watcher should observe for this catalog (absolute paths). */
export interface RuleWatchSpec {
  /** Folders watched with all their descendants. */
  recursive: string[];
  /** Folders watched one level deep, and single files. */
  shallow: string[];
  /** Paths below watched folders to skip (`.git`, `node_modules`, gitignored). */
  ignored(absolute: string): boolean;
  /** `tree` = the whole work tree is watched; `targeted` = only rule folders (large trees). */
  mode: 'tree' | 'targeted';
}

/** Above this many directories the work tree is not watched whole (chokidar cost grows per folder). */
export const TREE_WATCH_MAX_DIRS = 1500;

/** The user's agent config folders: imports may resolve into them. */
const AGENT_DIRS = ['.claude', '.codex', '.gemini', '.blade'];

/**
 * Builds and incrementally maintains the rule catalog of one workspace. A full build
 * lists the work tree, reads every rule file and assembles the catalog; {@link update} re-reads
 * only the rule files (and importers) touched by a batch of changed paths, so a one-file edit
 * rebuilds in milliseconds even in a 100,000-file monorepo. Each build returns a new immutable
 * {@link RuleCatalog}. Never throws for bad rule files; `build` rejects only if the workspace
 * folder itself is unusable.
 */
export class RuleCatalogBuilder {
  readonly workspaceDir: string;
  readonly homeDir: string;
  private readonly gate: RulesTrust;
  private root = '';
  private trust: RuleTrust = { mode: 'restricted', prefix: null };
  private listing: 'git' | 'walk' | 'none' = 'none';
  private files: string[] = [];
  /** The file list as a set, made on the first incremental update that needs it (null until then). */
  private fileSet: Set<string> | null = null;
  private readonly records = new Map<string, RuleRecord>();
  private readonly depIndex = new Map<string, Set<string>>();
  private discoveryWarnings: RuleFinding[] = [];
  private nestedRoots: NestedRoot[] = [];
  private ignoreMatcher: IgnoreMatcher | null = null;
  private catalog: RuleCatalog | null = null;

  constructor(options: RuleCatalogBuilderOptions) {
    this.workspaceDir = options.workspaceDir;
    this.homeDir = options.homeDir;
    this.gate = options.gate;
  }

  /** The last catalog built, or null before the first build. */
  get current(): RuleCatalog | null {
    return this.catalog;
  }

  /**
   * Full build: root, trust, listing, every rule file. `files` is the build's scan (the bundle
   * shares one between its members so the tree is listed once and each file read once); without
   * it the build makes its own {@link WorkspaceScan}.
   */
  async build(files?: FileAccess): Promise<RuleCatalog> {
    const started = performance.now();
    this.root = findCatalogRoot(this.workspaceDir);
    this.trust = decideTrust(this.gate, this.root, this.workspaceDir);
    const scan = files ?? new WorkspaceScan({ root: this.root, workspaceDir: this.workspaceDir });
    const early = this.loadTrackedEarly(scan);
    const [project, user] = await Promise.all([discoverProject(this.root, this.workspaceDir, scan), discoverUser(this.homeDir)]);
    this.listing = project.strategy;
    this.files = project.files;
    this.fileSet = null;
    this.discoveryWarnings = project.warnings;
    this.nestedRoots = project.nestedRoots;
    this.ignoreMatcher = null;
    this.records.clear();
    this.depIndex.clear();
    await this.loadAll([...user, ...project.candidates], scan, project.strategy === 'git' ? await early : new Map());
    return this.assemble(started);
  }

  /**
   * Starts loading the tracked rule files as soon as git has listed its index (see
   * `FileAccess.trackedEarly`), while git still walks the tree for untracked files: at 100,000
   * files that walk is most of the listing's time, and reading and parsing 500 rule files fits in
   * it. At most 16 files are read at once. Resolves (as soon as the tracked list is known) with
   * one pending load per root-relative path, loaded exactly as {@link loadAll} would load it
   * (git listing, no notes); {@link loadAll} uses the ones whose candidate the discovery confirms.
   */
  private async loadTrackedEarly(scan: FileAccess): Promise<Map<string, EarlyLoad>> {
    const out = new Map<string, EarlyLoad>();
    const tracked = scan.trackedEarly ? await scan.trackedEarly() : null;
    if (!tracked) return out;
    const root = this.root;
    const queue: RuleCandidate[] = [];
    for (const rel of tracked) {
      const classification = classifyProjectPath(rel);
      if (!classification || !withinListingLimits(rel)) continue;
      queue.push({ relativePath: rel, absolutePath: path.join(root, rel), classification });
    }
    const imports = this.importContext(scan);
    const slots: Array<() => void> = [];
    let running = 0;
    const acquire = () => (running < LOAD_CONCURRENCY ? (running++, Promise.resolve()) : new Promise<void>((resolve) => slots.push(resolve)));
    const release = () => {
      const wake = slots.shift();
      if (wake) wake();
      else running--;
    };
    for (const c of queue) {
      const restricted = !isTrustedPath(this.trust, c.relativePath);
      const load = acquire()
        .then(() => loadRule(c, { root, restricted, confineTo: [root], imports, canonicalParent: true, reader: scan }))
        .finally(release);
      load.catch(() => {}); // a load nobody confirms is dropped; one that is confirmed rejects in loadAll
      out.set(c.relativePath, { candidate: c, load });
    }
    return out;
  }

  /** True when the gate now answers differently than at the last build (call {@link build} then). */
  trustChanged(): boolean {
    if (!this.catalog) return false;
    return trustDiffers(this.trust, decideTrust(this.gate, this.root, this.workspaceDir));
  }

  /**
   * Applies a batch of changed absolute paths (added, changed or removed files and folders).
   * Rule files and files imported by rules are re-read; other files only update the file list.
   * A changed `.gitignore` or a trust change triggers a full build. Resolves with the new catalog
   * and whether any rule changed. `files` is the batch's scan (used by a full build and for the
   * re-read files); without it the changed files are read directly, each re-read once per batch
   * anyway, so nothing is read twice.
   */
  async update(changed: Iterable<string>, files?: FileAccess): Promise<{ catalog: RuleCatalog; changed: boolean }> {
    if (!this.catalog) return { catalog: await this.build(files), changed: true };
    const started = performance.now();
    const paths = [...new Set(changed)];
    if (this.trustChanged() || paths.some((p) => path.basename(p) === '.gitignore')) return { catalog: await this.build(files), changed: true };
    const reload = new Map<string, RuleCandidate>();
    const removed = new Set<string>();
    let filesChanged = false;
    let rescanUser = false;
    for (const absolute of paths) {
      for (const key of this.depIndex.get(absolute) ?? []) {
        const record = this.records.get(key);
        if (record) reload.set(key, record.candidate);
      }
      const rel = relativeToRoot(this.root, pathIdentity(absolute));
      if (rel === null) {
        if (isInside(this.homeDir, absolute) && this.isUserConfigPath(absolute)) rescanUser = true;
        continue;
      }
      if (rel === '') continue;
      const stat = await lstatOrNull(absolute);
      if (stat?.isDirectory()) continue; // files inside a new folder arrive as their own events
      if (!stat) {
        filesChanged = this.removeFromList(rel) || filesChanged;
        for (const key of this.records.keys()) {
          if (key === rel || key.startsWith(`${rel}/`)) removed.add(key);
        }
        continue;
      }
      this.fileSet ??= new Set(this.files);
      if (!this.fileSet.has(rel)) {
        const classification = classifyProjectPath(rel);
        if (classification && classification.format !== 'claude-local' && (await this.isIgnored(rel))) continue;
        this.insertIntoList(rel);
        filesChanged = true;
      }
      const classification = classifyProjectPath(rel);
      if (classification) reload.set(rel, { relativePath: rel, absolutePath: path.join(this.root, rel), classification });
    }
    if (rescanUser) {
      const user = await discoverUser(this.homeDir);
      const keys = new Set(user.map((c) => c.relativePath));
      for (const c of user) reload.set(c.relativePath, c);
      for (const [key, record] of this.records) {
        if (record.candidate.classification.source === 'user' && !keys.has(key)) removed.add(key);
      }
    }
    for (const key of removed) this.dropRecord(key);
    await this.loadAll([...reload.values()].filter((c) => !removed.has(c.relativePath)), files ?? directFileAccess);
    const rulesChanged = reload.size > 0 || removed.size > 0;
    if (!rulesChanged && !filesChanged) return { catalog: this.catalog, changed: false };
    return { catalog: this.assemble(started), changed: rulesChanged };
  }

  /** What to watch so {@link update} hears about every relevant change. */
  async watchSpec(): Promise<RuleWatchSpec> {
    const dirs = new Set<string>();
    for (const rel of this.files) {
      let i = rel.lastIndexOf('/');
      while (i > 0) {
        const dir = rel.slice(0, i);
        if (dirs.has(dir)) break;
        dirs.add(dir);
        i = dir.lastIndexOf('/');
      }
    }
    const matcher = await this.getIgnoreMatcher();
    const root = this.root;
    const ignored = (absolute: string): boolean => {
      const rel = relativeToRoot(root, absolute);
      if (rel === null) return false;
      return matcher.ignores(rel);
    };
    const shallow = new Set<string>();
    const recursive = new Set<string>();
    for (const dir of AGENT_DIRS.slice(0, 3)) {
      const absolute = path.join(this.homeDir, dir);
      if (await lstatOrNull(absolute)) shallow.add(absolute);
    }
    const userRules = path.join(this.homeDir, '.claude', 'rules');
    if (await lstatOrNull(userRules)) recursive.add(userRules);
    for (const dep of this.depIndex.keys()) {
      if (!isInside(root, dep)) shallow.add(dep);
    }
    if (dirs.size <= TREE_WATCH_MAX_DIRS) {
      recursive.add(root);
      return { recursive: [...recursive], shallow: [...shallow], ignored, mode: 'tree' };
    }
    shallow.add(root);
    for (const record of this.records.values()) {
      const { relativePath, classification, absolutePath } = record.candidate;
      if (classification.source === 'user') continue;
      shallow.add(path.dirname(absolutePath));
      const marker = ruleDirOf(relativePath);
      if (marker) {
        recursive.add(path.join(root, marker));
        shallow.add(path.dirname(path.join(root, marker)));
      }
    }
    for (const dep of this.depIndex.keys()) if (isInside(root, dep)) shallow.add(path.dirname(dep));
    return { recursive: [...recursive], shallow: [...shallow], ignored, mode: 'targeted' };
  }

  private isUserConfigPath(absolute: string): boolean {
    const homeRel = toPosix(path.relative(this.homeDir, absolute));
    return classifyUserPath(homeRel) !== null || homeRel === '.claude/rules' || homeRel.startsWith('.claude/rules/');
  }

  private async isIgnored(rel: string): Promise<boolean> {
    if (this.listing === 'git') return isIgnoredByGit(this.root, rel);
    return (await this.getIgnoreMatcher()).ignores(rel);
  }

  private async getIgnoreMatcher(): Promise<IgnoreMatcher> {
    this.ignoreMatcher ??= await IgnoreMatcher.load(this.root, this.files);
    return this.ignoreMatcher;
  }

  private async loadAll(candidates: RuleCandidate[], reader: FileReader, early: ReadonlyMap<string, EarlyLoad> = new Map()): Promise<void> {
    const imports = this.importContext(reader);
    const queue = [...candidates];
    const worker = async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const isUser = c.classification.source === 'user';
        const restricted = !isUser && !isTrustedPath(this.trust, c.relativePath);
        const canonicalParent = !isUser && this.listing === 'git' && c.notes === undefined;
        const started = early.get(c.relativePath);
        const same = started !== undefined && canonicalParent && started.candidate.absolutePath === c.absolutePath && sameClassification(started.candidate.classification, c.classification);
        const record = same ? await started.load : await loadRule(c, { root: this.root, restricted, confineTo: isUser ? null : [this.root], imports, canonicalParent, reader });
        if (record && same) record.candidate = c;
        this.dropRecord(c.relativePath);
        if (!record) continue;
        this.records.set(c.relativePath, record);
        const deps = record.realPath && record.realPath !== c.absolutePath ? [...record.deps, record.realPath] : record.deps;
        record.deps = deps;
        for (const dep of deps) {
          const set = this.depIndex.get(dep) ?? new Set<string>();
          set.add(c.relativePath);
          this.depIndex.set(dep, set);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(LOAD_CONCURRENCY, Math.max(1, queue.length)) }, worker));
  }

  private dropRecord(key: string): void {
    const old = this.records.get(key);
    if (!old) return;
    this.records.delete(key);
    for (const dep of old.deps) {
      const set = this.depIndex.get(dep);
      set?.delete(key);
      if (set && set.size === 0) this.depIndex.delete(dep);
    }
  }

  private importContext(reader: FileReader): ImportContext {
    const allowed: string[] = [];
    if (this.trust.prefix !== null) allowed.push(this.trust.prefix === '' ? this.root : path.join(this.root, this.trust.prefix));
    for (const dir of AGENT_DIRS) {
      const lexical = path.join(this.homeDir, dir);
      allowed.push(lexical);
      const real = realpathOrSelf(lexical);
      if (real !== lexical) allowed.push(real);
    }
    const root = this.root;
    const home = this.homeDir;
    return {
      homeDir: home,
      reader,
      allowed,
      display: (absolute) => {
        if (isInside(root, absolute)) return relativeToRoot(root, absolute) ?? absolute;
        if (isInside(home, absolute)) return homeDisplay(home, absolute);
        return absolute;
      },
    };
  }

  private assemble(started: number): RuleCatalog {
    const { files, catalogSha256 } = assembleCatalog(
      [...this.records.values()],
      this.nestedRoots.map((r) => r.path),
    );
    const warnings: RuleFinding[] = [...this.discoveryWarnings];
    if (files.length > RULE_LIMITS.manyFilesWarning) {
      warnings.push({
        ...warning('many-rule-files', 'warning', `${files.length} rule files were found (more than ${RULE_LIMITS.manyFilesWarning}); all are loaded, but agents will only ever see what fits their budgets.`, null, 'Consolidate rules, or move generated ones out of the repository.'),
        path: null,
      });
    }
    if (this.trust.mode !== 'trusted') {
      const message =
        this.trust.mode === 'restricted'
          ? 'The folder is not trusted: project rule files are listed by name only and none is loaded. User-level rules still apply.'
          : `Only rule files inside the trusted folder ${this.trust.prefix} are loaded; the repository root ${this.root} is not trusted.`;
      warnings.push({ ...warning('restricted-mode', 'info', message, null, `Review and trust ${this.root} to load its rules.`), path: null });
    }
    this.catalog = new RuleCatalog({
      root: this.root,
      workspaceDir: this.workspaceDir,
      homeDir: this.homeDir,
      trust: this.trust.mode,
      files,
      catalogSha256,
      warnings: Object.freeze(warnings),
      workspaceFiles: Object.freeze(this.files), // copy-on-write: the builder never mutates a list it handed out
      listing: this.listing,
      nestedRoots: Object.freeze([...this.nestedRoots]),
      builtAt: new Date().toISOString(),
      buildMs: Math.round((performance.now() - started) * 100) / 100,
    });
    return this.catalog;
  }

  private insertIntoList(rel: string): void {
    const at = lowerBound(this.files, rel);
    this.files = [...this.files.slice(0, at), rel, ...this.files.slice(at)];
    this.fileSet?.add(rel);
  }

  private removeFromList(rel: string): boolean {
    const start = lowerBound(this.files, rel);
    let end = start;
    while (end < this.files.length && (this.files[end] === rel || this.files[end].startsWith(`${rel}/`))) end++;
    // a folder's files sort right after "rel/", not necessarily right after "rel" (e.g. "rel-x"):
    const dirStart = lowerBound(this.files, `${rel}/`);
    let dirEnd = dirStart;
    while (dirEnd < this.files.length && this.files[dirEnd].startsWith(`${rel}/`)) dirEnd++;
    const gone = [...this.files.slice(start, end), ...this.files.slice(dirStart, dirEnd)];
    if (gone.length === 0) return false;
    const goneSet = new Set(gone);
    this.files = this.files.filter((f) => !goneSet.has(f));
    if (this.fileSet) for (const f of goneSet) this.fileSet.delete(f);
    return true;
  }
}

/** Rule files read at once (each read is an `lstat` and a `readFile` on libuv's 4 threads). */
const LOAD_CONCURRENCY = 16;

/** A rule file whose load started from the tracked part of the listing (see `loadTrackedEarly`). */
interface EarlyLoad {
  candidate: RuleCandidate;
  load: Promise<RuleRecord | null>;
}

function sameClassification(a: RuleCandidate['classification'], b: RuleCandidate['classification']): boolean {
  return a.format === b.format && a.scope === b.scope && a.source === b.source && a.priority === b.priority;
}

/** Within the listing's limits: no `.git`/`node_modules` segment, at most {@link RULE_LIMITS.maxDepth} folders deep. */
function withinListingLimits(rel: string): boolean {
  let depth = 0;
  let start = 0;
  for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
    if (ALWAYS_SKIPPED_DIRS.has(rel.slice(start, i))) return false;
    depth++;
    start = i + 1;
  }
  return depth <= RULE_LIMITS.maxDepth;
}

/** The rule folder (`x/.claude/rules`) a root-relative rule path lies in, or null. */
function ruleDirOf(rel: string): string | null {
  const match = /^(.*?)(?:^|\/)(\.claude\/rules|\.blade\/rules|\.cursor\/rules|\.github\/instructions)\//.exec(rel);
  if (!match) return null;
  return match[1] ? `${match[1]}/${match[2]}` : match[2];
}

async function lstatOrNull(p: string): Promise<import('node:fs').Stats | null> {
  try {
    return await fs.lstat(p);
  } catch {
    return null;
  }
}
