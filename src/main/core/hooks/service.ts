import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Hook, HookAuditEntry, HookEvent, HookListing, HookResult, HookRunOutcome, HookRunRecord, HookUncovered, HookVersion, HookApproval, McpServer } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import { canonicalHome } from '../workspaces/paths';
import { resolveTarget, type TrustTarget } from '../workspaces/target';
import type { WorkspaceService } from '../workspaces/service';
import { canonicalJson } from '../formats/canonicalJson';
import type { BuiltListing, HookEntry, McpEntry } from './listing';
import { LiveListings, type HookTargetFolder, type HooksTrust } from './liveListings';
import { HookRepository, type ApprovalInput } from './repository';
import { runMatching, type RanHandler } from './run';
import type { PluginStatesOf } from './pluginGate';
import { approvedVersion, currentVersion, readScriptFile, scriptText } from './versions';

export type { HookTargetFolder, HooksTrust } from './liveListings';

/** Options for {@link HookService}. */
export interface HookServiceOptions {
  store: Store;
  bus: EventBus;
  /** The engine's home directory: user-level sources are read from it, never from `os.homedir()`. */
  homeDir: string;
  trustGate: HooksTrust;
  workspaces: WorkspaceService;
  /** The workspace plugins' on/off state as the extensions bundle decides it (the engine passes `projectPluginStates`). */
  pluginStates: PluginStatesOf;
  /** Watch hook files and scripts of listed workspaces and push `hooksChanged` on change (default true). */
  watch?: boolean;
  /**
   * The environment MCP server definitions are expanded from (`${VAR}` and the other tools'
   * forms): the one agents inherit, read at each listing (default `process.env`).
   */
  env?: () => Readonly<Record<string, string | undefined>>;
}

/** Who performed an approval: the desktop/browser app or the command line. */
export type Via = 'app' | 'cli';

/** What the session runtime needs to run hooks for one session. */
export interface HookRunContext extends TrustTarget {
  /** Atrium's session id: `ATRIUM_SESSION_ID` and the input's `session_id` default. */
  sessionId?: string;
  /** Cancels running handlers (their process trees are killed; a string `reason` is reported as `interrupted: <reason>`). */
  signal?: AbortSignal;
  /**
   * Told of every `async: true` handler the event started in the background (Claude Code
   * semantics: not awaited, decides nothing): `finished` resolves with its real result once that
   * is recorded in the run history (never rejects), so a caller that must not end before its hooks
   * do (a CLI command, a closing engine) can wait for it.
   */
  onBackground?: (id: string, finished: Promise<HookResult>) => void;
  /**
   * Only these hooks (id → digest) may run: a session's snapshot, so hooks approved
   * after the session started do not join it. Others are left out entirely (not reported as skipped).
   */
  only?: ReadonlyMap<string, string>;
  /**
   * With `only`: its digests are the approvals. A listed hook runs
   * even when its approval was revoked, its folder became restricted or its plugin was switched
   * off after the snapshot, as long as its definition and script bytes still hash to the pinned
   * digest (re-hashed again right before running); otherwise it is reported skipped `modified`.
   */
  pinned?: boolean;
}

/**
 * An approved MCP server with its full (unmasked) definition, for starting it in a session: `command`,
 * `args`, `url`, `env` and `headers` already expanded from the environment agents inherit (the digest
 * stays that of the definition as written).
 */
export interface ApprovedMcpServer {
  id: string;
  name: string;
  transport: string;
  command: string | null;
  args: string[];
  /** Absolute working directory (the `cwd` field resolved against the workspace; default the workspace). */
  cwd: string;
  url: string | null;
  env: Record<string, string>;
  headers: Record<string, string>;
  digest: string;
  source: McpServer['source'];
  /** Why it must not be passed to an agent even though it is approved (a `cwd` ACP cannot carry), else null. */
  refused: string | null;
}

/**
 * Hook trust by content digest: lists every hook and repository MCP server with its
 * digest and state, approves and revokes digests per trust root (user-level hooks under the home
 * directory), keeps the audit history, runs the approved hooks of an event, records every run, and
 * watches hook files and scripts so a hook turning `modified` on disk is pushed at once.
 * Project hooks and servers exist only while the trust gate allows the folder's project resources.
 */
