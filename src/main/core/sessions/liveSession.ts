import fs from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';
import type { PermissionItem, Session, StopReason } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import { connectAgent } from './acpConnection';
import * as settings from './agentSettings';
import type { AgentRegistry } from './agentRegistry';
import { fileAndTerminalMethods } from './clientMethods';
import type { JournalEvent, PermissionRoute } from './events';
import type { HookChain, HookContext } from './hooks';
import { Journal } from './journal';
import { announcePermission, askPermission, permissionRoute, retargetPermissions, retargetRequest } from './permissionRouting';
import { notPendingError, PermissionBroker, type AnsweredBy } from './permissions';
import { killProcessTree } from '../process/processTree';
import { claimHost, hostedElsewhereMessage, hostedElsewhereOf, releaseHost, type HostIdentity, type SessionHost } from './ownership';
import { PromptQueue } from './promptQueue';
import { toSession, type SessionRecord } from './records';
import { agentEnv, exitBehindFailure, handshake, howItEnded, raceExit, startFailureMessage, type StartupProgress } from './startup';
import { AgentProcess, type ExitInfo } from './supervisor';
import { SessionTables } from './tables';
import { TerminalManager } from './terminals';
import { UpdateInbox } from './updateInbox';

/** Shared dependencies of every live session (owned by the SessionService). */
export interface LiveSessionDeps {
  store: Store;
  bus: EventBus;
  registry: AgentRegistry;
  hooks: HookChain;
  /** The user's environment agents inherit (default `process.env`). */
  baseEnv: () => Record<string, string>;
  clientInfo: { name: string; version: string };
  batchMs?: number;
  /** Idle time after which the agent process is stopped (0 = never); the next prompt resumes. Read each time the session becomes idle. */
  idleMs: () => number;
  /**
   * Which attached surface should answer a permission request: the one that sent
   * the running prompt, else any attached one; null = any surface.
   */
  permissionSurface?: (sessionId: string, promptSurfaceId: string | null) => PermissionRoute | null;
  /** This engine as a session host: claimed when the agent starts, released when it stops (see `ownership.ts`). */
  host: HostIdentity;
}

/** The reason idle shutdown passes to `shutdown` (see `onAgentStopped` reason `idle`). */
export const IDLE_REASON = 'Idle shutdown';

/** How long `session/close` may take before the process is killed anyway (milliseconds). */
const CLOSE_REQUEST_WAIT_MS = 2000;

/**
 * One session at run time: its journal, and while an agent runs, the supervised process, the ACP
 * connection, the prompt queue, pending permissions and terminals. This class owns the agent's
 * lifecycle (start, exit, stop, idle shutdown); the queue (`promptQueue.ts`), the notification
 * routing (`updateInbox.ts`), permission routing (`permissionRouting.ts`) and the agent settings
 * (`agentSettings.ts`) live beside it.
 *
 * Invariants (seed 003): one agent spawn in flight per session (`ensureStarted` is single-flight);
 * prompts run one at a time in queue order; cancel bypasses the queue; every change is journaled
 * (persisted) before it is pushed; a crash never restarts the agent by itself.
 */
export class LiveSession {
  readonly journal: Journal;
  private proc: AgentProcess | null = null;
  private conn: acp.ClientConnection | null = null;
  /** True once start-up completed (initialize + session attached) until the process is gone. */
  private attached = false;
  private starting: Promise<void> | null = null;
  private stopping = false;
  private gone: Promise<void> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private hostClaimed = false;
  private readonly queue = new PromptQueue({
    ensureStarted: () => this.ensureStarted(),
    conn: () => this.conn,
    agentSessionId: () => this.record.agentSessionId,
    live: () => this.live,
    stopping: () => this.stopping,
    gone: () => this.gone,
    append: (event) => this.append(event),
    state: () => this.record.state,
    setState: (state) => this.setState(state),
    beforePrompt: (blocks, meta) => this.deps.hooks.beforePrompt(this.hookContext(), blocks, meta),
    afterTurn: (stop) => this.deps.hooks.afterTurn(this.hookContext(), stop),
    scheduleIdle: () => this.scheduleIdle(),
    clearIdleTimer: () => this.clearIdleTimer(),
  });
  private readonly inbox = new UpdateInbox(
    () => this.record.agentSessionId,
    (event) => this.append(event),
    (update) => this.deps.hooks.onToolCall(this.hookContext(), update),
    (update) => this.deps.hooks.onSessionUpdate(this.hookContext(), update),
  );
  readonly permissions: PermissionBroker;
  readonly terminals: TerminalManager;
  private env: Record<string, string> = {};

