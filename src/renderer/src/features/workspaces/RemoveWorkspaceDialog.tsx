import { AlertDialog } from 'radix-ui';
import { errorToast } from '../../components/errorToast';
import { toast } from 'sonner';
import { useApp } from '../../state/appStore';
import { ConfirmActions } from '../../components/DialogActions';

/** Confirms removing a workspace from Atrium's list; says plainly that no file is touched. */
export function RemoveWorkspaceDialog() {
  const client = useApp((s) => s.client);
  const openDialog = useApp((s) => s.openDialog);
  const select = useApp((s) => s.select);
  const workspace = useApp((s) => (s.dialog?.kind === 'remove' ? s.workspaces.find((w) => w.id === (s.dialog as { id: string }).id) : undefined));

  const remove = async () => {
    if (!client || !workspace) return;
    try {
      await client.request('workspaces.remove', { id: workspace.id });
      if (useApp.getState().selectedId === workspace.id) select(null);
      toast(`Removed ${workspace.name} from Atrium. Its files are untouched.`);
    } catch (e) {
      errorToast((e as Error).message);
    }
    openDialog(null);
  };

  return (
    <AlertDialog.Root open={Boolean(workspace)} onOpenChange={(o) => !o && openDialog(null)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">Remove {workspace?.name}?</AlertDialog.Title>
          <AlertDialog.Description className="dialog-text">
            Atrium forgets this workspace. The folder <code>{workspace?.path}</code> and everything in it stay exactly as they are; you
            can add it again any time.
          </AlertDialog.Description>
          <ConfirmActions label="Remove from Atrium" tone="danger" onConfirm={() => void remove()} />
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
