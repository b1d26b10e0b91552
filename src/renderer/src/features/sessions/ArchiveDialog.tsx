import { useState } from 'react';
import { errorToast } from '../../components/errorToast';
import { Archive } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { toast } from 'sonner';
import type { ExecutionInfo } from '../../../../shared/contract';
import { RequestError } from '../../api/client';
import { useApp } from '../../state/appStore';

/**
 * Archive a session: closes it; for a worktree session it can remove the worktree too.
 * Uncommitted work is never dropped silently: WORKTREE_DIRTY lists it and asks to discard.
 */
export function ArchiveButton({ sessionId, execution, onArchived, disabledReason = null }: { sessionId: string; execution: ExecutionInfo | null; onArchived(): void; disabledReason?: string | null }) {
  const client = useApp((s) => s.client);
  const [open, setOpen] = useState(false);
  const [removeWorktree, setRemoveWorktree] = useState(true);
  const [dirty, setDirty] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hasWorktree = execution?.kind === 'worktree' && !execution.removedAt;

  const archive = async (discardChanges: boolean) => {
    if (!client) return;
    setBusy(true);
    try {
      await client.request('sessions.archive', { sessionId, removeWorktree: hasWorktree && removeWorktree, discardChanges: discardChanges || undefined });
      setOpen(false);
      toast(hasWorktree && removeWorktree ? 'Archived the session and removed its worktree.' : 'Archived the session.');
      onArchived();
    } catch (e) {
      if (e instanceof RequestError && e.code === 'WORKTREE_DIRTY') setDirty(e.message);
      else errorToast(`Could not archive: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setDirty(null);
      }}
    >
      <AlertDialog.Trigger asChild>
        <button className="button" disabled={disabledReason !== null} title={disabledReason ?? 'Close and archive this session'}>
          <Archive size={13} aria-hidden /> <span className="sess-btn-label">Archive</span>
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">{dirty ? 'Discard uncommitted changes?' : 'Archive this session?'}</AlertDialog.Title>
          <AlertDialog.Description className="dialog-text">
            {dirty ? 'The worktree has uncommitted changes. Removing it deletes them; commit them first if you want to keep them.' : 'The agent is stopped and the session is archived; its transcript stays readable.'}
          </AlertDialog.Description>
          {dirty ? (
            <pre className="sess-policy-changes selectable" aria-label="Uncommitted changes">
              {dirty}
            </pre>
          ) : (
            hasWorktree && (
              <label className="sess-switch sess-archive-worktree">
                <input type="checkbox" checked={removeWorktree} onChange={(e) => setRemoveWorktree(e.target.checked)} />
                <span>
                  Also remove its worktree <code>{execution.dir}</code>
                </span>
              </label>
            )
          )}
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <button className="button">Cancel</button>
            </AlertDialog.Cancel>
            {dirty ? (
              <button className="button danger" disabled={busy} onClick={() => void archive(true)}>
                Discard changes and remove
              </button>
            ) : (
              <button className="button primary" disabled={busy} onClick={() => void archive(false)}>
                Archive
              </button>
            )}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
