import fs from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import type {
  HookEvent,
  LoadedContextualRule,
  RuleDelivery,
  RuleTrigger,
  Session,
  SessionHookRun,
  SessionPolicy,
} from '../../../../shared/contract';
import { AtriumError } from '../../../../shared/errors';
import type { EventBus } from '../../events/bus';
import type { ApprovedMcpServer, HookService } from '../../hooks/service';
import type { WorkspaceResourcesCache } from '../../resources/cache';
import type { WorkspaceResourcesSnapshot } from '../../resources/types';
import type { RuleCatalog } from '../../rules/catalog';
import { findCatalogRoot, realpathOrSelf } from '../../rules/paths';
import type { RuleSelection, SelectedRule } from '../../rules/types';
import type { Store } from '../../store/database';
import type { WorkspaceService } from '../../workspaces/service';
import type { PolicyNoticeData } from '../events';
import type { AgentStopReason, HookContext, HookVerdict, SessionHooks } from '../hooks';
import type { LaunchSpec } from '../supervisor';
import type { SessionService } from '../service';
import { isolationFor, type AgentIsolation } from './agentIsolation';
import { ClaudeHookBridge, type BridgeAnswer } from './claudeBridge';
import { HandoverRegistry, SurfaceRegistry, type HandoverOptions } from './handover';
import { splitMcpServers, toAcpServer } from './mcpFilter';
import { pathsOfInput, pathsOfToolCall, toExecutionPath, toSourcePath, toSourcePaths, type PathMapping } from './pathMapping';
import { checkProvenance, mismatchMessage } from './provenance';
import { barrierMessage, renderRules, ruleBlocks } from './ruleInjection';
import { claudeToolOf, runSessionHooks, type SessionHookTarget } from './sessionHooks';
import { PolicyStore, refsOf, type ExecutionRecord, type PolicyRow, type SnapshotRecord } from './store';
import { checkoutStatus, removeWorktree, type CheckoutStatus, type WorktreeInfo } from './worktree';

/** Most Stop-hook follow-up prompts in a row (issue 8). */
export const MAX_STOP_FOLLOWUPS = 8;
/** Default idle shutdown (minutes; VibeAround: 10). */
export const DEFAULT_IDLE_MINUTES = 10;
const IDLE_SETTING = 'sessions.idleMinutes';
/** How long the session view reuses a git status (ms). */
const STATUS_CACHE_MS = 2000;

/** Claude Code tools that write files (seed §7 write kinds). */
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
/** Claude Code tools whose path is read (contextual rules go back as `additionalContext`). */
const READ_TOOLS = new Set(['Read', 'NotebookRead', 'Grep', 'Glob', 'LS']);
/** ACP tool kinds that change files (a permission request of these kinds is a write, seed §7). */
const WRITE_KINDS = new Set(['edit', 'delete', 'move']);

/** Dependencies of {@link WorkspacePolicy}: the engine's services. */
export interface WorkspacePolicyDeps {
  store: Store;
  bus: EventBus;
  dataDir: string;
  resources: WorkspaceResourcesCache;
  hooks: HookService;
  sessions: SessionService;
  workspaces: WorkspaceService;
  /** Handover clock and RNG (tests). */
  handover?: HandoverOptions;
}

interface Pending {
  rule: SelectedRule;
  trigger: RuleTrigger;
  /** True when the reference is already recorded as loaded (a refused write-kind permission). */
  recorded: boolean;
}

/** A live session's policy state (in memory; the durable part is its {@link PolicyRow}). */
interface PolicyState {
  sessionId: string;
  row: PolicyRow;
  mapping: PathMapping;
  /** The workspace folder in the execution tree: hooks' cwd and hook-listing folder. */
  execWorkspaceDir: string;
  isolation: AgentIsolation;
  /** The immutable rule catalog of the snapshot (null until taken, or when rules were unavailable). */
  catalog: RuleCatalog | null;
  /** The whole immutable resource snapshot (rules and every other member), or null. */
  resources: WorkspaceResourcesSnapshot | null;
  /** The snapshot being checked (becomes `resources` once accepted). */
  pendingResources: WorkspaceResourcesSnapshot | null;
  snapshotReady: boolean;
  taking: Promise<void> | null;
  staticSent: SelectedRule[];
  /** Rule ids the agent has (static, native, contextual loaded). */
  loaded: Set<string>;
  /** Contextual rules to attach to the next prompt. */
  outbox: Map<string, Pending>;
  /** Hook contexts (SessionStart, PostToolUse…) for the next prompt. */
  contexts: string[];
  hookTarget: SessionHookTarget;
  approvedMcp: ApprovedMcpServer[];
  bridge: { token: string; env: Record<string, string>; hooks: Record<string, unknown> } | null;
  stopFollowups: number;
  followupPromptIds: Set<string>;
  /** Last known fields of tool calls (PostToolUse needs kind/input when only the status changes). */
  tools: Map<string, Record<string, unknown>>;
  posted: Set<string>;
  append: ((event: { kind: 'policy_notice'; data: PolicyNoticeData }) => void) | null;
}

/**
 * Sessions that obey the workspace (issue 8), wired into the session runtime through its hook seam
 * (`engine.sessions.addHooks`). Per session it:
 * - takes an immutable snapshot when the agent first starts (rule catalog snapshot, static rules
 *   with their `provenanceSha256` and references, approved hooks by digest, approved and withheld
 *   MCP servers) and records it (never rule bodies); later trust, plugin or disk changes never
 *   alter it; after a restart the recorded provenance is recomputed and a mismatch fails closed
 *   (seed §6) with the changed files and two actions;
 * - sends static rules with the first prompt (embedded resources or one text block; Claude: the
 *   system prompt), maps every touched path from the execution directory to the source project
 *   (seed §6) for contextual rules, attaches read-triggered rules to the next prompt and refuses
 *   the first write under not-yet-loaded rules with the rules in the error (seed §7 barrier);
 * - runs approved hooks at the ACP boundary (seed §9) and, for Claude Code, through its own hooks
 *   via a loopback bridge (acp.md §7), passes only approved MCP servers;
 * - keeps attached surfaces and handover codes, and the idle-shutdown setting.
 */
export class WorkspacePolicy implements SessionHooks {
  private readonly db: PolicyStore;
  private readonly states = new Map<string, PolicyState>();
  readonly handover: HandoverRegistry;
  readonly surfaces = new SurfaceRegistry();
  private readonly bridge: ClaudeHookBridge;
  private readonly statusCache = new Map<string, { at: number; status: CheckoutStatus }>();

