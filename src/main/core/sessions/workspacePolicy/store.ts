import type {
  LoadedContextualRule,
  PolicyRuleRef,
  ProvenanceMismatch,
  RuleTrigger,
  SessionHookRun,
  SessionHooksInfo,
  StaticRulesInfo,
  WithheldMcpServer,
} from '../../../../shared/contract';
import type { Store } from '../../store/database';
import { parseJsonColumn } from '../../store/jsonColumn';

/** Where a session executes (the `execution_json` column). */
export interface ExecutionRecord {
  kind: 'folder' | 'worktree';
  /** The agent's cwd (equal to the session's `cwd`). */
  dir: string;
  /** Source project folder (the workspace folder) whose rules and approvals apply. */
  sourceDir: string;
  /** Canonical top of the execution tree; equals `sourceRoot` for folder sessions. */
  execRoot: string;
  /** Canonical top of the source tree. */
  sourceRoot: string;
  branch: string | null;
  baseCommit: string | null;
  createdAt: string;
  removedAt: string | null;
}

/** What a session was given at creation (the `snapshot_json` column; never rule bodies). */
export interface SnapshotRecord {
  takenAt: string;
  sourceDir: string;
  fromDir: string;
  catalogSha256: string;
  trust: 'trusted' | 'partial' | 'restricted';
  staticRules: StaticRulesInfo;
  hooks: Omit<SessionHooksInfo, 'runs'>;
  mcp: { passed: Array<{ id: string; name: string; digest: string }>; withheld: WithheldMcpServer[] };
}

/**
 * A contextual rule owed to the agent with the next prompt (triggered by a read, a terminal, a
 * tool call or a permission request, or re-sent after the agent lost its context): a reference
 * (never the body; the body is hydrated from the session's catalog when it is sent) and why.
 */
export interface OwedRule {
  id: string;
  relativePath: string;
  source: PolicyRuleRef['source'];
  sha256: string;
  /** The root-relative path that selected it (the `trigger-paths` attribute), or null. */
  triggerPath: string | null;
  trigger: RuleTrigger;
  /** True when it is recorded as loaded already (a refused write-kind permission, a re-sent rule). */
  recorded: boolean;
  /**
   * The prompt that carried it, until that turn shows the agent answered (then it is dropped);
   * null while it waits for a prompt. See `settleSent` in contextRules.ts.
   */
  sentWith: string | null;
}

/**
 * What a session owes its agent with the next prompt, whichever process sends it: contextual
 * rules, static rules to send again, and hook context (SessionStart, PostToolUse…). Stored with
 * the loaded references (`loaded_json`) so a process that ends before the next prompt (each
 * `atrium session prompt` is its own process) loses none of it.
 */
export interface OwedToAgent {
  rules: OwedRule[];
  /** Static rules go again (the agent lost its context: `replaced-by-new`); `sentWith` as for rules. */
  staticAgain: { sentWith: string | null } | null;
  contexts: Array<{ text: string; sentWith: string | null }>;
}

/** Nothing owed. */
export function nothingOwed(): OwedToAgent {
  return { rules: [], staticAgain: null, contexts: [] };
}

/** A session's policy row. */
export interface PolicyRow {
  sessionId: string;
  sourceDir: string;
  fromDir: string;
  execution: ExecutionRecord;
  snapshot: SnapshotRecord | null;
  loaded: LoadedContextualRule[];
  /** What goes with the next prompt (see {@link OwedToAgent}). */
  owed: OwedToAgent;
  hookRuns: SessionHookRun[];
  mismatch: ProvenanceMismatch | null;
  archivedAt: string | null;
}

interface Row {
  session_id: string;
  source_dir: string;
  from_dir: string;
  execution_json: string;
  snapshot_json: string | null;
  loaded_json: string;
  hook_runs_json: string;
  mismatch_json: string | null;
  archived_at: string | null;
}

/** Most hook runs kept per session. */
export const MAX_HOOK_RUNS = 200;
/** Largest rule text kept for diffs (characters). */
const MAX_RULE_TEXT = 256 * 1024;

/** SQLite access to `session_policy`, `session_rule_texts` and `app_settings` (schema 5). Corrupt JSON reads as empty. */
export class PolicyStore {
  constructor(private readonly store: Store) {}

  /** The row of a session, or null. */
  get(sessionId: string): PolicyRow | null {
    const r = this.store.db.prepare('SELECT * FROM session_policy WHERE session_id = ?').get(sessionId) as Row | undefined;
    if (!r) return null;
    return {
      sessionId: r.session_id,
      sourceDir: r.source_dir,
      fromDir: r.from_dir,
      execution: parseJsonColumn<ExecutionRecord>(r.execution_json, { kind: 'folder', dir: r.from_dir, sourceDir: r.source_dir, execRoot: r.source_dir, sourceRoot: r.source_dir, branch: null, baseCommit: null, createdAt: '', removedAt: null }),
      snapshot: parseJsonColumn<SnapshotRecord | null>(r.snapshot_json, null),
      ...readLoaded(r.loaded_json),
      hookRuns: parseJsonColumn<SessionHookRun[]>(r.hook_runs_json, []),
      mismatch: parseJsonColumn<ProvenanceMismatch | null>(r.mismatch_json, null),
      archivedAt: r.archived_at,
    };
  }

