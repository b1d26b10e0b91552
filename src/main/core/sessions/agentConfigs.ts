import type { Store } from '../store/database';
import { parseJsonColumn } from '../store/jsonColumn';

/** A stored agent configuration row: a user-defined agent, or extra environment for a preset. */
export interface AgentConfig {
  id: string;
  kind: 'preset' | 'user';
  name: string | null;
  command: string | null;
  args: string[];
  env: Record<string, string>;
}

interface Row {
  id: string;
  kind: 'preset' | 'user';
  name: string | null;
  command: string | null;
  args_json: string;
  env_json: string;
}

const toConfig = (r: Row): AgentConfig => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  command: r.command,
  args: parseJsonColumn<string[]>(r.args_json, []),
  env: parseJsonColumn<Record<string, string>>(r.env_json, {}),
});

/** SQLite access to `agent_configs` (schema 3): user-defined agents and per-agent environment. */
export class AgentConfigs {
  constructor(private readonly store: Store) {}

  /** All rows, ordered by id. */
  all(): AgentConfig[] {
    return (this.store.db.prepare('SELECT * FROM agent_configs ORDER BY id').all() as Row[]).map(toConfig);
  }

  get(id: string): AgentConfig | null {
    const row = this.store.db.prepare('SELECT * FROM agent_configs WHERE id = ?').get(id) as Row | undefined;
    return row ? toConfig(row) : null;
  }

  /** Inserts or replaces a row. */
  put(config: AgentConfig): void {
    this.store.transaction(() =>
      this.store.db
        .prepare(
          `INSERT INTO agent_configs (id, kind, name, command, args_json, env_json, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, command = excluded.command,
             args_json = excluded.args_json, env_json = excluded.env_json, updated_at = excluded.updated_at`,
        )
        .run(config.id, config.kind, config.name, config.command, JSON.stringify(config.args), JSON.stringify(config.env), new Date().toISOString()),
    );
  }

  /** Deletes a row; true when it existed. */
  delete(id: string): boolean {
    return this.store.transaction(() => this.store.db.prepare('DELETE FROM agent_configs WHERE id = ?').run(id).changes > 0);
  }
}
