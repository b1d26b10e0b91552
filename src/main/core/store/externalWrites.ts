import type { Store } from './database';

/** Options for {@link watchExternalWrites}. */
export interface ExternalWritesOptions {
  /** Poll interval in milliseconds (default 1000). */
  intervalMs?: number;
  /** Called (synchronously, on the timer) after another connection committed to the database. */
  onExternalWrite: () => void;
}

/**
 * Notices writes made to the same database by another process, e.g. `atrium trust set` in a
 * terminal while `atrium serve` or the desktop app runs. SQLite's `PRAGMA data_version` changes
 * only when *another* connection commits, so the engine's own writes never trigger it and polling
 * it is one cheap read. The timer is unref'd: it never keeps a process alive.
 *
 * Why: without this, a trust decision taken in the CLI left the running app's resource bundles
 * in restricted mode and its open tabs stale until a restart or reload.
 *
 * @returns a function that stops watching (idempotent)
 */
export function watchExternalWrites(store: Store, options: ExternalWritesOptions): () => void {
  const read = () => store.db.pragma('data_version', { simple: true }) as number;
  let last: number;
  try {
    last = read();
  } catch {
    return () => undefined;
  }
  const timer = setInterval(() => {
    let now: number;
    try {
      now = read();
    } catch {
      return; // database closed under us: the engine is shutting down
    }
    if (now === last) return;
    last = now;
    try {
      options.onExternalWrite();
    } catch (error) {
      console.error('[atrium] handling a change made by another Atrium process failed:', error);
    }
  }, options.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
