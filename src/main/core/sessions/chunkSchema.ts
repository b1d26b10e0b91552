import type { Migration } from '../store/migrations';

/**
 * Schema 9: streamed text is stored as appends.
 *
 * - `session_item_chunks`: text appended to a transcript item (agent message, thought, user message
 *   chunk) since its `session_items` row was last written whole, one row per write batch, in `seq`
 *   order (`seq` is the session's last event seq of that batch). The item's text is its row's
 *   `text` followed by its chunks; `at` is the item's `updatedAt` after the chunk. Chunks are folded
 *   into the item row and deleted when the item stops growing (the next item starts, the turn ends,
 *   the session's journal closes, or a later process finds chunks left by one that was killed).
 *   So a long answer writes each streamed byte once here instead of rewriting the row every batch.
 */
export const sessionItemChunksMigration: Migration = {
  version: 9,
  name: 'session-item-chunks',
  up(db) {
    db.exec(`
      CREATE TABLE session_item_chunks (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        item INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (session_id, item, seq)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