  constructor(
    private readonly deps: LiveSessionDeps,
    record: SessionRecord,
  ) {
    this.journal = new Journal(deps.store, deps.bus, record, {
      batchMs: deps.batchMs,
      summarize: () => this.summary(),
      host: { identity: deps.host, hosting: () => this.hostClaimed },
      onHalted: (reason) => this.onJournalHalted(reason),
    });
    this.permissions = new PermissionBroker(
      // the route is part of the recorded request (persisted before anyone is told), so a surface opened later still knows it
      (requestId, request) => this.append({ kind: 'permission_requested', data: { requestId, toolCall: request.toolCall, options: request.options, route: this.permissionRoute() } }),
      (requestId, outcome, optionId, by) => this.append({ kind: 'permission_answered', data: { requestId, outcome, optionId, by } }),
    );
    this.terminals = new TerminalManager(
      () => [this.record.cwd, ...this.record.additionalDirectories],
      () => this.env,
      (terminalId, out) => {
        try {
          this.append({ kind: 'terminal_exited', data: { terminalId, output: out.output, truncated: out.truncated, exitCode: out.exitStatus?.exitCode ?? null, signal: out.exitStatus?.signal ?? null } });
        } catch (error) {
          console.error('[atrium] recording a terminal exit failed:', error);
        }
      },
    );
  }

  /** Atrium's session id. */
  get id(): string {
    return this.journal.record.id;
  }

  /** The in-memory record (equal to the stored row after each journal flush). */
  get record(): SessionRecord {
    return this.journal.record;
  }

  /** True while an agent process is running and attached to this session (start-up completed). */
  get live(): boolean {
    return this.attached && this.proc !== null && this.proc.running && this.conn !== null;
  }

  /** The contract's Session for this record plus live facts. */
  summary(): Session {
    return toSession(this.record, {
      live: this.live,
      queue: this.queue.summary(),
      pendingPermissions: this.permissions.count,
      // hosted here: nobody else; otherwise (a stale copy, or one that lost its host) name the live host, one keyed read
      hostedElsewhere: this.hostClaimed ? null : this.foreignHost(),
    });
  }

  private foreignHost(): Session['hostedElsewhere'] {
    try {
      const row = this.deps.store.db.prepare('SELECT owner_json FROM sessions WHERE id = ?').get(this.id) as { owner_json: string | null } | undefined;
      return hostedElsewhereOf(row?.owner_json, this.deps.host);
    } catch {
      return null;
    }
  }

  /** stderr of the running process, else the stored tail of the last one. */
  stderrTail(): string {
    return this.proc ? this.proc.stderr.text() : this.record.stderrTail;
  }

  /** True while anything of the session runs here: hosted, starting, stopping, a turn or queued prompts. */
  get busy(): boolean {
    return this.hostClaimed || this.starting !== null || this.stopping || this.queue.running !== null || this.queue.length > 0 || this.proc !== null;
  }

  /** True while this process hosts the session (its agent is starting or running here). */
  get hosting(): boolean {
    return this.hostClaimed;
  }

