import crypto from 'node:crypto';
import path from 'node:path';
import { AtriumError } from '../../../shared/errors';
import type { Workspace, WorkspaceDetails } from '../../../shared/contract';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import { canonicalDirectory, inspectGit, isExistingDirectory, normalizeCanonical, trustRootOf } from './identity';

interface WorkspaceRow {
  id: string;
  name: string;
  path: string;
  trust_root: string;
  added_at: string;
}

/**
 * The workspace list: folders the user manages in Atrium. Identity is the canonical path, so a
 * folder is listed once however it is spelled. Removing a workspace forgets Atrium's record only.
 * Every change pushes `workspacesChanged` to all clients.
 */
export class WorkspaceService {
  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
  ) {}

  /** All workspaces in insertion order; `missing` is computed now, never throws for vanished folders. */
  list(): Workspace[] {
    const rows = this.store.db.prepare('SELECT * FROM workspaces ORDER BY added_at, rowid').all() as WorkspaceRow[];
    return rows.map(toWorkspace);
  }

  /** @throws AtriumError NOT_FOUND */
  get(id: string): Workspace {
    const row = this.store.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow | undefined;
    if (!row) throw new AtriumError('NOT_FOUND', `No workspace with id ${id}. It may have been removed; refresh the list.`);
    return toWorkspace(row);
  }

  /** Looks a workspace up by id, or by a path naming its folder (canonicalised when it exists). */
  find(idOrPath: string): Workspace | null {
    const byId = this.store.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(idOrPath) as WorkspaceRow | undefined;
    if (byId) return toWorkspace(byId);
    if (!path.isAbsolute(idOrPath)) idOrPath = path.resolve(idOrPath);
    let key = normalizeCanonical(path.resolve(idOrPath));
    try {
      key = canonicalDirectory(idOrPath);
    } catch {
      // a missing folder can still be removed by the path it was added with
    }
    const byPath = this.store.db.prepare('SELECT * FROM workspaces WHERE path = ?').get(key) as WorkspaceRow | undefined;
    return byPath ? toWorkspace(byPath) : null;
  }

  /** A workspace with its git state (repo, linked worktree and its main checkout). */
  details(id: string): WorkspaceDetails {
    const ws = this.get(id);
    const git = ws.missing ? { kind: 'none' as const, workTree: null, mainCheckout: null } : inspectGit(ws.path);
    return { ...ws, git };
  }

  /**
   * Adds a folder. Returns `{created: false}` with the existing record when the same folder (by
   * canonical path) is already listed.
   * @throws AtriumError PATH_NOT_ABSOLUTE | PATH_NOT_FOUND | NOT_A_DIRECTORY | PATH_UNREADABLE
   */
  add(inputPath: string, name?: string): { workspace: Workspace; created: boolean } {
    const canonical = canonicalDirectory(inputPath);
    const result = this.store.transaction(() => {
      const existing = this.store.db.prepare('SELECT * FROM workspaces WHERE path = ?').get(canonical) as WorkspaceRow | undefined;
      if (existing) return { workspace: toWorkspace(existing), created: false };
      const row: WorkspaceRow = {
        id: crypto.randomUUID(),
        name: name?.trim() || path.basename(canonical) || canonical,
        path: canonical,
        trust_root: trustRootOf(canonical),
        added_at: new Date().toISOString(),
      };
      this.store.db
        .prepare('INSERT INTO workspaces (id, name, path, trust_root, added_at) VALUES (@id, @name, @path, @trust_root, @added_at)')
        .run(row);
      return { workspace: toWorkspace(row), created: true };
    });
    if (result.created) this.emitChanged();
    return result;
  }

  /** @throws AtriumError NOT_FOUND */
  rename(id: string, name: string): Workspace {
    const changes = this.store.transaction(() => this.store.db.prepare('UPDATE workspaces SET name = ? WHERE id = ?').run(name.trim(), id).changes);
    if (changes === 0) throw new AtriumError('NOT_FOUND', `No workspace with id ${id}. It may have been removed; refresh the list.`);
    this.emitChanged();
    return this.get(id);
  }

  /** Forgets the workspace; returns false when it was not listed. Never touches the folder. */
  remove(id: string): boolean {
    const changes = this.store.transaction(() => this.store.db.prepare('DELETE FROM workspaces WHERE id = ?').run(id).changes);
    if (changes > 0) this.emitChanged();
    return changes > 0;
  }

  private emitChanged(): void {
    this.bus.emit('workspacesChanged', { workspaces: this.list() });
  }
}

function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    trustRoot: row.trust_root,
    missing: !isExistingDirectory(row.path),
    addedAt: row.added_at,
  };
}
