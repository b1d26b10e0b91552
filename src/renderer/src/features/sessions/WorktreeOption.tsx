import { useEffect } from 'react';
import type { GitInfo, Workspace } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { useApp } from '../../state/appStore';
import './surfaces.css';

/** The selected workspace's git state for the worktree option; `null` while it is being read. */
export function useWorkspaceGit(workspaceId: string): GitInfo | null {
  const { data } = useLive('workspaces.details', workspaceId ? { id: workspaceId } : null);
  return data && data.workspace.id === workspaceId ? data.workspace.git : null;
}

/**
 * Where a new session will run, in one sentence that follows the worktree checkbox: the
 * workspace folder itself, or a new git worktree on a branch
 * `atrium/<title slug>-<session id>` from the folder's current HEAD, stored under Atrium's data
 * folder, with rules, trust and approvals taken from the workspace (the source project).
 */
export function WhereItRuns({ workspace, worktree }: { workspace: Workspace | null; worktree: boolean }) {
  const dataDir = useApp((s) => s.info?.dataDir ?? null);
  if (!workspace) return <>Atrium starts the agent in the workspace folder; the permission requests it sends wait for your answer.</>;
  if (!worktree) {
    return (
      <>
        Atrium starts the agent in the workspace folder <code className="selectable">{workspace.path}</code>; the permission requests it sends wait for
        your answer.
      </>
    );
  }
  return (
    <>
      Atrium creates a new git worktree of <code className="selectable">{workspace.path}</code> on a new branch <code>atrium/&lt;title&gt;-&lt;session id&gt;</code>{' '}
      from its current HEAD{dataDir ? <> (in <code className="selectable">{`${dataDir}/worktrees/<session id>`}</code>)</> : null} and starts the agent there;
      the workspace folder stays untouched. Rules are matched in the workspace (the source project), whose trust and approvals apply. The permission
      requests the agent sends wait for your answer.
    </>
  );
}

/**
 * The "Run in a new git worktree" checkbox. Disabled, with the reason, when the workspace is not
 * inside a git repository or its HEAD has no commit yet (`git worktree add` needs a commit to branch
 * from; the trial only learnt that after Start); unticked when the workspace changes to such a folder.
 */
export function WorktreeOption({ git, checked, onChange }: { git: GitInfo | null; checked: boolean; onChange(checked: boolean): void }) {
  const notRepo = git?.kind === 'none';
  const noCommit = !notRepo && git?.hasCommits === false;
  const noGit = notRepo || noCommit;
  useEffect(() => {
    if (noGit && checked) onChange(false);
  }, [noGit, checked, onChange]);
  return (
    <div className={`sess-new-worktree${noGit ? ' disabled' : ''}`}>
      <label className="sess-switch" title="git worktree add on a new branch atrium/<title slug>-<session id> from the workspace's HEAD; rules and approvals still come from the workspace">
        <input type="checkbox" checked={checked && !noGit} disabled={noGit} onChange={(e) => onChange(e.target.checked)} aria-label="Run in a new git worktree" aria-describedby={noGit ? 'sess-worktree-why' : undefined} />
        <span>
          Run in a new git worktree <span className="muted">(new branch <code>atrium/…</code> from HEAD; the workspace folder stays untouched)</span>
        </span>
      </label>
      {noGit && (
        <p id="sess-worktree-why" className="muted sess-new-where" role="note" aria-label="Why no worktree">
          {notRepo ? (
            <>
              Not available: this workspace is not inside a git repository, so the session runs in the folder itself. Run <code>git init</code> and commit
              once to use a worktree.
            </>
          ) : (
            <>
              Not available: the repository <code className="selectable">{git?.workTree}</code> has no commit yet, so there is nothing to branch from; the
              session runs in the folder itself. Commit something first to use a worktree.
            </>
          )}
        </p>
      )}
    </div>
  );
}