  /**
   * Another process took the session over (its lease renewal found a foreign host): stop the agent
   * here without writing to the session any more. `host` names the new host when it is alive.
   */
  hostLost(host: SessionHost | null): void {
    this.journal.halt(host ? `${hostedElsewhereMessage(this.id, host)} This process stopped its own agent for it.` : 'Another Atrium process took this session over; this process stopped its own agent for it.');
  }

  /** The journal stopped writing (foreign host, or the database keeps failing): stop the agent, nothing more is recorded here. */
  private onJournalHalted(reason: string): void {
    this.hostClaimed = false;
    console.error(`[atrium] session ${this.id}: ${reason}`);
    this.queue.dropAll(reason);
    void this.stop({ reason }).catch(() => undefined);
  }

  /** Claims the session for this process and moves it to `starting`, in one transaction. @throws AtriumError SESSION_HOSTED_ELSEWHERE */
  private claimAndStart(): void {
    this.deps.store.transaction(() => {
      const other = claimHost(this.deps.store.db, this.id, this.deps.host);
      if (other) throw new AtriumError('SESSION_HOSTED_ELSEWHERE', hostedElsewhereMessage(this.id, other));
      this.hostClaimed = true;
      this.setState('starting', null);
    });
  }

  /** Gives the session up (the agent stopped here); a failing write is logged. */
  private releaseHost(): void {
    if (!this.hostClaimed) return;
    this.hostClaimed = false;
    try {
      this.deps.store.transaction(() => releaseHost(this.deps.store.db, this.id, this.deps.host));
    } catch (error) {
      console.error(`[atrium] session ${this.id}: releasing it failed:`, error);
    }
  }

  /** Process id of the running agent, or null. */
  pid(): number | null {
    return this.proc?.pid ?? null;
  }

  /** Appends to the journal; a failing write is logged, never thrown into ACP handlers. */
  append(event: JournalEvent): void {
    this.journal.append(event);
  }

  private setState(state: Session['state'], error?: string | null): void {
    if (this.record.state === state && error === undefined) return;
    this.append({ kind: 'state', data: error === undefined ? { state } : { state, error } });
  }

  /** The hook context of this session, for the service's own hook calls (e.g. `onCreated`). */
  hookContextForService(): HookContext {
    return this.hookContext();
  }

