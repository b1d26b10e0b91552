import { useEffect, useId, useState, type FormEvent } from 'react';
import { FolderSearch } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { toast } from 'sonner';
import type { Workspace } from '../../../../shared/contract';
import { FormDialogFooter } from '../../components/DialogActions';
import { useApp } from '../../state/appStore';
import { useFolderCompletions } from './useFolderCompletions';

/**
 * "Locate…" for a workspace whose folder is missing: points it at the folder's new place (the
 * native picker in the desktop app, a path field everywhere), keeping its name and sessions. The
 * engine checks the new path; trust follows the path, which the dialog says before you choose.
 */
export function LocateWorkspaceDialog({ workspace, open, onOpenChange }: { workspace: Workspace; open: boolean; onOpenChange(open: boolean): void }) {
  const client = useApp((s) => s.client);
  const info = useApp((s) => s.info);
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const listId = useId();
  // the same folder completion as Add workspace (`~` expands; the engine lists only folders)
  const completions = useFolderCompletions(path, open);

  useEffect(() => {
    if (!open) return;
    setPath(workspace.path);
    setError(null);
  }, [open, workspace.path]);

  const locate = async (folder: string) => {
    if (!client) return;
    setBusy(true);
    setError(null);
    try {
      const { workspace: moved } = await client.request('workspaces.relocate', { id: workspace.id, path: folder });
      onOpenChange(false);
      toast(`${moved.name} now points at ${moved.path}`);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!path.trim()) return setError('Type the path of the folder, e.g. ~/src/project or /home/you/src/project.');
    void locate(path.trim());
  };
  const pick = async () => {
    const { path: picked } = (await client?.request('app.pickFolder', {})) ?? { path: null };
    if (picked) void locate(picked);
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby="locate-desc">
          <Dialog.Title className="dialog-title">Locate {workspace.name}</Dialog.Title>
          <p id="locate-desc" className="dialog-text">
            The folder is no longer at <code>{workspace.path}</code>. Choose where it is now: the workspace keeps its name and sessions. Trust belongs to a
            folder&apos;s path, so if the new place is not trusted yet the workspace opens in restricted mode until you review it.
          </p>
          <form onSubmit={onSubmit} className="form">
            {info?.capabilities.nativeFolderPicker && (
              <button type="button" className="button" onClick={() => void pick()} disabled={busy}>
                <FolderSearch size={14} /> Choose folder…
              </button>
            )}
            <label className="field">
              <span>New folder path</span>
              <input
                autoFocus
                name="path"
                list={listId}
                value={path}
                onChange={(e) => setPath(e.target.value)}
                onFocus={(e) => e.currentTarget.select()}
                spellCheck={false}
                autoComplete="off"
                aria-invalid={Boolean(error)}
                aria-describedby={error ? 'locate-error' : undefined}
              />
              <datalist id={listId}>
                {completions.map((c) => (
                  <option key={c} value={c} />
                ))}
              </datalist>
            </label>
            <FormDialogFooter error={error} errorId="locate-error" submitLabel="Use this folder" disabled={busy} />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
