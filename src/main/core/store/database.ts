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
 * Says why SQLite's native module (better-sqlite3's `better_sqlite3.node`) could not be loaded, and
 * the command that fixes it; null when `error` is something else (a file or SQLite error).
 * Recognises Node's `ERR_DLOPEN_FAILED` (a binding built for another runtime: "compiled against a
 * different Node.js version using NODE_MODULE_VERSION n", another architecture, a damaged file),
 * the `bindings` package's "Could not locate the bindings file" (never built, or deleted by a failed
 * rebuild) and a missing `ATRIUM_SQLITE_BINDING` file. The usual cause is a rebuild of node_modules
 * for Electron (e.g. by `electron-rebuild`), after which Node cannot load it, or the reverse.
 */
export function nativeModuleProblem(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  const message = error.message.replace(/\s+/g, ' ').trim();
  const electron = process.versions.electron;
  const runtime = electron ? `Electron ${electron}` : `Node ${process.versions.node}`;
  const fix = electron
    ? 'Rebuild it for this Electron: delete .atrium-native/ in the Atrium checkout and run `npm start`.'
    : 'Rebuild it for this Node: run `npm rebuild better-sqlite3` in the Atrium checkout.';
  const abi = /NODE_MODULE_VERSION (\d+)/.exec(message);
  if (abi) {
    return `the SQLite module (better-sqlite3) was built for another runtime (NODE_MODULE_VERSION ${abi[1]}) and cannot be loaded by ${runtime} (NODE_MODULE_VERSION ${process.versions.modules}). ${fix} (${message})`;
  }
  if (/Could not locate the bindings file/.test(message)) {
    return `the SQLite module (better-sqlite3) has no compiled binding (never built, or removed by a failed native rebuild). ${fix} (${message})`;
  }
  if (code === 'ERR_DLOPEN_FAILED') {
    return `the SQLite module (better-sqlite3) cannot be loaded by ${runtime} on ${process.platform}-${process.arch}. ${fix} (${message})`;
  }
  if (code === 'MODULE_NOT_FOUND' && /\.node\b/.test(message)) {
    return `the SQLite binding named by ATRIUM_SQLITE_BINDING is missing. Unset ATRIUM_SQLITE_BINDING or point it at a built better_sqlite3.node. (${message})`;
  }
  return null;
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
 * @throws AtriumError `DB_OPEN_FAILED` when the directory or file cannot be created or opened, or when
 *   SQLite's native module cannot be loaded (the message names the cause and the fix, see {@link nativeModuleProblem}).
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
    const message = (error as Error).message;
    const native = nativeModuleProblem(error);
    if (native) throw new AtriumError('DB_OPEN_FAILED', `Cannot open Atrium's database at ${file}: ${native}`);
    throw new AtriumError('DB_OPEN_FAILED', `Cannot open Atrium's database at ${file}: ${message}. Check that the data directory is writable, or pass another one with --data-dir.`);
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
