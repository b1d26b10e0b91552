import type {
  TrustChange,
  TrustDecision,
  TrustDecisionState,
  TrustSource,
  TrustStatus,
  WorkspaceTrust,
} from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import type { TrustGate } from './gate';
import { inspectGit } from '../workspaces/identity';
import { ancestorsOrSelf, canonicalHome, resolveFolder, trustKey, type ResolvedFolder } from '../workspaces/paths';
import { missingFolderRefusal, parentSuggestion, trustRefusal } from './policy';
import { TrustRepository } from './repository';

/** Options for {@link TrustService}. */
export interface TrustServiceOptions {
  store: Store;
  bus: EventBus;
  /** The engine's home directory (tests isolate it); trusting it or anything above it is refused. */
  homeDir: string;
  /** Called after every committed change, after `trustChanged` was emitted (the engine re-emits the workspace list). */
  onChanged?: () => void;
}

/** One decision to record, for {@link TrustService.recordMany}. */
export interface DecisionRequest {
  /** Canonical directory (already resolved to a trust root by the caller). */
  path: string;
  state: TrustDecisionState;
  source: TrustSource;
}

/** Result of {@link TrustService.set}. */
export interface SetResult {
  status: TrustStatus;
  decision: TrustDecision;
  /** The audit entry, or null when the same decision was already recorded (nothing changed). */
  change: TrustChange | null;
}

/** Result of {@link TrustService.clear}. */
export interface ClearResult {
  removed: boolean;
  change: TrustChange | null;
  status: TrustStatus;
}

/**
 * Folder trust: decisions in SQLite, resolution by the deepest ancestor-or-self decision, the
 * restricted-mode gate. Every write runs in one transaction, appends to the audit history and
 * pushes `trustChanged`. Atrium never writes another tool's trust store.
 *
 * Resolution: the state of a folder is the decision recorded for the deepest
 * ancestor-or-self of its trust root; a child `untrusted` beats a parent `trusted` and vice versa;
 * no decision → `undecided`, which the gate treats exactly like `untrusted`.
 */
export class TrustService implements TrustGate {
  private readonly repo: TrustRepository;
  /** Canonical home directory. */
  readonly home: string;
  /** Highest audit id this process has announced (its own writes or ones found by {@link announceExternalChanges}). */
  private announcedId: number;

  constructor(private readonly options: TrustServiceOptions) {
    this.repo = new TrustRepository(options.store);
    this.home = canonicalHome(options.homeDir);
    this.announcedId = this.repo.maxHistoryId();
  }

  /**
   * Pushes `trustChanged` for audit entries another process appended (e.g. `atrium trust set` in a
   * terminal while the app runs); the engine calls it when the database changed under it (see
   * `store/externalWrites.ts`). Decisions are always read from the database, so the gate was already
   * right; this tells the resource cache and the open surfaces. Returns the entries announced.
   */
  announceExternalChanges(): TrustChange[] {
    const fresh = this.repo.historyAfter(this.announcedId);
    if (fresh.length > 0) this.notify(fresh);
    return fresh;
  }

  /**
   * Restricted mode's single question (see {@link TrustGate}): true only when the folder's trust
   * root resolves to `trusted`. Undecided, untrusted, unresolvable or any error → false. Never throws.
   */
  mayActivateProjectResources(dir: string): boolean {
    try {
      return this.status(dir).state === 'trusted';
    } catch {
      return false;
    }
  }

  /**
   * Status of a folder given by absolute path (canonicalised; a missing folder lexically).
   * @throws AtriumError PATH_NOT_ABSOLUTE | NOT_A_DIRECTORY | PATH_UNREADABLE
   */
  status(dir: string): TrustStatus {
    return this.statusOf(resolveFolder(dir));
  }

  /** Status of an already resolved folder (a workspace passes its stored path and trust root). */
  statusOf(folder: ResolvedFolder): TrustStatus {
    const key = trustKey(folder.trustRoot);
    const effective = this.effective(key, folder.path);
    const rootDecision = this.repo.get(key);
    const isOwnRoot = key === trustKey(folder.path);
    const worktreeOf = isOwnRoot ? null : folder.worktreeOf !== undefined ? folder.worktreeOf : inspectGit(folder.path).mainCheckout;
    return {
      path: folder.path,
      trustRoot: folder.trustRoot,
      state: effective.trust.state,
      decidedBy: effective.trust.decidedBy,
      inherited: effective.trust.inherited,
      decidedAt: effective.decidedAt,
      // a worktree has no decision of its own: the one at its trust root belongs to the main checkout
      ownDecision: isOwnRoot ? (rootDecision?.state ?? null) : null,
      worktreeOf,
      trustRootDecision: rootDecision?.state ?? null,
      // trusting the parent changes nothing when the folder is trusted already or its trust root has
      // a decision of its own (the most specific decision wins), so it is offered only when it helps
      parentSuggestion: effective.trust.state !== 'trusted' && !rootDecision ? parentSuggestion(key, this.home) : null,
      trustRefused: trustRefusal(key, this.home),
    };
  }

  /**
   * The short trust a listed workspace carries, from its trust root; `folder` (default: the trust
   * root) is the folder itself, so a worktree's trust reads as inherited. Never throws.
   */
  workspaceTrust(trustRoot: string, folder: string = trustRoot): WorkspaceTrust {
    try {
      return this.effective(trustKey(trustRoot), folder).trust;
    } catch {
      return { state: 'undecided', decidedBy: null, inherited: false };
    }
  }

