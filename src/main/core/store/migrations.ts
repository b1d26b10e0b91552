import type { Database } from 'better-sqlite3';
import { AtriumError } from '../../../shared/errors';

/**
 * One schema step. `version` is the value `PRAGMA user_version` holds after `up` ran; versions are
 * consecutive from 1. Each capability owns its schema file; the app's ordered list
 * (`src/main/core/migrations.ts`) appends its migration and never edits an earlier one (a shipped
 * migration is immutable: databases in the field already ran it).
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

/**
 * Applies the migrations of `migrations` above the database's `PRAGMA user_version`, one immediate
 * transaction each. `file` only names the database in errors.
 * @throws Error when the list is not numbered 1..n in order (a programming error)
 * @throws AtriumError `DB_TOO_NEW` when the database is above the newest migration of the list
 */
export function runMigrations(db: Database, migrations: readonly Migration[], file: string): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  const newest = migrations.length;
  if (current > newest) {
    throw new AtriumError(
      'DB_TOO_NEW',
      `The database ${file} was written by a newer version of Atrium (schema ${current}, this version knows up to ${newest}). Upgrade Atrium, or point --data-dir at another directory.`,
    );
  }
  for (const m of migrations.slice(current)) {
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}
