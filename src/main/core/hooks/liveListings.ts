import path from 'node:path';
import type { WorkspaceService } from '../workspaces/service';
import { buildListing, type BuiltListing } from './listing';
import type { HookPluginState, PluginStatesOf } from './pluginGate';
import type { HookRepository } from './repository';
import { discoverPlugins, type PluginDiscovery } from './sources';
import { HookWatcher } from './watch';

/**
 * The trust answer the hooks need (restricted mode's one question, answered by the trust gate above
 * and passed in): may project hooks and servers under `dir` (absolute) be activated? Never throws.
 */
export interface HooksTrust {
  mayActivateProjectResources(dir: string): boolean;
}

/** A folder the service answers for. */
export interface HookTargetFolder {
  path: string;
  trustRoot: string;
  workspaceId: string | null;
}

/** What {@link LiveListings} needs from the hook service. */
export interface LiveListingsOptions {
  /** The engine's home directory (user-level sources). */
  homeDir: string;
  /** Canonical home: trust root of user-level approvals. */
  home: string;
  trustGate: HooksTrust;
  pluginStates: PluginStatesOf;
  workspaces: WorkspaceService;
  repo: HookRepository;
  /** Watch hook files and scripts of listed workspaces (default true). */
  watch?: boolean;
  /** The environment MCP server definitions are expanded from (default `process.env`). */
  env?: () => Readonly<Record<string, string | undefined>>;
  /** Pushes `hooksChanged` (the service's bus; it ignores calls after close). */
  emit(workspaceId: string | null, reason: 'approval' | 'file' | 'run', becameModified?: string[]): void;
}

const PLUGIN_CACHE_MS = 5000;

/**
 * The hook listings of folders as the service needs them: built on demand (plugin discovery and
 * plugin states cached for 5 s, since several requests list one folder in a row) and, for listed
 * workspaces, kept fresh by watching their hook files and scripts, so a hook turning `modified` on
 * disk, a trust change or a plugin switched on or off is pushed at once (`hooksChanged`).
 */
export class LiveListings {
  private readonly watchers = new Map<string, { watcher: HookWatcher; states: Map<string, string>; path: string; busy: Promise<void> }>();
  private readonly pluginCache = new Map<string, { at: number; value: Promise<PluginDiscovery> }>();
  private readonly pluginStateCache = new Map<string, { at: number; value: Promise<readonly HookPluginState[]> }>();
  private closed = false;

  constructor(private readonly o: LiveListingsOptions) {}

  /** The listing of a folder (see `buildListing`), with the plugin discovery and states cached for 5 s. */
  build(f: HookTargetFolder, includeHeldBack: boolean): Promise<BuiltListing> {
    return buildListing({
      path: f.path,
      trustRoot: f.trustRoot,
      workspaceId: f.workspaceId,
      homeDir: this.o.homeDir,
      home: this.o.home,
      restricted: !this.o.trustGate.mayActivateProjectResources(f.path),
      includeHeldBack,
      approvals: (roots) => this.o.repo.approvals(roots),
      plugins: (dir) => this.plugins(dir),
      pluginStates: (dir) => this.pluginStates(dir),
      httpAllowedHosts: this.o.repo.httpHosts(),
      env: this.o.env?.() ?? process.env,
    });
  }

  private plugins(dir: string): Promise<PluginDiscovery> {
    const hit = this.pluginCache.get(dir);
    if (hit && Date.now() - hit.at < PLUGIN_CACHE_MS) return hit.value;
    const value = discoverPlugins(dir);
    this.pluginCache.set(dir, { at: Date.now(), value });
    return value;
  }

  /** Enabled state of the workspace's plugins (extensions code), cached like the discovery. */
  private pluginStates(dir: string): Promise<readonly HookPluginState[]> {
    const hit = this.pluginStateCache.get(dir);
    if (hit && Date.now() - hit.at < PLUGIN_CACHE_MS) return hit.value;
    const value = this.o.pluginStates(dir, this.o.homeDir);
    this.pluginStateCache.set(dir, { at: Date.now(), value });
    return value;
  }

