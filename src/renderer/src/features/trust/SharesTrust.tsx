import { GitBranch } from 'lucide-react';
import type { Workspace } from '../../../../shared/contract';
import { displayPath } from '../../components/format';

/**
 * The plain-text form of inherited worktree trust, for tooltips: "shares trust with ~/src/repo (a
 * worktree of it)", or null when the workspace is its own trust root. `worktreeOf` is set by the
 * engine only for a linked worktree git itself lists, so a forged `.git` file never shows it.
 */
export function sharesTrustText(workspace: Pick<Workspace, 'worktreeOf'>, home: string | undefined): string | null {
  return workspace.worktreeOf ? `shares trust with ${displayPath(workspace.worktreeOf, home)} (a worktree of it)` : null;
}

/** The same as an inline note (header, Trust tab, review dialog); renders nothing for an own trust root. */
export function SharesTrust({ workspace, home, lead = '' }: { workspace: Pick<Workspace, 'worktreeOf'>; home: string | undefined; lead?: string }) {
  if (!workspace.worktreeOf) return null;
  return (
    <span className="shares-trust" data-testid="shares-trust">
      <GitBranch size={13} aria-hidden />
      {lead}shares trust with <code className="selectable">{displayPath(workspace.worktreeOf, home)}</code> (a worktree of it)
    </span>
  );
}
