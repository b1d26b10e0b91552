/**
 * Where a new or listed session runs (a workspace's folder, or a folder and the deepest workspace
 * containing it) and the defaults of a new session record.
 */
import type { Workspace } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import { canonicalDirectory, pathIdentity } from '../workspaces/identity';
import type { WorkspaceService } from '../workspaces/service';
import { isInside } from './confine';
import type { SessionRecord } from './records';

/**
 * Where a session runs: a workspace's folder, or a folder (canonical) and the deepest workspace
 * containing it, which is added to the workspace list when `addWorkspace` and none contains it.
 * @throws AtriumError INVALID_PARAMS (neither given) | PATH_OUTSIDE_WORKSPACE | NOT_FOUND (workspace) | PATH_* (folder)
 */
export function placeSession(workspaces: WorkspaceService, input: { workspaceId?: string; cwd?: string }, addWorkspace: boolean): { workspace: Workspace | null; cwd: string } {
  if (input.workspaceId && !input.cwd) {
    const ws = workspaces.get(input.workspaceId);
    return { workspace: ws, cwd: canonicalDirectory(ws.path) };
  }
  if (!input.cwd) throw new AtriumError('INVALID_PARAMS', 'Give a workspace id or a folder.');
  const cwd = canonicalDirectory(input.cwd);
  if (input.workspaceId) {
    const ws = workspaces.get(input.workspaceId);
    if (!isInside(cwd, ws.path)) throw new AtriumError('PATH_OUTSIDE_WORKSPACE', `"${cwd}" is not inside the workspace folder "${ws.path}".`);
    return { workspace: ws, cwd };
  }
  const containing = workspaces
    .list()
    .filter((w) => !w.missing && isInside(pathIdentity(cwd), pathIdentity(w.path)))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (containing) return { workspace: containing, cwd };
  if (!addWorkspace) return { workspace: null, cwd };
  return { workspace: workspaces.add(cwd).workspace, cwd };
}

/** The fields of a new session record that start empty (no agent session, no turns, no items yet). */
export function emptyRecord(): Omit<SessionRecord, 'id' | 'cwd' | 'agentId' | 'createdAt' | 'updatedAt' | 'state'> {
  return {
    workspaceId: null,
    additionalDirectories: [],
    agentVersion: null,
    agentSessionId: null,
    title: null,
    stopReason: null,
    resume: null,
    lastError: null,
    exit: null,
    desiredModeId: null,
    modes: null,
    configOptions: [],
    usage: null,
    commands: [],
    capabilities: null,
    stderrTail: '',
    lastCommand: null,
    turnCount: 0,
    lastSeq: 0,
    lastItem: 0,
  };
}
