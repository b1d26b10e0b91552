import { useEffect, useState, type FormEvent } from 'react';
import { Dialog } from 'radix-ui';
import { useApp } from '../../state/appStore';
import { FormDialogFooter } from '../../components/DialogActions';

/** Renames a workspace's display name (the folder is never renamed). */
export function RenameWorkspaceDialog() {
  const dialog = useApp((s) => s.dialog);
  const client = useApp((s) => s.client);
  const openDialog = useApp((s) => s.openDialog);
  const workspace = useApp((s) => (s.dialog?.kind === 'rename' ? s.workspaces.find((w) => w.id === (s.dialog as { id: string }).id) : undefined));
  const open = dialog?.kind === 'rename' && Boolean(workspace);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open || !workspace) return;
    setName(workspace.name);
    setError(null);
  }, [open, workspace]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!client || !workspace) return;
    if (!name.trim()) return setError('A name cannot be empty.');
    try {
      await client.request('workspaces.rename', { id: workspace.id, name: name.trim() });
      openDialog(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && openDialog(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog-title">Rename workspace</Dialog.Title>
          <form onSubmit={(e) => void onSubmit(e)} className="form">
            <label className="field">
              <span>Display name</span>
              <input autoFocus name="name" value={name} onFocus={(e) => e.currentTarget.select()} onChange={(e) => setName(e.target.value)} maxLength={200} aria-invalid={Boolean(error)} />
            </label>
            <p className="hint">Only Atrium's label changes; the folder keeps its name.</p>
            <FormDialogFooter error={error} submitLabel="Rename" />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
