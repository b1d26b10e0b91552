import type { Database, Statement } from 'better-sqlite3';
import type { TranscriptItem } from '../../../shared/contract';
import { fromRow, INSERT_SESSION_SQL, toParams, UPDATE_SESSION_SQL, type SessionRecord, type SessionRow } from './records';
import { agentTitle, itemColumns } from './projectionState';

/**
 * Prepared statements over the session tables of one database (schema 3), shared by every journal
 * and query of that connection. All reads are keyed lookups or index range scans, so their cost
 * does not grow with the size of a session's event log.
 */
export class SessionTables {
  private static readonly cache = new WeakMap<Database, SessionTables>();

  /** The shared instance for `db`. */
  static of(db: Database): SessionTables {
    let t = SessionTables.cache.get(db);
    if (!t) {
      t = new SessionTables(db);
      SessionTables.cache.set(db, t);
    }
    return t;
  }

  readonly insertSession: Statement;
  readonly updateSession: Statement;
  readonly insertEvent: Statement;
  readonly upsertItem: Statement;
  readonly upsertTerminal: Statement;
  private readonly selectSession: Statement;
  private readonly selectItem: Statement;
  private readonly selectByRef: Statement;
  private readonly selectTail: Statement;
  private readonly selectBefore: Statement;
  private readonly selectAfter: Statement;
  private readonly selectTerminal: Statement;
  private readonly selectConversation: Statement;
  private readonly selectTitleEvents: Statement;
  private readonly openStatements = new Map<string, Statement>();

  private constructor(readonly db: Database) {
    this.insertSession = db.prepare(INSERT_SESSION_SQL);
    this.updateSession = db.prepare(UPDATE_SESSION_SQL);
    this.insertEvent = db.prepare('INSERT INTO session_events (session_id, seq, at, kind, data) VALUES (?, ?, ?, ?, ?)');
    this.upsertItem = db.prepare(
      `INSERT INTO session_items (session_id, item, kind, ref, status, data) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id, item) DO UPDATE SET kind = excluded.kind, ref = excluded.ref, status = excluded.status, data = excluded.data`,
    );
    this.upsertTerminal = db.prepare(
      `INSERT INTO session_terminals (session_id, terminal_id, output, truncated, exit_code, signal) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id, terminal_id) DO UPDATE SET output = excluded.output, truncated = excluded.truncated, exit_code = excluded.exit_code, signal = excluded.signal`,
    );
    this.selectSession = db.prepare('SELECT * FROM sessions WHERE id = ?');
    this.selectItem = db.prepare('SELECT data FROM session_items WHERE session_id = ? AND item = ?');
    this.selectByRef = db.prepare('SELECT data FROM session_items WHERE session_id = ? AND ref = ? ORDER BY item DESC LIMIT 1');
    this.selectTail = db.prepare('SELECT data FROM session_items WHERE session_id = ? ORDER BY item DESC LIMIT ?');
    this.selectBefore = db.prepare('SELECT data FROM session_items WHERE session_id = ? AND item < ? ORDER BY item DESC LIMIT ?');
    this.selectAfter = db.prepare('SELECT data FROM session_items WHERE session_id = ? AND item > ? ORDER BY item ASC LIMIT ?');
    this.selectTerminal = db.prepare('SELECT * FROM session_terminals WHERE session_id = ? AND terminal_id = ?');
    this.selectConversation = db.prepare("SELECT 1 FROM session_items WHERE session_id = ? AND kind IN ('user_message', 'agent_message') LIMIT 1");
    this.selectTitleEvents = db.prepare(
      `SELECT kind, data FROM session_events WHERE session_id = ? AND seq < ?
         AND (kind = 'title_set' OR (kind = 'update' AND json_extract(data, '$.update.sessionUpdate') = 'session_info_update'))
       ORDER BY seq DESC`,
    );
  }

  /** The stored record, or null. */
  session(id: string): SessionRecord | null {
    const row = this.selectSession.get(id) as SessionRow | undefined;
    return row ? fromRow(row) : null;
  }

  /** Inserts a new session row. */
  createSession(record: SessionRecord): void {
    this.insertSession.run(toParams(record));
  }

  /** Writes every column of the record. */
  saveSession(record: SessionRecord): void {
    this.updateSession.run(toParams(record));
  }

