import type { Migration } from '../store/migrations';

/**
 * Schema 4: hook and MCP server approvals by digest.
 *
 * - `hook_approvals`: at most one approval per (trust root, hook key): the approved digest, who and
 *   when, and the full canonical definition it covered (so a later version can be diffed against
 *   it). User-level hooks use the home directory as their trust root. `kind` = `hook` | `mcp`.
 * - `hook_script_contents`: script texts seen at approval time, content-addressed by SHA-256 (for
 *   the diff of a modified script); at most 256 KiB each.
 * - `hook_audit`: the append-only history of approvals and revocations (triggers forbid UPDATE and
 *   DELETE).
 * - `hook_runs`: every execution or skip (hook key, digest, event, exit code, duration, decision,
 *   capped output), pruned to the newest 2000 per trust root.
 * - `hook_http_hosts`: hosts the user allowed http hooks to reach despite the address policy.
 */
export const hooksMigration: Migration = {
  version: 4,
  name: 'hooks',
  up(db) {
    db.exec(`
      CREATE TABLE hook_approvals (
        trust_root TEXT NOT NULL,
        hook_key TEXT NOT NULL,
        item_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('hook', 'mcp')),
        digest TEXT NOT NULL,
        definition_json TEXT NOT NULL,
        scripts_json TEXT NOT NULL DEFAULT '[]',
        approved_at TEXT NOT NULL,
        approved_by TEXT NOT NULL,
        PRIMARY KEY (trust_root, hook_key)
      ) STRICT;

      CREATE TABLE hook_script_contents (
        sha256 TEXT PRIMARY KEY,
        content TEXT NOT NULL,
        truncated INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE hook_audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        trust_root TEXT NOT NULL,
        hook_key TEXT NOT NULL,
        item_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('hook', 'mcp')),
        action TEXT NOT NULL CHECK (action IN ('approve', 'revoke')),
        digest TEXT NOT NULL,
        previous_digest TEXT,
        label TEXT NOT NULL,
        at TEXT NOT NULL,
        by TEXT NOT NULL
      ) STRICT;
      CREATE INDEX hook_audit_by_root ON hook_audit (trust_root, id);

      CREATE TRIGGER hook_audit_no_update BEFORE UPDATE ON hook_audit
      BEGIN SELECT RAISE(ABORT, 'hook_audit is append-only'); END;
      CREATE TRIGGER hook_audit_no_delete BEFORE DELETE ON hook_audit
      BEGIN SELECT RAISE(ABORT, 'hook_audit is append-only'); END;

      CREATE TABLE hook_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        trust_root TEXT NOT NULL,
        folder TEXT NOT NULL,
        hook_key TEXT NOT NULL,
        item_id TEXT NOT NULL,
        digest TEXT NOT NULL,
        event TEXT NOT NULL,
        session_id TEXT,
        at TEXT NOT NULL,
        duration_ms REAL NOT NULL,
        exit_code INTEGER,
        timed_out INTEGER NOT NULL,
        decision TEXT NOT NULL,
        reason TEXT,
        skipped TEXT,
        message TEXT,
        stdout TEXT NOT NULL,
        stderr TEXT NOT NULL,
        truncated INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX hook_runs_by_root ON hook_runs (trust_root, id);
      CREATE INDEX hook_runs_by_item ON hook_runs (item_id, id);

      CREATE TABLE hook_http_hosts (
        host TEXT PRIMARY KEY,
        added_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};

/**
 * Schema 7: the audit records what an approval acknowledged. `hook_audit.acknowledged_uncovered_json`
 * is the JSON array of the item's `uncovered` entries (`[{code, text, message}]`) the user confirmed
 * they read when approving something its digest does not fully cover (`hooks.approve` with
 * `acknowledgeUncovered`); NULL for every other entry, including all entries written before this
 * column existed. A column of its own (not folded into `by` or `label`) so the history stays
 * queryable and older rows keep their meaning. Adding a nullable column is allowed on the
 * append-only table (its triggers forbid UPDATE and DELETE of rows, not schema changes).
 */
export const hooksAcknowledgedMigration: Migration = {
  version: 7,
  name: 'hooks-acknowledged-uncovered',
  up(db) {
    db.exec('ALTER TABLE hook_audit ADD COLUMN acknowledged_uncovered_json TEXT');
  },
};