  /**
   * The extensions bundle changed (e.g. `ExtensionsService.setPluginEnabled`): plugin hooks and
   * servers may have turned on or off. Forgets the cached plugin state and pushes `hooksChanged`
   * for the workspace when the states of its hooks or servers changed (always when not watched).
   */
  pluginsChanged(workspaceId: string): void {
    if (this.closed) return;
    let dir: string;
    try {
      dir = this.o.workspaces.get(workspaceId).path;
    } catch {
      return;
    }
    this.pluginCache.delete(dir);
    this.pluginStateCache.delete(dir);
    if (this.watchers.has(workspaceId)) this.rescan(workspaceId, false, true);
    else this.o.emit(workspaceId, 'file');
  }

  /** Starts watching a listed workspace's hook files and scripts (once; not when watching is off). */
  ensureWatching(f: HookTargetFolder, built: BuiltListing): void {
    if (this.closed || this.o.watch === false || !f.workspaceId || this.watchers.has(f.workspaceId)) return;
    const id = f.workspaceId;
    const watcher = new HookWatcher(() => this.rescan(id, true));
    const states = new Map([...built.hooks.map((h) => [h.hook.id, h.hook.state as string] as const), ...built.servers.map((s) => [s.server.id, s.server.state as string] as const)]);
    this.watchers.set(id, { watcher, states, path: f.path, busy: Promise.resolve() });
    watcher.configure(watchDirs(f.path, this.o.homeDir, built.watchFiles));
  }

  /**
   * Re-lists a watched workspace; pushes `hooksChanged` (`file`) when something changed on disk,
   * naming hooks that became `modified`, or (`onStateChange`) when any hook or server state changed.
   */
  rescan(workspaceId: string, fromDisk: boolean, onStateChange = false): void {
    const w = this.watchers.get(workspaceId);
    if (!w || this.closed) return;
    w.busy = w.busy.then(async () => {
      if (this.closed) return;
      this.pluginCache.delete(w.path);
      this.pluginStateCache.delete(w.path);
      let built: BuiltListing;
      try {
        built = await this.build({ path: w.path, trustRoot: this.o.workspaces.get(workspaceId).trustRoot, workspaceId }, false);
      } catch {
        return; // the workspace was removed or its folder vanished
      }
      const before = w.states;
      const after = new Map([...built.hooks.map((h) => [h.hook.id, h.hook.state as string] as const), ...built.servers.map((s) => [s.server.id, s.server.state as string] as const)]);
      w.states = after;
      w.watcher.configure(watchDirs(w.path, this.o.homeDir, built.watchFiles));
      if (onStateChange && (after.size !== before.size || [...after].some(([id, s]) => before.get(id) !== s))) return this.o.emit(workspaceId, 'file');
      if (!fromDisk) return;
      const becameModified = [...after].filter(([id, s]) => s === 'modified' && before.get(id) !== 'modified').map(([id]) => id);
      this.o.emit(workspaceId, 'file', becameModified);
    });
  }

  /** Re-lists every watched workspace (an approval or a trust decision changed states). */
  rescanAll(): void {
    for (const id of this.watchers.keys()) this.rescan(id, false);
  }

  /** Ids of the workspaces whose hook files are watched now. */
  watchedWorkspaces(): string[] {
    return [...this.watchers.keys()];
  }

  /** Resolves when every watcher is watching (tests). */
  async watchersReady(): Promise<void> {
    await Promise.all([...this.watchers.values()].map(async (w) => {
      await w.busy;
      await w.watcher.whenReady();
    }));
  }

  /** Stops watching. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.watchers.values()];
    this.watchers.clear();
    await Promise.all(all.map((w) => w.watcher.close()));
  }
}

/** Folders to watch: those holding the sources and scripts, plus the tools' config folders (new files appear there). */
function watchDirs(dir: string, homeDir: string, files: readonly string[]): string[] {
  const dirs = new Set<string>([dir, homeDir]);
  for (const base of [dir, homeDir]) for (const c of ['.claude', '.codex', '.gemini', '.blade', '.cursor', '.vscode']) dirs.add(path.join(base, c));
  for (const f of files) dirs.add(path.dirname(f));
  return [...dirs];
}
