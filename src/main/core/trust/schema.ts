import type { Migration } from '../store/migrations';

/**
 * Schema 2: folder trust. `trust_decisions` holds at most one decision per canonical directory;
 * `trust_history` is the append-only audit log (old/new state, when, who), guarded by triggers so
 * that no UPDATE or DELETE can rewrite it. States are `trusted` | `untrusted`; NULL in the history
 * means "no decision" (before the first decision, after a clear).
 */
export const trustMigration: Migration = {
  version: 2,
  name: 'trust',
  up(db) {
    db.exec(`
      CREATE TABLE trust_decisions (
        path TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('trusted', 'untrusted')),
        decided_at TEXT NOT NULL,
        source TEXT NOT NULL
      ) STRICT;

      CREATE TABLE trust_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        path TEXT NOT NULL,
        old_state TEXT CHECK (old_state IN ('trusted', 'untrusted')),
        new_state TEXT CHECK (new_state IN ('trusted', 'untrusted')),
        changed_at TEXT NOT NULL,
        source TEXT NOT NULL
      ) STRICT;

      CREATE INDEX trust_history_path ON trust_history (path);

      CREATE TRIGGER trust_history_no_update BEFORE UPDATE ON trust_history
      BEGIN SELECT RAISE(ABORT, 'trust_history is append-only'); END;

      CREATE TRIGGER trust_history_no_delete BEFORE DELETE ON trust_history
      BEGIN SELECT RAISE(ABORT, 'trust_history is append-only'); END;
    `);
  },
};