  private hookContext(): HookContext {
    return {
      session: this.record,
      append: (event) => {
        try {
          this.append(event);
        } catch (error) {
          console.error('[atrium] recording a policy event failed:', error);
        }
      },
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Lifecycle

  /**
   * Makes sure an agent process runs and is attached to this session: spawn, `initialize`, then
   * session/new or the resume chain (see `attach`). Single-flight: concurrent callers share one start.
   * @throws AtriumError AGENT_NOT_INSTALLED | AGENT_NOT_FOUND | AGENT_START_FAILED | SESSION_CLOSED (while closing)
   */
  ensureStarted(): Promise<void> {
    if (this.live) return Promise.resolve();
    if (this.stopping) return Promise.reject(new AtriumError('SESSION_CLOSED', 'The session is being closed.'));
    if (!this.starting) {
      this.starting = this.start().finally(() => {
        this.starting = null;
      });
    }
    return this.starting;
  }

  private async start(): Promise<void> {
    this.clearIdleTimer();
    try {
      this.claimAndStart();
    } catch (error) {
      this.hostClaimed = false;
      throw error;
    }
    const r = this.record;
    let resolved;
    try {
      resolved = this.deps.registry.resolve(r.agentId);
      if (!fs.existsSync(r.cwd)) throw new AtriumError('PATH_NOT_FOUND', `The session folder "${r.cwd}" no longer exists; the agent cannot start there.`);
    } catch (error) {
      this.failStart((error as Error).message, '');
      throw error;
    }
    this.env = agentEnv(this.deps.baseEnv(), resolved.env, r);
    let launch;
    try {
      launch = await this.deps.hooks.beforeSpawn(this.hookContext(), { command: resolved.command, args: resolved.args, cwd: r.cwd, env: this.env });
    } catch (error) {
      // a hook refused the start (e.g. rules changed since the session was created: fail closed)
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof AtriumError && error.code === 'RULE_PROVENANCE_MISMATCH') this.pause(message);
      else this.failStart(message, '');
      throw error instanceof AtriumError ? error : new AtriumError('AGENT_START_FAILED', message);
    }
    this.env = launch.env;
    if (this.stopping) throw new AtriumError('SESSION_CLOSED', 'The session was stopped while its agent was starting.');
    const proc = AgentProcess.spawn(launch);
    this.proc = proc;
    let settleGone!: () => void;
    this.gone = new Promise<void>((resolve) => (settleGone = resolve));
    void proc.exited.then((info) => this.onProcessExit(proc, info).finally(settleGone));
    const conn = connectAgent(proc, this.clientHandlers());
    this.conn = conn;
    let connectionClosed = false;
    void conn.closed.then(() => {
      connectionClosed = true;
      // the agent closed its stdout: the process is useless now
      if (this.proc === proc && proc.running && !this.stopping) void proc.stop(2000, false);
    });
    const progress: StartupProgress = { step: 'initialize' };
    const request = raceExit(proc, launch.command, progress);
    try {
      const result = await handshake({
        conn,
        proc,
        launch,
        request,
        progress,
        clientInfo: this.deps.clientInfo,
        record: r,
        hasConversation: () => SessionTables.of(this.deps.store.db).hasConversation(r.id),
        inbox: this.inbox,
        append: (e) => this.append(e),
        hooks: this.deps.hooks,
        hookContext: () => this.hookContext(),
      });
      await settings.applyDesiredMode({ record: this.record, conn: this.conn, append: (e) => this.append(e) }, (resolved.preset ?? resolved.knownAs)?.initialModeId ?? null);
      const target = { record: this.record, conn: this.conn, append: (e: JournalEvent) => this.append(e) };
      await this.deps.hooks.afterAttach(this.hookContext(), { via: result.via, outcome: result.outcome, setConfigOption: (id, v) => settings.setConfigOption(target, id, v), setMode: (m) => settings.setMode(target, m) });
      this.attached = true;
      this.setState('idle', null);
      this.scheduleIdle();
    } catch (error) {
      this.inbox.abortSetup();
      if (this.stopping) {
        await this.stopProcess(true);
        throw new AtriumError('SESSION_CLOSED', 'The session was stopped while its agent was starting.');
      }
      // a broken pipe ("write EPIPE", "connection closed") means the agent is dying: say how it ended instead
      const exit = await exitBehindFailure(proc, error, connectionClosed);
      const message = startFailureMessage(exit, error, launch.command, progress.step);
      if (r.agentSessionId !== null && !(error instanceof AtriumError && error.code === 'AGENT_START_FAILED')) {
        this.append({ kind: 'resume', data: { outcome: 'failed', message, replayed: 0, imported: false } });
      }
      await this.stopProcess(true);
      // the stderr tail is recorded here once (the exit record of a start-up leaves it to this notice)
      this.failStart(message, proc.stderr.text(), launch);
      throw new AtriumError('AGENT_START_FAILED', message);
    }
  }

  /**
   * The start was refused on purpose because the session's rules changed (fail closed): the
   * session is `paused`, not failed (nothing crashed; the policy's notice lists the changes), and
   * waiting prompts are dropped so nothing runs under rules the user has not accepted.
   */
  private pause(message: string): void {
    this.setState('paused', message);
    this.queue.dropAll('the rules of this session changed');
  }

  private failStart(message: string, stderrTail: string, launch?: { command: string; args: string[] }): void {
    this.append({ kind: 'start_failed', data: { message, stderrTail, ...(launch ? { command: launch.command, args: launch.args } : {}) } });
    this.setState('failed', message);
    this.queue.dropAll('the agent could not start');
    if (!this.stopping) this.releaseHost();
  }

  /** Handles the end of the agent process: a crash fails the session (no restart), an expected stop is only logged. */
  private async onProcessExit(proc: AgentProcess, info: ExitInfo): Promise<void> {
    if (this.proc !== proc) return;
    this.proc = null;
    // an exit before the handshake finished is the start's failure: start() records it (start_failed) once
    const duringStart = !this.attached;
    this.attached = false;
    const conn = this.conn;
    this.conn = null;
    conn?.close();
    killProcessTree(proc.pid, 'SIGKILL');
    await this.terminals.releaseAll();
    this.permissions.cancelAll('shutdown');
    const stderrTail = proc.stderr.text();
    try {
      if (!info.expected && this.queue.running) this.append({ kind: 'turn_end', data: { stopReason: 'crashed', error: `The agent exited during the turn.` } });
      this.append({ kind: 'agent_exited', data: { code: info.code, signal: info.signal, stderrTail, expected: info.expected, spawnError: info.spawnError, ...(duringStart ? { duringStart } : {}) } });
      if (!info.expected && !this.stopping) {
        this.queue.dropAll('the agent exited');
        const how = info.spawnError ?? (info.signal ? `signal ${info.signal}` : `exit code ${info.code}`);
        this.setState('failed', duringStart ? `The agent ${info.spawnError ? `could not be started: ${info.spawnError}` : howItEnded(info)} during start-up.` : `The agent exited unexpectedly (${how}).`);
      }
    } catch (error) {
      console.error('[atrium] recording an agent exit failed:', error);
    }
    this.clearIdleTimer();
    if (!this.stopping && !this.starting) this.releaseHost();
    if (!info.expected && !this.stopping) await this.deps.hooks.onAgentStopped(this.hookContext(), 'crashed');
  }

  /** Stops the agent process (tree) and waits for it; returns its stderr tail, or null if none ran. */
  private async stopProcess(expected: boolean): Promise<{ stderr: string } | null> {
    const proc = this.proc;
    if (!proc) return null;
    const stderr = proc.stderr.text();
    await proc.stop(2000, expected);
    await this.gone;
    return { stderr };
  }

  /**
   * Closes the session: drops the queue, cancels the turn and pending permissions, closes the agent
   * session when the agent supports `session/close`, kills the process tree. State becomes `closed`.
   */
  async close(): Promise<void> {
    await this.stop('closed');
  }

  /**
   * Stops the agent because Atrium quits (or after idle time). A session cut off mid-turn or
   * mid-start becomes `interrupted` (resumable); an idle one stays `idle` without a process.
   */
  async shutdown(reason: string): Promise<void> {
    await this.stop({ reason });
  }

  private async stop(mode: 'closed' | { reason: string }): Promise<void> {
    this.clearIdleTimer();
    if (this.stopping) return;
    this.stopping = true;
    try {
      const wasRunning = this.queue.running !== null;
      const cutOff = wasRunning || this.record.state === 'busy' || this.record.state === 'awaiting_permission' || this.record.state === 'starting';
      this.queue.dropAll(mode === 'closed' ? 'the session was closed' : 'Atrium stopped the agent');
      this.permissions.cancelAll('shutdown');
      const conn = this.conn;
      const sessionId = this.record.agentSessionId;
      if (conn && sessionId) {
        if (this.queue.running) void conn.agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => undefined);
        if (mode === 'closed' && this.record.capabilities?.close) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            conn.agent.request(acp.methods.agent.session.close, { sessionId }).catch(() => undefined),
            new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_REQUEST_WAIT_MS))),
          ]);
          clearTimeout(timer);
        }
      }
      const hadProcess = this.proc !== null;
      await this.stopProcess(true);
      // a start in flight fails once its process is gone
      await this.starting?.catch(() => undefined);
      await this.terminals.releaseAll();
      if (hadProcess || mode === 'closed') await this.deps.hooks.onAgentStopped(this.hookContext(), mode === 'closed' ? 'closed' : mode.reason === IDLE_REASON ? 'idle' : 'quit');
      if (mode === 'closed') {
        if (wasRunning) this.append({ kind: 'turn_end', data: { stopReason: 'cancelled', error: 'The session was closed during the turn.' } });
        this.setState('closed');
      } else if (cutOff) {
        this.append({ kind: 'interrupted', data: { reason: `${mode.reason} during ${this.record.state === 'starting' ? 'start-up' : 'a turn'}; resume to continue.` } });
        this.setState('interrupted');
      } else if (this.record.state !== 'failed' && this.record.state !== 'paused' && this.record.state !== 'closed' && this.record.state !== 'interrupted') {
        this.setState('idle');
      }
      this.journal.announce();
    } finally {
      this.journal.close();
      this.releaseHost();
      this.stopping = false;
    }
  }

  private scheduleIdle(): void {
    this.clearIdleTimer();
    const idleMs = this.deps.idleMs();
    if (!(idleMs > 0) || this.queue.running || this.queue.length || this.permissions.count) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.live && !this.queue.running && !this.queue.length && this.record.state === 'idle') void this.shutdown(IDLE_REASON);
    }, idleMs);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  // ---------------------------------------------------------------------------------------------
  // Prompts

  /**
   * Queues a prompt and starts the queue if idle (starting or resuming the agent first if needed).
   * `blocks` (default one text block of `text`) is what the agent is sent; `text` what lists show.
   * @returns its id and position (0 = runs now)
   */
  prompt(text: string, surfaceId: string | null = null, blocks?: acp.ContentBlock[]): { promptId: string; position: number } {
    return this.queue.prompt(text, surfaceId, blocks);
  }

  /** Resolves when the prompt's turn has ended (its stop reason) or the prompt was dropped (at once if that already happened). */
  waitForTurn(promptId: string): Promise<StopReason | 'dropped'> {
    return this.queue.waitForTurn(promptId);
  }

  /** Removes a queued prompt before it runs; false when it is not queued (running or done). */
  dequeue(promptId: string): boolean {
    return this.queue.dequeue(promptId);
  }

  /**
   * Cancels the running turn at once (bypassing the queue): records the request, answers pending
   * permissions `cancelled`, sends `session/cancel`. With `clearQueue`, queued prompts are dropped too.
   */
  cancel(clearQueue: boolean): void {
    this.append({ kind: 'cancel_requested', data: { clearQueue } });
    if (clearQueue) this.queue.dropAll('cancelled by the user');
    this.permissions.cancelAll('cancel');
    const sessionId = this.record.agentSessionId;
    if (this.queue.running && this.conn && sessionId) void this.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => undefined);
  }

  /**
   * Answers a pending permission request (`optionId` null = cancelled).
   * @throws AtriumError PERMISSION_NOT_FOUND | INVALID_PARAMS
   */
  answerPermission(requestId: string, optionId: string | null, by: AnsweredBy = 'user'): PermissionItem {
    if (!this.permissions.ids().includes(requestId)) {
      const recorded = SessionTables.of(this.deps.store.db).itemByRef(this.id, requestId);
      throw notPendingError(requestId, recorded?.kind === 'permission' ? recorded : null);
    }
    this.permissions.answer(requestId, optionId, by);
    const item = SessionTables.of(this.deps.store.db).itemByRef(this.id, requestId);
    if (!item || item.kind !== 'permission') throw new AtriumError('PERMISSION_NOT_FOUND', `Permission request "${requestId}" is not recorded.`);
    return item;
  }

  /**
   * Re-targets pending permission requests addressed to `fromSurfaceId` (that surface detached:
   * tab closed, window gone, terminal left) to `to`, or to any surface when null. Each
   * change is journaled first (`permission_routed`: the item upsert reaches every surface through
   * `sessionEvent`), then `permissionRequested` is pushed again with the new target so the CLI
   * pickup and desktop notifications learn it.
   * @returns how many requests were re-targeted
   */
  retargetPermissions(fromSurfaceId: string, to: PermissionRoute | null): number {
    return retargetPermissions(
      { id: this.id, store: this.deps.store, pendingIds: () => this.permissions.ids(), append: (e) => this.append(e), announce: (requestId) => this.announcePermission(requestId) },
      fromSurfaceId,
      to,
    );
  }

  /**
   * Addresses one pending request to `to` (a person chose to answer it there); see
   * permissionRouting `retargetRequest`. The journal is flushed so readers see the new route.
   * @returns the item after the change, or null when the request is no longer pending
   */
  retargetRequest(requestId: string, to: PermissionRoute): PermissionItem | null {
    const target = { id: this.id, store: this.deps.store, pendingIds: () => this.permissions.ids(), append: (e: JournalEvent) => this.append(e), announce: (id: string) => this.announcePermission(id) };
    this.journal.flush();
    if (!retargetRequest(target, requestId, to)) return null;
    this.journal.flush();
    const item = SessionTables.of(this.deps.store.db).itemByRef(this.id, requestId);
    return item?.kind === 'permission' ? item : null;
  }

  /** The route of a new permission request: the running prompt's surface if still attached, else the earliest attached, else null (any). */
  private permissionRoute(): PermissionRoute | null {
    return permissionRoute(this.deps.permissionSurface, this.id, this.queue.running?.surfaceId ?? null);
  }

  /** Pushes `permissionRequested` for a recorded pending request, addressed as its item says. */
  private announcePermission(requestId: string): void {
    announcePermission(this.deps.store, this.deps.bus, { id: this.id, title: this.record.title }, requestId);
  }

  // ---------------------------------------------------------------------------------------------
  // Modes and options

  /**
   * Switches mode: on a live agent through `session/set_mode`; without a process the choice is
   * recorded and applied at the next start.
   * @throws AtriumError AGENT_UNSUPPORTED (mode not offered) | AGENT_ERROR
   */
  async setMode(modeId: string): Promise<void> {
    await settings.setMode({ record: this.record, conn: this.live ? this.conn : null, append: (e) => this.append(e) }, modeId);
  }

  /**
   * Sets a configuration option through `session/set_config_option` (starting the agent if needed).
   * @throws AtriumError AGENT_UNSUPPORTED | AGENT_ERROR
   */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    await this.ensureStarted();
    await settings.setConfigOption({ record: this.record, conn: this.conn, append: (e) => this.append(e) }, configId, value);
  }

  /** A terminal's output: live, or the stored tail. @throws AtriumError NOT_FOUND */
  terminalOutput(terminalId: string): { output: string; truncated: boolean; exitStatus: { exitCode: number | null; signal: string | null } | null } {
    return settings.terminalOutput(this.terminals, this.deps.store, this.id, terminalId);
  }

  // ---------------------------------------------------------------------------------------------
  // Agent → client

  private clientHandlers() {
    const files = fileAndTerminalMethods({
      agentSessionId: () => this.record.agentSessionId,
      roots: () => [this.record.cwd, ...this.record.additionalDirectories],
      append: (e) => this.append(e),
      hooks: this.deps.hooks,
      hookContext: () => this.hookContext(),
      terminals: this.terminals,
    });
    return {
      ...files,
      onUpdate: (n: acp.SessionNotification) => this.inbox.receive(n),
      requestPermission: (p: acp.RequestPermissionRequest, signal: AbortSignal) => this.onPermission(p, signal),
    };
  }

  private onPermission(p: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    return askPermission(
      {
        agentSessionId: this.record.agentSessionId,
        broker: this.permissions,
        turnRunning: () => this.queue.running !== null,
        state: () => this.record.state,
        setState: (state) => this.setState(state),
        announce: (requestId) => this.announcePermission(requestId),
        autoAnswer: (request) => this.deps.hooks.onPermissionRequest(this.hookContext(), request),
      },
      p,
      signal,
    );
  }
}
