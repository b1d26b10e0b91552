import fs from 'node:fs';
import path from 'node:path';
import type { Workspace } from '../../shared/contract';
import type { WorkspaceService } from '../core/workspaces/service';
import { CliError } from './context';

/**
 * What a CLI argument that names a folder refers to, in this order: a workspace id, an existing
 * folder (resolved against the cwd), the display name of exactly one workspace, else the path as
 * given (for `trust clear` of a folder that was deleted, say). With `mustExist`, that last case is
 * an error instead, so `trust status Kib` does not silently judge `$PWD/Kib`. `engine` is the full
 * engine or just its core (anything holding the workspace list).
 * @throws CliError when `mustExist` and nothing matches, or the name is ambiguous
 */
export function target(engine: { workspaces: WorkspaceService }, ref: string, options: { mustExist?: boolean } = {}): { path: string } | { workspaceId: string } {
  const byId = engine.workspaces.find(ref);
  if (byId && byId.id === ref) return { workspaceId: byId.id };
  const resolved = path.resolve(ref);
  if (fs.existsSync(resolved)) return { path: resolved };
  const named = workspacesNamed(engine.workspaces, ref);
  if (named.length === 1) return { workspaceId: named[0].id };
  if (named.length > 1) throw ambiguous(ref, named);
  if (options.mustExist) throw new CliError(`${resolved} does not exist, and no workspace has the id or name "${ref}". Check the path, or see the workspaces with: atrium workspace list`);
  return { path: resolved };
}

/**
 * The folder `ref` stands for, by {@link target} with `mustExist` (id, existing folder, unique
 * display name): for commands such as `rules list` that work on a folder, listed or not.
 * @throws CliError as {@link target} does
 */
export function targetFolder(engine: { workspaces: WorkspaceService }, ref: string): string {
  const t = target(engine, ref, { mustExist: true });
  return 'path' in t ? t.path : engine.workspaces.find(t.workspaceId)!.path;
}

/**
 * A listed workspace by id, folder path, or unique display name (what `workspace list` shows).
 * @throws CliError when nothing (or more than one workspace) matches, saying what to type instead
 */
export function findWorkspace(workspaces: WorkspaceService, ref: string): Workspace {
  const found = workspaces.find(ref);
  if (found) return found;
  const named = workspacesNamed(workspaces, ref);
  if (named.length === 1) return named[0];
  if (named.length > 1) throw ambiguous(ref, named);
  throw new CliError(`No workspace has the id, folder or name "${ref}". See the ids, folders and names with: atrium workspace list`);
}

/** Workspaces whose display name is `ref` (exactly, else ignoring case). */
function workspacesNamed(workspaces: WorkspaceService, ref: string): Workspace[] {
  const all = workspaces.list();
  const exact = all.filter((w) => w.name === ref);
  return exact.length ? exact : all.filter((w) => w.name.toLowerCase() === ref.toLowerCase());
}

function ambiguous(ref: string, named: Workspace[]): CliError {
  return new CliError(`${named.length} workspaces are named "${ref}"; use an id or folder instead: ${named.map((w) => `${w.id} (${w.path})`).join(', ')}`);
}
