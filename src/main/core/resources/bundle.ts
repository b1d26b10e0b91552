import type { FileAccess } from '../files/scan';
import type { ResourceKey, ResourceMember, ResourceValues, WatchSpec, WorkspaceResourcesSnapshot } from './types';
import type { DebouncedWatcher } from './watcher';

/** How a bundle tells its cache that its values changed. */
export type BundleChangeListener = (bundle: WorkspaceResources, notify: boolean) => void;

/**
 * The refreshable resource bundle of one workspace (seed §1.1): one member per resource kind,
 * each holding an immutable value that a rebuild replaces. Shared by every surface; sessions
 * never keep it, they take a {@link WorkspaceResourcesSnapshot} (see `snapshotResources`).
 * Changes (watcher batches, revalidation, refresh) run one at a time.
 */
export class WorkspaceResources {
  private readonly members = new Map<ResourceKey, ResourceMember<ResourceValues[ResourceKey]>>();
  private queue: Promise<unknown> = Promise.resolve();
  private watcher: DebouncedWatcher | null = null;
  /** Set by the first {@link startWatching}, before the watcher's code has loaded. */
  private watching = false;
  private disposed = false;
  private versionCounter = 0;

  constructor(
    /** Canonical workspace folder (the cache key). */
    readonly root: string,
    /** Cache generation this bundle was created in. */
    readonly generation: number,
    /** A new scan for one build (refresh, revalidation, a watcher batch): one listing, one read per file. */
    private readonly newScan: () => FileAccess,
  ) {}

  /** Increments whenever a member value is replaced. */
  get version(): number {
    return this.versionCounter;
  }

  /** True once released (evicted, reset, or a late initialisation of an older generation). */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** The current rule catalog (the bundle's first member). */
  get rules(): ResourceValues['rules'] {
    return this.value('rules');
  }

  /** The current value of a member. @throws Error when the member is not part of this bundle. */
  value<K extends ResourceKey>(key: K): ResourceValues[K] {
    const member = this.members.get(key);
    if (!member) throw new Error(`Workspace resource "${key}" is not available.`);
    return member.value as ResourceValues[K];
  }

  /** Adds a member during initialisation. */
  addMember<K extends ResourceKey>(key: K, member: ResourceMember<ResourceValues[K]>): void {
    this.members.set(key, member as ResourceMember<ResourceValues[ResourceKey]>);
  }

  /** Builds an immutable snapshot of every member (seed §1.3 snapshot). */
  snapshot(): WorkspaceResourcesSnapshot {
    const values = {} as Record<ResourceKey, unknown>;
    for (const [key, member] of this.members) values[key] = member.snapshot();
    return Object.freeze({ ...(values as ResourceValues), kind: 'snapshot' as const, root: this.root, generation: this.generation, version: this.versionCounter, takenAt: new Date().toISOString() });
  }

  /**
   * Rebuilds stale members (e.g. the trust answer changed) before the bundle is handed out.
   * Never rejects; a failed rebuild keeps the previous value and is logged.
   */
  revalidate(onChange: BundleChangeListener): Promise<void> {
    const stale = [...this.members.values()].filter((m) => m.isStale());
    if (stale.length === 0 || this.disposed) return Promise.resolve();
    return this.enqueue(async () => {
      const still = stale.filter((m) => m.isStale());
      if (still.length === 0) return;
      const files = this.newScan();
      for (const m of still) await m.refresh(files).catch((error) => console.error(`[atrium] resource rebuild failed for ${this.root}:`, error));
      this.versionCounter++;
      onChange(this, true);
      await this.rewatch();
    });
  }

  /** Rebuilds every member from scratch, from one scan. Rejects when a member's rebuild fails. */
  refresh(onChange: BundleChangeListener): Promise<void> {
    return this.enqueue(async () => {
      const files = this.newScan();
      for (const m of this.members.values()) await m.refresh(files);
      this.versionCounter++;
      onChange(this, true);
      await this.rewatch();
    });
  }

  /**
   * Starts watching the members' files; each debounced batch is applied to every member and
   * `onChange` is called when a value was replaced.
   */
  startWatching(onChange: BundleChangeListener, options: { debounceMs?: number } = {}): void {
    if (this.disposed || this.watching) return;
    this.watching = true;
    let errorLogged = false;
    // the watcher's code (chokidar) loads on first use: one-shot CLI commands never watch
    void this.enqueue(async () => {
      const { DebouncedWatcher } = await import('./watcher');
      if (this.disposed) return;
      this.watcher = new DebouncedWatcher({
        debounceMs: options.debounceMs,
        onBatch: (paths) => void this.enqueue(() => this.apply(paths, onChange)),
        onError: (error) => {
          if (!errorLogged) console.error(`[atrium] file watching failed for ${this.root}:`, error);
          errorLogged = true;
        },
      });
      await this.rewatch();
    });
  }

  /** Resolves when file watching has finished its initial scan (immediately when not watching). */
  async watchReady(): Promise<void> {
    await this.queue;
    await this.watcher?.ready();
  }

  /** Releases members and stops watching. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const watcher = this.watcher;
    this.watcher = null;
    for (const m of this.members.values()) {
      try {
        m.dispose();
      } catch (error) {
        console.error('[atrium] resource release failed:', error);
      }
    }
    await watcher?.close();
  }

  private async apply(paths: Set<string>, onChange: BundleChangeListener): Promise<void> {
    if (this.disposed) return;
    let replaced = false;
    let notify = false;
    const files = this.newScan(); // lazy: lists only when a member rebuilds, reads only what changed
    for (const m of this.members.values()) {
      const r = await m.applyChanges(paths, files);
      replaced ||= r.replaced;
      notify ||= r.notify;
    }
    if (!replaced) return;
    this.versionCounter++;
    onChange(this, notify);
    if (notify) await this.rewatch();
  }

  private async rewatch(): Promise<void> {
    if (this.disposed || !this.watcher) return;
    const specs = (await Promise.all([...this.members.values()].map((m) => m.watchSpec().catch(() => null)))).filter((s): s is WatchSpec => s !== null);
    const ignoredFns = specs.map((s) => s.ignored);
    this.watcher?.configure({
      recursive: [...new Set(specs.flatMap((s) => s.recursive))],
      shallow: [...new Set(specs.flatMap((s) => s.shallow))],
      ignored: (p) => ignoredFns.some((fn) => fn(p)),
    });
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
