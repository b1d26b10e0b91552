import type { PermissionGrant, PermissionItem, SessionState } from '../../../shared/contract';
import type { Store } from '../store/database';

interface GrantRow {
  session_id: string;
  workspace_id: string | null;
  cwd: string;
  agent_id: string;
  title: string | null;
  state: string;
  item: number;
  data: string;
}

/** States in which an agent process runs for the session (the others have none: paused, failed, interrupted, closed). */
const AGENT_RUNNING = new Set<string>(['starting', 'idle', 'busy', 'awaiting_permission']);

/** Who may have chosen an "Always allow" (a cancel, shutdown or "nobody" never selects an option). */
const CHOOSERS = new Set(['user', 'hook', 'policy']);

/**
 * Every "Always allow" answer recorded in the stored transcripts: permission items (`session_items`
 * of kind `permission`, as the projector writes them from `permission_answered`) whose selected
 * option has kind `allow_always`, newest answer first, at most `limit` (default 500), optionally of
 * one workspace. A malformed stored item is skipped, never thrown. Reads only stored rows: an
 * answer given in the last batching interval (`batchMs`) appears once its batch is flushed.
 */
export function permissionGrants(store: Store, filter: { workspaceId?: string; limit?: number } = {}): PermissionGrant[] {
  const where = filter.workspaceId ? 'AND s.workspace_id = ?' : '';
  // the kind filter on the JSON text is only a cheap pre-filter; each row is checked parsed below
  const rows = store.db
    .prepare(
      `SELECT s.id AS session_id, s.workspace_id, s.cwd, s.agent_id, s.title, s.state, i.item, i.data
         FROM session_items i JOIN sessions s ON s.id = i.session_id
        WHERE i.kind = 'permission' AND i.status = 'selected' AND i.data LIKE '%allow_always%' ${where}`,
    )
    .all(...(filter.workspaceId ? [filter.workspaceId] : [])) as GrantRow[];
  const grants: PermissionGrant[] = [];
  for (const row of rows) {
    let item: PermissionItem;
    try {
      item = JSON.parse(row.data) as PermissionItem;
    } catch {
      continue;
    }
    // a cancel, shutdown or "nobody" never selects an option; an item that does not record who answered is still a grant
    if (item.kind !== 'permission' || item.state !== 'selected' || (item.answeredBy && !CHOOSERS.has(item.answeredBy))) continue;
    const option = Array.isArray(item.options) ? item.options.find((o) => o.optionId === item.optionId) : undefined;
    if (option?.kind !== 'allow_always') continue;
    grants.push({
      sessionId: row.session_id,
      sessionTitle: row.title,
      workspaceId: row.workspace_id,
      cwd: row.cwd,
      agentId: row.agent_id,
      sessionState: row.state as SessionState,
      agentRunning: AGENT_RUNNING.has(row.state),
      itemId: row.item,
      title: typeof item.title === 'string' ? item.title : 'Permission',
      toolKind: item.toolKind ?? 'other',
      paths: Array.isArray(item.locations) ? item.locations.map((l) => l.path).filter((p): p is string => typeof p === 'string') : [],
      optionName: option.name,
      answeredBy: (item.answeredBy ?? null) as PermissionGrant['answeredBy'],
      answeredAt: item.updatedAt,
    });
  }
  grants.sort((a, b) => (a.answeredAt < b.answeredAt ? 1 : a.answeredAt > b.answeredAt ? -1 : 0));
  return grants.slice(0, filter.limit ?? 500);
}
