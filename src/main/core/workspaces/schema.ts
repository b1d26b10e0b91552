import type { Migration } from '../store/migrations';

/**
 * Schema 1: the workspace list. `identity` (realpath, Unicode NFC) is unique and decides whether two
 * spellings name one folder; `path` is the realpath as it is on disk, which on Linux may be NFD and
 * must be kept byte-exact to reach the folder.
 */
export const workspacesMigration: Migration = {
  version: 1,
  name: 'workspaces',
  up(db) {
    db.exec(`
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        identity TEXT NOT NULL UNIQUE,
        path TEXT NOT NULL,
        trust_root TEXT NOT NULL,
        added_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
