import os from 'node:os';
import { EventBus } from './events/bus';
import { openStore, type Store } from './store/database';
import { WorkspaceService } from './workspaces/service';

/** Options for {@link createEngine}. */
export interface EngineOptions {
  /** Absolute data directory (see `resolveDataDir`). */
  dataDir: string;
  /** Home directory used for user-level resources; defaults to `os.homedir()`, overridable for tests. */
  homeDir?: string;
}

/**
 * The engine: everything Atrium knows and decides, runnable under plain Node. One instance per
 * process; every surface (Electron IPC, browser WebSocket, CLI) talks to the same instance.
 * Capabilities are properties, one per folder of `src/main/core`.
 */
export interface Engine {
  readonly dataDir: string;
  readonly homeDir: string;
  readonly store: Store;
  readonly bus: EventBus;
  readonly workspaces: WorkspaceService;
  /** Stops background work and closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the store and wires the capabilities.
 * @throws AtriumError DB_TOO_NEW | DB_OPEN_FAILED (see `openStore`)
 */
export function createEngine(options: EngineOptions): Engine {
  const store = openStore(options.dataDir);
  const bus = new EventBus();
  const workspaces = new WorkspaceService(store, bus);
  let closed = false;
  return {
    dataDir: options.dataDir,
    homeDir: options.homeDir ?? os.homedir(),
    store,
    bus,
    workspaces,
    async close() {
      if (closed) return;
      closed = true;
      store.close();
    },
  };
}
