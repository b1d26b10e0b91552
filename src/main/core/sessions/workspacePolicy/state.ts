import type { SessionHookRun } from '../../../../shared/contract';
import type { EventBus } from '../../events/bus';
import type { ApprovedMcpServer, HookService } from '../../hooks/service';
import type { WorkspaceResourcesCache } from '../../resources/cache';
import type { WorkspaceResourcesSnapshot } from '../../resources/types';
import type { RuleCatalog } from '../../rules/catalog';
import { findCatalogRoot, realpathOrSelf } from '../../rules/paths';
import type { SelectedRule } from '../../rules/types';
import type { Store } from '../../store/database';
import type { WorkspaceService } from '../../workspaces/service';
import type { PolicyNoticeData } from '../events';
import type { HookContext } from '../hooks';
import type { SessionService } from '../service';
import { isolationFor, type AgentIsolation } from './agentIsolation';
import type { HandoverOptions } from './handover';
import { toExecutionPath, type PathMapping } from './pathMapping';
import type { SessionHookTarget } from './sessionHooks';
import { MAX_HOOK_RUNS, nothingOwed, PolicyStore, type ExecutionRecord, type PolicyRow, type SnapshotRecord } from './store';

/** Dependencies of the workspace policy: the engine's services. */
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

/** A live session's policy state (in memory; the durable part is its {@link PolicyRow}). */
export interface PolicyState {
  sessionId: string;
  row: PolicyRow;
  mapping: PathMapping;
  /** The workspace folder in the execution tree: hooks' cwd and hook-listing folder. */
  execWorkspaceDir: string;
  isolation: AgentIsolation;
  /** The immutable rule catalog of the snapshot (null until taken in this process, or when rules were unavailable). */
  catalog: RuleCatalog | null;
  /** The whole immutable resource snapshot (rules and every other member), or null. */
  resources: WorkspaceResourcesSnapshot | null;
  /** The bundle snapshot read from disk by the last take or check (becomes `resources` once accepted). */
  pendingResources: WorkspaceResourcesSnapshot | null;
  /** True while the snapshot is taken or verified for the running (or next) agent process. */
  snapshotReady: boolean;
  taking: Promise<void> | null;
  staticSent: SelectedRule[];
  /** Rule ids the agent has (static, native, contextual loaded). */
  loaded: Set<string>;
  hookTarget: SessionHookTarget;
  /** The snapshot's MCP servers with their full definitions (null until resolved in this process). */
  mcp: ApprovedMcpServer[] | null;
  bridge: { token: string; env: Record<string, string>; hooks: Record<string, unknown> } | null;
  stopFollowups: number;
  followupPromptIds: Set<string>;
  /** Last known fields of tool calls (PostToolUse needs kind/input when only the status changes). */
  tools: Map<string, Record<string, unknown>>;
  posted: Set<string>;
  /**
   * Hooks already reported "skipped: modified since approval" (until they run again). Rebuilt from
   * the stored hook runs when a process loads the session, so each CLI command does not report
   * them again.
   */
  reportedModified: Set<string>;
  append: ((event: { kind: 'policy_notice'; data: PolicyNoticeData }) => void) | null;
}

/**
 * What every part of the workspace policy shares: the engine's services, the durable store, the
 * live states by session id, and the small effects every part needs (transcript notices, saving
 * the row, pushing `sessionPolicyChanged`). Never throws from its effects (they are logged).
 */
export class PolicyCore {
  readonly db: PolicyStore;
  readonly states = new Map<string, PolicyState>();
  private readonly background = new Set<Promise<unknown>>();
  /** The same work by session, for {@link settleSession}. */
  private readonly bySession = new Map<string, Set<Promise<unknown>>>();
  /** Aborted when the engine closes and hooks still run after the grace period (see `WorkspacePolicy.close`). */
  readonly closing = new AbortController();
  /** Hook runs recorded per session in this process (for {@link runsSince}): a counter and the recent runs. */
  private readonly recorded = new Map<string, { count: number; recent: Array<{ n: number; run: SessionHookRun }>; followups: Array<{ n: number; promptId: string }> }>();

  constructor(readonly deps: WorkspacePolicyDeps) {
    this.db = new PolicyStore(deps.store);
  }

