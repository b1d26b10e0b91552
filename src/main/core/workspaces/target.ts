import { AtriumError } from '../../../shared/errors';
import type { WorkspaceService } from './service';
import { resolveFolder, type ResolvedFolder } from './paths';

/** A request's target: an absolute folder path or a workspace id (exactly one, checked by the contract). */
export interface TrustTarget {
  path?: string;
  workspaceId?: string;
}

/**
 * Resolves a request target to `{path, trustRoot}`: a workspace uses its stored path, a path is
 * canonicalised (lexically when missing); either way the trust root is derived from the disk now
 * (a linked worktree git lists → its main checkout), never read from a stored row.
 * @throws AtriumError NOT_FOUND (unknown workspace) | INVALID_PARAMS (no target) |
 *   PATH_NOT_ABSOLUTE | NOT_A_DIRECTORY | PATH_UNREADABLE
 */
export function resolveTarget(workspaces: WorkspaceService, target: TrustTarget): ResolvedFolder {
  if (target.workspaceId !== undefined) {
    const ws = workspaces.get(target.workspaceId); // its trustRoot was derived just now by get()
    return { path: ws.path, trustRoot: ws.trustRoot, worktreeOf: ws.worktreeOf };
  }
  if (target.path !== undefined) return resolveFolder(target.path);
  throw new AtriumError('INVALID_PARAMS', 'Give a folder path or a workspace id.');
}
