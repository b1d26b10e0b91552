import fs from 'node:fs';
import path from 'node:path';
import { RuleProvenanceMismatch, RuleSourceOutsideRoot } from './errors';
import type { NestedRoot } from './discover';
import { RULE_LIMITS } from './limits';
import { pathIdentity } from '../workspaces/identity';
import { canonicalizeTarget, relativeToRoot } from './paths';
import { buildSelection } from './render';
import { applyBudget, collapseSameText, SelectionIndex } from './select';
import type { RuleFile, RuleFinding, RuleReference, RuleSelection, RuleTrustMode, SelectedRule } from './types';

/** Most remembered canonical paths per catalog (about 100 bytes each). */
const CANONICAL_CACHE_MAX = 100_000;

/** Everything a catalog is made of (all immutable). */
export interface RuleCatalogData {
  /** Canonical catalog root (git work tree or workspace folder). */
  readonly root: string;
  /** Canonical workspace folder: the default `fromDir`. */
  readonly workspaceDir: string;
  readonly homeDir: string;
  readonly trust: RuleTrustMode;
  readonly files: readonly RuleFile[];
  readonly catalogSha256: string;
  /** Catalog-level findings (listing failures, many files…). */
  readonly warnings: readonly RuleFinding[];
  /** Every workspace file, root-relative, code-point sorted (pattern counts, completion). */
  readonly workspaceFiles: readonly string[];
  readonly listing: 'git' | 'walk' | 'none';
  /**
   * Git repositories nested below the root (submodules, worktrees, untracked clones) whose files
   * are listed with their own `git ls-files`; each file's `nestedRoot` names the innermost one.
   * Default: none.
   */
  readonly nestedRoots?: readonly NestedRoot[];
  /** ISO time of the build and its duration in milliseconds. */
  readonly builtAt: string;
  readonly buildMs: number;
}

/**
 * An immutable project rule catalog (seed §4). Built by `RuleCatalogBuilder`;
 * a rebuild produces a new catalog, so a catalog (and its snapshot) never changes.
 * Paths given to its methods may be absolute or relative to the workspace folder.
 */
export class RuleCatalog implements RuleCatalogData {
  readonly root: string;
  readonly workspaceDir: string;
  readonly homeDir: string;
  readonly trust: RuleTrustMode;
  readonly files: readonly RuleFile[];
  readonly catalogSha256: string;
  readonly warnings: readonly RuleFinding[];
  readonly workspaceFiles: readonly string[];
  readonly listing: 'git' | 'walk' | 'none';
  readonly nestedRoots: readonly NestedRoot[];
  readonly builtAt: string;
  readonly buildMs: number;
  private readonly byId: ReadonlyMap<string, RuleFile>;
  private readonly index: SelectionIndex;
  /**
   * Root-relative canonical forms (null: outside the root) of absolute paths that existed when
   * first resolved, for this catalog's life:
   * like its file listing, a catalog reads the disk as of its build (a rebuild starts afresh).
   * Paths that did not exist are resolved every time (one may appear, as a symlink too).
   */
  private readonly canonical = new Map<string, string | null>();
  /** {@link resolveTarget}'s answers by the target as given, for targets remembered in `canonical`. */
  private readonly targets = new Map<string, string | null>();
  /** The workspace folder's root-relative form once remembered (the default start folder); a holder, as the catalog is frozen. */
  private readonly defaultFrom: { rel: string | null } = { rel: null };

  constructor(data: RuleCatalogData) {
    this.root = data.root;
    this.workspaceDir = data.workspaceDir;
    this.homeDir = data.homeDir;
    this.trust = data.trust;
    this.files = data.files;
    this.catalogSha256 = data.catalogSha256;
    this.warnings = data.warnings;
    this.workspaceFiles = data.workspaceFiles;
    this.listing = data.listing;
    this.nestedRoots = data.nestedRoots ?? [];
    this.builtAt = data.builtAt;
    this.buildMs = data.buildMs;
    this.byId = new Map(data.files.map((f) => [f.id, f]));
    this.index = new SelectionIndex(data.files);
    Object.freeze(this);
  }

  /** The entry with this id, or undefined. */
  get(id: string): RuleFile | undefined {
    return this.byId.get(id);
  }

  /**
   * A catalog over the same frozen definitions (seed §4.5 snapshot). Definitions are deeply
   * frozen and a catalog is never mutated, so the snapshot stays as it is whatever happens on disk.
   */
  snapshot(): RuleCatalog {
    return new RuleCatalog(this);
  }

  /**
   * Root-relative POSIX path of a start folder (default: the workspace folder), canonicalised.
   * @throws RuleSourceOutsideRoot when it lies outside the catalog root (seed §4.5).
   */
  resolveFrom(fromDir?: string): string {
    if (fromDir === undefined && this.defaultFrom.rel !== null) return this.defaultFrom.rel;
    const absolute = fromDir === undefined ? this.workspaceDir : path.resolve(this.workspaceDir, fromDir);
    const rel = this.rootRelative(absolute);
    if (rel === null) throw new RuleSourceOutsideRoot(absolute, this.root);
    if (fromDir === undefined && this.canonical.has(absolute)) this.defaultFrom.rel = rel;
    return rel;
  }

