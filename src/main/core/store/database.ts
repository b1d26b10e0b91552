import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { AtriumError } from '../../../shared/errors';
import { MIGRATIONS, type Migration } from './migrations';

/** File name of Atrium's database inside the data directory. */
export const DATABASE_FILE = 'atrium.db';

/** An open Atrium store: one SQLite database file in the data directory. */
export interface Store {
  /** The underlying connection (WAL, foreign keys on). Prefer {@link Store.transaction} for writes. */
  readonly db: Database;
  /** Absolute path of the database file. */
  readonly file: string;
  /** Schema version after migrations (`PRAGMA user_version`). */
  readonly schemaVersion: number;
  /** Runs `fn` in one immediate transaction; rolls back and rethrows if it throws. */
  transaction<T>(fn: () => T): T;
  /** Closes the connection (checkpointing the WAL). Idempotent. */
  close(): void;
}

/** Options for {@link openStore}; `migrations` exists so tests can simulate future versions. */
export interface OpenStoreOptions {
  migrations?: readonly Migration[];
}

/**
 * Opens (creating if needed) the store in `dataDir`. The directory is created with mode 0700 and the
 * database file with 0600, because it records which folders the user trusts. Applies pending
 * migrations in one transaction each (keyed on `PRAGMA user_version`).
 *
 * @throws AtriumError `DB_TOO_NEW` when the file was written by a newer Atrium (its user_version is
 *   above the newest migration known here): opening it could corrupt data, so we refuse.
 * @throws AtriumError `DB_OPEN_FAILED` when the directory or file cannot be created or opened.
 */
export function openStore(dataDir: string, options: OpenStoreOptions = {}): Store {
  const migrations = options.migrations ?? MIGRATIONS;
  const file = path.join(dataDir, DATABASE_FILE);
  let db: Database;
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dataDir, 0o700);
    if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
    fs.chmodSync(file, 0o600);
    // In the desktop app the binding is compiled for Electron's ABI (see scripts/electron-env.mjs).
    const nativeBinding = process.env.ATRIUM_SQLITE_BINDING;
    db = new BetterSqlite3(file, nativeBinding ? { nativeBinding } : {});
  } catch (error) {
    throw new AtriumError('DB_OPEN_FAILED', `Cannot open Atrium's database at ${file}: ${(error as Error).message}. Check that the data directory is writable, or pass another one with --data-dir.`);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    migrate(db, migrations, file);
  } catch (error) {
    db.close();
    throw error;
  }
  const schemaVersion = db.pragma('user_version', { simple: true }) as number;
  let closed = false;
  return {
    db,
    file,
    schemaVersion,
    transaction: <T>(fn: () => T): T => db.transaction(fn).immediate(),
    close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

function migrate(db: Database, migrations: readonly Migration[], file: string): void {
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