export class HookService {
  private readonly repo: HookRepository;
  /** Canonical home: trust root of user-level approvals. */
  readonly home: string;
  private readonly listings: LiveListings;
  private closed = false;
  /** `async` handlers started in the background that have not finished (and been recorded) yet. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Aborted when {@link close} has waited its grace period: hooks still running are killed. */
  private readonly closing = new AbortController();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: HookServiceOptions) {
    this.repo = new HookRepository(options.store);
    this.announcedAuditId = this.repo.maxAuditId();
    this.home = canonicalHome(options.homeDir);
    this.listings = new LiveListings({ ...options, home: this.home, repo: this.repo, emit: (id, reason, becameModified) => this.emit(id, reason, becameModified) });
    this.unsubscribe = options.bus.subscribe((event, payload) => {
      if (event === 'trustChanged') this.listings.rescanAll();
      if (event === 'extensionsChanged') this.listings.pluginsChanged((payload as { workspaceId: string }).workspaceId);
    });
  }

  /** Resolves a request target (workspace id or absolute folder) to its folder, trust root and workspace id. */
  folder(target: TrustTarget): HookTargetFolder {
    const resolved = resolveTarget(this.options.workspaces, target);
    const ws = target.workspaceId !== undefined ? this.options.workspaces.get(target.workspaceId) : this.options.workspaces.list().find((w) => w.path === resolved.path);
    return { path: resolved.path, trustRoot: resolved.trustRoot, workspaceId: ws?.id ?? null };
  }

  /**
   * The hook listing of a folder (see `buildListing`). Starts watching a listed workspace's hook
   * files when watching is on.
   * @throws AtriumError NOT_FOUND | PATH_NOT_ABSOLUTE | PATH_NOT_FOUND (from the target)
   */
  async list(target: TrustTarget, options: { includeHeldBack?: boolean } = {}): Promise<HookListing> {
    const f = this.folder(target);
    const built = await this.build(f, options.includeHeldBack ?? false);
    if (f.workspaceId && !options.includeHeldBack) this.listings.ensureWatching(f, built);
    return built.listing;
  }

  /**
   * Approves hooks or MCP servers at the digest the caller saw (all or nothing: one refused item
   * records nothing). An item whose `uncovered` list is not empty (its digest does not cover
   * everything it runs, e.g. `npx pkg`) is approved only with `acknowledgeUncovered: true`, and
   * its audit entry then records the `uncovered` entries acknowledged (`acknowledgedUncovered`).
   * @throws AtriumError NOT_FOUND (unknown id, or a project item while the folder is restricted) |
   *   HOOK_INVALID | INVALID_PARAMS (a malformed digest) | HOOK_DIGEST_MISMATCH (not the current digest: changed since it was reviewed) |
   *   HOOK_UNCOVERED (uncovered items without the acknowledgement; the message names each and what is not covered)
   */
  async approve(target: TrustTarget, items: ReadonlyArray<{ id: string; digest?: string; acknowledgeUncovered?: boolean }>, via: Via = 'app'): Promise<HookAuditEntry[]> {
    const f = this.folder(target);
    const built = await this.build(f, false);
    const inputs: ApprovalInput[] = [];
    const unacknowledged: Array<{ id: string; label: string; uncovered: HookUncovered[] }> = [];
    for (const item of items) {
      const found = this.find(built, item.id, f);
      const state = found.kind === 'hook' ? found.entry.hook.state : found.entry.server.state;
      const digest = found.kind === 'hook' ? found.entry.hook.digest : found.entry.server.digest;
      const uncovered = found.kind === 'hook' ? found.entry.hook.uncovered : found.entry.server.uncovered;
      if (state === 'invalid') throw new AtriumError('HOOK_INVALID', `${item.id} is invalid and can never run, so it cannot be approved: ${this.firstWarning(found)}`);
      if (item.digest !== undefined && !/^sha256:[0-9a-f]{64}$/.test(item.digest)) {
        throw new AtriumError('INVALID_PARAMS', `"${item.digest}" is not a hook digest (sha256: and 64 hex digits). Copy the full digest shown for ${item.id} in the Hooks tab or by \`atrium hooks list DIR --json\` (the text listing shortens it), or approve without one to take the current digest.`);
      }
      if (item.digest !== undefined && item.digest !== digest) {
        throw new AtriumError('HOOK_DIGEST_MISMATCH', `${item.id} is not what you reviewed: you approved ${item.digest.slice(0, 19)}…, its current digest is ${digest.slice(0, 19)}… (it changed on disk, or the digest was mistyped). Look at it again (Hooks tab, or \`atrium hooks diff\`) before approving.`);
      }
      const acknowledged = uncovered.length > 0 && item.acknowledgeUncovered === true;
      if (uncovered.length > 0 && !acknowledged) unacknowledged.push({ id: item.id, label: found.entry.label, uncovered });
      inputs.push(await this.approvalInput(found, via, acknowledged ? uncovered : []));
    }
    if (unacknowledged.length) throw new AtriumError('HOOK_UNCOVERED', uncoveredRefusal(unacknowledged));
    return this.commit(f, () => this.repo.approve(inputs));
  }

  /**
   * Approves every valid user-level hook at its current digest, in one action, except those whose
   * digest does not cover everything they run: a bulk approval never acknowledges uncovered code,
   * so those are left unapproved and returned in `leftUncovered` (approve each with
   * {@link approve} and `acknowledgeUncovered`).
   */
  async approveAllUser(target: TrustTarget, via: Via = 'app'): Promise<{ changes: HookAuditEntry[]; leftUncovered: Array<{ id: string; label: string; digest: string; uncovered: HookUncovered[] }> }> {
    const f = this.folder(target);
    const built = await this.build(f, false);
    const pending = built.hooks.filter((h) => h.src.scope === 'user' && h.hook.state !== 'invalid' && h.hook.approval?.digest !== h.hook.digest);
    const leftUncovered = pending.filter((h) => h.hook.uncovered.length > 0).map((h) => ({ id: h.hook.id, label: h.label, digest: h.hook.digest, uncovered: h.hook.uncovered }));
    const inputs = await Promise.all(pending.filter((h) => h.hook.uncovered.length === 0).map((entry) => this.approvalInput({ kind: 'hook', entry }, via, [])));
    return { changes: this.commit(f, () => this.repo.approve(inputs)), leftUncovered };
  }

  /**
   * Removes approvals.
   * @throws AtriumError NOT_FOUND (unknown id) | HOOK_NOT_APPROVED (nothing to revoke)
   */
  async revoke(target: TrustTarget, ids: readonly string[], via: Via = 'app'): Promise<HookAuditEntry[]> {
    const f = this.folder(target);
    const built = await this.build(f, false);
    const items = ids.map((id) => {
      const found = this.find(built, id, f);
      const approval = found.kind === 'hook' ? found.entry.hook.approval : found.entry.server.approval;
      if (!approval) throw new AtriumError('HOOK_NOT_APPROVED', `${id} has no approval to revoke.`);
      const e = found.entry;
      return { trustRoot: e.approvalRoot, key: found.kind === 'hook' ? found.entry.hook.key : found.entry.server.key, itemId: id, kind: found.kind === 'hook' ? ('hook' as const) : ('mcp' as const), label: e.label };
    });
    return this.commit(f, () => this.repo.revoke(items, `user (${via})`));
  }

  /**
   * The last approved version of a hook or server and its current version (definition, scripts).
   * @throws AtriumError NOT_FOUND
   */
  async diff(target: TrustTarget, id: string): Promise<{ id: string; approved: HookVersion | null; current: HookVersion; approval: HookApproval | null }> {
    const f = this.folder(target);
    const found = this.find(await this.build(f, true), id, f);
    const rows = this.repo.approvals([found.entry.approvalRoot]);
    const key = found.kind === 'hook' ? found.entry.hook.key : found.entry.server.key;
    const row = rows.get(`${found.entry.approvalRoot}\0${key}`) ?? null;
    const current =
      found.kind === 'hook'
        ? await currentVersion(found.entry.hook.digest, found.entry.hook.definition, found.entry.scripts)
        : await currentVersion(found.entry.server.digest, found.entry.server.definition, []);
    const approved = row ? approvedVersion(row, (sha) => this.repo.scriptContent(sha)) : null;
    return { id, approved, current, approval: row ? { digest: row.digest, approvedAt: row.approvedAt, approvedBy: row.approvedBy } : null };
  }

  /**
   * Content of a script a hook references (only paths in its script list).
   * @throws AtriumError NOT_FOUND | PATH_UNREADABLE
   */
  async readScript(target: TrustTarget, id: string, scriptPath: string) {
    const f = this.folder(target);
    const found = this.find(await this.build(f, true), id, f);
    if (found.kind !== 'hook') throw new AtriumError('NOT_FOUND', `${id} is an MCP server; it has no scripts.`);
    const script = found.entry.scripts.find((s) => s.path === scriptPath);
    if (!script) throw new AtriumError('NOT_FOUND', `${scriptPath} is not a script of ${id}. Only the files a hook runs can be shown.`);
    return { path: script.path, sha256: script.sha256, ...(await readScriptFile(script.abs, script.path)) };
  }

  /**
   * Runs the approved hooks of `event` that match `input` (see `runMatching`), records every
   * handler's result in the run history and pushes `hooksChanged` (`run`; `file` with
   * `becameModified` when a script changed since approval). With `ctx.pinned` the `only` digests
   * stand in for the approvals (a session's snapshot, see {@link HookRunContext.pinned}). `async`
   * command handlers are recorded when they finish, not when the event is decided. Never throws
   * for hook failures; throws only for a bad target.
   */
  async run(event: HookEvent, input: Record<string, unknown>, ctx: HookRunContext): Promise<HookRunOutcome> {
    const f = this.folder(ctx);
    const pinned = ctx.only && ctx.pinned ? ctx.only : null;
    const built = await this.build(f, pinned !== null);
    const entries = pinned ? pinnedEntries(built.hooks, pinned) : ctx.only ? built.hooks.filter((h) => ctx.only!.get(h.hook.id) === h.hook.digest) : built.hooks;
    const { outcome, ran, becameModified, background } = await runMatching(entries, event, input, {
      path: f.path,
      homeDir: this.options.homeDir,
      sessionId: ctx.sessionId,
      signal: ctx.signal ? AbortSignal.any([ctx.signal, this.closing.signal]) : this.closing.signal,
      allowedHosts: this.repo.httpHosts(),
    });
    const record = (done: readonly RanHandler[]) => {
      if (this.closed || !done.length) return;
      this.repo.recordRuns(done.map((r) => ({ ...r.result, trustRoot: f.trustRoot, folder: f.path, key: r.entry.hook.key, event, sessionId: ctx.sessionId ?? null })));
      this.emit(f.workspaceId, 'run');
    };
    record(ran.filter((r) => !background.some((b) => b.entry === r.entry)));
    if (becameModified.length) this.emit(f.workspaceId, 'file', becameModified);
    // async handlers finish later: their real result goes into the run history then
    for (const b of background) {
      const finished = b.done.then((r) => {
        record([r]);
        if (r.result.skipped === 'modified') this.emit(f.workspaceId, 'file', [r.entry.hook.id]);
        return r.result;
      });
      const tracked = finished.then(
        () => undefined,
        (error) => console.error(`[atrium] recording the async hook ${b.entry.hook.id} failed:`, error),
      );
      this.inFlight.add(tracked);
      void tracked.finally(() => this.inFlight.delete(tracked));
      ctx.onBackground?.(b.entry.hook.id, finished.catch(() => ({ ...asyncPlaceholder(outcome, b.entry.hook.id), message: 'its result could not be recorded' })));
    }
    return outcome;
  }

  /** Run history of a folder, newest first. */
  runs(target: TrustTarget, id: string | undefined, limit = 100): HookRunRecord[] {
    return this.repo.runs(this.folder(target).path, id, limit);
  }

  /** Approval audit history of a folder's trust root and of user-level hooks, newest first. */
  history(target: TrustTarget, limit = 200): HookAuditEntry[] {
    const f = this.folder(target);
    return this.repo.history([...new Set([f.trustRoot, this.home])], limit);
  }

  /** Adds or removes a host http hooks may reach despite the address policy; returns the list. */
  allowHttpHost(host: string, allowed: boolean): string[] {
    const h = host.trim().toLowerCase();
    if (!/^(\*\.)?[a-z0-9.-]+$|^\[?[0-9a-f:.]+\]?$/.test(h)) throw new AtriumError('INVALID_PARAMS', `"${host}" is not a host name (e.g. hooks.example.com, *.example.com, 127.0.0.1).`);
    this.repo.setHttpHost(h, allowed);
    this.emit(null, 'approval');
    return this.repo.httpHosts();
  }

  /**
   * For the session runtime: the hooks that would run for a workspace now: approved,
   * supported and firing on an Atrium event (a snapshot; `run` re-checks everything).
   */
  async approvedHooksFor(target: TrustTarget): Promise<{ path: string; trustRoot: string; restricted: boolean; hooks: Hook[] }> {
    const f = this.folder(target);
    const built = await this.build(f, false);
    return { path: f.path, trustRoot: f.trustRoot, restricted: built.listing.restricted, hooks: built.hooks.filter((h) => h.hook.state === 'approved' && h.hook.runsOn !== null).map((h) => h.hook) };
  }

  /** For the session runtime: repository MCP servers that may start now (approved at their current digest), unmasked. */
  async approvedMcpServers(target: TrustTarget): Promise<ApprovedMcpServer[]> {
    const f = this.folder(target);
    const built = await this.build(f, false);
    return built.servers.filter((s) => s.server.state === 'approved').map((s) => runnableServer(s, f.path));
  }

  /**
   * For the session runtime: the repository MCP servers of a session's
   * snapshot (id → digest) whose definition on disk still has that digest, approved now or not
   * (a revocation after the snapshot does not take them from the running session), unmasked.
   * Servers that changed or vanished are left out.
   */
  async mcpServersAt(target: TrustTarget, pinned: ReadonlyMap<string, string>): Promise<ApprovedMcpServer[]> {
    const f = this.folder(target);
    const built = await this.build(f, true);
    return built.servers.filter((s) => pinned.get(s.def.id) === s.def.digest).map((s) => runnableServer(s, f.path));
  }

  /** For the session runtime: true when the repository MCP server named `nameOrId` is approved at its current digest (false when unknown or restricted). */
  async isMcpServerApproved(target: TrustTarget, nameOrId: string): Promise<boolean> {
    return (await this.approvedMcpServers(target)).some((s) => s.id === nameOrId || s.name === nameOrId);
  }

  /**
   * Stops watching, after the `async` handlers still running have ended and their results are
   * recorded: it waits up to `graceMs` (default 5 s), then kills the rest with their process trees
   * (recorded as `interrupted: Atrium closed before the hook finished`) instead of waiting out a
   * hook's timeout (600 s by default). Idempotent.
   */
  async close(graceMs = 5_000): Promise<void> {
    const settled = (async () => {
      while (this.inFlight.size) await Promise.all([...this.inFlight]);
    })();
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([settled.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)))]);
    clearTimeout(timer);
    if (late) {
      this.closing.abort('Atrium closed before the hook finished');
      await settled;
    }
    this.closed = true;
    this.unsubscribe();
    await this.listings.close();
  }

  /**
   * Pushes `hooksChanged` (`approval`) when another process recorded an approval or revocation
   * (e.g. `atrium hooks approve` in a terminal while the app runs; see `store/externalWrites.ts`).
   * Approvals are always read from the database, so runs were already right; this refreshes the
   * open Hooks tabs. Returns true when it pushed.
   */
  announceExternalChanges(): boolean {
    const id = this.repo.maxAuditId();
    if (id === this.announcedAuditId) return false;
    this.announcedAuditId = id;
    this.emit(null, 'approval');
    return true;
  }

  private announcedAuditId = -1;

  /** Ids of the workspaces whose hook files are watched now. */
  watchedWorkspaces(): string[] {
    return this.listings.watchedWorkspaces();
  }

  /** Resolves when every watcher is watching (tests). */
  watchersReady(): Promise<void> {
    return this.listings.watchersReady();
  }

  private build(f: HookTargetFolder, includeHeldBack: boolean): Promise<BuiltListing> {
    return this.listings.build(f, includeHeldBack);
  }

  private find(built: BuiltListing, id: string, f: HookTargetFolder): { kind: 'hook'; entry: HookEntry } | { kind: 'mcp'; entry: McpEntry } {
    const hook = built.hooks.find((h) => h.hook.id === id);
    if (hook) return { kind: 'hook', entry: hook };
    const server = built.servers.find((s) => s.server.id === id);
    if (server) return { kind: 'mcp', entry: server };
    const hint = built.listing.restricted ? ' The folder is in restricted mode: trust it first to see and approve its project hooks and servers.' : ' Run "atrium hooks list" to see the ids.';
    throw new AtriumError('NOT_FOUND', `No hook or MCP server "${id}" in ${f.path}.${hint}`);
  }

  private firstWarning(found: { kind: 'hook'; entry: HookEntry } | { kind: 'mcp'; entry: McpEntry }): string {
    const w = (found.kind === 'hook' ? found.entry.hook.warnings : found.entry.server.warnings)[0];
    return w ? `${w.path}${w.line ? `:${w.line}` : ''}: ${w.message}` : 'see its warnings';
  }

  private async approvalInput(found: { kind: 'hook'; entry: HookEntry } | { kind: 'mcp'; entry: McpEntry }, via: Via, acknowledgedUncovered: HookUncovered[]): Promise<ApprovalInput> {
    if (found.kind === 'hook') {
      const h = found.entry;
      const scripts = await Promise.all(h.scripts.map(async (s) => ({ path: s.path, sha256: s.sha256, ...(await scriptText(s.abs)) })));
      return { trustRoot: h.approvalRoot, key: h.hook.key, itemId: h.hook.id, kind: 'hook', digest: h.hook.digest, definitionJson: canonicalJson(h.hook.definition), scripts, label: h.label, by: `user (${via})`, acknowledgedUncovered };
    }
    const s = found.entry;
    // the masked definition is stored: the diff shows it, and secrets stay out of the database
    return { trustRoot: s.approvalRoot, key: s.server.key, itemId: s.server.id, kind: 'mcp', digest: s.server.digest, definitionJson: canonicalJson(s.server.definition), scripts: [], label: s.label, by: `user (${via})`, acknowledgedUncovered };
  }

  private commit(f: HookTargetFolder, write: () => HookAuditEntry[]): HookAuditEntry[] {
    const changes = write();
    if (changes.length) {
      const userOnly = changes.every((c) => c.trustRoot === this.home && c.trustRoot !== f.trustRoot);
      this.emit(userOnly ? null : f.workspaceId, 'approval');
      this.listings.rescanAll();
    }
    return changes;
  }

  private emit(workspaceId: string | null, reason: 'approval' | 'file' | 'run', becameModified?: string[]): void {
    if (this.closed) return;
    this.options.bus.emit('hooksChanged', { ...(workspaceId ? { workspaceId } : {}), reason, ...(becameModified?.length ? { becameModified } : {}) });
  }

}

