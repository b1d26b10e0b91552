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
import { hostedElsewhereOf, isHostAlive, parseHost, type HostIdentity } from './ownership';
import { fromRow, toSession, type SessionRecord, type SessionRow } from './records';
import type { SessionTables } from './tables';

/** States in which a session has (or had, before a crash) an agent process doing work. */
export const ACTIVE_STATES: readonly string[] = ['starting', 'busy', 'awaiting_permission'];

/** The error for an unknown session id (naming the CLI command that lists them). */
export function notFound(id: string): AtriumError {
  return new AtriumError('SESSION_NOT_FOUND', `No session with id ${id}. See: atrium session list`);
}

/** A stored session as the contract shows it without an agent process. */
function storedSummary(record: SessionRecord, hostedElsewhere: Session['hostedElsewhere'] = null): Session {
  return toSession(record, { live: false, queue: [], pendingPermissions: 0, hostedElsewhere });
}

/** A stored session row as readers show it (dead-host active sessions as interrupted; the live foreign host named). */
export function shownSummary(record: SessionRecord, ownerJson: string | null | undefined, me: HostIdentity | null): Session {
  return storedSummary(asShown(record, ownerJson), hostedElsewhereOf(ownerJson, me));
}

/**
 * The record as a reader shows it: a session left active by a host that is gone (crash, kill -9)
 * reads as `interrupted` (what recovery will write), without writing anything.
 */
function asShown(record: SessionRecord, ownerJson: string | null | undefined): SessionRecord {
  if (!ACTIVE_STATES.includes(record.state) || isHostAlive(parseHost(ownerJson))) return record;
  return { ...record, state: 'interrupted' };
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
  me: HostIdentity | null = null,
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
  return rows.map((row) => loaded.get(row.id)?.summary() ?? shownSummary(fromRow(row), (row as SessionRow & { owner_json?: string | null }).owner_json, me));
}

