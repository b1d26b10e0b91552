import { hooksAcknowledgedMigration, hooksMigration } from './hooks/schema';
import { providersMigration } from './providers/schema';
import { sessionItemChunksMigration } from './sessions/chunkSchema';
import { sessionOwnerMigration } from './sessions/ownership';
import { sessionsMigration } from './sessions/schema';
import { sessionPolicyMigration } from './sessions/workspacePolicy/schema';
import { openDatabase, type Store } from './store/database';
import type { Migration } from './store/migrations';
import { trustMigration } from './trust/schema';
import { identityBytesMigration } from './workspaces/identityMigration';
import { workspacesMigration } from './workspaces/schema';

/**
 * Every migration of Atrium's database in order; version N is at index N-1. Assembled here, at the
 * app layer, because it lists the schema of every layer (the store below only runs a list). A new
 * migration is appended; a shipped one is never edited or reordered.
 */
export const MIGRATIONS: readonly Migration[] = [
  workspacesMigration,
  trustMigration,
  sessionsMigration,
  hooksMigration,
  sessionPolicyMigration,
  identityBytesMigration,
  hooksAcknowledgedMigration,
  sessionOwnerMigration,
  sessionItemChunksMigration,
  providersMigration,
];

/** Options for {@link openStore}; `migrations` exists so tests can simulate older or future versions. */
export interface OpenStoreOptions {
  migrations?: readonly Migration[];
}

/**
 * Opens (creating if needed) Atrium's store in `dataDir` with every migration of {@link MIGRATIONS}
 * (or `options.migrations`): see `openDatabase` for file modes and errors.
 * @throws AtriumError `DB_TOO_NEW` (written by a newer Atrium) | `DB_OPEN_FAILED`
 */
export function openStore(dataDir: string, options: OpenStoreOptions = {}): Store {
  return openDatabase(dataDir, options.migrations ?? MIGRATIONS);
}
