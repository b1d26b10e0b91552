import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { Workspace } from '../../../../shared/contract';
import { displayPath } from '../../components/format';
import { FolderSearch } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { toast } from 'sonner';
import { useApp } from '../../state/appStore';
import { useFolderCompletions } from './useFolderCompletions';
import { FormDialogFooter } from '../../components/DialogActions';

/**
 * Adding a folder: the native folder picker in the desktop app, a path field everywhere (a
 * leading `~` is the home folder, expanded by the engine) with folder completion as you type and
 * the folders your recent workspaces live in as one-click starting points. The engine validates
 * the path; its message is shown under the field.
 */
export function AddWorkspaceDialog() {
  const dialog = useApp((s) => s.dialog);
  const client = useApp((s) => s.client);
  const info = useApp((s) => s.info);
  const openDialog = useApp((s) => s.openDialog);
  const select = useApp((s) => s.select);
  const open = dialog?.kind === 'add';
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const hintId = useId();
  const workspaces = useApp((s) => s.workspaces);
  const recent = useMemo(() => recentParents(workspaces), [workspaces]);
  const completions = useFolderCompletions(path, open);

  useEffect(() => {
    if (!open) return;
    setPath('');
    setError(null);
  }, [open]);

  const add = async (folder: string) => {
    if (!client) return;
    setBusy(true);
    setError(null);
    try {
      const { workspace, created } = await client.request('workspaces.add', { path: folder });
      select(workspace.id);
      openDialog(null);
      toast(created ? `Added ${workspace.name}` : `${workspace.name} is already in your list`);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!path.trim()) return setError('Type the full path of a folder, e.g. /home/you/src/project.');
    void add(path.trim());
  };
  const pick = async () => {
    const { path: picked } = (await client?.request('app.pickFolder', {})) ?? { path: null };
    if (picked) void add(picked);
  };

  return (
    <Dialog.Root open={open} onOpenChange={(o) => openDialog(o ? { kind: 'add' } : null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby="add-desc">
          <Dialog.Title className="dialog-title">Add a workspace</Dialog.Title>
          <p id="add-desc" className="dialog-text">
            Choose a folder you run agents in. Adding it activates nothing: its instruction files and hooks stay inactive until you
            trust it.
          </p>
          <form onSubmit={onSubmit} className="form">
            {info?.capabilities.nativeFolderPicker && (
              <button type="button" className="button" onClick={() => void pick()} disabled={busy}>
                <FolderSearch size={14} /> Choose folder…
              </button>
            )}
            <label className="field">
              <span>Folder path</span>
              <input
                autoFocus
                name="path"
                list={listId}
                value={path}
                onChange={(e) => setPath(e.target.value)}
                placeholder="~/src/project"
                spellCheck={false}
                autoComplete="off"
                aria-invalid={Boolean(error)}
                aria-describedby={error ? `add-error ${hintId}` : hintId}
              />
              <datalist id={listId} data-testid="folder-completions">
                {completions.map((c) => (
                  <option key={c} value={c} />
                ))}
              </datalist>
            </label>
            <p id={hintId} className="hint add-path-hint">
              A full path; <code>~</code> is your home folder{info?.homeDir ? ` (${info.homeDir})` : ''}. Completion lists the folders in it as you type.
            </p>
            {recent.length > 0 && (
              <div className="recent-folders" role="group" aria-label="Recent folders">
                <span className="muted">Recent folders:</span>
                {recent.map((dir) => (
                  <button key={dir} type="button" className="chip-button" title={`Start from ${dir}`} onClick={() => setPath(`${displayPath(dir, info?.homeDir)}/`)}>
                    {displayPath(dir, info?.homeDir)}/
                  </button>
                ))}
              </div>
            )}
            <FormDialogFooter error={error} errorId="add-error" submitLabel="Add workspace" disabled={busy} />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The folders the most recently added workspaces live in (their parents), newest first, at most 5, each once. */
export function recentParents(workspaces: Workspace[]): string[] {
  const parents: string[] = [];
  for (const w of [...workspaces].sort((a, b) => b.addedAt.localeCompare(a.addedAt))) {
    const parent = w.path.replace(/[\\/][^\\/]+[\\/]?$/, '');
    if (parent && parent !== w.path && !parents.includes(parent)) parents.push(parent);
    if (parents.length === 5) break;
  }
  return parents;
}