  constructor(private readonly deps: WorkspacePolicyDeps) {
    this.db = new PolicyStore(deps.store);
    this.handover = new HandoverRegistry(deps.handover);
    this.bridge = new ClaudeHookBridge(deps.dataDir);
  }

  // ---------------------------------------------------------------------------------------------
  // Settings

  /** Idle shutdown in minutes (stored setting; default 10). */
  idleMinutes(): number {
    const v = this.db.setting<unknown>(IDLE_SETTING, DEFAULT_IDLE_MINUTES);
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULT_IDLE_MINUTES;
  }

  /** Stores the idle shutdown (minutes, 0 = never). */
  setIdleMinutes(minutes: number): void {
    this.db.setSetting(IDLE_SETTING, Math.max(0, Math.floor(minutes)));
  }

  // ---------------------------------------------------------------------------------------------
  // Session hooks

  onCreated(ctx: HookContext, info: { sourceDir: string; worktree: WorktreeInfo | null }): void {
    const r = ctx.session;
    const now = new Date().toISOString();
    const sourceDir = realpathOrSelf(info.sourceDir);
    const execution: ExecutionRecord = info.worktree
      ? { kind: 'worktree', dir: r.cwd, sourceDir, execRoot: info.worktree.execRoot, sourceRoot: info.worktree.sourceRoot, branch: info.worktree.branch, baseCommit: info.worktree.baseCommit, createdAt: now, removedAt: null }
      : this.folderExecution(r.cwd, sourceDir, now);
    const fromDir = info.worktree ? (toSourcePath(r.cwd, { cwd: r.cwd, execRoot: execution.execRoot, sourceRoot: execution.sourceRoot }) ?? sourceDir) : r.cwd;
    const row: PolicyRow = { sessionId: r.id, sourceDir, fromDir, execution, snapshot: null, loaded: [], hookRuns: [], mismatch: null, archivedAt: null };
    this.db.put(row);
    const st = this.state(ctx);
    if (info.worktree) {
      this.notice(st, { severity: 'info', code: 'worktree', title: `Runs in a new worktree on branch ${info.worktree.branch}`, detail: `${info.worktree.dir} (from ${info.worktree.baseCommit.slice(0, 12)} of ${info.worktree.sourceRoot})` });
    }
    // the snapshot is taken now, at creation (the agent's start waits for it)
    void this.ensureSnapshot(st).catch(() => undefined);
  }

  async beforeSpawn(ctx: HookContext, launch: LaunchSpec): Promise<LaunchSpec> {
    const st = this.state(ctx);
    await this.ensureSnapshot(st);
    if (st.isolation.claudeBridge) {
      if (!st.bridge) st.bridge = await this.bridge.register((event, input) => this.bridgeCall(st, event, input));
      return { ...launch, env: { ...launch.env, ...st.bridge.env } };
    }
    return launch;
  }

  beforeSessionSetup(ctx: HookContext, _method: 'new' | 'load' | 'resume', params: acp.NewSessionRequest): acp.NewSessionRequest {
    const st = this.state(ctx);
    const mcpServers = st.approvedMcp.map(toAcpServer).filter((s): s is acp.McpServer => s !== null);
    const next: acp.NewSessionRequest = { ...params, mcpServers: [...(params.mcpServers ?? []), ...mcpServers] };
    if (!st.isolation.claudeBridge) return next;
    // Claude Code (acp.md §7): nothing of its own settings, Atrium's bridge hooks, static rules in the system prompt
    const meta = { ...((params._meta as Record<string, unknown> | undefined) ?? {}) };
    const claudeCode = { ...((meta.claudeCode as Record<string, unknown> | undefined) ?? {}) };
    const options = { ...((claudeCode.options as Record<string, unknown> | undefined) ?? {}) };
    options.settingSources = [];
    options.settings = { hooks: st.bridge?.hooks ?? {} };
    options.permissionMode = 'default';
    claudeCode.options = options;
    meta.claudeCode = claudeCode;
    if (st.staticSent.length) {
      meta.systemPrompt = { append: renderRules('project-instructions', st.staticSent) };
      const info = st.row.snapshot?.staticRules;
      if (info && !info.sentAt) {
        info.sentAt = new Date().toISOString();
        info.delivery = 'system-prompt';
        this.save(st, 'rules');
        this.notice(st, { severity: 'info', code: 'rules_loaded', title: `Static rules sent in the system prompt (${st.staticSent.length} file${st.staticSent.length === 1 ? '' : 's'})`, detail: null, rules: refsOf(st.staticSent), triggerPaths: [] });
      }
    }
    next._meta = meta;
    return next;
  }

  async afterAttach(ctx: HookContext, info: { via: 'new' | 'load' | 'resume'; outcome: string }): Promise<void> {
    const st = this.state(ctx);
    const source = info.outcome === 'new' ? 'startup' : 'resume';
    const res = await runSessionHooks(this.deps.hooks, st.hookTarget, 'SessionStart', { hook_event_name: 'SessionStart', source }, null);
    if (!res) return;
    if (res.outcome.additionalContext) st.contexts.push(res.outcome.additionalContext);
    this.recordRun(st, res.run, res.outcome.additionalContext ? 'context goes into the first prompt' : null);
  }

