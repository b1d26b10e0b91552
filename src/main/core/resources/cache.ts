import { WorkspaceScan, type FileAccess } from '../files/scan';
import { findCatalogRoot } from '../rules/paths';
import { canonicalDirectory } from '../workspaces/identity';
import { WorkspaceResources } from './bundle';
import { WorkspaceResourceCapacityError } from './errors';
import { DEFAULT_MEMBERS } from './members';
import type { ResourceMemberFactory, ResourcesTrust, ResourceValues, WorkspaceResourcesSnapshot, WorkspaceResourceStats } from './types';

/** Options for {@link WorkspaceResourcesCache}. */
export interface WorkspaceResourcesCacheOptions {
  /** Home directory for user-level resources (tests pass a temp HOME). */
  homeDir: string;
  /** Restricted mode's question (answered by the trust gate above, `trust/gate.ts`). */
  trustGate: ResourcesTrust;
  /** Members of every bundle, in order (default: the rule catalog). */
  members?: readonly ResourceMemberFactory[];
  /** Idle entries kept (default 32, seed §1.2). */
  idleCapacity?: number;
  /** Hard cap including in-flight and pinned entries (default 64, seed §1.2). */
  hardCapacity?: number;
  /** Watch files and rebuild on change (default true; the one-shot CLI passes false). */
  watch?: boolean;
  /** Debounce of file events, ms (default 150). */
  debounceMs?: number;
  /**
   * The scan of one build of a workspace's bundle (initial build, refresh, revalidation, a watcher
   * batch), shared by its members. Default: {@link defaultScan}. Tests pass a scan with counting
   * lister and reader.
   */
  createScan?(workspaceDir: string): FileAccess;
  /** Called after a bundle's values changed; `notify` is true when clients should refresh (rules changed). */
  onChange?(workspaceDir: string, bundle: WorkspaceResources, notify: boolean): void;
}

/**
 * A bundle build's scan: the rule catalog's root (the git work tree holding the workspace, else
 * the workspace) listed once with the rule catalog's options (unverified, depth 32), the workspace
 * folder's listing derived from it.
 */
export function defaultScan(workspaceDir: string): WorkspaceScan {
  return new WorkspaceScan({ root: findCatalogRoot(workspaceDir), workspaceDir });
}

interface Entry {
  key: string;
  generation: number;
  users: number;
  promise: Promise<WorkspaceResources>;
  resources: WorkspaceResources | null;
}

/**
 * The workspace resources cache (seed §1): one refreshable bundle per canonical
 * workspace folder, shared by every surface. LRU with 32 idle entries and a hard cap of 64
 * including in-flight and pinned ones; a new workspace beyond the cap fails with
 * {@link WorkspaceResourceCapacityError} and adds no entry. `resolve` pins an entry for one
 * macrotask so the caller can snapshot it; `withResources` pins it for a whole operation.
 * `reset` bumps the generation: initialisations that finish later release what they built and
 * never write back. An initialisation failure releases everything it created and leaves no entry.
 * Bundles watch their files (chokidar, debounced) and rebuild, so a long-running app never serves
 * stale rules; snapshots already taken never change.
 */
export class WorkspaceResourcesCache {
  private readonly entries = new Map<string, Entry>();
  private readonly members: readonly ResourceMemberFactory[];
  private readonly idleCapacity: number;
  private readonly hardCapacity: number;
  private generation = 0;
  private closed = false;
  private readonly disposals = new Set<Promise<void>>();

  constructor(private readonly options: WorkspaceResourcesCacheOptions) {
    this.members = options.members ?? DEFAULT_MEMBERS;
    this.idleCapacity = options.idleCapacity ?? 32;
    this.hardCapacity = options.hardCapacity ?? 64;
  }

  /**
   * The live bundle of a workspace folder, created on first use. Pinned against eviction until
   * the next macrotask (an unref'd `setImmediate`), long enough to take a snapshot.
   * @throws AtriumError PATH_NOT_FOUND | NOT_A_DIRECTORY | … for an unusable folder
   * @throws WorkspaceResourceCapacityError when 64 entries are busy and this folder has none
   */
  async resolve(workspaceDir: string): Promise<WorkspaceResources> {
    const { entry, bundle } = await this.acquire(workspaceDir);
    setImmediate(() => this.release(entry)).unref();
    return bundle;
  }

  /** Runs `op` with the bundle pinned for its whole duration, then releases it synchronously. */
  async withResources<T>(workspaceDir: string, op: (bundle: WorkspaceResources) => Promise<T> | T): Promise<T> {
    const { entry, bundle } = await this.acquire(workspaceDir);
    try {
      return await op(bundle);
    } finally {
      this.release(entry);
    }
  }