  /**
   * Root-relative POSIX path of a target (absolute or workspace-relative), canonicalised with the
   * realpath of its longest existing prefix; null when outside the root or equal to it.
   */
  resolveTarget(target: string): string | null {
    // as given: a session names the same files again and again, and path.resolve costs more than the lookup
    const known = this.targets.get(target);
    if (known !== undefined) return known;
    const absolute = path.resolve(this.workspaceDir, target);
    const found = this.rootRelative(absolute);
    const rel = found === null || found === '' ? null : found;
    if (this.canonical.has(absolute)) {
      if (this.targets.size >= CANONICAL_CACHE_MAX) this.targets.clear();
      this.targets.set(target, rel);
    }
    return rel;
  }

  /**
   * Root-relative POSIX path of an absolute path canonicalised with {@link canonicalizeTarget}
   * (null outside the root), remembered when the whole path exists.
   */
  private rootRelative(absolute: string): string | null {
    const known = this.canonical.get(absolute);
    if (known !== undefined) return known;
    let real: string;
    try {
      real = pathIdentity(fs.realpathSync.native(absolute));
    } catch {
      return relativeToRoot(this.root, canonicalizeTarget(absolute));
    }
    const rel = relativeToRoot(this.root, real);
    if (this.canonical.size >= CANONICAL_CACHE_MAX) this.canonical.clear();
    this.canonical.set(absolute, rel);
    return rel;
  }

  /**
   * Unconditional rules for a session starting in `fromDir` (seed §4.5 staticRules): active
   * `always` files whose scope is an ancestor-or-self of `fromDir`, the same text collapsed to one
   * file ({@link collapseSameText}: symlinks, import-only files), then budgeted (default 48 KiB of
   * body bytes) and rendered in `<project-instructions>`.
   * @throws RuleSourceOutsideRoot when `fromDir` is outside the root.
   */
  staticRules(fromDir?: string, maxBytes: number = RULE_LIMITS.staticBudgetBytes): RuleSelection {
    const fromRel = this.resolveFrom(fromDir);
    const unique = collapseSameText(this.index.staticCandidates(fromRel));
    const { kept, dropped } = applyBudget(unique.kept, maxBytes);
    return buildSelection('project-instructions', kept, { maxBytes, dropped, collapsed: unique.collapsed });
  }

  /**
   * Rules that apply because the session touches `targetPaths` (seed §4.5 contextualRules).
   * Targets are canonicalised and made root-relative; outside the root or equal to
   * it they are dropped. Budget default 32 KiB; rendered in `<contextual-project-instructions
   * trigger-paths="…">`.
   * @throws RuleSourceOutsideRoot when `fromDir` is outside the root.
   */
  contextualRules(fromDir: string | undefined, targetPaths: readonly string[], loadedIds: Iterable<string> = [], maxBytes: number = RULE_LIMITS.contextualBudgetBytes): RuleSelection {
    const fromRel = this.resolveFrom(fromDir);
    const triggers = new Set<string>();
    for (const target of targetPaths) {
      const rel = this.resolveTarget(target);
      if (rel !== null) triggers.add(rel);
    }
    return this.contextualRulesRelative(fromRel, [...triggers].sort(), new Set(loadedIds), maxBytes);
  }

  /**
   * The contextual selection for already canonical, root-relative inputs (the fast path used by
   * `contextualRules`, benchmarks and explanations). `triggers` must be unique and sorted.
   * Candidates that are the same text as another candidate or a `loaded` file are collapsed
   * before budgeting ({@link collapseSameText}).
   */
  contextualRulesRelative(fromRel: string, triggers: readonly string[], loaded: ReadonlySet<string>, maxBytes: number = RULE_LIMITS.contextualBudgetBytes): RuleSelection {
    const candidates = this.index.contextualCandidates(fromRel, triggers, loaded);
    const anchors = [...loaded].flatMap((id) => this.byId.get(id) ?? []);
    const unique = collapseSameText(candidates, anchors);
    const { kept, dropped } = applyBudget(unique.kept, maxBytes);
    return buildSelection('contextual-project-instructions', kept, { triggerPaths: triggers, maxBytes, dropped, collapsed: unique.collapsed });
  }

  /** Selected files for root-relative triggers without budget or rendering (benchmark lookups). */
  matchTargets(fromRel: string, triggers: readonly string[], loaded: ReadonlySet<string> = new Set()): SelectedRule[] {
    return this.index.contextualCandidates(fromRel, triggers, loaded);
  }

  /**
   * Re-materialises rules from session references (seed §4.5 hydrate): every reference must
   * match a current active definition on id, sha256, relativePath and source. De-duplicated by
   * id, catalog order, rendered as contextual without trigger paths and without budget.
   * @throws RuleProvenanceMismatch naming the first file that does not match (fail closed).
   */
  hydrate(references: readonly RuleReference[]): RuleSelection {
    const picked = new Map<string, SelectedRule>();
    for (const ref of references) {
      const file = this.byId.get(ref.id);
      if (!file || file.status !== 'active' || file.sha256 !== ref.sha256 || file.relativePath !== ref.relativePath || file.source !== ref.source) {
        throw new RuleProvenanceMismatch(ref.relativePath);
      }
      picked.set(file.id, { file, reason: 'hydrated', matchedPattern: null, triggerPath: null });
    }
    const kept = [...picked.values()].sort((a, b) => a.file.order - b.file.order);
    return buildSelection('contextual-project-instructions', kept, { maxBytes: null });
  }
}
