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

/**
 * Where a worktree's trust decision lives, for the places that show or change it (restricted
 * banner, review, Trust tab): "This folder is a worktree of ~/src/repo; the trust decision belongs
 * to that main checkout and is shared by all its worktrees." Renders nothing for an own trust root.
 */
export function SharedDecision({ workspace, home }: { workspace: Pick<Workspace, 'worktreeOf'>; home: string | undefined }) {
  if (!workspace.worktreeOf) return null;
  return (
    <span className="shares-trust" data-testid="shared-decision">
      <GitBranch size={13} aria-hidden />
      <span>
        This folder is a worktree of <code className="selectable">{displayPath(workspace.worktreeOf, home)}</code>; the trust decision belongs to that main checkout
        and is shared by all its worktrees.
      </span>
    </span>
  );
}
