import fs from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Migration } from '../store/migrations';
import { pathIdentity, stripTrailingSeparators } from './identity';

/**
 * Schema 6: folder keys are the folder's own bytes where the file system tells NFC and NFD apart.
 *
 * Schemas 1–5 keyed workspaces (`identity`) and trust decisions (`path`) by the Unicode NFC form of
 * the path, so on Linux trusting `café` (NFC) also trusted the different folder `café` (NFD).
 * This step recomputes every stored key with {@link pathIdentity}, recovering the on-disk spelling
 * of an old NFC key by {@link recoverOnDiskKey}; no row is dropped. It also drops
 * `workspaces.trust_root`: a trust root is derived from the disk whenever it is needed (a `.git`
 * link can be written or removed after a folder was listed), so a stored one could only go stale.
 *
 * Tables touched: `workspaces.identity`, `trust_decisions.path`, `trust_history.path` (its
 * append-only triggers are lifted for this one key rewrite and restored in the same transaction),
 * `hook_approvals`/`hook_audit`/`hook_runs.trust_root` (the home folder's key was NFC as well).
 */
export const identityBytesMigration: Migration = {
  version: 6,
  name: 'identity-bytes',
  up(db) {
    const rows = db.prepare('SELECT id, path, trust_root FROM workspaces').all() as Array<{ id: string; path: string; trust_root: string }>;
    const hints = spellingHints(rows.flatMap((r) => [r.path, r.trust_root]));
    // Trust keys were always NFC: the workspace the user added is the best witness of which
    // spelling was meant. Hook keys were the on-disk bytes except for the home folder, so an
    // existing path stays as it is there.
    const memo = (existingFirst: boolean) => {
      const remap = new Map<string, string>();
      return (old: string): string => {
        let key = remap.get(old);
        if (key === undefined) {
          key = recoverOnDiskKey(old, hints, { existingFirst });
          remap.set(old, key);
        }
        return key;
      };
    };
    const keyOf = memo(false);
    const hookKeyOf = memo(true);

    const taken = new Set<string>();
    const identities = rows.map((r) => ({ id: r.id, identity: pathIdentity(r.path) }));
    const setIdentity = db.prepare('UPDATE workspaces SET identity = ? WHERE id = ?');
    // Two passes so a swap of keys never trips the UNIQUE constraint half way.
    for (const r of identities) setIdentity.run(`\0migrating\0${r.id}`, r.id);
    for (const r of identities) {
      const identity = taken.has(r.identity) ? `${r.identity}\0${r.id}` : r.identity;
      taken.add(identity);
      setIdentity.run(identity, r.id);
    }
    db.exec('ALTER TABLE workspaces DROP COLUMN trust_root');

    const decisions = db.prepare('SELECT path FROM trust_decisions').all() as Array<{ path: string }>;
    const setDecision = db.prepare('UPDATE OR IGNORE trust_decisions SET path = ? WHERE path = ?');
    for (const d of decisions) {
      const key = keyOf(d.path);
      if (key !== d.path) setDecision.run(key, d.path);
    }

    rewriteAppendOnly(db, 'trust_history', 'path', keyOf, ['trust_history_no_update', 'trust_history_no_delete']);
    if (hasTable(db, 'hook_approvals')) {
      const roots = db.prepare('SELECT DISTINCT trust_root AS k FROM hook_approvals').all() as Array<{ k: string }>;
      const set = db.prepare('UPDATE OR IGNORE hook_approvals SET trust_root = ? WHERE trust_root = ?');
      for (const { k } of roots) if (hookKeyOf(k) !== k) set.run(hookKeyOf(k), k);
    }
    if (hasTable(db, 'hook_runs')) {
      const roots = db.prepare('SELECT DISTINCT trust_root AS k FROM hook_runs').all() as Array<{ k: string }>;
      const set = db.prepare('UPDATE hook_runs SET trust_root = ? WHERE trust_root = ?');
      for (const { k } of roots) if (hookKeyOf(k) !== k) set.run(hookKeyOf(k), k);
    }
    if (hasTable(db, 'hook_audit')) rewriteAppendOnly(db, 'hook_audit', 'trust_root', hookKeyOf, ['hook_audit_no_update', 'hook_audit_no_delete']);
  },
};

/**
 * The key an old NFC-normalised `key` should now have: the spelling of the folder it was recorded
 * for, as it is on disk. In order: a workspace path (or ancestor of one, or a stored trust root)
 * whose NFC form is `key` (the folder the user added); `key` itself when it exists; the one
 * directory entry per level whose NFC form matches (a folder created as NFD); else `key` unchanged
 * (a folder that is gone: nothing to recover from). With `existingFirst`, an existing `key` wins
 * over the hints (for keys that were already on-disk bytes). The result goes through
 * {@link pathIdentity}. Exposed for tests. Never throws.
 */
export function recoverOnDiskKey(key: string, hints: ReadonlyMap<string, string | null> = new Map(), options: { existingFirst?: boolean } = {}): string {
  try {
    if (options.existingFirst && exists(key)) return pathIdentity(key);
    const hinted = hints.get(key);
    if (hinted) return pathIdentity(hinted);
    if (exists(key)) return pathIdentity(key);
    return pathIdentity(spellOnDisk(key));
  } catch {
    return key;
  }
}

/** NFC form → on-disk spelling of every stored path and its ancestors (null when two spellings collide). */
function spellingHints(paths: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const p of paths) {
    let current = stripTrailingSeparators(p);
    for (;;) {
      const nfc = current.normalize('NFC');
      const seen = out.get(nfc);
      if (seen === undefined) out.set(nfc, current);
      else if (seen !== null && seen !== current) out.set(nfc, null);
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
  return out;
}

/** Resolves `key` one level at a time: the exact entry, else the single entry whose NFC form matches. */
function spellOnDisk(key: string): string {
  const { root } = path.parse(key);
  const parts = key.slice(root.length).split(path.sep).filter(Boolean);
  let current = root;
  for (let i = 0; i < parts.length; i++) {
    const exact = path.join(current, parts[i]);
    if (exists(exact)) {
      current = exact;
      continue;
    }
    let entries: string[];
    try {
      entries = fs.readdirSync(current);
    } catch {
      return path.join(current, ...parts.slice(i));
    }
    const matches = entries.filter((e) => e.normalize('NFC') === parts[i].normalize('NFC'));
    if (matches.length !== 1) return path.join(current, ...parts.slice(i));
    current = path.join(current, matches[0]);
  }
  return current;
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function hasTable(db: Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * Rewrites `column` of an append-only table with `keyOf`, lifting its guard triggers for the
 * rewrite and restoring them exactly as they were (same SQL) before the transaction commits.
 */
function rewriteAppendOnly(db: Database, table: string, column: string, keyOf: (old: string) => string, triggers: readonly string[]): void {
  if (!hasTable(db, table)) return;
  const changes = (db.prepare(`SELECT DISTINCT ${column} AS k FROM ${table}`).all() as Array<{ k: string }>).map(({ k }) => [k, keyOf(k)] as const).filter(([a, b]) => a !== b);
  if (changes.length === 0) return;
  const saved = triggers
    .map((name) => db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").get(name) as { sql: string } | undefined)
    .filter((t): t is { sql: string } => t !== undefined);
  for (const name of triggers) db.exec(`DROP TRIGGER IF EXISTS ${name}`);
  const set = db.prepare(`UPDATE ${table} SET ${column} = ? WHERE ${column} = ?`);
  for (const [from, to] of changes) set.run(to, from);
  for (const t of saved) db.exec(t.sql);
}
