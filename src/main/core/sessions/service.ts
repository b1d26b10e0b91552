import crypto from 'node:crypto';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentSessionListing, PermissionItem, Session, SessionDetails, TranscriptItem } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import { canonicalDirectory } from '../workspaces/identity';
import type { WorkspaceService } from '../workspaces/service';
import { AgentRegistry, type AgentRegistryOptions } from './agentRegistry';
import type { PermissionRoute } from './events';
import { ExternalSessionFollower } from './follower';
import { HookChain, type SessionHooks } from './hooks';
import { notPendingError, type AnsweredBy } from './permissions';
import { listAgentSessions } from './listing';
import { LiveSession } from './liveSession';
import { claimHost, HostIdentity, hostedElsewhereMessage, isHostAlive, LEASE_RENEW_MS, readHost, renewHosts, type HostKind, type SessionHost } from './ownership';
import type { AgentPreset } from './presets';
import { emptyRecord, placeSession } from './placement';
import type { SessionRecord } from './records';
import { ACTIVE_STATES, listSessions, notFound, recoverInterrupted, recoverOne, showSession, transcriptPage } from './sessionQueries';
import { searchTranscript } from './transcriptSearch';
import { SessionTables } from './tables';
import { createWorktree, type WorktreeInfo } from './workspacePolicy/worktree';

/**
 * What the workspace policy provides to the runtime besides hooks: the idle shutdown
 * setting and permission routing to attached surfaces. Set once by the engine (`configure`).
 */
export interface SessionRuntimePort {
  /** Idle shutdown in ms (0 = never), read whenever a session becomes idle; `SessionServiceOptions.idleMs` overrides it. */
  idleMs?(): number;
  /** The attached surface that should answer a permission request (id, label, kind), or null for any. */
  permissionSurface?(sessionId: string, promptSurfaceId: string | null): PermissionRoute | null;
}

/** Options of the session runtime (all optional; tests and the CLI tune them). */
export interface SessionServiceOptions {
  /** Agent presets (default: the built-in ones). */
  presets?: readonly AgentPreset[];
  /** PATH for finding agent binaries (default `process.env.PATH`). */
  envPath?: string;
  /** npm executable used by installs. */
  npmCommand?: string;
  /** Where the Node that runs Node programs is looked up (default: this process; tests simulate the desktop app). */
  node?: AgentRegistryOptions['node'];
  /** Environment agents inherit (default `process.env`, read at each spawn). */
  baseEnv?: Record<string, string>;
  /** Batch window for streamed updates, ms (default 25). */
  batchMs?: number;
  /** Stop an idle agent process after this many ms (default 10 minutes; 0 = never). */
  idleMs?: number;
  /** Reported as `clientInfo.version` at `initialize`. */
  clientVersion?: string;
  /** Which Atrium surface hosts agents started here, as recorded in each session's host (default 'cli'). */
  hostKind?: HostKind;
}

/** The refusal of a prompt on a paused session, naming both ways on. */
function pausedError(): AtriumError {
  return new AtriumError(
    'SESSION_PAUSED',
    'This session is paused: the rules it was given changed since it started, so it takes no prompts until you choose. Continue with the current rules, or start a new session with them (the transcript lists the changed files).',
  );
}

/** Default idle shutdown (VibeAround: 10 minutes). */
export const DEFAULT_IDLE_MS = 10 * 60 * 1000;

/**
 * The session runtime: agents, sessions, their persistence and recovery. One instance per
 * engine (`engine.sessions`). Sessions are loaded into a {@link LiveSession} when used; listing and
 * showing read the stored projections directly.
 *
 * Several Atrium processes may share one database. A session whose agent runs here is hosted by
 * this service (see `ownership.ts`): its host is recorded in the session row and its lease renewed
 * every few seconds. Every write method refuses a session another live process hosts
 * (`SESSION_HOSTED_ELSEWHERE`). Sessions left active by a process that is gone (crash, kill -9)
 * are marked `interrupted` by {@link recover} (serve and the app call it at start) or, one at a
 * time, when a write loads them; constructing the service writes nothing.
 * `close()` stops every agent process tree (Atrium quit).
 */
