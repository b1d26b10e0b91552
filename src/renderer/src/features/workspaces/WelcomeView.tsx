import { FolderPlus } from 'lucide-react';
import { shortcut } from '../../components/format';
import { useApp } from '../../state/appStore';

/** What the main pane shows with no workspace selected: teaches what a workspace is and how to add one. */
export function WelcomeView() {
  const count = useApp((s) => s.workspaces.length);
  const loaded = useApp((s) => s.workspacesLoaded);
  const openDialog = useApp((s) => s.openDialog);
  // without a valid token nothing will load: the connection banner says what to open instead
  const unauthorized = useApp((s) => s.connection === 'unauthorized');
  if (!loaded) return unauthorized ? null : <div className="empty-state muted">Loading…</div>;
  return (
    <section className="empty-state">
      <h1>{count === 0 ? 'Add your first workspace' : 'Select a workspace'}</h1>
      <p>
        A workspace is a folder where you run coding agents: usually a git repository. Atrium lists what the folder carries
        (instruction files, hooks, MCP servers) and keeps it inactive until you decide to trust it.
      </p>
      {count === 0 ? (
        <button className="button primary" onClick={() => openDialog({ kind: 'add' })}>
          <FolderPlus size={16} /> Add a folder… <kbd>{shortcut('O')}</kbd>
        </button>
      ) : (
        <p className="muted">Pick one on the left, or add another folder with {shortcut('O')}.</p>
      )}
    </section>
  );
}
