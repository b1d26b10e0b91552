import type * as acp from '@agentclientprotocol/sdk';
import type { Session, SessionHookRun, SessionPolicy } from '../../../../shared/contract';
import { AtriumError } from '../../../../shared/errors';
import { posixShellJoin } from '../../formats/shell';
import type { WorkspaceResourcesSnapshot } from '../../resources/types';
import { realpathOrSelf } from '../../rules/paths';
import type { AgentStopReason, HookContext, HookVerdict, SessionHooks } from '../hooks';
import { promptAnswered } from '../sessionQueries';
import type { LaunchSpec } from '../supervisor';
import * as boundary from './boundaryHooks';
import { ClaudeHookBridge } from './claudeBridge';
import { geminiBeforeSpawn, geminiClientCapabilities, removeGeminiSessionSettings } from './geminiIsolation';
import { bridgeCall, claudeSessionParams } from './claudeWiring';
import { isolateCodexLaunch } from './codexIsolation';
import { commandSourceOf, type SessionCommandSource } from './commandSource';
import { permissionBarrier, queueRules, rehydrateForNewAgentSession, rulePrefix, settleSent, writeBarrier } from './contextRules';
import { HandoverRegistry, SurfaceRegistry, THIS_PROCESS, type SurfaceCaller } from './handover';
import { toAcpServer } from './mcpFilter';
import { pathsOfToolCall, toSourcePath } from './pathMapping';
import { claudeToolOf } from './sessionHooks';
import { ExecutionStatus, policyView } from './sessionView';
import { acceptCurrentRules, ensureSnapshot, requireVerification } from './snapshot';
import { folderExecution, PolicyCore, type PolicyState, type WorkspacePolicyDeps } from './state';
import { nothingOwed, type ExecutionRecord, type PolicyRow } from './store';
import { checkoutStatus, removeWorktree, type WorktreeInfo } from './worktree';

export { MAX_STOP_FOLLOWUPS } from './boundaryHooks';
export type { WorkspacePolicyDeps } from './state';

/**
 * How long closing the engine waits for hooks still running before it kills them (milliseconds):
 * a CLI command has waited for the hooks its turn owes already (`turnHooks`); this bounds
 * `atrium serve` and the app quitting.
 */
export const CLOSE_GRACE_MS = 5_000;

/** Default idle shutdown (minutes; VibeAround: 10). */
export const DEFAULT_IDLE_MINUTES = 10;
const IDLE_SETTING = 'sessions.idleMinutes';