/**
 * The HOOK_UNCOVERED message: each item refused (id and label) with every part its digest does
 * not cover (the text literally and why), and how to acknowledge it.
 */
export function uncoveredRefusal(items: ReadonlyArray<{ id: string; label: string; uncovered: readonly HookUncovered[] }>): string {
  const what = items.map((i) => `${i.id} (${i.label}) runs code its digest does not cover: ${i.uncovered.map((u) => `"${u.text}": ${u.message}`).join('; ')}`).join(' ');
  const these = items.length === 1 ? 'it' : 'them';
  return `${what} Approving ${these} trusts that code unchecked, whatever it is when it runs. Nothing was approved. Read what is not covered, then approve ${these} with the explicit acknowledgement (acknowledgeUncovered; the command line's --acknowledge-uncovered; in the Hooks tab, "I understand Atrium cannot check this code").`;
}

/**
 * A server's full definition for starting it (`cwd` resolved against the folder). ACP's stdio form
 * has no working directory (the agent starts the server in the session folder), so a server whose
 * `cwd` is another folder is passed with its command and every relative path argument that names an
 * existing file or folder made absolute from that `cwd`; when an argument looks like a relative
 * path but names nothing there, the server is refused with that reason instead of starting from the
 * wrong folder. `command`, `args`, `url`, `env` and `headers` are the listing's expansion of the
 * definition (`formats/envExpand.ts`); a server reading an unset variable without a default, or a
 * reference Atrium cannot expand, is refused (withheld) rather than started with a literal `${…}`.
 */