  /**
   * An immutable snapshot for a session (seed §1.3). Accepts a live bundle or an existing
   * snapshot (a child session snapshots its parent's snapshot).
   */
  snapshot(source: WorkspaceResources | WorkspaceResourcesSnapshot): WorkspaceResourcesSnapshot {
    if (source instanceof WorkspaceResources) return source.snapshot();
    const { kind, root, generation, version, ...values } = source;
    const copied: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const v = value as { snapshot?: () => unknown } | null;
      copied[key] = key !== 'takenAt' && typeof v?.snapshot === 'function' ? v.snapshot() : value;
    }
    return Object.freeze({ ...(copied as unknown as ResourceValues), kind, root, generation, version, takenAt: new Date().toISOString() });
  }

  /**
   * Forgets every bundle (seed §1.3 reset): generation bump, initialised bundles released, map
   * cleared. In-flight initialisations still resolve for their waiters but release their bundle.
   */
  reset(): void {
    this.generation++;
    for (const entry of this.entries.values()) if (entry.resources) this.dispose(entry.resources);
    this.entries.clear();
  }

  /** Rebuilds a workspace's bundle from disk now (creating it if needed). */
  async refresh(workspaceDir: string): Promise<WorkspaceResources> {
    return this.withResources(workspaceDir, async (bundle) => {
      await bundle.refresh((b, notify) => this.changed(b, notify));
      return bundle;
    });
  }

  /**
   * Re-checks every initialised bundle (e.g. after a trust decision changed) and rebuilds the
   * stale ones, which fires `onChange`. Never rejects.
   */
  async revalidateAll(): Promise<void> {
    const bundles = [...this.entries.values()].map((e) => e.resources).filter((b): b is WorkspaceResources => b !== null);
    await Promise.all(bundles.map((b) => b.revalidate((x, notify) => this.changed(x, notify))));
  }

  /** Resolves when the workspace's watcher finished its initial scan (for tests and tools). */
  async watchReady(workspaceDir: string): Promise<void> {
    await this.withResources(workspaceDir, (bundle) => bundle.watchReady());
  }

  /** `{capacity, activeCapacity, entries, initialized, inFlight, activeUsers}` (seed §1.3). */
  stats(): WorkspaceResourceStats {
    let initialized = 0;
    let activeUsers = 0;
    for (const entry of this.entries.values()) {
      if (entry.resources) initialized++;
      activeUsers += entry.users;
    }
    return { capacity: this.idleCapacity, activeCapacity: this.hardCapacity, entries: this.entries.size, initialized, inFlight: this.entries.size - initialized, activeUsers };
  }

  /** Stops every watcher and releases every bundle; later calls fail. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    this.reset();
    await Promise.all([...this.disposals]);
  }

  private async acquire(workspaceDir: string): Promise<{ entry: Entry; bundle: WorkspaceResources }> {
    if (this.closed) throw new Error('The workspace resources cache is closed.');
    const key = canonicalDirectory(workspaceDir);
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    } else {
      this.trim();
      if (this.entries.size >= this.hardCapacity) throw new WorkspaceResourceCapacityError(this.hardCapacity);
      const created: Entry = { key, generation: this.generation, users: 0, promise: Promise.resolve(null as never), resources: null };
      created.promise = this.initialize(created);
      this.entries.set(key, created);
      entry = created;
    }
    entry.users++;
    let bundle: WorkspaceResources;
    try {
      bundle = await entry.promise;
    } catch (error) {
      this.release(entry);
      throw error;
    }
    await bundle.revalidate((b, notify) => this.changed(b, notify));
    return { entry, bundle };
  }

  private async initialize(entry: Entry): Promise<WorkspaceResources> {
    const newScan = () => (this.options.createScan ?? defaultScan)(entry.key);
    const bundle = new WorkspaceResources(entry.key, entry.generation, newScan);
    try {
      const files = newScan();
      for (const factory of this.members) {
        bundle.addMember(factory.key, await factory.create({ workspaceDir: entry.key, homeDir: this.options.homeDir, trustGate: this.options.trustGate, files }));
      }
    } catch (error) {
      this.dispose(bundle);
      if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
      throw error;
    }
    if (this.closed || entry.generation !== this.generation || this.entries.get(entry.key) !== entry) {
      this.dispose(bundle); // a reset happened meanwhile: detached, never written back
      return bundle;
    }
    entry.resources = bundle;
    if (this.options.watch !== false) bundle.startWatching((b, notify) => this.changed(b, notify), { debounceMs: this.options.debounceMs });
    this.trim();
    return bundle;
  }

  private release(entry: Entry): void {
    entry.users = Math.max(0, entry.users - 1);
    this.trim();
  }

  /** Evicts idle initialised entries, oldest first, while more than `idleCapacity` remain (seed §1.2). */
  private trim(): void {
    while (this.entries.size > this.idleCapacity) {
      let victim: Entry | null = null;
      for (const entry of this.entries.values()) {
        if (entry.resources && entry.users === 0) {
          victim = entry;
          break;
        }
      }
      if (!victim) return;
      this.entries.delete(victim.key);
      this.dispose(victim.resources!);
    }
  }

  private changed(bundle: WorkspaceResources, notify: boolean): void {
    if (bundle.isDisposed) return;
    try {
      this.options.onChange?.(bundle.root, bundle, notify);
    } catch (error) {
      console.error('[atrium] resource change listener failed:', error);
    }
  }

  private dispose(bundle: WorkspaceResources): void {
    const done = bundle.dispose().finally(() => this.disposals.delete(done));
    this.disposals.add(done);
  }
}