export class SessionService {
  readonly agents: AgentRegistry;
  /** Seams for the workspace policy (rules, hooks around tools, snapshots, worktrees); see {@link SessionHooks}. */
  readonly hooks = new HookChain();
  private readonly sessions = new Map<string, LiveSession>();
  private readonly tables: SessionTables;
  private closed = false;
  private port: SessionRuntimePort = {};
  private readonly me: HostIdentity;
  private readonly leaseTimer: NodeJS.Timeout;
  private readonly follower: ExternalSessionFollower;

  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
    private readonly workspaces: WorkspaceService,
    private readonly dataDir: string,
    private readonly options: SessionServiceOptions = {},
  ) {
    this.tables = SessionTables.of(store.db);
    this.agents = new AgentRegistry(store, bus, dataDir, { presets: options.presets, envPath: options.envPath, npmCommand: options.npmCommand, node: options.node });
    this.me = new HostIdentity(options.hostKind ?? 'cli');
    this.me.register();
    this.follower = new ExternalSessionFollower(this.tables, bus, this.me, (id) => this.sessions.get(id)?.hosting === true);
    this.leaseTimer = setInterval(() => {
      this.renewLeases();
      this.followDeadHosts();
    }, LEASE_RENEW_MS);
    this.leaseTimer.unref();
  }

  /**
   * The live host of a session when it is ANOTHER process (or another engine in this process),
   * else null (hosted here, free, or its host is gone). Unknown ids answer null.
   */
  hostOf(sessionId: string): SessionHost | null {
    const host = readHost(this.store.db, sessionId);
    return host && !this.me.isMe(host) && isHostAlive(host) ? host : null;
  }

  /**
   * Sets where this process answers requests (serve: its origin after listening; the app: its
   * pickup server's, or null when it stops). Written into every session hosted here right away and
   * at each lease renewal, so other processes can name it (and forward to it).
   */
  setHostOrigin(origin: string | null): void {
    this.me.origin = origin;
    this.renewLeases();
  }

  /**
   * Marks every session left active by a process that is gone (`starting`/`busy`/
   * `awaiting_permission` with a dead or missing host) `interrupted`, with a notice; they stay
   * resumable. Sessions another live process hosts are not touched. `atrium serve` and the desktop
   * app call this at start; other commands recover only the session they write to.
   * @returns the ids recovered
   */
  recover(): string[] {
    if (this.closed) return [];
    return recoverInterrupted(this.store, this.bus, (id) => this.sessions.has(id));
  }

  /** Adds hooks to every session (see {@link SessionHooks}); returns a remover. */
  addHooks(hooks: SessionHooks): () => void {
    return this.hooks.add(hooks);
  }

  /** Sets the runtime port (idle setting, permission routing); see {@link SessionRuntimePort}. */
  configure(port: SessionRuntimePort): void {
    this.port = port;
  }

  /** The idle shutdown now in effect (ms; 0 = never). */
  idleMs(): number {
    if (this.options.idleMs !== undefined) return this.options.idleMs;
    try {
      return this.port.idleMs?.() ?? DEFAULT_IDLE_MS;
    } catch {
      return DEFAULT_IDLE_MS;
    }
  }

  /**
   * Creates a session and starts its agent in the background (state `starting`; progress via
   * events). A `prompt` is queued as the first turn. With `worktree`, the session runs in a new git
   * worktree on branch `atrium/<title slug>-<first 8 characters of the session id>` created from the
   * workspace's HEAD, and its cwd is that worktree's counterpart of the chosen folder.
   * @throws AtriumError AGENT_NOT_FOUND | AGENT_NOT_INSTALLED | NOT_FOUND (workspace) | PATH_* (folder) | WORKTREE_FAILED
   */
  create(input: { workspaceId?: string; cwd?: string; agentId: string; modeId?: string; title?: string; additionalDirectories?: string[]; prompt?: string; worktree?: boolean; surfaceId?: string }): Session {
    this.assertOpen();
    const { workspace, cwd: placed } = this.place(input, true);
    const resolved = this.agents.resolve(input.agentId);
    const now = new Date().toISOString();
    const id = crypto.randomUUID();
    let worktree: WorktreeInfo | null = null;
    if (input.worktree) worktree = createWorktree({ sourceDir: placed, dataDir: this.dataDir, sessionId: id, title: input.title });
    const cwd = worktree ? worktree.dir : placed;
    const record: SessionRecord = {
      ...emptyRecord(),
      id,
      workspaceId: workspace?.id ?? null,
      cwd,
      additionalDirectories: (input.additionalDirectories ?? []).map((d) => canonicalDirectory(d)),
      agentId: input.agentId,
      agentVersion: resolved.version,
      title: input.title?.trim() || null,
      state: 'starting',
      desiredModeId: input.modeId ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.store.transaction(() => {
      this.tables.createSession(record);
      // a new session is `starting` from its first row: hosted here from that row on
      claimHost(this.store.db, record.id, this.me);
    });
    const live = this.load(record.id);
    this.hooks.onCreated(live.hookContextForService(), { sourceDir: workspace?.path ?? placed, worktree });
    live.journal.announce();
    if (input.prompt) live.prompt(input.prompt, input.surfaceId ?? null);
    else live.ensureStarted().catch(() => undefined);
    return live.summary();
  }

  /**
   * Queues a prompt (resuming the agent first when it is not running). A `paused` session refuses
   * prompts: they would only start an agent under rules the user has not chosen yet. `blocks`
   * (an ACP client's own content blocks) replace the single text block sent by default.
   * @throws AtriumError SESSION_NOT_FOUND | SESSION_PAUSED
   */
  prompt(sessionId: string, text: string, surfaceId?: string, blocks?: acp.ContentBlock[]): { promptId: string; position: number; session: Session } {
    this.assertOpen();
    const live = this.loadForWrite(sessionId);
    if (live.summary().state === 'paused') throw pausedError();
    const { promptId, position } = live.prompt(text, surfaceId ?? null, blocks);
    return { promptId, position, session: live.summary() };
  }

  /** Resolves when a prompt's turn ended (its stop reason) or it was dropped. */
  waitForTurn(sessionId: string, promptId: string) {
    return this.load(sessionId).waitForTurn(promptId);
  }

  /** Cancels the running turn (and with `clearQueue` the queue). @throws AtriumError SESSION_NOT_FOUND */
  cancel(sessionId: string, clearQueue = false): Session {
    const live = this.loadForWrite(sessionId);
    live.cancel(clearQueue);
    return live.summary();
  }

  /** Removes a queued prompt. @throws AtriumError SESSION_NOT_FOUND */
  dequeue(sessionId: string, promptId: string): { removed: boolean; session: Session } {
    const live = this.loadForWrite(sessionId);
    return { removed: live.dequeue(promptId), session: live.summary() };
  }

  /** Closes a session (kills its agent tree); it stays resumable. @throws AtriumError SESSION_NOT_FOUND */
  async closeSession(sessionId: string): Promise<Session> {
    const live = this.loadForWrite(sessionId);
    await live.close();
    return live.summary();
  }

  /**
   * Starts the agent and re-attaches (resume → load → new); resolves when done. A live session is
   * returned as is. Failures are recorded on the session (state `failed`, resume outcome `failed`;
   * `paused` when a hook refused because the session's rules changed).
   * @throws AtriumError SESSION_NOT_FOUND
   */
  async resume(sessionId: string): Promise<Session> {
    this.assertOpen();
    const live = this.loadForWrite(sessionId);
    await live.ensureStarted().catch(() => undefined);
    return live.summary();
  }

  /** Sessions, most recently active first; filtered by workspace or folder. */
  list(filter: { workspaceId?: string; cwd?: string; limit?: number } = {}): Session[] {
    const hosted = new Map([...this.sessions].filter(([, live]) => live.hosting));
    const sessions = listSessions(this.store, hosted, filter, (cwd) => this.place({ cwd }, false), this.me);
    for (const s of sessions) this.follower.note({ id: s.id, lastSeq: s.eventCount, lastItem: s.itemCount }, false);
    return sessions;
  }

  /** One session for its view. @throws AtriumError SESSION_NOT_FOUND */
  show(sessionId: string): SessionDetails {
    const details = showSession(this.tables, this.current(sessionId), sessionId, this.me);
    this.follower.note({ id: details.id, lastSeq: details.eventCount, lastItem: details.itemCount }, true);
    return details;
  }

  /**
   * Another Atrium process committed to the database (the engine's `data_version` poll): pushes
   * `sessionUpdated` / `sessionEvent` for the sessions listed or shown here that it changed (not
   * those hosted here), so open views follow a session a terminal runs. Reads only.
   * @returns the ids pushed
   */
  followExternalWrites(): string[] {
    if (this.closed) return [];
    return this.follower.poll();
  }

  /**
   * A page of transcript items (ascending): the last `limit` (default 100), or before/after an id.
   * @throws AtriumError SESSION_NOT_FOUND
   */
  transcript(sessionId: string, page: { before?: number; after?: number; limit?: number } = {}): { items: TranscriptItem[]; total: number; hasBefore: boolean; hasAfter: boolean } {
    const result = transcriptPage(this.tables, this.current(sessionId), sessionId, page);
    const newest = result.items[result.items.length - 1]?.id ?? result.total;
    const record = this.tables.session(sessionId);
    if (record) this.follower.note({ id: sessionId, lastSeq: record.lastSeq, lastItem: Math.min(newest, record.lastItem) }, true);
    return result;
  }

  /**
   * Searches every stored item of the session's transcript for `query` (see transcriptSearch.ts);
   * a loaded session's pending updates are written first, so what streamed is found too.
   * @throws AtriumError SESSION_NOT_FOUND
   */
  searchTranscript(sessionId: string, query: string, limit?: number): ReturnType<typeof searchTranscript> {
    const live = this.current(sessionId);
    live?.journal.flush();
    if (!live && !this.tables.session(sessionId)) throw notFound(sessionId);
    return searchTranscript(this.tables, sessionId, query, limit);
  }

  /**
   * Answers a pending permission request with an option id (or cancelled when `optionId` is null).
   * @throws AtriumError SESSION_NOT_FOUND | PERMISSION_NOT_FOUND | INVALID_PARAMS
   */
  answerPermission(sessionId: string, requestId: string, optionId: string | null, by: AnsweredBy = 'user'): PermissionItem {
    const live = this.sessions.get(sessionId);
    if (!live) {
      if (!this.tables.session(sessionId)) throw notFound(sessionId);
      this.assertHostedHere(sessionId);
      const recorded = this.tables.itemByRef(sessionId, requestId);
      throw notPendingError(requestId, recorded?.kind === 'permission' ? recorded : null);
    }
    return live.answerPermission(requestId, optionId, by);
  }

  /**
   * Sets the title the user chose (trimmed, at most 500 characters; empty clears it). It wins over
   * later agent titles (ACP `session_info_update`) until cleared. Journaled as `title_set`.
   * @throws AtriumError SESSION_NOT_FOUND
   */
  rename(sessionId: string, title: string): Session {
    this.assertOpen();
    const live = this.loadForWrite(sessionId);
    live.append({ kind: 'title_set', data: { title: title.trim().slice(0, 500) } });
    live.journal.flush();
    return live.summary();
  }

  /**
   * Re-targets a session's pending permission requests addressed to `fromSurfaceId` (it detached)
   * to `to` (another attached surface, or null = any), recording and pushing each change (see
   * `LiveSession.retargetPermissions`). A session not loaded has no pending requests.
   * @returns how many requests were re-targeted
   */
  retargetPermissions(sessionId: string, fromSurfaceId: string, to: PermissionRoute | null): number {
    return this.sessions.get(sessionId)?.retargetPermissions(fromSurfaceId, to) ?? 0;
  }

  /**
   * Addresses one pending permission request to `to` (a person chose to answer it on that surface).
   * @returns the request after the change, or null when the session is not loaded here or the request no longer pending
   */
  retargetRequest(sessionId: string, requestId: string, to: PermissionRoute): PermissionItem | null {
    return this.sessions.get(sessionId)?.retargetRequest(requestId, to) ?? null;
  }

  /** @throws AtriumError SESSION_NOT_FOUND | AGENT_UNSUPPORTED | AGENT_ERROR */
  async setMode(sessionId: string, modeId: string): Promise<Session> {
    const live = this.loadForWrite(sessionId);
    await live.setMode(modeId);
    return live.summary();
  }

  /** @throws AtriumError SESSION_NOT_FOUND | AGENT_UNSUPPORTED | AGENT_ERROR | AGENT_START_FAILED */
  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<Session> {
    const live = this.loadForWrite(sessionId);
    await live.setConfigOption(configId, value);
    return live.summary();
  }

  /** @throws AtriumError SESSION_NOT_FOUND | NOT_FOUND */
  terminalOutput(sessionId: string, terminalId: string) {
    return this.load(sessionId).terminalOutput(terminalId);
  }

  /**
   * Sessions the agent itself keeps for a folder (ACP `session/list`), marked with the Atrium
   * session already bound to each. Starts a short-lived agent process for the query.
   * @throws AtriumError AGENT_NOT_FOUND | AGENT_NOT_INSTALLED | AGENT_START_FAILED
   */
  async agentSessions(input: { workspaceId?: string; cwd?: string; agentId: string }): Promise<{ supported: boolean; sessions: AgentSessionListing[] }> {
    this.assertOpen();
    const { cwd } = this.place(input, false);
    const resolved = this.agents.resolve(input.agentId);
    const result = await listAgentSessions(resolved, cwd, { ...this.baseEnv(), ...resolved.env }, this.clientInfo());
    const bound = this.store.db.prepare('SELECT id FROM sessions WHERE agent_id = ? AND agent_session_id = ?');
    return {
      supported: result.supported,
      sessions: result.sessions.map((s) => ({ ...s, adoptedAs: (bound.get(input.agentId, s.agentSessionId) as { id: string } | undefined)?.id ?? null })),
    };
  }

  /**
   * Binds an agent session started outside Atrium (from `agentSessions`) to a new Atrium session and
   * resumes it; an already-bound one is returned (and resumed if its agent is not running).
   * @throws AtriumError AGENT_NOT_FOUND | AGENT_NOT_INSTALLED | PATH_* | NOT_FOUND
   */
  async adopt(input: { workspaceId?: string; cwd?: string; agentId: string; agentSessionId: string; title?: string }): Promise<Session> {
    this.assertOpen();
    const existing = this.store.db.prepare('SELECT id FROM sessions WHERE agent_id = ? AND agent_session_id = ?').get(input.agentId, input.agentSessionId) as { id: string } | undefined;
    if (existing) {
      this.assertHostedHere(existing.id);
      return this.resume(existing.id);
    }
    const { workspace, cwd } = this.place(input, true);
    const resolved = this.agents.resolve(input.agentId);
    const now = new Date().toISOString();
    const record: SessionRecord = {
      ...emptyRecord(),
      id: crypto.randomUUID(),
      workspaceId: workspace?.id ?? null,
      cwd,
      agentId: input.agentId,
      agentVersion: resolved.version,
      agentSessionId: input.agentSessionId,
      title: input.title?.trim() || null,
      state: 'interrupted',
      createdAt: now,
      updatedAt: now,
    };
    this.store.transaction(() => this.tables.createSession(record));
    return this.resume(record.id);
  }

  /** Stops every agent process tree (Atrium quits). Sessions mid-turn become `interrupted`. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.leaseTimer);
    await Promise.all([...this.sessions.values()].map((s) => s.shutdown('Atrium quit').catch((error) => console.error('[atrium] stopping a session failed:', error))));
    this.me.unregister();
  }

  /**
   * The loaded session for a write: refuses one another live process hosts, and first recovers
   * (marks interrupted) one left active by a process that is gone.
   * @throws AtriumError SESSION_NOT_FOUND | SESSION_HOSTED_ELSEWHERE
   */
  loadForWrite(sessionId: string): LiveSession {
    const loaded = this.sessions.get(sessionId);
    if (loaded?.hosting) return loaded;
    this.assertHostedHere(sessionId);
    const record = this.tables.session(sessionId);
    if (!record) throw notFound(sessionId);
    if (loaded && loaded.journal.haltedReason !== null && loaded.busy) {
      throw new AtriumError('SESSION_CLOSED', `Session ${sessionId} is still stopping its agent here (${loaded.journal.haltedReason}); try again in a moment.`);
    }
    if (loaded && !loaded.busy && (loaded.record.lastSeq !== record.lastSeq || loaded.journal.haltedReason !== null)) {
      // another process ran the session since it was loaded here (or took it over): start from the stored row
      this.sessions.delete(sessionId);
      return this.loadForWrite(sessionId);
    }
    if (!loaded && ACTIVE_STATES.includes(record.state)) recoverOne(this.store, this.bus, sessionId);
    return this.load(sessionId);
  }

  /** The loaded session whose in-memory state readers may use: only one hosted here (others may be stale). */
  private current(sessionId: string): LiveSession | undefined {
    const live = this.sessions.get(sessionId);
    return live?.hosting ? live : undefined;
  }

  /** @throws AtriumError SESSION_HOSTED_ELSEWHERE when another live process hosts the session */
  private assertHostedHere(sessionId: string): void {
    const host = this.hostOf(sessionId);
    if (host) throw new AtriumError('SESSION_HOSTED_ELSEWHERE', hostedElsewhereMessage(sessionId, host));
  }

  /** Pushes the header of followed sessions whose foreign host died without writing (see `ExternalSessionFollower.checkHosts`). */
  private followDeadHosts(): void {
    try {
      this.follower.checkHosts();
    } catch (error) {
      console.error('[atrium] checking the hosts of followed sessions failed:', error);
    }
  }

  /** Extends the leases of the sessions whose agent runs here; a session another process took over is stopped here. */
  private renewLeases(): void {
    const hosted = [...this.sessions.values()].filter((s) => s.hosting);
    if (!hosted.length) return;
    let lost: string[];
    try {
      lost = this.store.transaction(() => renewHosts(this.store.db, hosted.map((s) => s.id), this.me));
    } catch (error) {
      console.error('[atrium] renewing session leases failed:', error);
      return;
    }
    for (const id of lost) this.sessions.get(id)?.hostLost(this.hostOf(id));
  }

  /** The loaded session, loading it from the store if needed. @throws AtriumError SESSION_NOT_FOUND */
  load(sessionId: string): LiveSession {
    let live = this.sessions.get(sessionId);
    if (live) return live;
    const record = this.tables.session(sessionId);
    if (!record) throw notFound(sessionId);
    live = new LiveSession(
      {
        store: this.store,
        bus: this.bus,
        registry: this.agents,
        hooks: this.hooks,
        baseEnv: () => this.baseEnv(),
        clientInfo: this.clientInfo(),
        batchMs: this.options.batchMs,
        idleMs: () => this.idleMs(),
        permissionSurface: (sessionId, promptSurfaceId) => this.port.permissionSurface?.(sessionId, promptSurfaceId) ?? null,
        host: this.me,
      },
      record,
    );
    this.sessions.set(sessionId, live);
    return live;
  }

  /** Where a session runs (see {@link placeSession}). */
  private place(input: { workspaceId?: string; cwd?: string }, addWorkspace: boolean): ReturnType<typeof placeSession> {
    return placeSession(this.workspaces, input, addWorkspace);
  }

  private baseEnv(): Record<string, string> {
    if (this.options.baseEnv) return { ...this.options.baseEnv };
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    return env;
  }

  private clientInfo(): { name: string; version: string } {
    return { name: 'atrium', version: this.options.clientVersion ?? '0.0.0' };
  }

  private assertOpen(): void {
    if (this.closed) throw new AtriumError('SESSION_CLOSED', 'Atrium is shutting down; no new agent work is started.');
  }
}
