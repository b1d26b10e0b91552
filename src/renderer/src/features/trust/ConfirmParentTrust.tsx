import { AlertDialog } from 'radix-ui';
import { ConfirmActions } from '../../components/DialogActions';
import { displayPath } from '../../components/format';
import { useApp } from '../../state/appStore';
import { coveredWorkspaces } from './trustCoverage';

/**
 * The separate step before "Trust parent folder": trusting `parent` trusts every folder below it,
 * so this names what else becomes trusted — each workspace Atrium lists below it (and which keep
 * a deeper decision of their own) and, literally, any folder added below it later. `onConfirm`
 * records the decision; Cancel (or Escape) records nothing.
 */
export function ConfirmParentTrust({ parent, current, busy, onCancel, onConfirm }: { parent: string | null; current: string; busy: boolean; onCancel(): void; onConfirm(): void }) {
  const workspaces = useApp((s) => s.workspaces);
  const home = useApp((s) => s.info?.homeDir);
  const shown = parent ? displayPath(parent, home) : '';
  const covered = parent ? coveredWorkspaces(parent, workspaces) : [];
  const following = covered.filter((c) => c.effect === 'follows');
  const others = following.filter((c) => c.workspace.id !== current);
  return (
    <AlertDialog.Root open={parent !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog dialog-medium confirm-parent-trust">
          <AlertDialog.Title className="dialog-title">Trust every folder below {shown}?</AlertDialog.Title>
          <AlertDialog.Description className="dialog-text">
            The decision is recorded for <code className="selectable">{shown}</code>, not for this workspace: every repository below it becomes trusted, so agents load its
            instruction files and may run its hooks and servers once you approve them. {others.length === 0 ? 'No other workspace Atrium lists is below it.' : `${others.length} other workspace${others.length === 1 ? '' : 's'} Atrium lists ${others.length === 1 ? 'is' : 'are'} below it.`}
          </AlertDialog.Description>
          <ul className="dialog-list parent-trust-list" aria-label="What becomes trusted">
            {covered.map(({ workspace: w, effect, overriddenBy }) => (
              <li key={w.id} data-effect={effect}>
                <code>{displayPath(w.path, home)}</code>{' '}
                <span className="muted">
                  {effect === 'follows'
                    ? w.id === current
                      ? '(this workspace)'
                      : w.trust.state === 'trusted'
                        ? '(already trusted; now by this decision)'
                        : '(becomes trusted)'
                    : `(keeps the decision of ${displayPath(overriddenBy ?? w.trustRoot, home)}: ${w.trust.state})`}
                </span>
              </li>
            ))}
            <li className="parent-trust-later">
              <strong>any folder you add below {shown}</strong> <span className="muted">later, and every folder already there that Atrium does not list</span>
            </li>
          </ul>
          <p className="hint">To trust only this workspace, cancel and choose “Trust this folder”. You can revoke the parent's decision later on the Trusted folders page.</p>
          <ConfirmActions label={`Trust ${shown} and everything below`} disabled={busy} onConfirm={onConfirm} />
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
