import { z } from 'zod';
import { defineEvents, defineRequests } from './define';
import { WorkspaceTrust } from './trust';

/** How a workspace folder relates to git. `worktree` = a linked worktree (`.git` is a file). */
export const GitInfo = z.object({
  kind: z.enum(['none', 'repo', 'worktree']),
  /** Top of the work tree containing the workspace (null when `kind` is `none`). */
  workTree: z.string().nullable(),
  /** For a linked worktree: the main checkout's top directory. */
  mainCheckout: z.string().nullable(),
  /**
   * False when HEAD's branch has no commit yet (right after `git init`), so no worktree can be made
   * from it; true when HEAD names a commit; absent when not a repository or not readable.
   */
  hasCommits: z.boolean().optional(),
});
export type GitInfo = z.infer<typeof GitInfo>;

/**
 * A workspace as every surface sees it. Paths are canonical (realpath, the bytes as on disk),
 * absolute. `trustRoot`, `worktreeOf` and `trust` are derived from the disk each time it is read.
 */
export const Workspace = z.object({
  id: z.string(),
  /** Display name; defaults to the folder's base name. */
  name: z.string(),
  path: z.string(),
  /** Directory whose trust decision governs this workspace (main checkout's directory for a worktree). */
  trustRoot: z.string(),
  /**
   * The main checkout whose trust this folder shares, when it lies in a linked git worktree that
   * git itself lists (a forged `.git` file never counts); else null.
   */
  worktreeOf: z.string().nullable(),
  /** True when the folder no longer exists or is no longer a directory. */
  missing: z.boolean(),
  addedAt: z.string(),
  /** Effective trust of `trustRoot`, computed when the workspace is read (see `trust.status` for details). */
  trust: WorkspaceTrust,
});
export type Workspace = z.infer<typeof Workspace>;

/** A workspace with details computed on demand (git state). */
export const WorkspaceDetails = Workspace.extend({ git: GitInfo });
export type WorkspaceDetails = z.infer<typeof WorkspaceDetails>;

export const WorkspaceRef = z.object({ id: z.string().min(1) });

export const workspaceRequests = defineRequests({
  'workspaces.list': {
    description: 'All workspaces, in the order they were added.',
    params: z.object({}),
    result: z.object({ workspaces: z.array(Workspace) }),
  },
  'workspaces.completeFolder': {
    description: 'Folder completion for Add workspace: subfolders of a typed absolute path (a leading ~ is the home folder) whose names start with its last segment (at most 50).',
    params: z.object({ prefix: z.string().max(4096) }),
    result: z.object({ folders: z.array(z.string()) }),
  },
  'workspaces.add': {
    description: 'Adds a folder (absolute path; a leading ~ is the home folder); returns the existing workspace if the folder is already listed.',
    params: z.object({ path: z.string().min(1), name: z.string().min(1).max(200).optional() }),
    result: z.object({ workspace: Workspace, created: z.boolean() }),
  },
  'workspaces.rename': {
    description: "Changes a workspace's display name (never the folder).",
    params: z.object({ id: z.string().min(1), name: z.string().trim().min(1).max(200) }),
    result: z.object({ workspace: Workspace }),
  },
  'workspaces.relocate': {
    description: 'Points a workspace at the folder it moved to (absolute path), keeping its id, name and sessions; trust follows the new path.',
    params: z.object({ id: z.string().min(1), path: z.string().min(1) }),
    result: z.object({ workspace: Workspace }),
  },
  'workspaces.remove': {
    description: "Removes Atrium's record of a workspace; never touches its files.",
    params: WorkspaceRef,
    result: z.object({ removed: z.boolean() }),
  },
  'workspaces.details': {
    description: 'One workspace with its git state.',
    params: WorkspaceRef,
    result: z.object({ workspace: WorkspaceDetails }),
  },
});

export const workspaceEvents = defineEvents({
  workspacesChanged: {
    description: 'The workspace list changed (added, renamed, removed, or a trust state changed).',
    payload: z.object({ workspaces: z.array(Workspace) }),
  },
});