  async beforePrompt(ctx: HookContext, prompt: acp.ContentBlock[], info: { promptId: string; text: string }): Promise<acp.ContentBlock[]> {
    const st = this.state(ctx);
    if (!st.followupPromptIds.delete(info.promptId)) st.stopFollowups = 0;
    const submit = await runSessionHooks(this.deps.hooks, st.hookTarget, 'UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: info.text }, null);
    if (submit) {
      const blocked = submit.outcome.decision === 'block' || submit.outcome.decision === 'stop' || !submit.outcome.continue;
      this.recordRun(st, submit.run, blocked ? 'stopped the prompt' : null);
      if (blocked) throw new AtriumError('PROMPT_BLOCKED', `A UserPromptSubmit hook blocked the prompt: ${submit.outcome.reason ?? submit.outcome.stopReason ?? 'no reason given'}`);
      if (submit.outcome.additionalContext) st.contexts.push(submit.outcome.additionalContext);
    }
    const embedded = ctx.session.capabilities?.embeddedContext === true;
    const prefix: acp.ContentBlock[] = [];
    const info0 = st.row.snapshot?.staticRules;
    if (info0 && !info0.sentAt && !st.isolation.claudeBridge && st.staticSent.length) {
      const { blocks, delivery } = ruleBlocks('project-instructions', st.staticSent, embedded);
      prefix.push(...blocks);
      info0.sentAt = new Date().toISOString();
      info0.delivery = delivery;
      this.save(st, 'rules');
      this.notice(st, { severity: 'info', code: 'rules_loaded', title: `Static rules sent with the first prompt (${st.staticSent.length} file${st.staticSent.length === 1 ? '' : 's'}, ${delivery === 'embedded' ? 'embedded resources' : 'text'})`, detail: null, rules: refsOf(st.staticSent), triggerPaths: [] });
    }
    if (st.outbox.size) {
      const pending = [...st.outbox.values()];
      st.outbox.clear();
      const files = pending.map((p) => p.rule).sort((a, b) => a.file.order - b.file.order);
      const triggers = [...new Set(pending.map((p) => p.rule.triggerPath).filter((t): t is string => Boolean(t)))].sort();
      const { blocks, delivery } = ruleBlocks('contextual-project-instructions', files, embedded, triggers);
      prefix.push(...blocks);
      const fresh = pending.filter((p) => !p.recorded);
      if (fresh.length) this.markLoaded(st, fresh.map((p) => p.rule), fresh[0].trigger, delivery, false, `attached to the prompt`);
    }
    if (st.contexts.length) {
      prefix.push({ type: 'text', text: `<hook-context>\n${st.contexts.join('\n\n')}\n</hook-context>` });
      st.contexts = [];
    }
    return prefix.length ? [...prefix, ...prompt] : prompt;
  }

  async beforeRead(ctx: HookContext, path: string): Promise<HookVerdict> {
    const st = this.state(ctx);
    if (!st.isolation.claudeBridge) this.queueRules(st, [path], 'read');
    return { allow: true };
  }

  async beforeWrite(ctx: HookContext, path: string, content: string): Promise<HookVerdict> {
    const st = this.state(ctx);
    // seed §7 first-write barrier: refuse before any side effect, with the rules in the message
    const sel = this.select(st, [path], false);
    if (sel && sel.files.length) {
      this.markLoaded(st, sel.files, 'write', 'write-error', true, 'refused the first write');
      return {
        allow: false,
        message: barrierMessage(sel.files, sel.triggerPaths),
        transcript: `Refused the first write to "${path}": applicable project rules were loaded (${sel.files.map((f) => f.file.relativePath).join(', ')}); the agent reviews them and retries.`,
      };
    }
    const tool = fs.existsSync(path) ? 'Edit' : 'Write';
    const res = await runSessionHooks(this.deps.hooks, st.hookTarget, 'PreToolUse', { hook_event_name: 'PreToolUse', tool_name: tool, tool_input: { file_path: path, content } }, tool);
    if (res) {
      const d = res.outcome.decision;
      const refused = d === 'deny' || d === 'ask' || d === 'stop' || d === 'block';
      this.recordRun(st, res.run, refused ? 'refused the write' : null);
      if (refused) return { allow: false, message: `A PreToolUse hook refused this write${d === 'ask' ? ' (it asks for confirmation, which a direct file write cannot show)' : ''}: ${res.outcome.reason ?? 'no reason given'}` };
    }
    return { allow: true };
  }

  async afterWrite(ctx: HookContext, path: string, content: string, error: string | null): Promise<void> {
    const st = this.state(ctx);
    const tool = 'Write';
    const event: HookEvent = error ? 'PostToolUseFailure' : 'PostToolUse';
    const res = await runSessionHooks(
      this.deps.hooks,
      st.hookTarget,
      event,
      { hook_event_name: event, tool_name: tool, tool_input: { file_path: path, content }, ...(error ? { error } : { tool_response: { filePath: path, success: true } }) },
      tool,
    );
    if (res) this.absorbPostTool(st, res.outcome, res.run);
  }

  async beforeTerminal(ctx: HookContext, command: string, args: string[], cwd: string): Promise<HookVerdict> {
    const st = this.state(ctx);
    if (!st.isolation.claudeBridge) this.queueRules(st, [cwd], 'terminal');
    const line = [command, ...args].join(' ');
    const res = await runSessionHooks(this.deps.hooks, st.hookTarget, 'PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: line } }, 'Bash');
    if (res) {
      const d = res.outcome.decision;
      const refused = d === 'deny' || d === 'ask' || d === 'stop' || d === 'block';
      this.recordRun(st, res.run, refused ? 'refused the command' : null);
      if (refused) return { allow: false, message: `A PreToolUse hook refused this command: ${res.outcome.reason ?? 'no reason given'}` };
    }
    return { allow: true };
  }

  onToolCall(ctx: HookContext, update: acp.ToolCall | acp.ToolCallUpdate): void {
    const st = this.state(ctx);
    if (st.isolation.claudeBridge || typeof update.toolCallId !== 'string') return;
    const known = { ...(st.tools.get(update.toolCallId) ?? {}) };
    for (const [k, v] of Object.entries(update)) if (v !== undefined && v !== null) known[k] = v;
    st.tools.set(update.toolCallId, known);
    if (st.tools.size > 500) st.tools.delete(st.tools.keys().next().value as string);
    const paths = pathsOfToolCall(update);
    if (paths.length) this.queueRules(st, paths, 'tool');
    const status = update.status;
    if ((status === 'completed' || status === 'failed') && !st.posted.has(update.toolCallId)) {
      st.posted.add(update.toolCallId);
      const tool = claudeToolOf(known);
      const event: HookEvent = status === 'failed' ? 'PostToolUseFailure' : 'PostToolUse';
      void runSessionHooks(this.deps.hooks, st.hookTarget, event, { hook_event_name: event, tool_name: tool.name, tool_input: tool.input, tool_use_id: update.toolCallId, tool_response: known.rawOutput ?? null }, tool.name).then((res) => {
        if (res) this.absorbPostTool(st, res.outcome, res.run);
      });
    }
  }

  async onPermissionRequest(ctx: HookContext, request: acp.RequestPermissionRequest): Promise<string | null> {
    const st = this.state(ctx);
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
    const tool = claudeToolOf(known);
    if (!st.isolation.claudeBridge) {
      const paths = pathsOfToolCall(known);
      if (WRITE_KINDS.has(String(known.kind))) {
        const sel = this.select(st, paths, false);
        const reject = pick('reject_once', 'reject_always');
        if (sel && sel.files.length && reject) {
          // a permission answer cannot carry the rules: refuse, mark them loaded, send them with the next prompt
          this.markLoaded(st, sel.files, 'permission', ctx.session.capabilities?.embeddedContext ? 'embedded' : 'text', true, 'refused the write; the rules go with the next prompt');
          for (const f of sel.files) st.outbox.set(f.file.id, { rule: f, trigger: 'permission', recorded: true });
          return reject;
        }
      } else if (paths.length) {
        this.queueRules(st, paths, 'permission');
      }
      const pre = await runSessionHooks(this.deps.hooks, st.hookTarget, 'PreToolUse', { hook_event_name: 'PreToolUse', tool_name: tool.name, tool_input: tool.input, tool_use_id: tc.toolCallId ?? null }, tool.name);
      if (pre) {
        const d = pre.outcome.decision;
        const answer = d === 'deny' || d === 'stop' || d === 'block' ? pick('reject_once', 'reject_always') : d === 'allow' ? pick('allow_once') : null;
        this.recordRun(st, pre.run, answer ? (d === 'allow' ? 'allowed once' : 'refused the tool') : d === 'ask' ? 'asks the user' : null);
        if (answer) return answer;
      }
    }
    const perm = await runSessionHooks(this.deps.hooks, st.hookTarget, 'PermissionRequest', { hook_event_name: 'PermissionRequest', tool_name: tool.name, tool_input: tool.input }, tool.name);
    if (perm) {
      const d = perm.outcome.decision;
      const answer = d === 'deny' || d === 'stop' || d === 'block' ? pick('reject_once', 'reject_always') : d === 'allow' ? pick('allow_once') : null;
      this.recordRun(st, perm.run, answer ? (d === 'allow' ? 'allowed once' : 'refused the tool') : null);
      if (answer) return answer;
    }
    const title = typeof known.title === 'string' && known.title ? known.title : tool.name;
    void runSessionHooks(this.deps.hooks, st.hookTarget, 'Notification', { hook_event_name: 'Notification', notification_type: 'permission_prompt', message: `The agent needs your permission to use ${title}` }, null).then((res) => {
      if (res) this.recordRun(st, res.run, null);
    });
    return null;
  }

  afterTurn(ctx: HookContext, stopReason: string): void {
    const st = this.state(ctx);
    if (!['end_turn', 'max_tokens', 'max_turn_requests', 'refusal'].includes(stopReason)) return;
    void (async () => {
      const res = await runSessionHooks(this.deps.hooks, st.hookTarget, 'Stop', { hook_event_name: 'Stop', stop_hook_active: st.stopFollowups > 0 }, null);
      if (!res) return;
      const blocked = res.outcome.decision === 'block';
      if (!blocked) {
        this.recordRun(st, res.run, null);
        return;
      }
      if (st.stopFollowups >= MAX_STOP_FOLLOWUPS) {
        this.recordRun(st, res.run, `ignored: ${MAX_STOP_FOLLOWUPS} follow-up prompts in a row already`);
        this.notice(st, { severity: 'warning', code: 'hook_run', title: `A Stop hook blocked ${MAX_STOP_FOLLOWUPS} times in a row; Atrium stopped sending its reason as a follow-up prompt`, detail: res.outcome.reason });
        return;
      }
      st.stopFollowups += 1;
      this.recordRun(st, res.run, `sent the reason as follow-up prompt ${st.stopFollowups}/${MAX_STOP_FOLLOWUPS}`);
      try {
        const { promptId } = this.deps.sessions.prompt(st.sessionId, res.outcome.reason ?? 'A Stop hook asks you to continue.');
        st.followupPromptIds.add(promptId);
      } catch (error) {
        console.error('[atrium] queueing a Stop hook follow-up failed:', error);
      }
    })().catch((error) => console.error('[atrium] Stop hooks failed:', error));
  }

  async onAgentStopped(ctx: HookContext, reason: AgentStopReason): Promise<void> {
    const st = this.state(ctx);
    if (reason === 'idle') {
      const minutes = this.deps.sessions.idleMs() / 60_000;
      this.notice(st, { severity: 'info', code: 'idle_shutdown', title: `Stopped the idle agent after ${Number.isInteger(minutes) ? minutes : minutes.toFixed(2)} min; the next prompt resumes it`, detail: null });
      return;
    }
    if (reason === 'closed') {
      const res = await runSessionHooks(this.deps.hooks, st.hookTarget, 'SessionEnd', { hook_event_name: 'SessionEnd', reason: 'other' }, null);
      if (res) this.recordRun(st, res.run, null);
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
    const session = this.deps.sessions.show(sessionId);
    const st = this.states.get(sessionId);
    const row = st?.row ?? this.db.get(sessionId) ?? this.defaultRow(session);
    const snap = row.snapshot;
    const iso = isolationFor(session.agentId, this.deps.sessions.agents.preset(session.agentId));
    return {
      sessionId,
      snapshot: snap ? { takenAt: snap.takenAt, sourceDir: snap.sourceDir, fromDir: snap.fromDir, catalogSha256: snap.catalogSha256, trust: snap.trust } : null,
      staticRules: snap?.staticRules ?? null,
      contextualRules: row.loaded,
      hooks: { approved: snap?.hooks.approved ?? [], skipped: snap?.hooks.skipped ?? [], runs: row.hookRuns },
      mcp: { passed: snap?.mcp.passed.map((s) => s.name) ?? [], withheld: snap?.mcp.withheld ?? [] },
      execution: this.executionView(row.execution, true),
      surfaces: this.surfaces.list(sessionId),
      handover: this.handover.current(sessionId),
      mismatch: row.mismatch,
      agent: { agentId: iso.agentId, nativeRuleFormats: iso.nativeRuleFormats, ownBehaviour: iso.ownBehaviour, switches: iso.switches, isolated: iso.isolated },
      archivedAt: row.archivedAt,
    };
  }

  /** Execution folder or worktree with its live branch and dirty state. @throws AtriumError SESSION_NOT_FOUND */
  execution(sessionId: string): SessionPolicy['execution'] {
    const session = this.deps.sessions.show(sessionId);
    const row = this.states.get(sessionId)?.row ?? this.db.get(sessionId) ?? this.defaultRow(session);
    return this.executionView(row.execution);
  }

  /**
   * Resolves a fail-closed rule mismatch (issue 8): `continue` takes the current rules as the
   * session's (the new provenance and every changed file are recorded in the transcript; static
   * rules are sent again with the next prompt, changed contextual references are dropped so they
   * load again when triggered) and resumes; `new` starts a new session in the same place with the
   * same agent (and a new worktree for a worktree session) and closes this one.
   * @throws AtriumError SESSION_NOT_FOUND | INVALID_PARAMS (no mismatch to resolve)
   */
  async resolveMismatch(sessionId: string, action: 'continue' | 'new'): Promise<Session> {
    const session = this.deps.sessions.show(sessionId);
    const live = this.deps.sessions.load(sessionId);
    const ctx = live.hookContextForService();
    const st = this.state(ctx);
    if (!st.row.mismatch) throw new AtriumError('INVALID_PARAMS', 'This session has no rule mismatch to resolve.');
    if (action === 'new') {
      const worktree = st.row.execution.kind === 'worktree';
      const created = this.deps.sessions.create({
        workspaceId: session.workspaceId ?? undefined,
        cwd: worktree ? st.row.fromDir : session.cwd,
        agentId: session.agentId,
        title: session.title ?? undefined,
        worktree,
      });
      await this.deps.sessions.closeSession(sessionId).catch(() => undefined);
      return created;
    }
    const catalog = await this.currentCatalog(st);
    const current = safeStatic(catalog, st.row.fromDir);
    const mismatch = st.row.mismatch;
    const snap = st.row.snapshot!;
    const { sent, native } = this.splitNative(st, current.files);
    snap.staticRules = { provenanceSha256: current.provenanceSha256, files: refsOf(sent), native: refsOf(native), dropped: dropped(current), delivery: null, sentAt: null };
    snap.catalogSha256 = catalog?.catalogSha256 ?? snap.catalogSha256;
    const changedContextual = new Set(mismatch.changes.filter((c) => c.scope === 'contextual').map((c) => c.relativePath));
    st.row.loaded = st.row.loaded.filter((l) => !changedContextual.has(l.relativePath));
    st.row.mismatch = null;
    this.keepTexts(current.files);
    this.db.put(st.row);
    this.notice(st, {
      severity: 'warning',
      code: 'rules_accepted',
      title: `Continued with the current rules (provenance ${current.provenanceSha256.slice(0, 12)}…, was ${mismatch.recordedProvenanceSha256.slice(0, 12)}…)`,
      detail: mismatch.changes.map((c) => `${c.change} ${c.relativePath} (${c.scope})`).join('\n'),
      rules: refsOf(current.files),
    });
    st.catalog = null;
    st.snapshotReady = false;
    this.emit(sessionId, 'mismatch');
    return this.deps.sessions.resume(sessionId);
  }

  /**
   * Closes and archives a session; optionally removes its worktree, refusing to lose uncommitted
   * work unless `discardChanges` (WORKTREE_DIRTY lists the changes so the UI can ask first).
   * @throws AtriumError SESSION_NOT_FOUND | WORKTREE_DIRTY | WORKTREE_FAILED
   */
  async archive(sessionId: string, options: { removeWorktree?: boolean; discardChanges?: boolean }): Promise<{ session: Session; execution: SessionPolicy['execution'] }> {
    const session = this.deps.sessions.show(sessionId);
    const row = this.states.get(sessionId)?.row ?? this.db.get(sessionId) ?? this.defaultRow(session);
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
    this.db.put(row);
    this.emit(sessionId, 'archived');
    return { session: closed, execution: this.executionView(row.execution) };
  }

  /** Issues a handover code for a session. @throws AtriumError SESSION_NOT_FOUND */
  issueHandover(sessionId: string) {
    this.deps.sessions.show(sessionId);
    const code = this.handover.issue(sessionId);
    this.emit(sessionId, 'handover');
    return code;
  }

  /**
   * Redeems a handover code and attaches the caller as a surface.
   * @throws AtriumError HANDOVER_INVALID | HANDOVER_RATE_LIMITED | SESSION_NOT_FOUND
   */
  pickup(code: string, clientId: string, kind: 'app' | 'browser' | 'cli', label?: string) {
    const sessionId = this.handover.redeem(code, clientId);
    const session = this.deps.sessions.show(sessionId);
    const surface = this.surfaces.attach(sessionId, { kind, label, via: 'pickup' });
    this.emit(sessionId, 'surfaces');
    return { session: stripDetails(session), surface };
  }

  /** Attaches a surface that opened a session. @throws AtriumError SESSION_NOT_FOUND */
  attach(sessionId: string, surface: { surfaceId?: string; kind: 'app' | 'browser' | 'cli'; label?: string }) {
    this.deps.sessions.show(sessionId);
    const attached = this.surfaces.attach(sessionId, { ...surface, via: 'owner' });
    this.emit(sessionId, 'surfaces');
    return { surface: attached, surfaces: this.surfaces.list(sessionId) };
  }

  /** Detaches a surface. */
  detach(sessionId: string, surfaceId: string) {
    if (this.surfaces.detach(sessionId, surfaceId)) this.emit(sessionId, 'surfaces');
    return { surfaces: this.surfaces.list(sessionId) };
  }

  /** Stops the bridge. */
  async close(): Promise<void> {
    await this.bridge.close();
  }

  // ---------------------------------------------------------------------------------------------
  // Snapshot and provenance

  private async ensureSnapshot(st: PolicyState): Promise<void> {
    if (st.snapshotReady) return;
    if (!st.taking) {
      st.taking = this.takeSnapshot(st).finally(() => {
        st.taking = null;
      });
    }
    return st.taking;
  }

  private async takeSnapshot(st: PolicyState): Promise<void> {
    const now = new Date().toISOString();
    const catalog = await this.currentCatalog(st);
    const current = safeStatic(catalog, st.row.fromDir);
    const recorded = st.row.snapshot;
    if (recorded) {
      // a later process re-attaches: recompute and fail closed on any change (seed §6, §7 step 1)
      const mismatch = catalog
        ? checkProvenance(
            { provenanceSha256: recorded.staticRules.provenanceSha256, staticRefs: [...recorded.staticRules.files, ...recorded.staticRules.native], contextual: st.row.loaded },
            catalog,
            current,
            (sha) => this.db.ruleText(sha),
            now,
          )
        : null;
      if (mismatch) {
        const first = !st.row.mismatch;
        st.row.mismatch = mismatch;
        this.db.put(st.row);
        if (first) this.notice(st, { severity: 'error', code: 'rules_mismatch', title: 'The rules of this session changed: it does not continue until you choose', detail: mismatch.changes.map((c) => `${c.change} ${c.relativePath} (${c.scope})`).join('\n') });
        this.emit(st.sessionId, 'mismatch');
        throw new AtriumError('RULE_PROVENANCE_MISMATCH', mismatchMessage(mismatch));
      }
      if (st.row.mismatch) {
        st.row.mismatch = null;
        this.db.put(st.row);
        this.emit(st.sessionId, 'mismatch');
      }
      st.catalog = catalog;
      st.resources = st.pendingResources;
      const { sent } = this.splitNative(st, current.files);
      st.staticSent = sent;
      st.loaded = new Set([...current.files.map((f) => f.file.id), ...st.row.loaded.map((l) => l.id)]);
      st.hookTarget = this.hookTarget(st, recorded);
      const approved = await this.deps.hooks.approvedMcpServers({ path: st.execWorkspaceDir }).catch(() => [] as ApprovedMcpServer[]);
      const passedIds = new Map(recorded.mcp.passed.map((p) => [p.id, p.digest]));
      st.approvedMcp = approved.filter((s) => passedIds.get(s.id) === s.digest);
      st.snapshotReady = true;
      return;
    }
    // first start: take and record the snapshot
    const listing = await this.deps.hooks.list({ path: st.execWorkspaceDir }, { includeHeldBack: true }).catch((error) => {
      console.error('[atrium] listing hooks for a session snapshot failed:', error);
      return null;
    });
    const approvedMcp = await this.deps.hooks.approvedMcpServers({ path: st.execWorkspaceDir }).catch(() => [] as ApprovedMcpServer[]);
    const { sent, native } = this.splitNative(st, current.files);
    const hooks = listing?.hooks ?? [];
    const approvedHooks = hooks.filter((h) => h.state === 'approved' && h.runsOn !== null && h.supported && !h.heldBack);
    const skippedHooks = hooks.filter((h) => h.runsOn !== null && !approvedHooks.includes(h));
    const mcp = splitMcpServers(listing?.mcpServers ?? [], approvedMcp);
    const snapshot: SnapshotRecord = {
      takenAt: now,
      sourceDir: st.row.sourceDir,
      fromDir: st.row.fromDir,
      catalogSha256: catalog?.catalogSha256 ?? '',
      trust: catalog?.trust ?? 'restricted',
      staticRules: { provenanceSha256: current.provenanceSha256, files: refsOf(sent), native: refsOf(native), dropped: dropped(current), delivery: null, sentAt: null },
      hooks: {
        approved: approvedHooks.map((h) => ({ id: h.id, digest: h.digest, event: h.event, runsOn: h.runsOn, matcher: h.matcher, command: h.command, file: h.source.scope === 'user' ? `~/${h.source.file}` : h.source.file })),
        skipped: skippedHooks.map((h) => ({ id: h.id, event: h.event, state: h.state, heldBack: h.heldBack, command: h.command, file: h.source.scope === 'user' ? `~/${h.source.file}` : h.source.file })),
      },
      mcp: { passed: mcp.passed.map((s) => ({ id: s.id, name: s.name, digest: s.digest })), withheld: mcp.withheld },
    };
    st.row.snapshot = snapshot;
    this.keepTexts(current.files);
    this.db.put(st.row);
    st.catalog = catalog;
    st.resources = st.pendingResources;
    st.staticSent = sent;
    st.loaded = new Set(current.files.map((f) => f.file.id));
    st.hookTarget = this.hookTarget(st, snapshot);
    st.approvedMcp = mcp.passed;
    st.snapshotReady = true;
    if (native.length) {
      this.notice(st, { severity: 'info', code: 'rules_native', title: `The agent loads ${native.length} rule file${native.length === 1 ? '' : 's'} itself: ${native.map((n) => n.file.relativePath).join(', ')}`, detail: 'Atrium does not send them again.', rules: refsOf(native) });
    }
    const notApproved = snapshot.hooks.skipped.filter((h) => h.state === 'unapproved' || h.state === 'modified' || h.heldBack);
    if (notApproved.length) {
      this.notice(st, {
        severity: 'warning',
        code: 'hooks_skipped',
        title: `${notApproved.length} hook${notApproved.length === 1 ? '' : 's'} skipped: not approved`,
        detail: notApproved.map((h) => `${h.event} ${h.file}${h.command ? `: ${h.command}` : ''} (${h.heldBack ? 'restricted' : h.state})`).slice(0, 20).join('\n'),
        link: { tab: 'hooks', ids: notApproved.map((h) => h.id) },
      });
    }
    if (mcp.withheld.length) {
      this.notice(st, {
        severity: 'warning',
        code: 'mcp_withheld',
        title: `${mcp.withheld.length} MCP server${mcp.withheld.length === 1 ? '' : 's'} withheld: ${mcp.withheld.map((s) => s.name).join(', ')}`,
        detail: mcp.withheld.map((s) => `${s.name}: ${s.reason}`).join('\n'),
        link: { tab: 'hooks', ids: mcp.withheld.map((s) => s.id) },
      });
    }
    this.emit(st.sessionId, 'snapshot');
  }

  /**
   * A fresh immutable snapshot of the source project's resource bundle (kept as the session's
   * candidate snapshot in `st.pendingResources`); returns its rule catalog, or null when the
   * resources are unavailable (logged).
   */
  private async currentCatalog(st: PolicyState): Promise<RuleCatalog | null> {
    try {
      const bundle = await this.deps.resources.resolve(st.row.sourceDir);
      const snapshot = this.deps.resources.snapshot(bundle);
      st.pendingResources = snapshot;
      return snapshot.rules;
    } catch (error) {
      console.error(`[atrium] session ${st.sessionId}: rules of ${st.row.sourceDir} are unavailable:`, error);
      st.pendingResources = null;
      return null;
    }
  }

  /**
   * The immutable resource snapshot a live session was given (seed §1.3: rules, and every other
   * member of the bundle, e.g. skills and commands), or null before its agent first started in
   * this process. Later trust, plugin or disk changes never alter it.
   */
  snapshotOf(sessionId: string): WorkspaceResourcesSnapshot | null {
    return this.states.get(sessionId)?.resources ?? null;
  }

  private splitNative(st: PolicyState, files: readonly SelectedRule[]): { sent: SelectedRule[]; native: SelectedRule[] } {
    const native = new Set<string>(st.isolation.nativeRuleFormats);
    return { sent: files.filter((f) => !native.has(f.file.format)), native: files.filter((f) => native.has(f.file.format)) };
  }

  private hookTarget(st: PolicyState, snapshot: SnapshotRecord): SessionHookTarget {
    return {
      path: st.execWorkspaceDir,
      sessionId: st.sessionId,
      only: new Map(snapshot.hooks.approved.map((h) => [h.id, h.digest])),
      events: new Set(snapshot.hooks.approved.map((h) => h.runsOn).filter((e): e is HookEvent => e !== null)),
    };
  }

  private keepTexts(files: readonly SelectedRule[]): void {
    this.db.keepRuleTexts(files.filter((f) => f.file.sha256 && f.file.content !== null).map((f) => ({ sha256: f.file.sha256!, content: f.file.content! })));
  }

  // ---------------------------------------------------------------------------------------------
  // Contextual rules

  /** New contextual rules for touched paths (mapped to the source project); `withOutbox` also skips rules waiting for the next prompt. */
  private select(st: PolicyState, paths: readonly unknown[], withOutbox: boolean): RuleSelection | null {
    if (!st.catalog || !paths.length) return null;
    const mapped = toSourcePaths(paths, st.mapping);
    if (!mapped.length) return null;
    const loaded = withOutbox ? new Set([...st.loaded, ...st.outbox.keys()]) : st.loaded;
    try {
      return st.catalog.contextualRules(st.row.fromDir, mapped, loaded);
    } catch (error) {
      console.error('[atrium] contextual rule lookup failed:', error);
      return null;
    }
  }

  /** Queues rules triggered by a read/terminal/tool call/permission for the next prompt. */
  private queueRules(st: PolicyState, paths: readonly unknown[], trigger: RuleTrigger): void {
    const sel = this.select(st, paths, true);
    if (!sel) return;
    for (const f of sel.files) st.outbox.set(f.file.id, { rule: f, trigger, recorded: false });
  }

  /** Records rules as loaded (references and trigger paths only) with a compact transcript entry. */
  private markLoaded(st: PolicyState, files: readonly SelectedRule[], trigger: RuleTrigger, delivery: RuleDelivery, blockedWrite: boolean, what: string): void {
    const now = new Date().toISOString();
    const refs = refsOf(files);
    for (const f of files) {
      st.loaded.add(f.file.id);
      st.outbox.delete(f.file.id);
    }
    const byId = new Map(files.map((f) => [f.file.id, f]));
    for (const ref of refs) {
      const f = byId.get(ref.id)!;
      const entry: LoadedContextualRule = { ...ref, triggerPaths: f.triggerPath ? [f.triggerPath] : [], trigger, blockedWrite, delivery, loadedAt: now };
      st.row.loaded = [...st.row.loaded.filter((l) => l.id !== ref.id), entry];
    }
    this.keepTexts(files);
    this.save(st, 'rules');
    const triggers = [...new Set(files.map((f) => f.triggerPath).filter((t): t is string => Boolean(t)))].sort();
    this.notice(st, {
      severity: blockedWrite ? 'warning' : 'info',
      code: 'rules_loaded',
      title: `Contextual rules loaded (${files.length} file${files.length === 1 ? '' : 's'}): ${what}`,
      detail: null,
      rules: refs,
      triggerPaths: triggers,
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Claude bridge (acp.md §7)

  private async bridgeCall(st: PolicyState, event: string, input: Record<string, unknown>): Promise<BridgeAnswer> {
    const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
    const toolInput = input.tool_input && typeof input.tool_input === 'object' && !Array.isArray(input.tool_input) ? (input.tool_input as Record<string, unknown>) : {};
    const json = (o: unknown): BridgeAnswer => ({ stdout: JSON.stringify(o), stderr: '', exitCode: 0 });
    await this.ensureSnapshot(st).catch(() => undefined);
    if (event === 'PreToolUse') {
      if (WRITE_TOOLS.has(tool)) {
        const sel = this.select(st, pathsOfInput(toolInput), false);
        if (sel && sel.files.length) {
          this.markLoaded(st, sel.files, 'write', 'claude-hook', true, `refused the first ${tool}`);
          return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: barrierMessage(sel.files, sel.triggerPaths) } });
        }
      }
      const res = await runSessionHooks(this.deps.hooks, st.hookTarget, 'PreToolUse', { ...input, hook_event_name: 'PreToolUse' }, tool || null);
      if (!res) return { stdout: '', stderr: '', exitCode: 0 };
      const d = res.outcome.decision;
      const decision = d === 'deny' || d === 'stop' || d === 'block' ? 'deny' : d === 'ask' || d === 'defer' ? 'ask' : d === 'allow' ? 'allow' : null;
      this.recordRun(st, res.run, decision === 'deny' ? `refused ${tool}` : decision === 'ask' ? 'asks the user' : decision === 'allow' ? `allowed ${tool}` : null);
      if (!decision) return { stdout: '', stderr: '', exitCode: 0 };
      return json({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: decision,
          permissionDecisionReason: res.outcome.reason ?? `${decision} by an approved PreToolUse hook`,
          ...(res.outcome.updatedInput ? { updatedInput: res.outcome.updatedInput } : {}),
        },
      });
    }
    if (event === 'PostToolUse' || event === 'PostToolUseFailure') {
      const contexts: string[] = [];
      if (event === 'PostToolUse' && READ_TOOLS.has(tool)) {
        const sel = this.select(st, pathsOfInput(toolInput), false);
        if (sel && sel.files.length) {
          this.markLoaded(st, sel.files, 'read', 'claude-hook', false, `after ${tool}`);
          contexts.push(sel.content);
        }
      }
      const res = await runSessionHooks(this.deps.hooks, st.hookTarget, event, { ...input, hook_event_name: event }, tool || null);
      let block: string | null = null;
      if (res) {
        if (res.outcome.additionalContext) contexts.push(res.outcome.additionalContext);
        if (res.outcome.decision === 'block') block = res.outcome.reason ?? 'blocked by an approved hook';
        this.recordRun(st, res.run, block ? 'sent the reason to the agent' : null);
      }
      if (!contexts.length && !block) return { stdout: '', stderr: '', exitCode: 0 };
      return json({
        ...(block ? { decision: 'block', reason: block } : {}),
        hookSpecificOutput: { hookEventName: event, ...(contexts.length ? { additionalContext: contexts.join('\n\n') } : {}) },
      });
    }
    return { stdout: '', stderr: '', exitCode: 0 };
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private absorbPostTool(st: PolicyState, outcome: { decision: string; reason: string | null; additionalContext: string | null }, run: SessionHookRun): void {
    const parts: string[] = [];
    if (outcome.additionalContext) parts.push(outcome.additionalContext);
    if (outcome.decision === 'block' && outcome.reason) parts.push(outcome.reason);
    if (parts.length) st.contexts.push(...parts);
    this.recordRun(st, run, parts.length ? 'context goes into the next prompt' : null);
  }

  private recordRun(st: PolicyState, run: SessionHookRun, effect: string | null): void {
    const entry = { ...run, effect };
    st.row.hookRuns = [...st.row.hookRuns, entry].slice(-200);
    this.save(st, 'hooks');
    if (run.decision !== 'none' || effect) {
      const who = run.results.filter((r) => r.decision !== 'none').map((r) => r.id);
      this.notice(st, {
        severity: run.decision === 'deny' || run.decision === 'block' || run.decision === 'stop' ? 'warning' : 'info',
        code: 'hook_run',
        title: `${run.event}${run.tool ? ` (${run.tool})` : ''} hook: ${run.decision}${effect ? ` — ${effect}` : ''}`,
        detail: run.reason,
        link: { tab: 'hooks', ids: who.length ? who : run.results.map((r) => r.id) },
      });
    }
  }

  private notice(st: PolicyState, data: PolicyNoticeData): void {
    if (st.append) st.append({ kind: 'policy_notice', data });
    else {
      try {
        this.deps.sessions.load(st.sessionId).append({ kind: 'policy_notice', data });
      } catch (error) {
        console.error('[atrium] recording a policy notice failed:', error);
      }
    }
  }

  private save(st: PolicyState, reason: string): void {
    try {
      this.db.put(st.row);
    } catch (error) {
      console.error('[atrium] saving session policy failed:', error);
    }
    this.emit(st.sessionId, reason);
  }

  private emit(sessionId: string, reason: string): void {
    this.deps.bus.emit('sessionPolicyChanged', { sessionId, reason });
  }

  private state(ctx: HookContext): PolicyState {
    const r = ctx.session;
    let st = this.states.get(r.id);
    if (!st) {
      const row = this.db.get(r.id) ?? this.defaultRow(r);
      if (!this.db.get(r.id)) this.db.put(row);
      const mapping: PathMapping = { cwd: row.execution.dir, execRoot: row.execution.execRoot, sourceRoot: row.execution.sourceRoot };
      const execWorkspaceDir = toExecutionPath(row.sourceDir, mapping);
      const snapshotHooks = row.snapshot;
      st = {
        sessionId: r.id,
        row,
        mapping,
        execWorkspaceDir,
        isolation: isolationFor(r.agentId, this.deps.sessions.agents.preset(r.agentId)),
        catalog: null,
        resources: null,
        pendingResources: null,
        snapshotReady: false,
        taking: null,
        staticSent: [],
        loaded: new Set(),
        outbox: new Map(),
        contexts: [],
        hookTarget: { path: execWorkspaceDir, sessionId: r.id, only: new Map(), events: new Set() },
        approvedMcp: [],
        bridge: null,
        stopFollowups: 0,
        followupPromptIds: new Set(),
        tools: new Map(),
        posted: new Set(),
        append: null,
      };
      if (snapshotHooks) st.hookTarget = this.hookTarget(st, snapshotHooks);
      this.states.set(r.id, st);
    }
    st.append = ctx.append;
    return st;
  }

  private defaultRow(r: { id: string; cwd: string; workspaceId: string | null }): PolicyRow {
    let sourceDir = r.cwd;
    if (r.workspaceId) {
      try {
        sourceDir = this.deps.workspaces.get(r.workspaceId).path;
      } catch {
        sourceDir = r.cwd;
      }
    }
    sourceDir = realpathOrSelf(sourceDir);
    return { sessionId: r.id, sourceDir, fromDir: r.cwd, execution: this.folderExecution(r.cwd, sourceDir, new Date().toISOString()), snapshot: null, loaded: [], hookRuns: [], mismatch: null, archivedAt: null };
  }

  private folderExecution(cwd: string, sourceDir: string, now: string): ExecutionRecord {
    let root = sourceDir;
    try {
      root = findCatalogRoot(sourceDir);
    } catch {
      root = sourceDir;
    }
    return { kind: 'folder', dir: cwd, sourceDir, execRoot: root, sourceRoot: root, branch: null, baseCommit: null, createdAt: now, removedAt: null };
  }

  /** Execution facts with git's branch and dirty state (`cached`: reused for 2 s, the session view polls it on every change). */
  private executionView(e: ExecutionRecord, cached = false): SessionPolicy['execution'] {
    const hit = cached ? this.statusCache.get(e.dir) : undefined;
    let status: CheckoutStatus;
    if (e.removedAt) status = { branch: null, dirty: null, changes: [] };
    else if (hit && Date.now() - hit.at < STATUS_CACHE_MS) status = hit.status;
    else {
      status = checkoutStatus(e.dir);
      this.statusCache.set(e.dir, { at: Date.now(), status });
      if (this.statusCache.size > 200) this.statusCache.delete(this.statusCache.keys().next().value as string);
    }
    return { kind: e.kind, dir: e.dir, sourceDir: e.sourceDir, branch: e.kind === 'worktree' ? e.branch : status.branch, baseCommit: e.baseCommit, dirty: status.dirty, changes: status.changes, removedAt: e.removedAt };
  }
}

function safeStatic(catalog: RuleCatalog | null, fromDir: string): RuleSelection {
  const empty: RuleSelection = { content: '', files: [], references: [], triggerPaths: [], contentBytes: 0, bodyBytes: 0, maxBytes: null, provenanceSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', dropped: [] };
  if (!catalog) return empty;
  try {
    return catalog.staticRules(fromDir);
  } catch {
    return empty;
  }
}

function dropped(sel: RuleSelection): Array<{ relativePath: string; reason: string }> {
  return sel.dropped.map((d) => ({ relativePath: d.file.relativePath, reason: d.detail || d.reason }));
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