/** ACP tool kinds that change files (a permission request of these kinds is a write, seed §7). */
const WRITE_KINDS = new Set(['edit', 'delete', 'move']);
/** Stop reasons after which Stop hooks run (a turn that ended normally). */
const STOP_HOOK_REASONS = new Set(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal']);

/**
 * Sessions that obey the workspace, wired into the session runtime through its hook seam
 * (`engine.sessions.addHooks`). Per session it:
 * - takes an immutable snapshot when the session is created (rule catalog snapshot, static rules
 *   with their `provenanceSha256` and references, approved hooks by digest, approved and withheld
 *   MCP servers) and records it (never rule bodies; `snapshot.ts`); later trust, plugin or disk
 *   changes never alter it; every re-attach of an agent process (after a restart, idle shutdown,
 *   a crash, close and resume) recomputes the recorded provenance and fails closed on a mismatch
 *   (seed §6) with the changed files and two actions;
 * - sends static rules with the first prompt (embedded resources or one text block; Claude: the
 *   system prompt), maps every touched path from the execution directory to the source project
 *   (seed §6) for contextual rules, attaches read-triggered rules to the next prompt (stored with
 *   the session until the agent answered a prompt that carried them, whichever process sends it) and refuses
 *   the first write under not-yet-loaded rules with the rules in the error (seed §7 barrier;
 *   `contextRules.ts`);
 * - runs the snapshot's hooks at the ACP boundary (seed §9; `boundaryHooks.ts`) and, for Claude
 *   Code, through its own hooks via a loopback bridge (acp.md §7; `claudeWiring.ts`), and passes
 *   the snapshot's MCP servers;
 * - keeps attached surfaces and handover codes, the session view (`sessionView.ts`), worktree
 *   archiving and the idle-shutdown setting.
 */
export class WorkspacePolicy implements SessionHooks {
  private readonly core: PolicyCore;
  readonly handover: HandoverRegistry;
  readonly surfaces = new SurfaceRegistry();
  private readonly bridge: ClaudeHookBridge;
  private readonly status = new ExecutionStatus();

  constructor(private readonly deps: WorkspacePolicyDeps) {
    this.core = new PolicyCore(deps);
    this.handover = new HandoverRegistry(deps.handover);
    this.bridge = new ClaudeHookBridge(deps.dataDir, () => deps.sessions.agents.nodeCommand());
  }

  // ---------------------------------------------------------------------------------------------
  // Settings

  /** Idle shutdown in minutes (stored setting; default 10). */
  idleMinutes(): number {
    const v = this.core.db.setting<unknown>(IDLE_SETTING, DEFAULT_IDLE_MINUTES);
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULT_IDLE_MINUTES;
  }

  /** Stores the idle shutdown (minutes, 0 = never). */
  setIdleMinutes(minutes: number): void {
    this.core.db.setSetting(IDLE_SETTING, Math.max(0, Math.floor(minutes)));
  }

  // ---------------------------------------------------------------------------------------------
  // Session hooks

  onCreated(ctx: HookContext, info: { sourceDir: string; worktree: WorktreeInfo | null }): void {
    const r = ctx.session;
    const now = new Date().toISOString();
    const sourceDir = realpathOrSelf(info.sourceDir);
    const wt = info.worktree;
    const execution: ExecutionRecord = wt
      ? { kind: 'worktree', dir: r.cwd, sourceDir, execRoot: wt.execRoot, sourceRoot: wt.sourceRoot, branch: wt.branch, baseCommit: wt.baseCommit, createdAt: now, removedAt: null }
      : folderExecution(r.cwd, sourceDir, now);
    const fromDir = wt ? (toSourcePath(r.cwd, { cwd: r.cwd, execRoot: execution.execRoot, sourceRoot: execution.sourceRoot }) ?? sourceDir) : r.cwd;
    const row: PolicyRow = { sessionId: r.id, sourceDir, fromDir, execution, snapshot: null, loaded: [], owed: nothingOwed(), hookRuns: [], mismatch: null, archivedAt: null };
    this.core.db.put(row);
    const st = this.core.state(ctx);
    if (wt) {
      this.core.notice(st, { severity: 'info', code: 'worktree', title: `Runs in a new worktree on branch ${wt.branch}`, detail: `${wt.dir} (from ${wt.baseCommit.slice(0, 12)} of ${wt.sourceRoot})` });
    }
    // the snapshot is taken now, at creation (the agent's start waits for it)
    this.core.track(ensureSnapshot(this.core, st).catch(() => undefined), 'taking the session snapshot');
  }

  async beforeSpawn(ctx: HookContext, launch: LaunchSpec): Promise<LaunchSpec> {
    const st = this.core.state(ctx);
    // this process hosts the agent now: the stored row is the truth (another process may have run the
    // session since this one last did), and what earlier prompts carried is settled against the journal
    this.core.reload(st);
    settleSent(this.core, st, (promptId) => promptAnswered(this.deps.store, st.sessionId, promptId));
    // an agent process re-attaches to an existing agent session: the rules are checked again (fail closed)
    if (ctx.session.agentSessionId !== null) requireVerification(st);
    await ensureSnapshot(this.core, st);
    // the preset's own switches (environment), over the user's and the agent's variables
    if (Object.keys(st.isolation.launchEnv).length) launch = { ...launch, env: { ...launch.env, ...st.isolation.launchEnv } };
    if (st.isolation.presetId === 'gemini') launch = geminiBeforeSpawn(this.core, st, launch);
    if (st.isolation.presetId === 'codex') return isolateCodexLaunch(this.core, st, launch);
    if (!st.isolation.claudeBridge) return launch;
    if (!st.bridge) st.bridge = await this.bridge.register((event, input) => bridgeCall(this.core, st, event, input));
    return { ...launch, env: { ...launch.env, ...st.bridge.env } };
  }

  clientCapabilities(ctx: HookContext, capabilities: acp.ClientCapabilities): acp.ClientCapabilities {
    return this.core.state(ctx).isolation.presetId === 'gemini' ? geminiClientCapabilities(capabilities) : capabilities;
  }

  beforeSessionSetup(ctx: HookContext, _method: 'new' | 'load' | 'resume', params: acp.NewSessionRequest): acp.NewSessionRequest {
    const st = this.core.state(ctx);
    // the snapshot's servers, on new, load and resume alike (never recomputed while the session lives)
    // Codex gets them in its config override instead (codexIsolation.ts: codex-acp drops ACP servers whose name its config defines)
    const mcpServers = st.isolation.presetId === 'codex' ? [] : (st.mcp ?? []).map(toAcpServer).filter((s): s is acp.McpServer => s !== null);
    const next: acp.NewSessionRequest = { ...params, mcpServers: [...(params.mcpServers ?? []), ...mcpServers] };
    return st.isolation.claudeBridge ? claudeSessionParams(this.core, st, next) : next;
  }

  async afterAttach(ctx: HookContext, info: { via: 'new' | 'load' | 'resume'; outcome: string }): Promise<void> {
    const st = this.core.state(ctx);
    if (info.outcome === 'replaced-by-new') rehydrateForNewAgentSession(this.core, st);
    await boundary.sessionStart(this.core, st, info.outcome === 'new' ? 'startup' : 'resume');
  }

  async beforePrompt(ctx: HookContext, prompt: acp.ContentBlock[], info: { promptId: string; text: string }): Promise<acp.ContentBlock[]> {
    const st = this.core.state(ctx);
    if (!st.followupPromptIds.delete(info.promptId)) st.stopFollowups = 0;
    await boundary.userPromptSubmit(this.core, st, info.text);
    const prefix = rulePrefix(this.core, st, ctx.session.capabilities?.embeddedContext === true, info.promptId);
    const context = boundary.takeHookContext(this.core, st, info.promptId);
    if (context) prefix.push(context);
    return prefix.length ? [...prefix, ...prompt] : prompt;
  }

  async beforeRead(ctx: HookContext, path: string): Promise<HookVerdict> {
    const st = this.core.state(ctx);
    if (!st.isolation.claudeBridge) queueRules(this.core, st, [path], 'read');
    return { allow: true };
  }

  async beforeWrite(ctx: HookContext, path: string, content: string): Promise<HookVerdict> {
    const st = this.core.state(ctx);
    // seed §7 first-write barrier: refuse before any side effect, with the rules in the message
    const refused = writeBarrier(this.core, st, [path], 'write-error', 'refused the first write');
    if (refused) return refused;
    return boundary.preToolWrite(this.core, st, path, content);
  }

  async afterWrite(ctx: HookContext, path: string, content: string, error: string | null): Promise<void> {
    await boundary.postToolWrite(this.core, this.core.state(ctx), path, content, error);
  }

  async beforeTerminal(ctx: HookContext, command: string, args: string[], cwd: string): Promise<HookVerdict> {
    const st = this.core.state(ctx);
    if (!st.isolation.claudeBridge) queueRules(this.core, st, [cwd], 'terminal');
    // Without args the command is a shell line (or one program) and is shown as sent; with args it
    // runs as an argv without a shell, so it is quoted back into the shell text that runs the same
    // words: `sh` `-c` `git push` must read as `sh -c 'git push'`, or an `if` guard never sees it.
    return boundary.preToolTerminal(this.core, st, args.length ? posixShellJoin([command, ...args]) : command);
  }

  onToolCall(ctx: HookContext, update: acp.ToolCall | acp.ToolCallUpdate): void {
    const st = this.core.state(ctx);
    if (st.isolation.claudeBridge || typeof update.toolCallId !== 'string') return;
    const known = { ...(st.tools.get(update.toolCallId) ?? {}) };
    for (const [k, v] of Object.entries(update)) if (v !== undefined && v !== null) known[k] = v;
    st.tools.set(update.toolCallId, known);
    if (st.tools.size > 500) st.tools.delete(st.tools.keys().next().value as string);
    const paths = pathsOfToolCall(update);
    if (paths.length) queueRules(this.core, st, paths, 'tool');
    if (update.status === 'completed' || update.status === 'failed') boundary.postToolCall(this.core, st, update.toolCallId, known, update.status === 'failed');
  }

  async onPermissionRequest(ctx: HookContext, request: acp.RequestPermissionRequest): Promise<string | null> {
    const st = this.core.state(ctx);
    const tc = (request.toolCall ?? {}) as acp.ToolCallUpdate;
    const known = { ...(typeof tc.toolCallId === 'string' ? (st.tools.get(tc.toolCallId) ?? {}) : {}), ...stripNulls(tc) };
    const options = Array.isArray(request.options) ? request.options : [];
    const pick = (...kinds: string[]) => {
      for (const k of kinds) {
        const o = options.find((x) => x && x.kind === k);
        if (o) return o.optionId;
      }
      return null;
    };
    if (!st.isolation.claudeBridge) {
      const paths = pathsOfToolCall(known);
      if (WRITE_KINDS.has(String(known.kind))) {
        const refused = permissionBarrier(this.core, st, paths, pick('reject_once', 'reject_always'), ctx.session.capabilities?.embeddedContext === true);
        if (refused) return refused;
      } else if (paths.length) {
        queueRules(this.core, st, paths, 'permission');
      }
    }
    const tool = claudeToolOf(known);
    const title = typeof known.title === 'string' && known.title ? known.title : tool.name;
    return boundary.permissionHooks(this.core, st, tool, title, tc.toolCallId ?? null, pick);
  }

  afterTurn(ctx: HookContext, stopReason: string): void {
    const st = this.core.state(ctx);
    // what the prompt carried was delivered if the agent answered it, else it is owed again
    settleSent(this.core, st, (promptId) => promptAnswered(this.deps.store, st.sessionId, promptId));
    if (!STOP_HOOK_REASONS.has(stopReason)) return;
    // Claude Code runs Stop hooks "when the main agent has finished responding" (hooks.md, Stop): after the turn, not awaited by it
    this.core.track(boundary.stopHooks(this.core, st), 'Stop hooks', st.sessionId);
  }

  async onAgentStopped(ctx: HookContext, reason: AgentStopReason): Promise<void> {
    const st = this.core.state(ctx);
    // written again at every spawn: only a running Gemini needs it
    if (st.isolation.presetId === 'gemini') removeGeminiSessionSettings(this.deps.dataDir, st.sessionId);
    if (reason === 'idle') {
      const minutes = this.deps.sessions.idleMs() / 60_000;
      this.core.notice(st, { severity: 'info', code: 'idle_shutdown', title: `Stopped the idle agent after ${Number.isInteger(minutes) ? minutes : minutes.toFixed(2)} min; the next prompt resumes it`, detail: null });
      return;
    }
    if (reason === 'closed') {
      await boundary.sessionEnd(this.core, st);
      if (st.bridge) {
        this.bridge.unregister(st.bridge.token);
        st.bridge = null;
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Requests

  /**
   * The session view's policy (see contract `SessionPolicy`). Reads git for the branch/dirty state.
   * @throws AtriumError SESSION_NOT_FOUND
   */
  view(sessionId: string): SessionPolicy {
    return policyView(this.core, this.deps.sessions.show(sessionId), this.status, this.surfaces, this.handover);
  }

  /** Execution folder or worktree with its live branch and dirty state. @throws AtriumError SESSION_NOT_FOUND */
  execution(sessionId: string): SessionPolicy['execution'] {
    return this.status.view(this.core.rowOf(this.deps.sessions.show(sessionId)).execution);
  }

  /**
   * The immutable resource snapshot a live session was given (seed §1.3: rules, and every other
   * member of the bundle, e.g. skills and commands), or null before its agent first started in
   * this process. Later trust, plugin or disk changes never alter it.
   */
  snapshotOf(sessionId: string): WorkspaceResourcesSnapshot | null {
    return this.core.states.get(sessionId)?.resources ?? null;
  }

  /**
   * Where a session's workspace commands and skills come from (its snapshot, else the current
   * bundle, marked so) and the folder they expand in; see `commandSource.ts`.
   * @throws AtriumError SESSION_NOT_FOUND
   */
  commandSource(sessionId: string): Promise<SessionCommandSource> {
    return commandSourceOf(this.core, this.deps.sessions.show(sessionId));
  }

  /**
   * Resolves a fail-closed rule mismatch: `continue` takes the current rules as the
   * session's (the new provenance and every changed file are recorded in the transcript; static
   * rules are sent again with the next prompt, changed contextual references are dropped so they
   * load again when triggered) and resumes; `new` starts a new session in the same place with the
   * same agent, mode and title (and a new worktree for a worktree session) and closes this one,
   * unless `keepPrevious` (the CLI's `--new`: the old session stays as it is, paused).
   * @throws AtriumError SESSION_NOT_FOUND | INVALID_PARAMS (no mismatch to resolve)
   */
  async resolveMismatch(sessionId: string, action: 'continue' | 'new', options: { keepPrevious?: boolean } = {}): Promise<Session> {
    const session = this.deps.sessions.show(sessionId);
    const live = this.deps.sessions.loadForWrite(sessionId);
    const st: PolicyState = this.core.state(live.hookContextForService());
    // this process may not have hosted the session since another one ran it: act on the stored row
    this.core.reload(st);
    if (!st.row.mismatch) throw new AtriumError('INVALID_PARAMS', 'This session has no rule mismatch to resolve: its rules are unchanged, so a plain resume continues it.');
    if (action === 'new') {
      const worktree = st.row.execution.kind === 'worktree';
      const created = this.deps.sessions.create({
        workspaceId: session.workspaceId ?? undefined,
        cwd: worktree ? st.row.fromDir : session.cwd,
        agentId: session.agentId,
        // the mode the session was last in (the agent's report), else the one the user chose
        modeId: session.modes?.currentModeId ?? live.record.desiredModeId ?? undefined,
        title: session.title ?? undefined,
        worktree,
      });
      if (!options.keepPrevious) await this.deps.sessions.closeSession(sessionId).catch(() => undefined);
      return created;
    }
    await acceptCurrentRules(this.core, st);
    return this.deps.sessions.resume(sessionId);
  }

  /**
   * Closes and archives a session; optionally removes its worktree, refusing to lose uncommitted
   * work unless `discardChanges` (WORKTREE_DIRTY lists the changes so the UI can ask first).
   * @throws AtriumError SESSION_NOT_FOUND | WORKTREE_DIRTY | WORKTREE_FAILED
   */
  async archive(sessionId: string, options: { removeWorktree?: boolean; discardChanges?: boolean }): Promise<{ session: Session; execution: SessionPolicy['execution'] }> {
    const row = this.core.rowOf(this.deps.sessions.show(sessionId));
    const wt = row.execution.kind === 'worktree' && !row.execution.removedAt;
    if (options.removeWorktree && wt && !options.discardChanges) {
      const status = checkoutStatus(row.execution.execRoot);
      if (status.dirty) {
        throw new AtriumError('WORKTREE_DIRTY', `The worktree "${row.execution.execRoot}" has uncommitted changes; commit them, or confirm that they may be discarded:\n${status.changes.slice(0, 20).join('\n')}`);
      }
    }
    const closed = await this.deps.sessions.closeSession(sessionId);
    if (options.removeWorktree && wt) {
      removeWorktree(row.execution, options.discardChanges === true);
      row.execution.removedAt = new Date().toISOString();
    }
    row.archivedAt = new Date().toISOString();
    this.core.db.put(row);
    this.core.emit(sessionId, 'archived');
    return { session: closed, execution: this.status.view(row.execution) };
  }

  /**
   * Issues a handover code for a session; the answer is the only place the code appears.
   * `who`: the caller as the transport vouches for it (see {@link SurfaceCaller}). It must show the
   * session, or nobody else may: a caller that could issue a code for a session another tab shows
   * could redeem it itself.
   * @throws AtriumError SESSION_NOT_FOUND | HANDOVER_REQUIRED
   */
  issueHandover(sessionId: string, who: SurfaceCaller = THIS_PROCESS) {
    this.deps.sessions.show(sessionId);
    if (!this.surfaces.admits(sessionId, undefined, who)) throw this.handoverRequired(sessionId, 'issue a handover code for it');
    const code = this.handover.issue(sessionId);
    this.core.emit(sessionId, 'handover');
    return code;
  }

  /**
   * Redeems a handover code and attaches the caller as a surface. Failures are counted for the
   * caller's connection (the identity the transport vouches for, never the page key, which the
   * page chooses), else, in-process, for the self-declared `clientId`.
   * @throws AtriumError HANDOVER_INVALID | HANDOVER_RATE_LIMITED | SESSION_NOT_FOUND
   */
  pickup(code: string, clientId: string, kind: 'app' | 'browser' | 'cli', label?: string, who: SurfaceCaller = THIS_PROCESS) {
    const sessionId = this.handover.redeem(code, who.connection ?? clientId);
    const session = this.deps.sessions.show(sessionId);
    const surface = this.surfaces.attach(sessionId, { kind, label, via: 'pickup' }, who);
    this.core.emit(sessionId, 'surfaces');
    return { session: stripDetails(session), surface };
  }

  /**
   * Attaches a surface that opened a session. Without `code`, {@link SurfaceRegistry.admits}
   * decides (the caller's own surface again, or a session nobody else shows); with it, the code
   * must be this session's and is redeemed (rate-limited for the caller's connection).
   * @throws AtriumError SESSION_NOT_FOUND | HANDOVER_REQUIRED | HANDOVER_INVALID | HANDOVER_RATE_LIMITED
   */
  attach(sessionId: string, surface: { surfaceId?: string; kind: 'app' | 'browser' | 'cli'; label?: string }, who: SurfaceCaller = THIS_PROCESS, code?: string) {
    this.deps.sessions.show(sessionId);
    let via: 'owner' | 'pickup' = 'owner';
    if (!this.surfaces.admits(sessionId, surface.surfaceId, who)) {
      if (code === undefined) throw this.handoverRequired(sessionId, 'attach to it');
      if (this.surfaces.list(sessionId).some((s) => s.surfaceId === surface.surfaceId)) throw this.handoverRequired(sessionId, 'attach to it as that surface (attach without a surfaceId to get a new one)');
      const redeemed = this.handover.redeem(code, who.connection ?? 'this process');
      if (redeemed !== sessionId) throw new AtriumError('HANDOVER_INVALID', 'That handover code is for another session; the code is used now. Ask for a new one in the session you want to continue.');
      via = 'pickup';
      this.core.emit(sessionId, 'handover');
    }
    const attached = this.surfaces.attach(sessionId, { ...surface, via }, who);
    this.core.emit(sessionId, 'surfaces');
    return { surface: attached, surfaces: this.surfaces.list(sessionId) };
  }

  /**
   * Detaches a surface. Permission requests still pending for it are re-targeted to the earliest
   * surface left attached, or to any surface when none is, so a closed tab never keeps
   * the only answer buttons. Only its holder (or this process) may.
   * @throws AtriumError HANDOVER_REQUIRED (another window, tab or terminal attached it)
   */
  detach(sessionId: string, surfaceId: string, who: SurfaceCaller = THIS_PROCESS) {
    if (!this.surfaces.mayDetach(sessionId, surfaceId, who)) throw new AtriumError('HANDOVER_REQUIRED', 'Only the window, tab or terminal that attached this surface can detach it.');
    if (this.surfaces.detach(sessionId, surfaceId)) this.core.emit(sessionId, 'surfaces');
    this.deps.sessions.retargetPermissions(sessionId, surfaceId, this.surfaces.permissionTarget(sessionId, null));
    return { surfaces: this.surfaces.list(sessionId) };
  }

  /**
   * "Answer here instead": addresses pending request `requestId` to the attached surface
   * `surfaceId`, which only its holder (the connection that attached it, or this process) may do.
   * @returns the request after the change, or null when it is no longer pending
   * @throws AtriumError SESSION_NOT_FOUND | HANDOVER_REQUIRED (the surface is not attached, or another connection holds it)
   */
  takeOverPermission(sessionId: string, requestId: string, surfaceId: string, who: SurfaceCaller = THIS_PROCESS) {
    this.deps.sessions.show(sessionId);
    const surface = this.surfaces.list(sessionId).find((s) => s.surfaceId === surfaceId);
    if (!surface || !this.surfaces.mayDetach(sessionId, surfaceId, who)) throw this.handoverRequired(sessionId, 'answer its permission requests');
    return this.deps.sessions.retargetRequest(sessionId, requestId, { surfaceId: surface.surfaceId, label: surface.label, kind: surface.kind });
  }

  /** HANDOVER_REQUIRED naming where the session is shown and how to get a code there. */
  private handoverRequired(sessionId: string, what: string): AtriumError {
    const where = this.surfaces.list(sessionId).map((s) => s.label);
    const shown = where.length ? `it is shown on ${[...new Set(where)].join(', ')}` : 'another window, tab or terminal shows it';
    return new AtriumError('HANDOVER_REQUIRED', `To ${what} here, ${shown}: press "Hand over" there and enter the code with "Pick up a session" (or \`atrium session pickup CODE\`).`);
  }

  /**
   * A mark for {@link turnHooks}: how many hook runs this process recorded on the session so far.
   * Take it when a turn has ended (its Stop hooks start then and are recorded later).
   */
  hookRunMark(sessionId: string): number {
    return this.core.runMark(sessionId);
  }

  /**
   * Waits for the hooks a session's turns started and nobody awaits: Stop (Claude Code runs it
   * when the agent has finished responding, after the turn), PostToolUse and Notification hooks
   * still running, and `async: true` handlers, each bounded by its own timeout (Claude Code: 600 s
   * for a command unless `timeout` says otherwise, formats.md §2.5). Returns the runs recorded on
   * the session after `mark` ({@link hookRunMark}), oldest first, and the follow-up prompts Stop
   * hooks queued meanwhile (a blocking Stop hook's reason, see `MAX_STOP_FOLLOWUPS`). A process
   * that ends after its turn (each `atrium session prompt`) calls this first, so the hooks its
   * turn owes finish and are reported instead of dying with it. Never rejects.
   */
  async turnHooks(sessionId: string, mark: number): Promise<{ runs: SessionHookRun[]; followups: string[] }> {
    await this.core.settleSession(sessionId);
    return { runs: this.core.runsSince(sessionId, mark), followups: this.core.followupsSince(sessionId, mark) };
  }

  /**
   * Kills every session hook still running (process trees included); each is recorded as
   * `interrupted: <reason>`. For a CLI command the user interrupts while it waits for the hooks
   * of its turn; the engine is about to close, so later hooks are killed at once too.
   */
  interruptHooks(reason: string): void {
    this.core.closing.abort(reason);
  }

  /**
   * Waits for the hook runs and snapshots still in flight so what they record reaches the
   * database before the engine closes it, then stops the bridge. Hooks still running after
   * `graceMs` (default {@link CLOSE_GRACE_MS}; `atrium serve` or the app quitting must not wait up
   * to a hook's 600 s timeout) are killed with their process trees and recorded as
   * `interrupted: Atrium closed before the hook finished`, never dropped silently.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    const settled = this.core.settle();
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([settled.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)))]);
    clearTimeout(timer);
    if (late) {
      this.core.closing.abort('Atrium closed before the hook finished');
      await settled;
    }
    await this.bridge.close();
  }
}

function stripNulls(o: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

function stripDetails(s: Session & { permissions?: unknown; diagnostics?: unknown }): Session {
  const { permissions: _p, diagnostics: _d, ...rest } = s;
  return rest;
}
