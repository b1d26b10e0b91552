import crypto from 'node:crypto';
import path from 'node:path';
import { AtriumError } from '../../../shared/errors';
import type { Workspace, WorkspaceDetails, WorkspaceTrust } from '../../../shared/contract';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import { canonicalDirectory, inspectGit, isExistingDirectory, pathIdentity, trustRootOf } from './identity';

interface WorkspaceRow {
  id: string;
  name: string;
  identity: string;
  path: string;
  added_at: string;
}

/**
 * The workspace list: folders the user manages in Atrium. Identity is the canonical path's
 * {@link pathIdentity}, so a folder is listed once however it is spelled (symlink, trailing slash,
 * and NFC/NFD only where the file system makes them one folder). A workspace's `trustRoot` is
 * derived from the disk each time it is read (never stored), so it always agrees with `trust
 * status` and the gate. Removing a workspace forgets Atrium's record only. Every change pushes
 * `workspacesChanged` to all clients.
 */
export class WorkspaceService {
  /**
   * @param trustOf effective trust of a trust root, for the workspace folder `folder` (the engine
   *   passes the TrustService's `workspaceTrust`); defaults to `undecided` for callers without trust.
   */
  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
    private readonly trustOf: (trustRoot: string, folder: string) => WorkspaceTrust = () => ({ state: 'undecided', decidedBy: null, inherited: false }),
  ) {}

  /** All workspaces in insertion order; `missing` is computed now, never throws for vanished folders. */
  list(): Workspace[] {
    const rows = this.store.db.prepare('SELECT * FROM workspaces ORDER BY added_at, rowid').all() as WorkspaceRow[];
    return rows.map((row) => toWorkspace(row, this.trustOf));
  }

  /** @throws AtriumError NOT_FOUND */
  get(id: string): Workspace {
    const row = this.store.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow | undefined;
    if (!row) throw new AtriumError('NOT_FOUND', `No workspace with id ${id}. It may have been removed; refresh the list.`);
    return toWorkspace(row, this.trustOf);
  }

  /** Looks a workspace up by id, or by a path naming its folder (canonicalised when it exists). */
  find(idOrPath: string): Workspace | null {
    const byId = this.store.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(idOrPath) as WorkspaceRow | undefined;
    if (byId) return toWorkspace(byId, this.trustOf);
    const absolute = path.resolve(idOrPath);
    let key = pathIdentity(absolute);
    try {
      key = pathIdentity(canonicalDirectory(absolute));
    } catch {
      // a missing folder can still be found by the path it was added with
    }
    const byPath = this.store.db.prepare('SELECT * FROM workspaces WHERE identity = ?').get(key) as WorkspaceRow | undefined;
    return byPath ? toWorkspace(byPath, this.trustOf) : null;
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
    const identity = pathIdentity(canonical);
    const result = this.store.transaction(() => {
      const existing = this.store.db.prepare('SELECT * FROM workspaces WHERE identity = ?').get(identity) as WorkspaceRow | undefined;
      if (existing) return { workspace: toWorkspace(existing, this.trustOf), created: false };
      const row: WorkspaceRow = {
        id: crypto.randomUUID(),
        name: name?.trim() || (path.basename(canonical) || canonical).normalize('NFC'),
        identity,
        path: canonical,
        added_at: new Date().toISOString(),
      };
      this.store.db
        .prepare('INSERT INTO workspaces (id, name, identity, path, added_at) VALUES (@id, @name, @identity, @path, @added_at)')
        .run(row);
      return { workspace: toWorkspace(row, this.trustOf), created: true };
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

  /**
   * Points a workspace at the folder it now lives in (moved or renamed on disk), keeping its id,
   * name, sessions and history. Trust is not carried over: it is derived from the new path, so a
   * folder moved to a place nobody trusted opens in restricted mode until it is reviewed again.
   * @throws AtriumError NOT_FOUND | PATH_NOT_ABSOLUTE | PATH_NOT_FOUND | NOT_A_DIRECTORY |
   *   PATH_UNREADABLE | INVALID_PARAMS (the folder is already listed as another workspace)
   */
  relocate(id: string, inputPath: string): Workspace {
    const canonical = canonicalDirectory(inputPath);
    const identity = pathIdentity(canonical);
    this.store.transaction(() => {
      const row = this.store.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow | undefined;
      if (!row) throw new AtriumError('NOT_FOUND', `No workspace with id ${id}. It may have been removed; refresh the list.`);
      const other = this.store.db.prepare('SELECT * FROM workspaces WHERE identity = ? AND id != ?').get(identity, id) as WorkspaceRow | undefined;
      if (other) throw new AtriumError('INVALID_PARAMS', `${canonical} is already listed as the workspace "${other.name}". Choose the folder this workspace moved to, or remove one of the two.`);
      this.store.db.prepare('UPDATE workspaces SET path = ?, identity = ? WHERE id = ?').run(canonical, identity, id);
    });
    this.emitChanged();
    return this.get(id);
  }

  /**
   * Notices a workspace folder deleted, moved or renamed (or back again) while Atrium runs, and
   * re-pushes the list when any folder's presence changed since the last check: one `stat` per
   * workspace, cheap enough for a timer (the engine polls it every 2 s by default).
   * @returns true when it pushed
   */
  checkPresence(): boolean {
    const rows = this.store.db.prepare('SELECT id, path FROM workspaces ORDER BY added_at, rowid').all() as Array<Pick<WorkspaceRow, 'id' | 'path'>>;
    // the path is part of the key: a relocated workspace whose new folder vanishes before the next
    // check is a change too, even though "missing" reads the same as before the relocation
    const presence = JSON.stringify(rows.map((r) => [r.id, r.path, isExistingDirectory(r.path)]));
    if (presence === this.lastPresence) return false;
    this.lastPresence = presence;
    // the first check compares with what clients were last sent (a folder may vanish before it)
    return this.announceExternalChanges();
  }

  private lastPresence = '';

  /** Forgets the workspace; returns false when it was not listed. Never touches the folder. */
  remove(id: string): boolean {
    const changes = this.store.transaction(() => this.store.db.prepare('DELETE FROM workspaces WHERE id = ?').run(id).changes);
    if (changes > 0) this.emitChanged();
    return changes > 0;
  }

  /** Re-pushes `workspacesChanged` (the list carries trust states; the engine calls this when trust changes). */
  notifyTrustChanged(): void {
    this.emitChanged();
  }

  /**
   * Re-pushes `workspacesChanged` when the list differs from the last one pushed, e.g. after
   * `atrium workspace add` in a terminal while the app runs (see `store/externalWrites.ts`).
   * @returns true when it pushed
   */
  announceExternalChanges(): boolean {
    const workspaces = this.list();
    if (JSON.stringify(workspaces) === this.lastPushed) return false;
    this.push(workspaces);
    return true;
  }

  private lastPushed: string | null = null;

  private emitChanged(): void {
    this.push(this.list());
  }

  private push(workspaces: Workspace[]): void {
    this.lastPushed = JSON.stringify(workspaces);
    this.bus.emit('workspacesChanged', { workspaces });
  }
}

/** A row as surfaces see it; `trustRoot` and `trust` are derived now from the folder on disk. */
function toWorkspace(row: WorkspaceRow, trustOf: (trustRoot: string, folder: string) => WorkspaceTrust): Workspace {
  const git = inspectGit(row.path);
  const trustRoot = trustRootOf(row.path, git);
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    trustRoot,
    worktreeOf: git.kind === 'worktree' ? git.mainCheckout : null,
    missing: !isExistingDirectory(row.path),
    addedAt: row.added_at,
    trust: trustOf(trustRoot, row.path),
  };
}
