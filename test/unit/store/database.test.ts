import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../src/main/core/store/database';
import { openStore } from '../../../src/main/core/migrations';
import { MIGRATIONS } from '../../../src/main/core/migrations';
import type { Migration } from '../../../src/main/core/store/migrations';
import { tempDir } from '../../support/tempDir';

describe('store', () => {
  it('creates the data dir 0700 and the database 0600, in WAL mode with foreign keys, migrated to the newest schema', () => {
    const dataDir = path.join(tempDir(), 'nested', 'atrium');
    const store = openStore(dataDir);
    try {
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dataDir, DATABASE_FILE)).mode & 0o777).toBe(0o600);
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(store.schemaVersion).toBe(MIGRATIONS.length);
      const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[];
      expect(tables.map((t) => t.name)).toContain('workspaces');
    } finally {
      store.close();
    }
  });

  it('keeps data across reopen and does not re-run migrations', () => {
    const dataDir = tempDir();
    const first = openStore(dataDir);
    first.db.prepare("INSERT INTO workspaces VALUES ('a','A','/x','/x','2026-01-01')").run();
    first.close();
    const second = openStore(dataDir);
    expect(second.db.prepare('SELECT count(*) AS n FROM workspaces').get()).toEqual({ n: 1 });
    second.close();
  });

  it('refuses a database written by a newer Atrium, with a message that says what to do', () => {
    const dataDir = tempDir();
    const future: Migration = { version: MIGRATIONS.length + 1, name: 'future', up: (db) => db.exec('CREATE TABLE future (x)') };
    openStore(dataDir, { migrations: [...MIGRATIONS, future] }).close();
    expect(() => openStore(dataDir)).toThrowError(expect.objectContaining({ code: 'DB_TOO_NEW', message: expect.stringMatching(/newer version of Atrium.*Upgrade Atrium/) }));
  });

  it('runs each migration in a transaction: a failing one leaves the previous version intact', () => {
    const dataDir = tempDir();
    const broken: Migration = {
      version: MIGRATIONS.length + 1,
      name: 'broken',
      up: (db) => {
        db.exec('CREATE TABLE half_done (x)');
        throw new Error('boom');
      },
    };
    expect(() => openStore(dataDir, { migrations: [...MIGRATIONS, broken] })).toThrow('boom');
    const store = openStore(dataDir);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    expect(store.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name='half_done'").get()).toEqual({ n: 0 });
    store.close();
  });

  it('rolls a failed transaction back', () => {
    const store = openStore(tempDir());
    expect(() =>
      store.transaction(() => {
        store.db.prepare("INSERT INTO workspaces VALUES ('a','A','/x','/x','2026-01-01')").run();
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(store.db.prepare('SELECT count(*) AS n FROM workspaces').get()).toEqual({ n: 0 });
    store.close();
  });

  it('reports an unusable data directory as DB_OPEN_FAILED', () => {
    const file = path.join(tempDir(), 'not-a-dir');
    fs.writeFileSync(file, '');
    expect(() => openStore(file)).toThrowError(expect.objectContaining({ code: 'DB_OPEN_FAILED' }));
  });
});
