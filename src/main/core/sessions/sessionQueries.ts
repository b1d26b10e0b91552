/**
 * The read side of the session runtime: lists, one session's details and transcript pages, read
 * from the stored projections (a loaded session's live facts and unflushed updates win), and
 * marking sessions that were active when Atrium last stopped as interrupted.
 */
import type { PermissionItem, Session, SessionDetails, TranscriptItem, Workspace } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import { Journal } from './journal';
import type { LiveSession } from './liveSession';
import { fromRow, toSession, type SessionRecord, type SessionRow } from './records';
import type { SessionTables } from './tables';

/** States in which a session has (or had, before a crash) an agent process doing work. */
const ACTIVE_STATES = ['starting', 'busy', 'awaiting_permission'];

/** The error for an unknown session id (naming the CLI command that lists them). */
export function notFound(id: string): AtriumError {
  return new AtriumError('SESSION_NOT_FOUND', `No session with id ${id}. See: atrium session list`);
}

/** A stored session as the contract shows it without an agent process. */
function storedSummary(record: SessionRecord): Session {
  return toSession(record, { live: false, queue: [], pendingPermissions: 0 });
}

/**
 * Sessions, most recently active first (at most `limit`, default 500), filtered by workspace or by
 * folder (`place` answers the folder's workspace; without one, sessions in or below the folder).
 */
export function listSessions(
  store: Store,
  loaded: ReadonlyMap<string, LiveSession>,
  filter: { workspaceId?: string; cwd?: string; limit?: number },
  place: (cwd: string) => { workspace: Workspace | null; cwd: string },
): Session[] {
  const limit = filter.limit ?? 500;
  let rows: SessionRow[];
  if (filter.workspaceId) {
    rows = store.db.prepare('SELECT * FROM sessions WHERE workspace_id = ? ORDER BY updated_at DESC LIMIT ?').all(filter.workspaceId, limit) as SessionRow[];
  } else if (filter.cwd) {
    const { workspace, cwd } = place(filter.cwd);
    rows = workspace
      ? (store.db.prepare('SELECT * FROM sessions WHERE workspace_id = ? ORDER BY updated_at DESC LIMIT ?').all(workspace.id, limit) as SessionRow[])
      : (store.db.prepare("SELECT * FROM sessions WHERE cwd = ? OR substr(cwd, 1, length(?) + 1) = ? || '/' ORDER BY updated_at DESC LIMIT ?").all(cwd, cwd, cwd, limit) as SessionRow[]);
  } else {
    rows = store.db.prepare('SELECT * FROM sessions ORDER BY updated_at DESC LIMIT ?').all(limit) as SessionRow[];
  }
  return rows.map((row) => loaded.get(row.id)?.summary() ?? storedSummary(fromRow(row)));
}

/** One session for its view: summary, pending permissions, diagnostics. @throws AtriumError SESSION_NOT_FOUND */
export function showSession(tables: SessionTables, live: LiveSession | undefined, sessionId: string): SessionDetails {
  const record = live?.record ?? tables.session(sessionId);
  if (!record) throw notFound(sessionId);
  const summary = live?.summary() ?? storedSummary(record);
  const permissions = tables
    .openIds(sessionId, ['pending'])
    .map((id) => tables.item(sessionId, id))
    .filter((i): i is PermissionItem => i?.kind === 'permission' && i.state === 'pending');
  return {
    ...summary,
    permissions,
    diagnostics: {
      stderrTail: live?.stderrTail() ?? record.stderrTail,
      pid: live?.pid() ?? null,
      command: record.lastCommand?.command ?? null,
      args: record.lastCommand?.args ?? [],
    },
  };
}

/**
 * A page of transcript items (ascending): the last `limit` (default 100), or before/after an id.
 * A loaded session's pending updates are written first.
 * @throws AtriumError SESSION_NOT_FOUND
 */
export function transcriptPage(
  tables: SessionTables,
  live: LiveSession | undefined,
  sessionId: string,
  page: { before?: number; after?: number; limit?: number },
): { items: TranscriptItem[]; total: number; hasBefore: boolean; hasAfter: boolean } {
  live?.journal.flush();
  const record = live?.record ?? tables.session(sessionId);
  if (!record) throw notFound(sessionId);
  const items = tables.page(sessionId, page.limit ?? 100, page.before, page.after);
  const first = items[0]?.id;
  const last = items[items.length - 1]?.id;
  return {
    items,
    total: record.lastItem,
    hasBefore: first !== undefined ? first > 1 : (page.after ?? 0) > 0 && record.lastItem > 0,
    hasAfter: last !== undefined ? last < record.lastItem : page.before !== undefined && page.before <= record.lastItem,
  };
}

/** Marks the sessions that were active when Atrium last stopped (crash, kill -9) `interrupted`, with a notice; they stay resumable. */
export function recoverInterrupted(store: Store, bus: EventBus): void {
  const rows = store.db.prepare(`SELECT * FROM sessions WHERE state IN (${ACTIVE_STATES.map(() => '?').join(', ')})`).all(...ACTIVE_STATES) as SessionRow[];
  for (const row of rows) {
    const record = fromRow(row);
    const journal = new Journal(store, bus, record, { batchMs: 0, summarize: (r) => storedSummary(r) });
    const during = record.state === 'starting' ? 'start-up' : 'a turn';
    journal.append({ kind: 'interrupted', data: { reason: `Atrium stopped unexpectedly during ${during}; resume to continue.` } });
    journal.append({ kind: 'state', data: { state: 'interrupted' } });
  }
}
