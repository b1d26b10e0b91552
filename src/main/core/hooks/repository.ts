import type { HookApproval, HookAuditEntry, HookResult, HookRunRecord, HookUncovered } from '../../../shared/contract';
import type { Store } from '../store/database';
import { parseJsonColumn } from '../store/jsonColumn';

/** An approval row. */
export interface ApprovalRow extends HookApproval {
  trustRoot: string;
  key: string;
  itemId: string;
  kind: 'hook' | 'mcp';
  /** Canonical definition JSON at approval time. */
  definitionJson: string;
  /** `[{path, sha256}]` of the scripts at approval time. */
  scripts: Array<{ path: string; sha256: string }>;
}

/** What to record when approving. */
export interface ApprovalInput {
  trustRoot: string;
  key: string;
  itemId: string;
  kind: 'hook' | 'mcp';
  digest: string;
  definitionJson: string;
  scripts: Array<{ path: string; sha256: string; content: string | null; truncated: boolean }>;
  label: string;
  by: string;
  /** What the digest does not cover that the user acknowledged with this approval (recorded in the audit); empty when nothing. */
  acknowledgedUncovered: HookUncovered[];
}

/** A run to record. */
export interface RunInput extends HookResult {
  trustRoot: string;
  folder: string;
  key: string;
  event: string;
  sessionId: string | null;
}

/** Longest stdout/stderr kept per run in the history (characters). */
export const STORED_OUTPUT_MAX = 64 * 1024;
/** Newest runs kept per trust root. */
export const RUNS_KEPT = 2000;

/**
 * SQLite access for hook approvals, the audit history, script snapshots, runs and the http host
 * allowlist (schemas 4 and 6, `hooks/schema.ts`). Writes that belong together run in one transaction.
 */
export class HookRepository {
  constructor(private readonly store: Store) {}

  /** Approvals recorded for any of `trustRoots`, by `trustRoot + '\0' + key`. */
  approvals(trustRoots: readonly string[]): Map<string, ApprovalRow> {
    const out = new Map<string, ApprovalRow>();
    if (trustRoots.length === 0) return out;
    const rows = this.store.db
      .prepare(`SELECT * FROM hook_approvals WHERE trust_root IN (${trustRoots.map(() => '?').join(',')})`)
      .all(...trustRoots) as Array<Record<string, string>>;
    for (const r of rows) {
      out.set(`${r.trust_root}\0${r.hook_key}`, {
        trustRoot: r.trust_root,
        key: r.hook_key,
        itemId: r.item_id,
        kind: r.kind as 'hook' | 'mcp',
        digest: r.digest,
        definitionJson: r.definition_json,
        scripts: JSON.parse(r.scripts_json) as ApprovalRow['scripts'],
        approvedAt: r.approved_at,
        approvedBy: r.approved_by,
      });
    }
    return out;
  }

  /** Records approvals (replacing an older digest for the same key) and their audit entries, all in one transaction. */
  approve(inputs: readonly ApprovalInput[]): HookAuditEntry[] {
    const at = new Date().toISOString();
    return this.store.transaction(() => {
      const out: HookAuditEntry[] = [];
      const prev = this.store.db.prepare('SELECT digest FROM hook_approvals WHERE trust_root = ? AND hook_key = ?');
      const upsert = this.store.db.prepare(
        `INSERT INTO hook_approvals (trust_root, hook_key, item_id, kind, digest, definition_json, scripts_json, approved_at, approved_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (trust_root, hook_key) DO UPDATE SET item_id = excluded.item_id, kind = excluded.kind, digest = excluded.digest,
           definition_json = excluded.definition_json, scripts_json = excluded.scripts_json, approved_at = excluded.approved_at, approved_by = excluded.approved_by`,
      );
      const snapshot = this.store.db.prepare('INSERT OR IGNORE INTO hook_script_contents (sha256, content, truncated) VALUES (?, ?, ?)');
      for (const a of inputs) {
        const before = prev.get(a.trustRoot, a.key) as { digest: string } | undefined;
        if (before?.digest === a.digest) continue;
        upsert.run(a.trustRoot, a.key, a.itemId, a.kind, a.digest, a.definitionJson, JSON.stringify(a.scripts.map(({ path, sha256 }) => ({ path, sha256 }))), at, a.by);
        for (const s of a.scripts) if (s.content !== null) snapshot.run(s.sha256, s.content, s.truncated ? 1 : 0);
        out.push(this.audit(a.trustRoot, a.key, a.itemId, a.kind, 'approve', a.digest, before?.digest ?? null, a.label, at, a.by, a.acknowledgedUncovered));
      }
      return out;
    });
  }

