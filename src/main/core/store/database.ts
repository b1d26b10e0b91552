import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { AtriumError } from '../../../shared/errors';
import { runMigrations, type Migration } from './migrations';

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

/**
 * Opens (creating if needed) the store in `dataDir` and brings it to the newest of `migrations`
 * (the app's ordered list lives in `src/main/core/migrations.ts`, above every capability whose
 * schema it lists; `openStore` there calls this with it). The directory is created with mode 0700 and the
 * database file with 0600, because it records which folders the user trusts. Applies pending
 * migrations in one transaction each (keyed on `PRAGMA user_version`).
 *
 * @throws AtriumError `DB_TOO_NEW` when the file was written by a newer Atrium (its user_version is
 *   above the newest migration known here): opening it could corrupt data, so we refuse.
 * @throws AtriumError `DB_OPEN_FAILED` when the directory or file cannot be created or opened.
 */
export function openDatabase(dataDir: string, migrations: readonly Migration[]): Store {
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
    runMigrations(db, migrations, file);
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