function runnableServer(s: McpEntry, folder: string): ApprovedMcpServer {
  const cwd = s.def.cwd ? path.resolve(folder, s.def.cwd) : folder;
  // the digest covers the definition as written; what is passed is its expansion from the environment
  const x = s.expanded;
  let command = x ? x.command : s.def.command;
  let args = x ? x.args : s.def.args;
  let refused: string | null = null;
  if (x?.missing.length) refused = `it reads the environment variable${x.missing.length === 1 ? '' : 's'} ${x.missing.join(', ')}, not set in Atrium's environment and without a default (${s.def.source.file}${s.def.line ? `:${s.def.line}` : ''})`;
  else if (x?.unresolvable.length) refused = `it uses ${x.unresolvable.map((u) => u.text).join(', ')}, which Atrium cannot expand (${x.unresolvable[0].why})`;
  if (cwd !== folder && command !== null) {
    const abs = (p: string) => (path.isAbsolute(p) ? p : path.resolve(cwd, p));
    if (command.includes('/') && !path.isAbsolute(command)) command = abs(command);
    args = args.map((a) => {
      if (a.startsWith('-') || path.isAbsolute(a) || a.includes('://')) return a;
      if (existsSync(path.resolve(cwd, a))) return abs(a);
      if (/^\.\.?\//.test(a) || (a.includes('/') && !a.includes('@'))) refused ??= `its "cwd" (${s.def.cwd}) cannot be passed to the agent over ACP, and "${a}" does not name a file there to pass as an absolute path`;
      return a;
    });
  }
  return {
    id: s.def.id,
    name: s.def.name,
    transport: s.def.transport,
    command,
    args,
    cwd,
    url: x ? x.url : s.def.url,
    env: x ? x.env : s.def.env,
    headers: x ? x.headers : s.def.headers,
    digest: s.def.digest,
    source: s.def.source,
    refused,
  };
}

/**
 * The hooks of a snapshot (id → digest) as runnable entries: approved at the pinned digest when
 * the current definition and scripts still hash to it (whatever the approval, trust or plugin
 * state says now), else `modified`; invalid and unsupported ones keep their state.
 */
function pinnedEntries(hooks: readonly HookEntry[], pinned: ReadonlyMap<string, string>): HookEntry[] {
  return hooks
    .filter((h) => pinned.has(h.hook.id))
    .map((h) => {
      const digest = pinned.get(h.hook.id)!;
      const state = h.hook.state === 'invalid' ? 'invalid' : h.hook.digest === digest ? 'approved' : 'modified';
      const approval = { digest, approvedAt: h.hook.approval?.approvedAt ?? '', approvedBy: h.hook.approval?.approvedBy ?? 'session snapshot' };
      return { ...h, hook: { ...h.hook, state, heldBack: false, approval } };
    });
}

/** The placeholder result an event listed for a background handler (see `ASYNC_MESSAGE`). */
function asyncPlaceholder(outcome: HookRunOutcome, id: string): HookResult {
  return outcome.results.find((r) => r.id === id) ?? { id, digest: '', exitCode: null, durationMs: 0, timedOut: false, decision: 'none', reason: null, stdout: '', stderr: '', truncated: false, skipped: null, message: null };
}
