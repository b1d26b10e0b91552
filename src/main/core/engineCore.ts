import os from 'node:os';
import path from 'node:path';
import { EventBus } from './events/bus';
import { openStore } from './migrations';
import type { Store } from './store/database';
import type { TrustGate } from './trust/gate';
import { TrustService } from './trust/service';
import { WorkspaceService } from './workspaces/service';

/** Options for {@link openEngineCore} (the same meaning as in `EngineOptions`, engine.ts). */
export interface EngineCoreOptions {
  /** Absolute data directory (see `resolveDataDir`). */
  dataDir: string;
  /** Home directory for user-level resources; default `os.homedir()`. */
  homeDir?: string;
  /** Codex's home; default `$CODEX_HOME` when `homeDir` is not overridden, else `<homeDir>/.codex`. */
  codexHome?: string;
  /** Overrides restricted mode's gate (tests only); default the {@link TrustService}. */
  trustGate?: TrustGate;
}

/**
 * The part of the engine every other capability stands on: the opened store, the event bus, the
 * workspace list and folder trust (with the gate restricted mode asks). It loads no agent, hook,
 * session or watcher code, so a command that needs only these (the CLI's `workspace` and `rules`
 * commands) starts fast; `createEngine` builds the full engine on top of one.
 */
export interface EngineCore {
  readonly dataDir: string;
  readonly homeDir: string;
  readonly codexHome: string;
  readonly store: Store;
  readonly bus: EventBus;
  readonly workspaces: WorkspaceService;
  readonly trust: TrustService;
  readonly trustGate: TrustGate;
  /** Closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the store and wires workspaces and trust.
 * @throws AtriumError DB_TOO_NEW | DB_OPEN_FAILED (see `openStore`)
 */
export function openEngineCore(options: EngineCoreOptions): EngineCore {
  const store = openStore(options.dataDir);
  const bus = new EventBus();
  const homeDir = options.homeDir ?? os.homedir();
  const envCodexHome = options.homeDir === undefined ? process.env.CODEX_HOME : undefined;
  const codexHome = options.codexHome ?? (envCodexHome ? path.resolve(envCodexHome) : path.join(homeDir, '.codex'));
  // trust changes re-emit the workspace list, which carries each workspace's trust state
  let workspaces: WorkspaceService | null = null;
  const trust = new TrustService({ store, bus, homeDir, onChanged: () => workspaces?.notifyTrustChanged() });
  workspaces = new WorkspaceService(store, bus, (trustRoot, folder) => trust.workspaceTrust(trustRoot, folder));
  let closed = false;
  return {
    dataDir: options.dataDir,
    homeDir,
    codexHome,
    store,
    bus,
    workspaces,
    trust,
    trustGate: options.trustGate ?? trust,
    async close() {
      if (closed) return;
      closed = true;
      store.close();
    },
  };
}