  /** Inserts or replaces an item. */
  saveItem(sessionId: string, item: TranscriptItem): void {
    const { ref, status } = itemColumns(item);
    this.upsertItem.run(sessionId, item.id, item.kind, ref, status, JSON.stringify(item));
  }

  /** One item by id, or null. */
  item(sessionId: string, id: number): TranscriptItem | null {
    const row = this.selectItem.get(sessionId, id) as { data: string } | undefined;
    return row ? parseItem(row.data) : null;
  }

  /** The latest item with this ref (tool call id, permission request id, prompt id), or null. */
  itemByRef(sessionId: string, ref: string): TranscriptItem | null {
    const row = this.selectByRef.get(sessionId, ref) as { data: string } | undefined;
    return row ? parseItem(row.data) : null;
  }

  /** Ids of items whose status is one of `statuses` (served by a partial index). */
  openIds(sessionId: string, statuses: string[]): number[] {
    const key = statuses.join(',');
    let stmt = this.openStatements.get(key);
    if (!stmt) {
      stmt = this.db.prepare(`SELECT item FROM session_items WHERE session_id = ? AND status IN (${statuses.map(() => '?').join(', ')}) ORDER BY item`);
      this.openStatements.set(key, stmt);
    }
    return (stmt.all(sessionId, ...statuses) as Array<{ item: number }>).map((r) => r.item);
  }

  /** A page of items in ascending order: the last `limit`, or those before/after an item id. */
  page(sessionId: string, limit: number, before?: number, after?: number): TranscriptItem[] {
    if (after !== undefined) return (this.selectAfter.all(sessionId, after, limit) as Array<{ data: string }>).map((r) => parseItem(r.data)).filter(isItem);
    const rows = (before !== undefined ? this.selectBefore.all(sessionId, before, limit) : this.selectTail.all(sessionId, limit)) as Array<{ data: string }>;
    return rows.map((r) => parseItem(r.data)).filter(isItem).reverse();
  }

  /** True when the transcript holds at least one user or agent message. */
  hasConversation(sessionId: string): boolean {
    return this.selectConversation.get(sessionId) !== undefined;
  }

  /**
   * Whether `title` came from the agent: the newest event before `beforeSeq` that carried exactly
   * this title is an agent `session_info_update` (true) or a user's `title_set` (false); none means
   * it was given at creation (false). Scans only this session's title events, newest first, and
   * stops at the first match (see Projector `titleFromAgent`).
   */
  titleFromAgent(sessionId: string, title: string, beforeSeq: number): boolean {
    for (const row of this.selectTitleEvents.iterate(sessionId, beforeSeq) as Iterable<{ kind: string; data: string }>) {
      let data: { title?: unknown; update?: { title?: unknown } };
      try {
        data = JSON.parse(row.data) as typeof data;
      } catch {
        continue;
      }
      if (row.kind === 'title_set') {
        if (typeof data.title === 'string' && data.title.trim() === title) return false;
      } else if (agentTitle(data.update?.title) === title) {
        return true;
      }
    }
    return false;
  }

  /**
   * The newest title the agent reported (ACP `session_info_update`) before event `beforeSeq`,
   * trimmed as stored ({@link agentTitle}); null when it never named the session. Used when the
   * user clears their title, so the agent's name comes back (see Projector `lastAgentTitle`).
   */
  lastAgentTitle(sessionId: string, beforeSeq: number): string | null {
    for (const row of this.selectTitleEvents.iterate(sessionId, beforeSeq) as Iterable<{ kind: string; data: string }>) {
      if (row.kind === 'title_set') continue;
      try {
        const title = agentTitle((JSON.parse(row.data) as { update?: { title?: unknown } }).update?.title);
        if (title !== null) return title;
      } catch {
        continue;
      }
    }
    return null;
  }

  /** A stored terminal tail, or null. */
  terminal(sessionId: string, terminalId: string): { output: string; truncated: boolean; exitCode: number | null; signal: string | null } | null {
    const row = this.selectTerminal.get(sessionId, terminalId) as { output: string; truncated: number; exit_code: number | null; signal: string | null } | undefined;
    return row ? { output: row.output, truncated: row.truncated === 1, exitCode: row.exit_code, signal: row.signal } : null;
  }
}

function parseItem(data: string): TranscriptItem {
  return JSON.parse(data) as TranscriptItem;
}

function isItem(item: TranscriptItem | null): item is TranscriptItem {
  return item !== null;
}
