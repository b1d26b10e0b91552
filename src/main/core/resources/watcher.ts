import { watch, type FSWatcher } from 'chokidar';
import type { WatchSpec } from './types';

/** Options for {@link DebouncedWatcher}. */
export interface DebouncedWatcherOptions {
  /** Quiet time before a batch is delivered, ms (default 150). */
  debounceMs?: number;
  /** Longest a batch may wait while events keep coming, ms (default 2000). */
  maxWaitMs?: number;
  /** Called with a batch of changed absolute paths (files and folders; added, changed or removed). */
  onBatch(paths: Set<string>): void;
  /** Called when the watcher library reports an error (e.g. too many watches); watching continues. */
  onError?(error: unknown): void;
}

/**
 * File watching for one bundle with chokidar (v4): one watcher for whole subtrees, one for single
 * folders (depth 0) and single files. Events are coalesced: a batch is delivered after
 * `debounceMs` without events, or `maxWaitMs` after the first one. `configure` may be called
 * again with a new spec; only the difference is (un)watched.
 */
export class DebouncedWatcher {
  private deep: FSWatcher | null = null;
  private shallow: FSWatcher | null = null;
  private deepPaths = new Set<string>();
  private shallowPaths = new Set<string>();
  private ignored: (absolute: string) => boolean = () => false;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private firstEventAt = 0;
  private closed = false;
  private readyPromise: Promise<void> = Promise.resolve();

  constructor(private readonly options: DebouncedWatcherOptions) {}

  /** Resolves when the initial scans of the current spec are done (events before may be missed). */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** Starts or updates watching to exactly `spec`. */
  configure(spec: WatchSpec): void {
    if (this.closed) return;
    this.ignored = spec.ignored;
    const waits: Promise<void>[] = [];
    const sync = (current: Set<string>, wanted: string[], kind: 'deep' | 'shallow') => {
      const next = new Set(wanted);
      const add = [...next].filter((p) => !current.has(p));
      const remove = [...current].filter((p) => !next.has(p));
      let w = kind === 'deep' ? this.deep : this.shallow;
      if (!w && add.length) {
        w = this.create(kind === 'deep' ? 32 : 0, add);
        if (kind === 'deep') this.deep = w;
        else this.shallow = w;
        waits.push(new Promise<void>((resolve) => w!.once('ready', () => resolve())));
      } else if (w && add.length) {
        w.add(add);
      }
      if (w && remove.length) w.unwatch(remove);
      if (kind === 'deep') this.deepPaths = next;
      else this.shallowPaths = next;
    };
    sync(this.deepPaths, spec.recursive, 'deep');
    sync(this.shallowPaths, spec.shallow, 'shallow');
    if (waits.length) this.readyPromise = Promise.all(waits).then(() => undefined);
  }

  /** Stops watching and drops pending events. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
    const watchers = [this.deep, this.shallow].filter((w): w is FSWatcher => w !== null);
    this.deep = null;
    this.shallow = null;
    await Promise.all(watchers.map((w) => w.close().catch(() => undefined)));
  }

  private create(depth: number, paths: string[]): FSWatcher {
    const w = watch(paths, {
      ignoreInitial: true,
      followSymlinks: false,
      depth,
      ignored: (p: string) => this.ignored(p),
    });
    w.on('all', (_event, p) => this.push(p));
    w.on('error', (error) => this.options.onError?.(error));
    return w;
  }

  private push(p: string): void {
    if (this.closed) return;
    if (this.pending.size === 0) this.firstEventAt = Date.now();
    this.pending.add(p);
    if (this.timer) clearTimeout(this.timer);
    const debounce = this.options.debounceMs ?? 150;
    const maxWait = this.options.maxWaitMs ?? 2000;
    const delay = Math.max(0, Math.min(debounce, this.firstEventAt + maxWait - Date.now()));
    this.timer = setTimeout(() => this.flush(), delay);
    this.timer.unref?.();
  }

  private flush(): void {
    this.timer = null;
    if (this.closed || this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Set();
    this.options.onBatch(batch);
  }
}
