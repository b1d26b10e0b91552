import { openCredentialStore, type CredentialStoreOptions } from './credentials/store';
import { openEngineCore } from './engineCore';
import type { EventBus } from './events/bus';
import { ExtensionsService } from './api/extensionsService';
import { projectPluginStates } from './extensions/plugins/states';
import { HookService } from './hooks/service';
import { WorkspaceResourcesCache } from './resources/cache';
import { RulesService } from './api/rulesService';
import { ProviderService } from './providers/service';
import { SessionService, type SessionServiceOptions } from './sessions/service';
import type { HandoverOptions } from './sessions/workspacePolicy/handover';
import { WorkspacePolicy } from './sessions/workspacePolicy/policy';
import type { Store } from './store/database';
import { watchExternalWrites } from './store/externalWrites';
import type { TrustGate } from './trust/gate';
import type { TrustService } from './trust/service';
import { APP_VERSION } from './version';
import type { WorkspaceService } from './workspaces/service';

/** Options for {@link createEngine}. */
export interface EngineOptions {
  /** Absolute data directory (see `resolveDataDir`). */
  dataDir: string;
  /** Home directory used for user-level resources; defaults to `os.homedir()`, overridable for tests. */
  homeDir?: string;
  /**
   * Codex's home (`$CODEX_HOME`: global AGENTS.md, config.toml) for the Codex rules view. Default:
   * `$CODEX_HOME` when `homeDir` is not overridden, else `<homeDir>/.codex` (so tests stay isolated).
   */
  codexHome?: string;
  /**
   * Overrides restricted mode's gate (tests only, e.g. `fixedGate(true)`); defaults to the engine's
   * {@link TrustService}, which answers from the recorded folder-trust decisions.
   */
  trustGate?: TrustGate;
  /** Watch workspace files and rebuild resources on change (default true). */
  watchResources?: boolean;
  /** Session runtime options (agent presets, environment, batching, idle shutdown), mostly for tests. */
  sessions?: SessionServiceOptions;
  /**
   * Which Atrium surface this process is, as recorded in the sessions whose agents it hosts
   * (default `{ kind: 'cli' }`); other processes name it in `SESSION_HOSTED_ELSEWHERE`.
   */
  host?: { kind: 'cli' | 'serve' | 'app' | 'acp' };
  /** Watch hook files and scripts of listed workspaces and push `hooksChanged` (default: `watchResources`, else true). */
  watchHooks?: boolean;
  /** Handover code clock and RNG (tests: a fake clock to expire codes). */
  handover?: HandoverOptions;
  /**
   * How often to look for writes by another Atrium process on the same data directory, in
   * milliseconds (default 1000; 0 turns it off). See `store/externalWrites.ts`.
   */
  externalWritePollMs?: number;
  /**
   * Where provider keys are kept (see `openCredentialStore`): the desktop shell passes Electron's
   * `safeStorage`; tests pass a backend. Default: the OS keychain, else a 0600 file.
   */
  credentials?: CredentialStoreOptions;
  /**
   * How often to check that every workspace folder still exists, so one deleted or renamed while
   * Atrium runs shows as missing (with "Locate…") without a restart; milliseconds (default 2000; 0
   * turns it off). See `WorkspaceService.checkPresence`.
   */
  workspacePresencePollMs?: number;
}

/**
 * The engine: everything Atrium knows and decides, runnable under plain Node. One instance per
 * process; every surface (Electron IPC, browser WebSocket, CLI) talks to the same instance.
 * Capabilities are properties, one per folder of `src/main/core`.
 */