/** One session for its view: summary, pending permissions, diagnostics. @throws AtriumError SESSION_NOT_FOUND */
export function showSession(tables: SessionTables, live: LiveSession | undefined, sessionId: string, me: HostIdentity | null = null): SessionDetails {
  const stored = live ? null : tables.session(sessionId);
  const record = live?.record ?? stored;
  if (!record) throw notFound(sessionId);
  const summary = live?.summary() ?? shownSummary(record, ownerJson(tables, sessionId), me);
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

function ownerJson(tables: SessionTables, sessionId: string): string | null {
  const row = tables.db.prepare('SELECT owner_json FROM sessions WHERE id = ?').get(sessionId) as { owner_json: string | null } | undefined;
  return row?.owner_json ?? null;
}

/**
 * Marks the sessions that were active when their host stopped (crash, kill -9) `interrupted`, with
 * a notice; they stay resumable. Only sessions whose host is dead or missing are touched (another
 * live process may be streaming the others), and none for which `skip(id)` is true (loaded here).
 * @returns the ids recovered
 */
export function recoverInterrupted(store: Store, bus: EventBus, skip: (id: string) => boolean = () => false): string[] {
  const rows = store.db.prepare(`SELECT id FROM sessions WHERE state IN (${ACTIVE_STATES.map(() => '?').join(', ')})`).all(...ACTIVE_STATES) as Array<{ id: string }>;
  const done: string[] = [];
  for (const { id } of rows) {
    if (skip(id)) continue;
    try {
      if (recoverOne(store, bus, id)) done.push(id);
    } catch (error) {
      console.error(`[atrium] recovering session ${id} failed:`, error);
    }
  }
  return done;
}

/** Prompts of a session's log that were queued and then neither sent nor dropped, oldest first. */
function unsentPrompts(store: Store, sessionId: string): Array<{ promptId: string; text: string; blocks: unknown[] }> {
  const rows = store.db
    .prepare(
      `SELECT q.data FROM session_events q WHERE q.session_id = ? AND q.kind = 'prompt_queued'
         AND NOT EXISTS (SELECT 1 FROM session_events e WHERE e.session_id = q.session_id AND e.seq > q.seq
           AND e.kind IN ('prompt_sent', 'prompt_dropped') AND json_extract(e.data, '$.promptId') = json_extract(q.data, '$.promptId'))
       ORDER BY q.seq`,
    )
    .all(sessionId) as Array<{ data: string }>;
  const out: Array<{ promptId: string; text: string; blocks: unknown[] }> = [];
  for (const row of rows) {
    try {
      const d = JSON.parse(row.data) as { promptId?: unknown; text?: unknown; blocks?: unknown };
      if (typeof d.promptId === 'string' && typeof d.text === 'string') out.push({ promptId: d.promptId, text: d.text, blocks: Array.isArray(d.blocks) ? d.blocks : [] });
    } catch {
      // a row that is not JSON was never a queued prompt this code wrote; nothing to recover from it
    }
  }
  return out;
}

/**
 * Marks one session `interrupted` (notice + state, one transaction) when it is active and its host
 * is dead or missing; the check and the write share one immediate transaction, so a host that
 * claims it meanwhile is never overwritten. Clears the stale host.
 * @returns true when the session was recovered
 */
export function recoverOne(store: Store, bus: EventBus, sessionId: string): boolean {
  let journal: Journal | null = null;
  store.transaction(() => {
    const row = store.db.prepare('SELECT * FROM sessions WHERE id = ?').get(sessionId) as (SessionRow & { owner_json: string | null }) | undefined;
    if (!row || !ACTIVE_STATES.includes(row.state) || isHostAlive(parseHost(row.owner_json))) return;
    const record = fromRow(row);
    journal = new Journal(store, bus, record, { batchMs: 0, summarize: (r) => storedSummary(r) });
    const during = record.state === 'starting' ? 'start-up' : 'a turn';
    // prompts still queued were never sent: their text enters the transcript marked dropped, not lost
    for (const q of unsentPrompts(store, sessionId)) {
      journal.append({ kind: 'prompt_dropped', data: { promptId: q.promptId, reason: 'Atrium stopped before it was sent', text: q.text, blocks: q.blocks } });
    }
    journal.append({ kind: 'interrupted', data: { reason: `Atrium stopped unexpectedly during ${during}; resume to continue.` } });
    journal.append({ kind: 'state', data: { state: 'interrupted' } });
    store.db.prepare('UPDATE sessions SET owner_json = NULL WHERE id = ?').run(sessionId);
  });
  return journal !== null;
}

/**
 * True when the session journal shows the agent had prompt `promptId`: after its `prompt_sent`
 * event (and before the next prompt's) the agent sent an update, or the turn ended with the
 * agent's answer. The ends Atrium journals for an agent that did not answer do not count: a crash
 * (`crashed`, the agent exited during the turn) and a close during the turn (`cancelled` with
 * Atrium's error text; an agent's own `cancelled` answer has none). False when the prompt was
 * never sent or nothing came back before its process ended.
 */
export function promptAnswered(store: Store, sessionId: string, promptId: string): boolean {
  const sent = store.db
    .prepare("SELECT seq FROM session_events WHERE session_id = ? AND kind = 'prompt_sent' AND json_extract(data, '$.promptId') = ? ORDER BY seq DESC LIMIT 1")
    .get(sessionId, promptId) as { seq: number } | undefined;
  if (!sent) return false;
  const next = store.db.prepare("SELECT MIN(seq) AS seq FROM session_events WHERE session_id = ? AND kind = 'prompt_sent' AND seq > ?").get(sessionId, sent.seq) as { seq: number | null };
  const reply = store.db
    .prepare(
      `SELECT 1 FROM session_events WHERE session_id = ? AND seq > ? AND seq < ? AND (kind = 'update' OR (kind = 'turn_end'
         AND json_extract(data, '$.stopReason') <> 'crashed' AND NOT (json_extract(data, '$.stopReason') = 'cancelled' AND json_extract(data, '$.error') IS NOT NULL))) LIMIT 1`,
    )
    .get(sessionId, sent.seq, next.seq ?? Number.MAX_SAFE_INTEGER);
  return reply !== undefined;
}
