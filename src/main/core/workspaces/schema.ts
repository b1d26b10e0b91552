import type { Migration } from '../store/migrations';

/** Schema 1: the workspace list. `path` is the canonical path (realpath, NFC) and is unique. */
export const workspacesMigration: Migration = {
  version: 1,
  name: 'workspaces',
  up(db) {
    db.exec(`
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        path TEXT NOT NULL UNIQUE,
        trust_root TEXT NOT NULL,
        added_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
