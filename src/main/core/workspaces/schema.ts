import type { Migration } from '../store/migrations';

/**
 * Schema 1: the workspace list. `identity` is unique and decides whether two spellings name one
 * folder; `path` is the realpath as it is on disk, kept byte-exact to reach the folder. Schema 1
 * wrote `identity` as Unicode NFC and stored `trust_root`; schema 6 (`identityMigration.ts`) keys
 * on the on-disk bytes where the file system distinguishes NFC from NFD and drops `trust_root`.
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
