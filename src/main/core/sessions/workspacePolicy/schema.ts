import type { Migration } from '../../store/migrations';

/**
 * Schema 5: sessions that obey the workspace.
 *
 * - `session_policy`: one row per session: the source project it follows (rules are matched
 *   there, seed §6), where it executes (a git worktree's path is stored once and never
 *   recomputed), its snapshot summary (static rule references and `provenanceSha256`, approved
 *   hooks, passed/withheld MCP servers; never rule bodies), the contextual rule references it
 *   loaded, recent hook runs, a pending provenance mismatch and when it was archived.
 * - `session_rule_texts`: rule texts content-addressed by their catalog `sha256`, so a mismatch can
 *   show a diff of what changed. Sessions refer to them by digest only.
 * - `app_settings`: small key → JSON value settings (e.g. `sessions.idleMinutes`).
 */
export const sessionPolicyMigration: Migration = {
  version: 5,
  name: 'session-policy',
  up(db) {
    db.exec(`
      CREATE TABLE session_policy (
        session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        source_dir TEXT NOT NULL,
        from_dir TEXT NOT NULL,
        execution_json TEXT NOT NULL,
        snapshot_json TEXT,
        loaded_json TEXT NOT NULL DEFAULT '[]',
        hook_runs_json TEXT NOT NULL DEFAULT '[]',
        mismatch_json TEXT,
        archived_at TEXT,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE session_rule_texts (
        sha256 TEXT PRIMARY KEY,
        content TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE app_settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
