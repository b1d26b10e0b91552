import { useEffect, useState } from 'react';
import type { TrustReview, Workspace, WorkspaceDetails } from '../../../../shared/contract';
import { displayPath } from '../../components/format';
import { useApp } from '../../state/appStore';
import { sharesTrustText } from '../trust/SharesTrust';
import { NeedsYou, type WorkspaceTabName } from './NeedsYou';

/**
 * The Overview tab: what needs you first (see {@link NeedsYou}), with links to the tab that
 * handles each, then the workspace's facts (path, trust root, git, when added).
 */
export function Overview({ workspace, review, onOpenTab, onReview }: { workspace: Workspace; review: TrustReview | null; onOpenTab(tab: WorkspaceTabName): void; onReview(): void }) {
  const client = useApp((s) => s.client);
  const home = useApp((s) => s.info?.homeDir);
  const [details, setDetails] = useState<WorkspaceDetails | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    client
      ?.request('workspaces.details', { id: workspace.id })
      .then((r) => live && setDetails(r.workspace))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [client, workspace.id, workspace.missing, workspace.name, workspace.path]);

  return (
    <div className="overview">
      {workspace.missing && (
        <div className="banner banner-warn" role="status">
          This folder no longer exists at <code>{workspace.path}</code>. If you moved it, remove this workspace and add the folder at
          its new place; Atrium never deletes files.
        </div>
      )}
      {error && <div className="banner banner-error">{error}</div>}
      <NeedsYou workspace={workspace} review={review} onOpenTab={onOpenTab} onReview={onReview} />
      <h2 className="section-title">Workspace</h2>
      <dl className="facts">
        <dt>Path</dt>
        <dd>
          <code className="selectable" data-testid="workspace-path">{workspace.path}</code>
        </dd>
        <dt>Trust root</dt>
        <dd>
          <code className="selectable" data-testid="workspace-trust-root">{displayPath(workspace.trustRoot, home)}</code>
          {workspace.worktreeOf && (
            <p className="hint">
              This folder {sharesTrustText(workspace, home)}: one decision covers the repository and all its linked worktrees.
            </p>
          )}
        </dd>
        <dt>Git</dt>
        <dd data-testid="workspace-git">{details ? describeGit(details, home) : '…'}</dd>
        <dt>Added</dt>
        <dd>{new Date(workspace.addedAt).toLocaleString()}</dd>
      </dl>
    </div>
  );
}

function describeGit(d: WorkspaceDetails, home: string | undefined): string {
  if (d.git.kind === 'none') return 'Not a git repository';
  const top = d.git.workTree && d.git.workTree !== d.path ? ` (inside ${displayPath(d.git.workTree, home)})` : '';
  if (d.git.kind === 'worktree') return `Linked worktree of ${displayPath(d.git.mainCheckout ?? '?', home)}${top}`;
  return `Git repository${top}`;
}
