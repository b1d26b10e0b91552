import type { Migration } from '../store/migrations';

/**
 * Schema 3: agent sessions.
 *
 * - `agent_configs`: user-defined agents (`kind = 'user'`: command, args) and per-agent extra
 *   environment for presets and user agents alike (`env_json`, values stay in this 0600 file).
 * - `sessions`: Atrium's durable session record plus its header projection (state, modes, usage…).
 * - `session_events`: the append-only log; every `session/update` and client-side action, written
 *   before it is applied or pushed. Keyed (session_id, seq), seq from 1 without gaps.
 * - `session_items`: the transcript projection (one row per message part / tool call / plan /
 *   permission / notice / stop), updated in the same transaction as the events it derives from, so
 *   opening a session reads a page of items and never replays the log. `ref` is the tool call id,
 *   permission request id or prompt id; `status` is kept for the rows recovery must find
 *   (unfinished tool calls, pending permissions, queued prompts).
 * - `session_terminals`: tails of terminals that ended, for `sessions.terminalOutput` later.
 */
export const sessionsMigration: Migration = {
  version: 3,
  name: 'sessions',
  up(db) {
    db.exec(`
      CREATE TABLE agent_configs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('preset', 'user')),
        name TEXT,
        command TEXT,
        args_json TEXT NOT NULL DEFAULT '[]',
        env_json TEXT NOT NULL DEFAULT '{}',
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        workspace_id TEXT,
        cwd TEXT NOT NULL,
        additional_dirs_json TEXT NOT NULL DEFAULT '[]',
        agent_id TEXT NOT NULL,
        agent_version TEXT,
        agent_session_id TEXT,
        title TEXT,
        state TEXT NOT NULL,
        stop_reason TEXT,
        resume_json TEXT,
        last_error TEXT,
        exit_json TEXT,
        desired_mode_id TEXT,
        modes_json TEXT,
        config_json TEXT NOT NULL DEFAULT '[]',
        usage_json TEXT,
        commands_json TEXT NOT NULL DEFAULT '[]',
        capabilities_json TEXT,
        stderr_tail TEXT NOT NULL DEFAULT '',
        last_command_json TEXT,
        turn_count INTEGER NOT NULL DEFAULT 0,
        last_seq INTEGER NOT NULL DEFAULT 0,
        last_item INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX sessions_by_workspace ON sessions (workspace_id, updated_at);
      CREATE INDEX sessions_by_updated ON sessions (updated_at);
      CREATE INDEX sessions_by_agent_session ON sessions (agent_id, agent_session_id);

      CREATE TABLE session_events (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE session_items (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        item INTEGER NOT NULL,
        kind TEXT NOT NULL,
        ref TEXT,
        status TEXT,
        data TEXT NOT NULL,
        PRIMARY KEY (session_id, item)
      ) STRICT;
      CREATE INDEX session_items_by_ref ON session_items (session_id, ref) WHERE ref IS NOT NULL;
      CREATE INDEX session_items_open ON session_items (session_id, status) WHERE status IN ('pending', 'in_progress', 'queued');

      CREATE TABLE session_terminals (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        terminal_id TEXT NOT NULL,
        output TEXT NOT NULL,
        truncated INTEGER NOT NULL,
        exit_code INTEGER,
        signal TEXT,
        PRIMARY KEY (session_id, terminal_id)
      ) STRICT;
    `);
  },
};
