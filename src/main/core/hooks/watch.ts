import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

/** Quiet time before a batch of file events is handled (ms). */
export const HOOK_WATCH_DEBOUNCE_MS = 150;

/** Pseudo-path pushed to force one re-check (no file changed; the listing is simply rebuilt). */
const RECHECK = '<recheck>';
/** Delay before re-checking after folders were added to a running watcher (ms). */
const ADDED_RECHECK_MS = 750;

/**
 * Watches the folders that hold a workspace's hook sources and scripts (depth 0 each, chokidar),
 * debounced: `onBatch` receives the changed absolute paths once events stop for
 * {@link HOOK_WATCH_DEBOUNCE_MS}. `configure` may be called again; only the difference is
 * (un)watched. Errors (e.g. too many watches) are swallowed: watching is a convenience, the
 * digest is re-checked before every run anyway.
 */
export class HookWatcher {
  private watcher: FSWatcher | null = null;
  private dirs = new Set<string>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private ready: Promise<void> = Promise.resolve();

  constructor(private readonly onBatch: (paths: Set<string>) => void) {}

  /** Resolves when the current folders are being watched (events before may be missed). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /** Watches exactly `dirs` (absolute folders; missing ones are skipped by chokidar until they appear). */
  configure(dirs: Iterable<string>): void {
    if (this.closed) return;
    const next = new Set([...dirs].map((d) => path.resolve(d)));
    const add = [...next].filter((d) => !this.dirs.has(d));
    const remove = [...this.dirs].filter((d) => !next.has(d));
    this.dirs = next;
    if (!this.watcher) {
      if (add.length === 0) return;
      const w = watch(add, { ignoreInitial: true, depth: 0, followSymlinks: false, ignorePermissionErrors: true });
      w.on('all', (_event, p) => this.push(p));
      w.on('error', () => undefined);
      // A change made between configure() and chokidar's initial scan produces no event: re-check
      // once the watch is in place, so such an edit is still reported.
      this.ready = new Promise((resolve) =>
        w.once('ready', () => {
          resolve();
          this.push(RECHECK);
        }),
      );
      this.watcher = w;
      return;
    }
    if (add.length) {
      this.watcher.add(add);
      // Added folders are scanned asynchronously (no 'ready' event): re-check after the scan settles.
      setTimeout(() => this.push(RECHECK), ADDED_RECHECK_MS).unref();
    }
    if (remove.length) this.watcher.unwatch(remove);
  }

  private push(p: string): void {
    if (this.closed) return;
    this.pending.add(p);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const batch = this.pending;
      this.pending = new Set();
      if (!this.closed && batch.size) this.onBatch(batch);
    }, HOOK_WATCH_DEBOUNCE_MS);
  }

  /** Stops watching. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const w = this.watcher;
    this.watcher = null;
    await w?.close().catch(() => undefined);
  }
}