  /** Inserts or replaces a whole row. */
  put(row: PolicyRow): void {
    this.store.transaction(() =>
      this.store.db
        .prepare(
          `INSERT INTO session_policy (session_id, source_dir, from_dir, execution_json, snapshot_json, loaded_json, hook_runs_json, mismatch_json, archived_at, updated_at)
           VALUES (@session_id, @source_dir, @from_dir, @execution_json, @snapshot_json, @loaded_json, @hook_runs_json, @mismatch_json, @archived_at, @updated_at)
           ON CONFLICT (session_id) DO UPDATE SET source_dir = excluded.source_dir, from_dir = excluded.from_dir, execution_json = excluded.execution_json,
             snapshot_json = excluded.snapshot_json, loaded_json = excluded.loaded_json, hook_runs_json = excluded.hook_runs_json,
             mismatch_json = excluded.mismatch_json, archived_at = excluded.archived_at, updated_at = excluded.updated_at`,
        )
        .run({
          session_id: row.sessionId,
          source_dir: row.sourceDir,
          from_dir: row.fromDir,
          execution_json: JSON.stringify(row.execution),
          snapshot_json: row.snapshot ? JSON.stringify(row.snapshot) : null,
          loaded_json: writeLoaded(row),
          hook_runs_json: JSON.stringify(row.hookRuns.slice(-MAX_HOOK_RUNS)),
          mismatch_json: row.mismatch ? JSON.stringify(row.mismatch) : null,
          archived_at: row.archivedAt,
          updated_at: new Date().toISOString(),
        }),
    );
  }

  /** Keeps rule texts by digest (for mismatch diffs); existing digests are left as they are. */
  keepRuleTexts(texts: ReadonlyArray<{ sha256: string; content: string }>): void {
    if (!texts.length) return;
    const insert = this.store.db.prepare('INSERT OR IGNORE INTO session_rule_texts (sha256, content) VALUES (?, ?)');
    this.store.transaction(() => {
      for (const t of texts) if (/^[a-f0-9]{64}$/.test(t.sha256) && t.content.length <= MAX_RULE_TEXT) insert.run(t.sha256, t.content);
    });
  }

  /** A kept rule text, or null. */
  ruleText(sha256: string): string | null {
    const row = this.store.db.prepare('SELECT content FROM session_rule_texts WHERE sha256 = ?').get(sha256) as { content: string } | undefined;
    return row?.content ?? null;
  }

  /** A setting's value, or `fallback` when unset or unreadable. */
  setting<T>(key: string, fallback: T): T {
    const row = this.store.db.prepare('SELECT value_json FROM app_settings WHERE key = ?').get(key) as { value_json: string } | undefined;
    return row ? parseJsonColumn<T>(row.value_json, fallback) : fallback;
  }

  /** Stores a setting. */
  setSetting(key: string, value: unknown): void {
    this.store.transaction(() =>
      this.store.db
        .prepare('INSERT INTO app_settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at')
        .run(key, JSON.stringify(value), new Date().toISOString()),
    );
  }
}

/**
 * `loaded_json`: the loaded contextual references as an array (as every row was written before
 * anything could be owed), or `{ loaded, owed }` while something is owed to the agent. Anything
 * else (corrupt text, a wrong shape) reads as nothing loaded and nothing owed.
 */
function readLoaded(text: string): { loaded: LoadedContextualRule[]; owed: OwedToAgent } {
  const value = parseJsonColumn<unknown>(text, []);
  if (Array.isArray(value)) return { loaded: value as LoadedContextualRule[], owed: nothingOwed() };
  if (!value || typeof value !== 'object') return { loaded: [], owed: nothingOwed() };
  const v = value as { loaded?: unknown; owed?: Partial<OwedToAgent> | null };
  const o = v.owed && typeof v.owed === 'object' ? v.owed : {};
  return {
    loaded: Array.isArray(v.loaded) ? (v.loaded as LoadedContextualRule[]) : [],
    owed: {
      rules: Array.isArray(o.rules) ? o.rules.filter((r) => r && typeof r.id === 'string' && typeof r.sha256 === 'string') : [],
      staticAgain: o.staticAgain && typeof o.staticAgain === 'object' ? { sentWith: typeof o.staticAgain.sentWith === 'string' ? o.staticAgain.sentWith : null } : null,
      contexts: Array.isArray(o.contexts) ? o.contexts.filter((c) => c && typeof c.text === 'string') : [],
    },
  };
}

/** The `loaded_json` text of a row: a plain array when nothing is owed (the form older rows have). */
function writeLoaded(row: PolicyRow): string {
  const o = row.owed;
  if (!o.rules.length && !o.staticAgain && !o.contexts.length) return JSON.stringify(row.loaded);
  return JSON.stringify({ loaded: row.loaded, owed: o });
}

/** The references of rule files (no bodies), as sessions record them. */
export function refsOf(files: ReadonlyArray<{ file: { id: string; relativePath: string; source: string; sha256: string | null; format: string; absolutePath: string } }>): PolicyRuleRef[] {
  return files
    .filter((f) => f.file.sha256)
    .map(({ file }) => ({ id: file.id, relativePath: file.relativePath, source: file.source as PolicyRuleRef['source'], sha256: file.sha256!, format: file.format, absolutePath: file.absolutePath }));
}