  /**
   * Records `state` for the folder's trust root, or for its suggested parent when `parent` is set.
   * @throws AtriumError TRUST_REFUSED (trusting `/`, the home folder or above) | TRUST_NO_PARENT
   *   (no plausible parent) | PATH_NOT_ABSOLUTE | NOT_A_DIRECTORY | PATH_UNREADABLE
   */
  set(folder: ResolvedFolder, state: TrustDecisionState, options: { parent?: boolean; source?: TrustSource } = {}): SetResult {
    const target = this.targetOf(folder, options.parent);
    const changes = this.recordMany([{ path: target, state, source: options.source ?? 'user' }]);
    const decision = this.repo.get(target);
    if (!decision) throw new AtriumError('INTERNAL', `The decision for ${target} was not stored.`);
    return { status: this.statusOf(folder), decision, change: changes[0] ?? null };
  }

  /**
   * Removes the decision recorded for the folder's trust root (or suggested parent), so it inherits
   * again. Clearing a folder without a decision changes nothing.
   * @throws AtriumError TRUST_NO_PARENT when `parent` is set and there is no plausible parent
   */
  clear(folder: ResolvedFolder, options: { parent?: boolean } = {}): ClearResult {
    const target = this.targetOf(folder, options.parent);
    const change = this.options.store.transaction(() => {
      const old = this.repo.get(target);
      if (!old || !this.repo.delete(target)) return null;
      return this.repo.appendHistory({ path: target, oldState: old.state, newState: null, changedAt: now(), source: 'user' });
    });
    if (change) this.notify([change]);
    return { removed: change !== null, change, status: this.statusOf(folder) };
  }

  /**
   * Records several decisions in one transaction (one `trustChanged` event). Each path must be a
   * canonical directory (stored under its {@link trustKey}); an unchanged decision is skipped (no
   * history entry). Validates every entry before writing anything.
   * @throws AtriumError TRUST_REFUSED when any entry would trust `/`, the home folder or above
   */
  recordMany(input: readonly DecisionRequest[]): TrustChange[] {
    const requests = input.map((r) => ({ ...r, path: trustKey(r.path) }));
    for (const r of requests) {
      const refusal = r.state === 'trusted' ? (trustRefusal(r.path, this.home) ?? missingFolderRefusal(r.path)) : null;
      if (refusal) throw new AtriumError('TRUST_REFUSED', refusal);
    }
    const changes = this.options.store.transaction(() => {
      const out: TrustChange[] = [];
      for (const r of requests) {
        const old = this.repo.get(r.path);
        if (old?.state === r.state) continue;
        const at = now();
        this.repo.put({ path: r.path, state: r.state, decidedAt: at, source: r.source });
        out.push(this.repo.appendHistory({ path: r.path, oldState: old?.state ?? null, newState: r.state, changedAt: at, source: r.source }));
      }
      return out;
    });
    if (changes.length > 0) this.notify(changes);
    return changes;
  }

  /** The decision recorded for exactly `dir` (canonical), or null. */
  decisionFor(dir: string): TrustDecision | null {
    return this.repo.get(trustKey(dir));
  }

  /** Every recorded decision, sorted by path. */
  list(): TrustDecision[] {
    return this.repo.list();
  }

  /**
   * Audit history, newest first (default limit 1000). With `trustRoot`: only entries for that
   * directory and its ancestors (the decisions that govern it).
   */
  history(options: { trustRoot?: string; limit?: number } = {}): TrustChange[] {
    return this.repo.history({ paths: options.trustRoot ? ancestorsOrSelf(trustKey(options.trustRoot)) : undefined, limit: options.limit });
  }

  /** The deepest decision over `trustRoot` (a key); `inherited` when it was recorded for another folder than `folder`. */
  private effective(trustRoot: string, folder: string): { trust: WorkspaceTrust; decidedAt: string | null } {
    const chain = ancestorsOrSelf(trustRoot);
    const found = this.repo.getMany(chain);
    if (found.length === 0) return { trust: { state: 'undecided', decidedBy: null, inherited: false }, decidedAt: null };
    // deepest = longest path among ancestors-or-self
    const deepest = found.reduce((a, b) => (b.path.length > a.path.length ? b : a));
    return {
      trust: { state: deepest.state, decidedBy: deepest.path, inherited: deepest.path !== trustKey(folder) },
      decidedAt: deepest.decidedAt,
    };
  }

  private targetOf(folder: ResolvedFolder, parent: boolean | undefined): string {
    const key = trustKey(folder.trustRoot);
    return parent ? this.parentOrThrow(key) : key;
  }

  private parentOrThrow(trustRoot: string): string {
    const parent = parentSuggestion(trustRoot, this.home);
    if (!parent) {
      throw new AtriumError(
        'TRUST_NO_PARENT',
        `${trustRoot} has no parent folder that may be trusted (its parent is the filesystem root, your home folder, or contains it). Decide for the folder itself.`,
      );
    }
    return parent;
  }

  private notify(changes: TrustChange[]): void {
    for (const c of changes) if (c.id > this.announcedId) this.announcedId = c.id;
    this.options.bus.emit('trustChanged', { changes });
    try {
      this.options.onChanged?.();
    } catch (error) {
      console.error('[atrium] trust change listener failed:', error);
    }
  }
}

function now(): string {
  return new Date().toISOString();
}
