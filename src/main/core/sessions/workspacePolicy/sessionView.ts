import type { Session, SessionPolicy } from '../../../../shared/contract';
import { behaviourOf, isolationFor } from './agentIsolation';
import type { HandoverRegistry, SurfaceRegistry } from './handover';
import type { PolicyCore } from './state';
import type { ExecutionRecord } from './store';
import { checkoutStatus, type CheckoutStatus } from './worktree';

/** How long the session view reuses a git status (ms). */
const STATUS_CACHE_MS = 2000;
/** Most execution folders whose status is cached. */
const STATUS_CACHE_SIZE = 200;

/** Git branch and dirty state of execution folders, briefly cached (the session view polls on every change). */
export class ExecutionStatus {
  private readonly cache = new Map<string, { at: number; status: CheckoutStatus }>();

  /** Execution facts with git's branch and dirty state (`cached`: reused for 2 s). Never throws. */
  view(e: ExecutionRecord, cached = false): SessionPolicy['execution'] {
    const hit = cached ? this.cache.get(e.dir) : undefined;
    let status: CheckoutStatus;
    if (e.removedAt) status = { branch: null, dirty: null, changes: [] };
    else if (hit && Date.now() - hit.at < STATUS_CACHE_MS) status = hit.status;
    else {
      status = checkoutStatus(e.dir);
      this.cache.set(e.dir, { at: Date.now(), status });
      if (this.cache.size > STATUS_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    }
    return { kind: e.kind, dir: e.dir, sourceDir: e.sourceDir, branch: e.kind === 'worktree' ? e.branch : status.branch, baseCommit: e.baseCommit, dirty: status.dirty, changes: status.changes, removedAt: e.removedAt };
  }
}

/**
 * The session view's policy (contract `SessionPolicy`): the snapshot's rules (static and loaded
 * contextual), hooks (approved, skipped, runs), passed and withheld MCP servers, execution
 * folder/branch/dirty state, attached surfaces, whether a handover code is live (never the code:
 * every token holder may read this view), the rule mismatch and what the agent loads by itself.
 */
export function policyView(core: PolicyCore, session: Session, status: ExecutionStatus, surfaces: SurfaceRegistry, handover: HandoverRegistry): SessionPolicy {
  const row = core.rowOf(session);
  const snap = row.snapshot;
  const iso = isolationFor(session.agentId, core.deps.sessions.agents.knownAgent(session.agentId), core.deps.sessions.agents.nameOf(session.agentId));
  return {
    sessionId: session.id,
    snapshot: snap ? { takenAt: snap.takenAt, sourceDir: snap.sourceDir, fromDir: snap.fromDir, catalogSha256: snap.catalogSha256, trust: snap.trust } : null,
    staticRules: snap?.staticRules ?? null,
    contextualRules: row.loaded,
    hooks: { approved: snap?.hooks.approved ?? [], skipped: snap?.hooks.skipped ?? [], runs: row.hookRuns },
    mcp: { passed: snap?.mcp.passed.map((s) => s.name) ?? [], withheld: snap?.mcp.withheld ?? [] },
    execution: status.view(row.execution, true),
    surfaces: surfaces.list(session.id),
    handover: handover.current(session.id),
    mismatch: row.mismatch,
    agent: behaviourOf(iso),
    archivedAt: row.archivedAt,
  };
}