export interface Engine {
  readonly dataDir: string;
  readonly homeDir: string;
  /** Codex's home as resolved from {@link EngineOptions.codexHome}. */
  readonly codexHome: string;
  readonly store: Store;
  readonly bus: EventBus;
  readonly workspaces: WorkspaceService;
  /** Folder trust: decisions, resolution, audit history. */
  readonly trust: TrustService;
  /**
   * Restricted mode's gate: every capability that reads repository-supplied resources asks it
   * before activating them. The TrustService unless overridden by `EngineOptions.trustGate`.
   */
  readonly trustGate: TrustGate;
  /** Per-workspace resource bundles (rule catalog first), watched and rebuilt on change. */
  readonly resources: WorkspaceResourcesCache;
  /** Project rule catalog answers in the contract's shapes. */
  readonly rules: RulesService;
  /** Agents and ACP sessions: launch, live state, permissions, durable history, resume. */
  readonly sessions: SessionService;
  /**
   * Hook trust by content digest: listings, approvals, audit, runs, MCP server approval.
   * For the session runtime: `approvedHooksFor(target)`, `run(event, input, {workspaceId, sessionId})`,
   * `approvedMcpServers(target)`, `isMcpServerApproved(target, name)`.
   */
  readonly hooks: HookService;
  /** Skills, commands, subagents, plugins, MCP/LSP servers and output styles of the resource bundle. */
  readonly extensions: ExtensionsService;
  /**
   * Sessions that obey the workspace: snapshots and provenance, rules injection and the
   * first-write barrier, approved hooks and MCP servers in sessions, worktrees, attached surfaces,
   * handover codes and the idle-shutdown setting. Wired into `sessions` through its hook seam.
   */
  readonly policy: WorkspacePolicy;
  /**
   * Model providers, the shared credential store, per-workspace agent settings (provider, model,
   * mode), repository endpoint approvals and each session's recorded endpoint. Wired into
   * `sessions` through its hook seam after the policy.
   */
  readonly providers: ProviderService;
  /** Stops background work and closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the store and wires the capabilities.
 * @throws AtriumError DB_TOO_NEW | DB_OPEN_FAILED (see `openStore`)
 */
export function createEngine(options: EngineOptions): Engine {
  const core = openEngineCore(options);
  const { store, bus, homeDir, codexHome, workspaces, trust, trustGate } = core;
  const extensionsDigests = new WeakMap<object, string>();
  const resources = new WorkspaceResourcesCache({
    homeDir,
    trustGate,
    watch: options.watchResources ?? true,
    onChange: (dir, bundle, notify) => {
      if (!notify) return;
      for (const ws of workspaces?.list() ?? []) {
        if (ws.path === dir) bus.emit('rulesChanged', { workspaceId: ws.id, catalogSha256: bundle.rules.catalogSha256 });
      }
      const digest = extensionsDigestOf(bundle);
      if (digest !== null && extensionsDigests.get(bundle) !== digest) {
        extensionsDigests.set(bundle, digest);
        for (const ws of workspaces?.list() ?? []) if (ws.path === dir) bus.emit('extensionsChanged', { workspaceId: ws.id });
      }
    },
  });
  bus.subscribe((event) => {
    if (event === 'trustChanged') void resources.revalidateAll();
  });
  const sessions = new SessionService(store, bus, workspaces, options.dataDir, { clientVersion: APP_VERSION, hostKind: options.host?.kind ?? 'cli', ...options.sessions });
  const hooks = new HookService({ store, bus, homeDir, trustGate, workspaces, pluginStates: projectPluginStates, watch: options.watchHooks ?? options.watchResources ?? true, env: mcpEnv(options.sessions?.baseEnv) });
  const policy = new WorkspacePolicy({ store, bus, dataDir: options.dataDir, resources, hooks, sessions, workspaces, handover: options.handover });
  sessions.addHooks(policy);
  const providers = new ProviderService({
    store,
    bus,
    workspaces,
    trustGate,
    credentials: () => openCredentialStore(options.dataDir, options.credentials),
    presetOf: (agentId) => {
      try {
        return sessions.agents.knownAgent(agentId)?.preset.id ?? null;
      } catch {
        return null;
      }
    },
    agentIds: () => sessions.agents.ids(),
    providerKindsOf: (agentId) => {
      try {
        return sessions.agents.knownAgent(agentId)?.preset.providerKinds ?? null;
      } catch {
        return null;
      }
    },
  });
  sessions.addHooks(providers.hooks());
  sessions.configure({
    idleMs: () => policy.idleMinutes() * 60_000,
    permissionSurface: (sessionId, promptSurfaceId) => policy.surfaces.permissionTarget(sessionId, promptSurfaceId),
  });
  // another process (the CLI next to `atrium serve` or the app) changed the store: tell everyone
  const pollMs = options.externalWritePollMs ?? 1000;
  const stopWatchingWrites =
    pollMs > 0
      ? watchExternalWrites(store, {
          intervalMs: pollMs,
          onExternalWrite: () => {
            trust.announceExternalChanges(); // also re-pushes the workspace list and revalidates bundles
            workspaces?.announceExternalChanges();
            hooks.announceExternalChanges();
            sessions.followExternalWrites(); // open views follow sessions a terminal (or another process) runs
          },
        })
      : () => undefined;
  const presenceMs = options.workspacePresencePollMs ?? 2000;
  const presenceTimer =
    presenceMs > 0 && workspaces
      ? setInterval(() => {
          try {
            workspaces.checkPresence();
          } catch (error) {
            console.error('[atrium] checking that workspace folders exist failed:', error);
          }
        }, presenceMs)
      : null;
  presenceTimer?.unref();
  let closed = false;
  return {
    dataDir: options.dataDir,
    homeDir,
    codexHome,
    store,
    bus,
    workspaces,
    trust,
    trustGate,
    resources,
    rules: new RulesService(resources, { codexHome }),
    sessions,
    hooks,
    extensions: new ExtensionsService(resources, trustGate, homeDir),
    policy,
    providers,
    async close() {
      if (closed) return;
      closed = true;
      stopWatchingWrites();
      if (presenceTimer) clearInterval(presenceTimer);
      await sessions.close();
      await policy.close();
      await hooks.close();
      await resources.close();
      await core.close();
    },
  };
}

/** The extensions member's digest of a bundle, or null when the bundle has no such member. */
function extensionsDigestOf(bundle: { value(key: 'extensions'): { digest: string } }): string | null {
  try {
    return bundle.value('extensions').digest;
  } catch {
    return null;
  }
}

/**
 * The environment MCP server definitions are expanded from: the one agents inherit (the sessions'
 * `baseEnv` when set, else Atrium's own process environment, read at each listing so a variable
 * set later by the host is seen).
 */
function mcpEnv(baseEnv: Record<string, string> | undefined): () => Readonly<Record<string, string | undefined>> {
  return baseEnv ? () => baseEnv : () => process.env;
}