  /**
   * Keeps track of work nobody awaits (Stop, PostToolUse and Notification hooks, the creation
   * snapshot) so {@link settle} can wait for it: a process that closes its database right after a
   * turn (the CLI) would otherwise lose the hook runs and policy rows that work records.
   * A rejection is logged with `what`, never thrown.
   */
  track(task: Promise<unknown>, what: string, sessionId?: string): void {
    const mine = sessionId === undefined ? null : (this.bySession.get(sessionId) ?? new Set<Promise<unknown>>());
    if (mine && sessionId !== undefined) this.bySession.set(sessionId, mine);
    const tracked: Promise<unknown> = task
      .catch((error) => console.error(`[atrium] ${what} failed:`, error))
      .finally(() => {
        this.background.delete(tracked);
        mine?.delete(tracked);
        if (mine && !mine.size && sessionId !== undefined && this.bySession.get(sessionId) === mine) this.bySession.delete(sessionId);
      });
    this.background.add(tracked);
    mine?.add(tracked);
  }

  /** Resolves when every tracked task has ended (including tasks they started meanwhile). Never rejects. */
  async settle(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  /**
   * Resolves when the tracked work of one session has ended (its Stop, PostToolUse, Notification
   * and `async` hooks, including work they started meanwhile); each hook is bounded by its own
   * timeout. Never rejects.
   */
  async settleSession(sessionId: string): Promise<void> {
    for (let mine = this.bySession.get(sessionId); mine?.size; mine = this.bySession.get(sessionId)) await Promise.all([...mine]);
  }

  /** Notes a hook run recorded on a session (see {@link runsSince}). */
  noteRun(sessionId: string, run: SessionHookRun): void {
    const r = this.recordedOf(sessionId);
    r.count += 1;
    r.recent = [...r.recent, { n: r.count, run }].slice(-MAX_HOOK_RUNS);
  }

  /** Notes a follow-up prompt a Stop hook queued (see {@link followupsSince}). */
  noteFollowup(sessionId: string, promptId: string): void {
    const r = this.recordedOf(sessionId);
    r.followups = [...r.followups, { n: r.count, promptId }].slice(-MAX_HOOK_RUNS);
  }

  /** The follow-up prompts Stop hooks queued on a session after `mark` (a {@link runMark}). */
  followupsSince(sessionId: string, mark: number): string[] {
    return (this.recorded.get(sessionId)?.followups ?? []).filter((f) => f.n > mark).map((f) => f.promptId);
  }

  private recordedOf(sessionId: string) {
    let r = this.recorded.get(sessionId);
    if (!r) this.recorded.set(sessionId, (r = { count: 0, recent: [], followups: [] }));
    return r;
  }

  /** How many hook runs this process recorded on a session so far (a mark for {@link runsSince}). */
  runMark(sessionId: string): number {
    return this.recorded.get(sessionId)?.count ?? 0;
  }

  /** The hook runs this process recorded on a session after `mark` (at most the last 200), oldest first. */
  runsSince(sessionId: string, mark: number): SessionHookRun[] {
    return (this.recorded.get(sessionId)?.recent ?? []).filter((r) => r.n > mark).map((r) => r.run);
  }

  /** The live state of a session, created from its stored row (or defaults) on first use. */
  state(ctx: HookContext): PolicyState {
    const r = ctx.session;
    let st = this.states.get(r.id);
    if (!st) {
      const stored = this.db.get(r.id);
      const row = stored ?? this.defaultRow(r);
      if (!stored) this.db.put(row);
      const mapping: PathMapping = { cwd: row.execution.dir, execRoot: row.execution.execRoot, sourceRoot: row.execution.sourceRoot };
      const execWorkspaceDir = toExecutionPath(row.sourceDir, mapping);
      st = {
        sessionId: r.id,
        row,
        mapping,
        execWorkspaceDir,
        isolation: isolationFor(r.agentId, this.deps.sessions.agents.knownAgent(r.agentId), this.deps.sessions.agents.nameOf(r.agentId)),
        catalog: null,
        resources: null,
        pendingResources: null,
        snapshotReady: false,
        taking: null,
        staticSent: [],
        loaded: new Set(),
        hookTarget: { path: execWorkspaceDir, sessionId: r.id, only: new Map(), events: new Set() },
        mcp: null,
        bridge: null,
        stopFollowups: 0,
        followupPromptIds: new Set(),
        tools: new Map(),
        posted: new Set(),
        reportedModified: reportedModifiedOf(row.hookRuns),
        append: null,
      };
      if (row.snapshot) st.hookTarget = hookTargetOf(st, row.snapshot);
      this.states.set(r.id, st);
    }
    st.append = ctx.append;
    return st;
  }

  /**
   * Takes the stored row as the session's (when there is one): another process (a CLI command,
   * `atrium serve`, the app) may have run the session and changed what it loaded, owes and ran
   * since this process last hosted it. Call when this process starts hosting the agent.
   */
  reload(st: PolicyState): void {
    const stored = this.db.get(st.sessionId);
    if (!stored) return;
    st.row = stored;
    st.reportedModified = reportedModifiedOf(stored.hookRuns);
  }

  /** The row of a session: live, stored, or defaults for a session that never had one. */
  rowOf(session: { id: string; cwd: string; workspaceId: string | null }): PolicyRow {
    return this.states.get(session.id)?.row ?? this.db.get(session.id) ?? this.defaultRow(session);
  }

  /** Defaults for a session created before the policy existed: it runs in its folder. */
  defaultRow(r: { id: string; cwd: string; workspaceId: string | null }): PolicyRow {
    let sourceDir = r.cwd;
    if (r.workspaceId) {
      try {
        sourceDir = this.deps.workspaces.get(r.workspaceId).path;
      } catch {
        sourceDir = r.cwd;
      }
    }
    sourceDir = realpathOrSelf(sourceDir);
    return { sessionId: r.id, sourceDir, fromDir: r.cwd, execution: folderExecution(r.cwd, sourceDir, new Date().toISOString()), snapshot: null, loaded: [], owed: nothingOwed(), hookRuns: [], mismatch: null, archivedAt: null };
  }

  /** Appends a policy notice to the session's transcript (through the live journal when attached). */
  notice(st: PolicyState, data: PolicyNoticeData): void {
    if (st.append) st.append({ kind: 'policy_notice', data });
    else {
      try {
        this.deps.sessions.loadForWrite(st.sessionId).append({ kind: 'policy_notice', data });
      } catch (error) {
        console.error('[atrium] recording a policy notice failed:', error);
      }
    }
  }

  /** Stores the row and pushes `sessionPolicyChanged` with `reason`. */
  save(st: PolicyState, reason: string): void {
    try {
      this.db.put(st.row);
    } catch (error) {
      console.error('[atrium] saving session policy failed:', error);
    }
    this.emit(st.sessionId, reason);
  }

  /** Pushes `sessionPolicyChanged`. */
  emit(sessionId: string, reason: string): void {
    this.deps.bus.emit('sessionPolicyChanged', { sessionId, reason });
  }

  /** Keeps the texts of rule files by digest (for mismatch diffs). */
  keepTexts(files: readonly SelectedRule[]): void {
    this.db.keepRuleTexts(files.filter((f) => f.file.sha256 && f.file.content !== null).map((f) => ({ sha256: f.file.sha256!, content: f.file.content! })));
  }
}

/** Where hooks of a session's snapshot run, and which (id → approved digest). */
export function hookTargetOf(st: Pick<PolicyState, 'execWorkspaceDir' | 'sessionId'>, snapshot: SnapshotRecord): SessionHookTarget {
  return {
    path: st.execWorkspaceDir,
    sessionId: st.sessionId,
    only: new Map(snapshot.hooks.approved.map((h) => [h.id, h.digest])),
    events: new Set(snapshot.hooks.approved.map((h) => h.runsOn).filter((e): e is NonNullable<typeof e> => e !== null)),
  };
}

/** A session that runs in its workspace folder: execution and source trees are the same (the catalog root). */
export function folderExecution(cwd: string, sourceDir: string, now: string): ExecutionRecord {
  let root = sourceDir;
  try {
    root = findCatalogRoot(sourceDir);
  } catch {
    root = sourceDir;
  }
  return { kind: 'folder', dir: cwd, sourceDir, execRoot: root, sourceRoot: root, branch: null, baseCommit: null, createdAt: now, removedAt: null };
}

/**
 * The hooks whose latest recorded run was skipped as modified since approval: every such skip is
 * reported when it is recorded (see `recordRun`), so these were reported already, by this process
 * or an earlier one, and stay quiet until they run again.
 */
export function reportedModifiedOf(runs: ReadonlyArray<{ results: ReadonlyArray<{ id: string; skipped: string | null }> }>): Set<string> {
  const reported = new Set<string>();
  for (const run of runs) {
    for (const r of run.results) {
      if (r.skipped === null) reported.delete(r.id);
      else if (r.skipped === 'modified') reported.add(r.id);
    }
  }
  return reported;
}
