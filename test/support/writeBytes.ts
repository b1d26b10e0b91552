import type { Database } from 'better-sqlite3';

/**
 * Counts the logical bytes of rows written to the given tables of `db` (this connection only):
 * temporary triggers add, for every inserted or updated row, the bytes of its values (text and
 * blobs by their UTF-8/byte length, numbers 8, NULL 0). Deletes count nothing. Measures what
 * Atrium asks SQLite to write, independent of page layout; `wal()` beside it gives the physical side.
 * `read()` returns the totals per table since the meter was installed or last reset.
 */
export function writeMeter(db: Database, tables: readonly string[]): { read(): Record<string, { rows: number; bytes: number }> & { total: { rows: number; bytes: number } }; reset(): void; remove(): void } {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS write_meter (tbl TEXT PRIMARY KEY, rows INTEGER NOT NULL, bytes INTEGER NOT NULL)');
  for (const table of tables) {
    const columns = (db.prepare(`PRAGMA main.table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
    if (columns.length === 0) throw new Error(`writeMeter: no table ${table}`);
    const size = columns
      .map((c) => `(CASE typeof(NEW."${c}") WHEN 'null' THEN 0 WHEN 'integer' THEN 8 WHEN 'real' THEN 8 ELSE length(CAST(NEW."${c}" AS BLOB)) END)`)
      .join(' + ');
    db.prepare('INSERT OR REPLACE INTO temp.write_meter (tbl, rows, bytes) VALUES (?, 0, 0)').run(table);
    for (const op of ['INSERT', 'UPDATE']) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS write_meter_${table}_${op.toLowerCase()} AFTER ${op} ON main.${table}
        BEGIN UPDATE temp.write_meter SET rows = rows + 1, bytes = bytes + ${size} WHERE tbl = '${table}'; END`);
    }
  }
  return {
    read() {
      const rows = db.prepare('SELECT tbl, rows, bytes FROM temp.write_meter').all() as Array<{ tbl: string; rows: number; bytes: number }>;
      const out: Record<string, { rows: number; bytes: number }> = {};
      const total = { rows: 0, bytes: 0 };
      for (const r of rows) {
        out[r.tbl] = { rows: r.rows, bytes: r.bytes };
        total.rows += r.rows;
        total.bytes += r.bytes;
      }
      return Object.assign(out, { total });
    },
    reset() {
      db.exec('UPDATE temp.write_meter SET rows = 0, bytes = 0');
    },
    remove() {
      for (const table of tables) for (const op of ['insert', 'update']) db.exec(`DROP TRIGGER IF EXISTS temp.write_meter_${table}_${op}`);
      db.exec('DROP TABLE IF EXISTS temp.write_meter');
    },
  };
}

/** The session tables a journal writes. */
export const SESSION_TABLES = ['sessions', 'session_events', 'session_items', 'session_item_chunks', 'session_terminals'] as const;