  /** Removes approvals; returns the audit entries of those that existed. */
  revoke(items: ReadonlyArray<{ trustRoot: string; key: string; itemId: string; kind: 'hook' | 'mcp'; label: string }>, by: string): HookAuditEntry[] {
    const at = new Date().toISOString();
    return this.store.transaction(() => {
      const out: HookAuditEntry[] = [];
      for (const item of items) {
        const row = this.store.db.prepare('SELECT digest FROM hook_approvals WHERE trust_root = ? AND hook_key = ?').get(item.trustRoot, item.key) as { digest: string } | undefined;
        if (!row) continue;
        this.store.db.prepare('DELETE FROM hook_approvals WHERE trust_root = ? AND hook_key = ?').run(item.trustRoot, item.key);
        out.push(this.audit(item.trustRoot, item.key, item.itemId, item.kind, 'revoke', row.digest, null, item.label, at, by));
      }
      return out;
    });
  }

  private audit(trustRoot: string, key: string, itemId: string, kind: 'hook' | 'mcp', action: 'approve' | 'revoke', digest: string, previousDigest: string | null, label: string, at: string, by: string, acknowledged: HookUncovered[] = []): HookAuditEntry {
    const info = this.store.db
      .prepare('INSERT INTO hook_audit (trust_root, hook_key, item_id, kind, action, digest, previous_digest, label, at, by, acknowledged_uncovered_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(trustRoot, key, itemId, kind, action, digest, previousDigest, label, at, by, acknowledged.length ? JSON.stringify(acknowledged) : null);
    return { id: Number(info.lastInsertRowid), trustRoot, key, itemId, kind, action, digest, previousDigest, label, at, by, ...(acknowledged.length ? { acknowledgedUncovered: acknowledged } : {}) };
  }

  /** The newest approval audit id (0 when none): changes whenever any approval or revocation is recorded. */
  maxAuditId(): number {
    return (this.store.db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM hook_audit').get() as { id: number }).id;
  }

  /** Audit entries for any of `trustRoots`, newest first. */
  history(trustRoots: readonly string[], limit: number): HookAuditEntry[] {
    const rows = this.store.db
      .prepare(`SELECT * FROM hook_audit WHERE trust_root IN (${trustRoots.map(() => '?').join(',')}) ORDER BY id DESC LIMIT ?`)
      .all(...trustRoots, limit) as Array<Record<string, string | number | null>>;
    return rows.map((r) => {
      const acknowledged = parseJsonColumn<HookUncovered[]>(r.acknowledged_uncovered_json === null ? null : String(r.acknowledged_uncovered_json), []);
      return {
        id: Number(r.id),
        trustRoot: String(r.trust_root),
        key: String(r.hook_key),
        itemId: String(r.item_id),
        kind: r.kind as 'hook' | 'mcp',
        action: r.action as 'approve' | 'revoke',
        digest: String(r.digest),
        previousDigest: r.previous_digest === null ? null : String(r.previous_digest),
        label: String(r.label),
        at: String(r.at),
        by: String(r.by),
        ...(Array.isArray(acknowledged) && acknowledged.length ? { acknowledgedUncovered: acknowledged } : {}),
      };
    });
  }

  /** A script text stored at approval time, or null. */
  scriptContent(sha256: string): string | null {
    const row = this.store.db.prepare('SELECT content FROM hook_script_contents WHERE sha256 = ?').get(sha256) as { content: string } | undefined;
    return row?.content ?? null;
  }

  /** Records runs (output capped at {@link STORED_OUTPUT_MAX}) and prunes old ones; returns their ids. */
  recordRuns(runs: readonly RunInput[]): number[] {
    if (runs.length === 0) return [];
    const at = new Date().toISOString();
    const cap = (s: string) => (s.length > STORED_OUTPUT_MAX ? s.slice(0, STORED_OUTPUT_MAX) : s);
    return this.store.transaction(() => {
      const insert = this.store.db.prepare(
        `INSERT INTO hook_runs (trust_root, folder, hook_key, item_id, digest, event, session_id, at, duration_ms, exit_code, timed_out, decision, reason, skipped, message, stdout, stderr, truncated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const ids = runs.map((r) =>
        Number(
          insert.run(r.trustRoot, r.folder, r.key, r.id, r.digest, r.event, r.sessionId, at, r.durationMs, r.exitCode, r.timedOut ? 1 : 0, r.decision, r.reason, r.skipped, r.message, cap(r.stdout), cap(r.stderr), r.truncated || r.stdout.length > STORED_OUTPUT_MAX || r.stderr.length > STORED_OUTPUT_MAX ? 1 : 0)
            .lastInsertRowid,
        ),
      );
      for (const root of new Set(runs.map((r) => r.trustRoot))) {
        this.store.db.prepare('DELETE FROM hook_runs WHERE trust_root = ? AND id <= (SELECT id FROM hook_runs WHERE trust_root = ? ORDER BY id DESC LIMIT 1 OFFSET ?)').run(root, root, RUNS_KEPT);
      }
      return ids;
    });
  }

  /** Runs recorded for a folder (any trust root), newest first, optionally for one item id. */
  runs(folder: string, itemId: string | undefined, limit: number): HookRunRecord[] {
    const rows = (
      itemId
        ? this.store.db.prepare('SELECT * FROM hook_runs WHERE folder = ? AND item_id = ? ORDER BY id DESC LIMIT ?').all(folder, itemId, limit)
        : this.store.db.prepare('SELECT * FROM hook_runs WHERE folder = ? ORDER BY id DESC LIMIT ?').all(folder, limit)
    ) as Array<Record<string, string | number | null>>;
    return rows.map((r) => ({
      runId: Number(r.id),
      id: String(r.item_id),
      key: String(r.hook_key),
      digest: String(r.digest),
      event: String(r.event),
      sessionId: r.session_id === null ? null : String(r.session_id),
      at: String(r.at),
      durationMs: Number(r.duration_ms),
      exitCode: r.exit_code === null ? null : Number(r.exit_code),
      timedOut: Number(r.timed_out) === 1,
      decision: r.decision as HookRunRecord['decision'],
      reason: r.reason === null ? null : String(r.reason),
      skipped: r.skipped === null ? null : (r.skipped as HookRunRecord['skipped']),
      message: r.message === null ? null : String(r.message),
      stdout: String(r.stdout),
      stderr: String(r.stderr),
      truncated: Number(r.truncated) === 1,
    }));
  }

  /** Hosts allowed for http hooks, sorted. */
  httpHosts(): string[] {
    return (this.store.db.prepare('SELECT host FROM hook_http_hosts ORDER BY host').all() as Array<{ host: string }>).map((r) => r.host);
  }

  /** Adds or removes an allowed host. */
  setHttpHost(host: string, allowed: boolean): void {
    if (allowed) this.store.db.prepare('INSERT OR IGNORE INTO hook_http_hosts (host, added_at) VALUES (?, ?)').run(host, new Date().toISOString());
    else this.store.db.prepare('DELETE FROM hook_http_hosts WHERE host = ?').run(host);
  }
}
