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
  private readonly insertChunk: Statement;
  private readonly deleteChunks: Statement;
  private readonly selectChunks: Statement;
  private readonly selectChunkRange: Statement;
  private readonly selectChunkedItems: Statement;

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
    this.insertChunk = db.prepare('INSERT INTO session_item_chunks (session_id, item, seq, at, text) VALUES (?, ?, ?, ?, ?)');
    this.deleteChunks = db.prepare('DELETE FROM session_item_chunks WHERE session_id = ? AND item = ?');
    this.selectChunks = db.prepare('SELECT item, at, text FROM session_item_chunks WHERE session_id = ? AND item = ? ORDER BY seq');
    this.selectChunkRange = db.prepare('SELECT item, at, text FROM session_item_chunks WHERE session_id = ? AND item BETWEEN ? AND ? ORDER BY item, seq');
    this.selectChunkedItems = db.prepare('SELECT DISTINCT item FROM session_item_chunks WHERE session_id = ? ORDER BY item');
    this.selectSession = db.prepare('SELECT * FROM sessions WHERE id = ?');
    this.selectItem = db.prepare('SELECT item, data FROM session_items WHERE session_id = ? AND item = ?');
    this.selectByRef = db.prepare('SELECT item, data FROM session_items WHERE session_id = ? AND ref = ? ORDER BY item DESC LIMIT 1');
    this.selectTail = db.prepare('SELECT item, data FROM session_items WHERE session_id = ? ORDER BY item DESC LIMIT ?');
    this.selectBefore = db.prepare('SELECT item, data FROM session_items WHERE session_id = ? AND item < ? ORDER BY item DESC LIMIT ?');
    this.selectAfter = db.prepare('SELECT item, data FROM session_items WHERE session_id = ? AND item > ? ORDER BY item ASC LIMIT ?');
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

  /** Inserts or replaces an item (its whole JSON; chunks of it, if any, must be deleted with {@link foldChunks}). */
  saveItem(sessionId: string, item: TranscriptItem): void {
    const { ref, status } = itemColumns(item);
    this.upsertItem.run(sessionId, item.id, item.kind, ref, status, JSON.stringify(item));
  }

  /**
   * Appends `text` to the stored text of message item `itemId` as one chunk row (the item's row is
   * not rewritten): `seq` orders the chunks (the batch's last event seq; unique per item), `at` is
   * the item's new `updatedAt`. Readers of this class see row text + chunks at once.
   */
  appendChunk(sessionId: string, itemId: number, seq: number, at: string, text: string): void {
    this.insertChunk.run(sessionId, itemId, seq, at, text);
  }

  /**
   * Compacts an item whose chunks are folded: writes `item` whole (it must be the item with every
   * chunk applied) and deletes its chunk rows. One row rewrite per item, when it stops growing.
   */
  foldChunks(sessionId: string, item: TranscriptItem): void {
    this.saveItem(sessionId, item);
    this.deleteChunks.run(sessionId, item.id);
  }

  /** Ids of the session's items that have chunk rows (still growing, or left by a killed process), ascending. */
  chunkedItems(sessionId: string): number[] {
    return (this.selectChunkedItems.all(sessionId) as Array<{ item: number }>).map((r) => r.item);
  }

  /** One item by id (its chunks applied), or null. */
  item(sessionId: string, id: number): TranscriptItem | null {
    const row = this.selectItem.get(sessionId, id) as ItemRow | undefined;
    return row ? this.withChunks(sessionId, [row])[0] : null;
  }

  /** The latest item with this ref (tool call id, permission request id, prompt id), or null. */
  itemByRef(sessionId: string, ref: string): TranscriptItem | null {
    const row = this.selectByRef.get(sessionId, ref) as ItemRow | undefined;
    return row ? this.withChunks(sessionId, [row])[0] : null;
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

  /** A page of items in ascending order (chunks applied): the last `limit`, or those before/after an item id. */
  page(sessionId: string, limit: number, before?: number, after?: number): TranscriptItem[] {
    if (after !== undefined) return this.withChunks(sessionId, this.selectAfter.all(sessionId, after, limit) as ItemRow[]);
    const rows = (before !== undefined ? this.selectBefore.all(sessionId, before, limit) : this.selectTail.all(sessionId, limit)) as ItemRow[];
    return this.withChunks(sessionId, rows.reverse());
  }

  /**
   * Parses rows (any order) and appends each item's chunk rows to its text, in seq order, taking
   * the last chunk's `at` as `updatedAt`. One range scan of the (small: only growing items have
   * any) chunk table per call.
   */
  private withChunks(sessionId: string, rows: ItemRow[]): TranscriptItem[] {
    const items = rows.map((r) => parseItem(r.data));
    if (rows.length === 0) return items;
    let lo = rows[0].item;
    let hi = lo;
    for (const r of rows) {
      if (r.item < lo) lo = r.item;
      if (r.item > hi) hi = r.item;
    }
    const chunks = (lo === hi ? this.selectChunks.all(sessionId, lo) : this.selectChunkRange.all(sessionId, lo, hi)) as Array<{ item: number; at: string; text: string }>;
    if (chunks.length === 0) return items;
    const byItem = new Map<number, { at: string; text: string[] }>();
    for (const c of chunks) {
      const entry = byItem.get(c.item);
      if (entry) {
        entry.text.push(c.text);
        entry.at = c.at;
      } else {
        byItem.set(c.item, { at: c.at, text: [c.text] });
      }
    }
    return items.map((item) => {
      const extra = byItem.get(item.id);
      if (!extra || !hasText(item)) return item;
      return { ...item, text: item.text + extra.text.join(''), updatedAt: extra.at };
    });
  }

  /**
   * Every item of the session in ascending order (chunks applied), in batches of `batch`, for a
   * full scan such as transcript search. `prefilter` (already lower-cased, ASCII) skips rows whose
   * stored JSON cannot contain it (SQLite's `lower` folds ASCII only, hence ASCII); items still
   * growing by chunks are always returned, since part of their text is in chunk rows.
   */
  *scan(sessionId: string, prefilter: string | null, batch = 500): Generator<TranscriptItem> {
    const stmt = prefilter
      ? this.db.prepare(
          'SELECT item, data FROM session_items WHERE session_id = ? AND item > ? AND (instr(lower(data), ?) > 0 OR item IN (SELECT item FROM session_item_chunks WHERE session_id = ?)) ORDER BY item LIMIT ?',
        )
      : this.db.prepare('SELECT item, data FROM session_items WHERE session_id = ? AND item > ? ORDER BY item LIMIT ?');
    let after = 0;
    for (;;) {
      const rows = (prefilter ? stmt.all(sessionId, after, prefilter, sessionId, batch) : stmt.all(sessionId, after, batch)) as ItemRow[];
      if (rows.length === 0) return;
      yield* this.withChunks(sessionId, rows);
      after = rows[rows.length - 1].item;
      if (rows.length < batch) return;
    }
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

interface ItemRow {
  item: number;
  data: string;
}

function parseItem(data: string): TranscriptItem {
  return JSON.parse(data) as TranscriptItem;
}

/** The item kinds whose `text` grows by chunks. */
export function hasText(item: TranscriptItem): item is Extract<TranscriptItem, { kind: 'agent_message' | 'agent_thought' | 'user_message' }> {
  return item.kind === 'agent_message' || item.kind === 'agent_thought' || item.kind === 'user_message';
}
