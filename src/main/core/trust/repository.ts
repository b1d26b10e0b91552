import type { TrustChange, TrustDecision, TrustDecisionState, TrustSource } from '../../../shared/contract';
import type { Store } from '../store/database';

interface DecisionRow {
  path: string;
  state: TrustDecisionState;
  decided_at: string;
  source: TrustSource;
}

interface HistoryRow {
  id: number;
  path: string;
  old_state: TrustDecisionState | null;
  new_state: TrustDecisionState | null;
  changed_at: string;
  source: TrustSource;
}

/**
 * SQL access to the trust tables of schema 2 (see `schema.ts`). No policy here: callers canonicalise
 * paths, check refusals and wrap writes in one transaction.
 */
export class TrustRepository {
  constructor(private readonly store: Store) {}

  /** The decision recorded for exactly `path`, or null. */
  get(path: string): TrustDecision | null {
    const row = this.store.db.prepare('SELECT * FROM trust_decisions WHERE path = ?').get(path) as DecisionRow | undefined;
    return row ? toDecision(row) : null;
  }

  /** Decisions recorded for any of `paths` (one query). */
  getMany(paths: readonly string[]): TrustDecision[] {
    if (paths.length === 0) return [];
    const placeholders = paths.map(() => '?').join(', ');
    const rows = this.store.db.prepare(`SELECT * FROM trust_decisions WHERE path IN (${placeholders})`).all(...paths) as DecisionRow[];
    return rows.map(toDecision);
  }

  /** Every decision, sorted by path. */
  list(): TrustDecision[] {
    const rows = this.store.db.prepare('SELECT * FROM trust_decisions ORDER BY path').all() as DecisionRow[];
    return rows.map(toDecision);
  }

  /** Inserts or replaces the decision for `decision.path`. */
  put(decision: TrustDecision): void {
    this.store.db
      .prepare(
        `INSERT INTO trust_decisions (path, state, decided_at, source) VALUES (@path, @state, @decidedAt, @source)
         ON CONFLICT(path) DO UPDATE SET state = excluded.state, decided_at = excluded.decided_at, source = excluded.source`,
      )
      .run(decision);
  }

  /** Deletes the decision for `path`; true when one existed. */
  delete(path: string): boolean {
    return this.store.db.prepare('DELETE FROM trust_decisions WHERE path = ?').run(path).changes > 0;
  }

  /** Appends one audit entry and returns it with its id. */
  appendHistory(entry: Omit<TrustChange, 'id'>): TrustChange {
    const info = this.store.db
      .prepare('INSERT INTO trust_history (path, old_state, new_state, changed_at, source) VALUES (?, ?, ?, ?, ?)')
      .run(entry.path, entry.oldState, entry.newState, entry.changedAt, entry.source);
    return { id: Number(info.lastInsertRowid), ...entry };
  }

  /** The newest audit id (0 when the history is empty). */
  maxHistoryId(): number {
    return (this.store.db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM trust_history').get() as { id: number }).id;
  }

  /** Audit entries with an id above `id`, oldest first. */
  historyAfter(id: number): TrustChange[] {
    const rows = this.store.db.prepare('SELECT * FROM trust_history WHERE id > ? ORDER BY id').all(id) as HistoryRow[];
    return rows.map(toChange);
  }

  /** Audit entries, newest first; restricted to `paths` when given. */
  history(options: { paths?: readonly string[]; limit?: number } = {}): TrustChange[] {
    const limit = options.limit ?? 1000;
    let rows: HistoryRow[];
    if (options.paths) {
      if (options.paths.length === 0) return [];
      const placeholders = options.paths.map(() => '?').join(', ');
      rows = this.store.db
        .prepare(`SELECT * FROM trust_history WHERE path IN (${placeholders}) ORDER BY id DESC LIMIT ?`)
        .all(...options.paths, limit) as HistoryRow[];
    } else {
      rows = this.store.db.prepare('SELECT * FROM trust_history ORDER BY id DESC LIMIT ?').all(limit) as HistoryRow[];
    }
    return rows.map(toChange);
  }
}

function toChange(r: HistoryRow): TrustChange {
  return { id: r.id, path: r.path, oldState: r.old_state, newState: r.new_state, changedAt: r.changed_at, source: r.source };
}

function toDecision(row: DecisionRow): TrustDecision {
  return { path: row.path, state: row.state, decidedAt: row.decided_at, source: row.source };
}
