import type { Migration } from '../store/migrations';

/**
 * Schema 10: model providers.
 *
 * - `providers`: the user's definitions (kind, base URL, headers). Keys are not here: they live in
 *   the credential store (`core/credentials`); `key_hint` keeps only the last four characters.
 * - `provider_overrides`: a workspace pointing a provider at another base URL.
 * - `workspace_agent_settings`: per workspace and agent, the provider, default model and mode.
 * - `session_providers`: what each session started with (provider, endpoint, model, mode, the
 *   repository definition applied or withheld), written once at creation and never changed.
 * - `endpoint_approvals`: repository endpoint definitions the user approved, by digest.
 */
export const providersMigration: Migration = {
  version: 10,
  name: 'providers',
  up(db) {
    db.exec(`
      CREATE TABLE providers (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        base_url TEXT,
        headers_json TEXT NOT NULL DEFAULT '{}',
        key_hint TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE provider_overrides (
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        provider_id TEXT NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
        base_url TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, provider_id)
      ) STRICT;

      CREATE TABLE workspace_agent_settings (
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        agent_id TEXT NOT NULL,
        provider_id TEXT REFERENCES providers (id) ON DELETE SET NULL,
        model TEXT,
        mode_id TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, agent_id)
      ) STRICT;

      CREATE TABLE session_providers (
        session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        snapshot_json TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE endpoint_approvals (
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        digest TEXT NOT NULL,
        definition_json TEXT NOT NULL,
        approved_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, digest)
      ) STRICT;
    `);
  },
};
